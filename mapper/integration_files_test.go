package mapper_test

import (
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/stretchr/testify/require"
)

// integrationDir holds Arrow C++'s integration files (the project's testdata).
const integrationDir = "../testdata/arrow-integration/1.0.0-littleendian"

// readIntegrationFile reads every record of an IPC file.
func readIntegrationFile(t *testing.T, path string) (*arrow.Schema, []arrow.RecordBatch) {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	require.NoError(t, err)
	defer r.Close()
	var recs []arrow.RecordBatch
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		require.NoError(t, err)
		rec.Retain()
		recs = append(recs, rec)
	}
	return r.Schema(), recs
}
