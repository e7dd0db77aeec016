package sample_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/cmd/arrowmap/internal/sample"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command line embeds ../../sample.arrow; it must be what Write makes,
// or the sample and its generator have drifted apart.
func TestTheEmbeddedFileIsWhatWriteMakes(t *testing.T) {
	embedded, err := os.ReadFile("../../sample.arrow")
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, sample.Write(&buf, sample.Rows))
	if !bytes.Equal(buf.Bytes(), embedded) {
		t.Fatalf("cmd/arrowmap/sample.arrow (%d bytes) differs from sample.Write (%d bytes): run go generate ./cmd/arrowmap", len(embedded), buf.Len())
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, sample.Write(&a, 1500))
	require.NoError(t, sample.Write(&b, 1500))
	require.Equal(t, a.Bytes(), b.Bytes())
}

func TestWriteMakesAnIPCFileOfTheSchemaInBatchesOfAThousand(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	require.NoError(t, sample.Write(&buf, 2500))

	f, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer f.Close()
	assert.True(t, f.Schema().Equal(sample.Schema), "schema: %s", f.Schema())
	var sizes []int64
	for i := range f.NumRecords() {
		rec, err := f.RecordBatch(i)
		require.NoError(t, err)
		sizes = append(sizes, rec.NumRows())
		rec.Release()
	}
	assert.Equal(t, []int64{1000, 1000, 500}, sizes)
}
