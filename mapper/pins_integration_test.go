package mapper_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

// integrationDir holds Arrow C++'s integration files; another change copies
// them into the project's testdata.
const integrationDir = "/work/shared/testdata/arrow-integration/1.0.0-littleendian"

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

func TestEveryIntegrationFileRoundTripsThroughGoTypeOf(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(integrationDir, "*.arrow_file"))
	if len(paths) == 0 {
		t.Skip("no integration files in " + integrationDir)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".arrow_file")
		if name == "generated_union" {
			continue // unions are another change's
		}
		t.Run(name, func(t *testing.T) {
			schema, recs := readIntegrationFile(t, path)
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			typ, err := mapper.GoTypeOf(schema)
			require.NoError(t, err)
			back, err := mapper.SchemaOfType(typ)
			require.NoError(t, err)
			require.True(t, back.Equal(schema) && back.Metadata().Equal(schema.Metadata()), "SchemaOf(GoTypeOf) is\n%s\nwant\n%s\ntype %s", back, schema, typ)
			for i, rec := range recs {
				rows, err := mapper.DecodeTo(typ, rec)
				if name == "generated_decimal" && err != nil {
					require.True(t, errors.Is(err, mapper.ErrInvalidData), "%v", err)
					return
				}
				require.NoError(t, err, "record %d", i)
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
				require.NoError(t, err, "record %d", i)
				require.True(t, array.RecordEqual(rec, again), "record %d: re-encoded\n%v\nwant\n%v", i, again, rec)
				again.Release()
				mem.AssertSize(t, 0)
			}
		})
	}
}
