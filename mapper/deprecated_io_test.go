package mapper_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type deprecatedRow struct {
	ID int64 `arrow:"id"`
}

func TestDeprecatedPlumbingStillWorks(t *testing.T) {
	assert.NoError(t, mapper.SourceError(io.EOF))
	cut := mapper.SourceError(fmt.Errorf("cut: %w", io.EOF))
	assert.ErrorIs(t, cut, io.ErrUnexpectedEOF)
	assert.False(t, errors.Is(cut, io.EOF), "a source cut short is not its end")

	mem := memory.NewGoAllocator()
	got, rest := mapper.SplitAllocator([]mapper.Option{mapper.Strict(), nil, mapper.Allocator(mem), mapper.SnakeCase()})
	assert.Same(t, mem, got)
	assert.Len(t, rest, 2)

	err := mapper.RefuseOptions("x.Y", []mapper.Option{mapper.ZeroCopy()}, mapper.ZeroCopy())
	assert.ErrorIs(t, err, mapper.ErrUnsupported)
	assert.ErrorContains(t, err, "x.Y does not take ZeroCopy")
	assert.NoError(t, mapper.RefuseOptions("x.Y", []mapper.Option{mapper.Strict()}, mapper.ZeroCopy()))

	rec, err := mapper.Encode([]deprecatedRow{{1}, {2}})
	require.NoError(t, err)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(rec.Schema()))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	f, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	defer f.Close()
	rr := mapper.FileRecords(f)
	r, err := mapper.NewReader[deprecatedRow](rr)
	require.NoError(t, err)
	rr.Release()
	rows, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Equal(t, []deprecatedRow{{1}, {2}}, rows)
}
