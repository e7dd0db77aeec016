package ipc_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type verbRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

type verbCols struct {
	ID arrow.Array `arrow:"id"`
}

func verbRows(n int) []verbRow {
	rows := make([]verbRow, n)
	for i := range rows {
		rows[i] = verbRow{ID: int64(i), Name: string(rune('a' + i%26))}
	}
	return rows
}

// streamBytes is rows written by NewWriter, an IPC stream.
func streamBytes(t *testing.T, rows []verbRow, opts ...ipc.WriteOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewWriter[verbRow](&buf, opts...)
	require.NoError(t, err)
	n, err := w.Write(rows)
	require.NoError(t, err)
	require.Equal(t, len(rows), n)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func readAllOf[T any](t *testing.T, r *mapper.Reader[T], err error) []T {
	t.Helper()
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	return rows
}

func TestEveryVerbReadsWhatTheWritersWriteAFileAndAStreamByPath(t *testing.T) {
	rows := verbRows(100)
	file := tempPath(t, "rows.arrow")
	require.NoError(t, ipc.WriteFile(file, rows), "WriteFile takes no config for the defaults")
	stream := writeTemp(t, "rows.arrows", streamBytes(t, rows))
	for _, path := range []string{file, stream} {
		r, err := ipc.Open[verbRow](path)
		assert.Equal(t, rows, readAllOf(t, r, err), "Open of %s", path)
		got, err := ipc.ReadFile[verbRow](path)
		require.NoError(t, err)
		assert.Equal(t, rows, got, "ReadFile of %s", path)

		data, err := os.ReadFile(path)
		require.NoError(t, err)
		r, err = ipc.OpenReaderAt[verbRow](bytes.NewReader(data), int64(len(data)))
		assert.Equal(t, rows, readAllOf(t, r, err), "OpenReaderAt of %s", path)

		cr, err := ipc.OpenColumns[verbCols](path)
		require.NoError(t, err)
		var ids []int64
		for c, err := range cr.All() {
			require.NoError(t, err)
			ids = append(ids, c.ID.(interface{ Int64Values() []int64 }).Int64Values()...)
		}
		cr.Release()
		assert.Len(t, ids, len(rows), "OpenColumns of %s", path)
	}
	r, err := ipc.NewReader[verbRow](bytes.NewReader(streamBytes(t, rows)))
	assert.Equal(t, rows, readAllOf(t, r, err), "NewReader of a stream")

	var buf bytes.Buffer
	w, err := ipc.NewFileWriter[verbRow](&buf)
	require.NoError(t, err)
	n, err := w.Write(rows)
	require.NoError(t, err)
	assert.Equal(t, len(rows), n, "Write returns the rows it took")
	require.NoError(t, w.Close())
	r, err = ipc.OpenReaderAt[verbRow](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	assert.Equal(t, rows, readAllOf(t, r, err), "NewFileWriter writes a file")
}

// drainRecords reads every record of rr, and releases it.
func drainRecords(rr array.RecordReader) error {
	defer rr.Release()
	for rr.Next() {
	}
	return rr.Err()
}

// countingAllocator is a CheckedAllocator that also counts its Allocate
// calls, so that a test sees the allocations of memory since freed.
type countingAllocator struct {
	*memory.CheckedAllocator
	calls int
}

func (a *countingAllocator) Allocate(n int) []byte { a.calls++; return a.CheckedAllocator.Allocate(n) }

func TestAllocatorIsHonouredByEveryReaderAndWriter(t *testing.T) {
	rows := verbRows(300)
	file := tempPath(t, "rows.arrow")
	// Compressed, so that reading allocates the bodies it decompresses:
	// arrow-go reads an uncompressed body in place.
	stream := writeTemp(t, "rows.arrows", streamBytes(t, rows, ipc.WriteConfig{Compression: ipc.ZSTD}))
	for name, run := range map[string]func(mem memory.Allocator) error{
		"WriteFile": func(mem memory.Allocator) error { return ipc.WriteFile(file, rows, mapper.Allocator(mem)) },
		"NewWriter": func(mem memory.Allocator) error {
			w, err := ipc.NewWriter[verbRow](io.Discard, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			if _, err := w.Write(rows); err != nil {
				return err
			}
			return w.Close()
		},
		"NewRecordStreamWriter": func(mem memory.Allocator) error {
			rec, err := mapper.Encode(rows, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer rec.Release()
			w, err := ipc.NewRecordStreamWriter(io.Discard, rec.Schema(), mapper.Allocator(mem), ipc.WriteConfig{Compression: ipc.ZSTD})
			if err != nil {
				return err
			}
			if err := w.Write(rec); err != nil {
				return err
			}
			return w.Close()
		},
		"OpenRecords": func(mem memory.Allocator) error {
			rr, err := ipc.OpenRecords(stream, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			return drainRecords(rr)
		},
		"OpenRecordsReaderAt": func(mem memory.Allocator) error {
			data, err := os.ReadFile(stream)
			if err != nil {
				return err
			}
			rr, err := ipc.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), mapper.Allocator(mem))
			if err != nil {
				return err
			}
			return drainRecords(rr)
		},
		"NewRecordReader": func(mem memory.Allocator) error {
			f, err := os.Open(stream)
			if err != nil {
				return err
			}
			defer f.Close()
			rr, err := ipc.NewRecordReader(f, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			return drainRecords(rr)
		},
		"Open": func(mem memory.Allocator) error {
			r, err := ipc.Open[verbRow](stream, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer r.Release()
			_, err = r.ReadAll()
			return err
		},
		"ReadFile": func(mem memory.Allocator) error {
			_, err := ipc.ReadFile[verbRow](stream, mapper.Allocator(mem))
			return err
		},
		"NewReader": func(mem memory.Allocator) error {
			f, err := os.Open(stream)
			if err != nil {
				return err
			}
			defer f.Close()
			r, err := ipc.NewReader[verbRow](f, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer r.Release()
			_, err = r.ReadAll()
			return err
		},
		"OpenColumns": func(mem memory.Allocator) error {
			r, err := ipc.OpenColumns[verbCols](stream, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer r.Release()
			for _, err := range r.All() {
				if err != nil {
					return err
				}
			}
			return nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			mem := &countingAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
			require.NoError(t, run(mem))
			assert.Positive(t, mem.calls, "the allocator given allocates")
			mem.AssertSize(t, 0)
		})
	}
}

func TestSchemaMetadataLandsInTheSchemaOfEveryWriter(t *testing.T) {
	rows := verbRows(10)
	md := arrow.NewMetadata([]string{"origin"}, []string{"test"})
	schemaOf := func(t *testing.T, data []byte) *arrow.Schema {
		t.Helper()
		if bytes.HasPrefix(data, []byte("ARROW1")) {
			fr, err := arrowipc.NewFileReader(bytes.NewReader(data))
			require.NoError(t, err)
			defer fr.Close()
			return fr.Schema()
		}
		sr, err := arrowipc.NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer sr.Release()
		return sr.Schema()
	}
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	for name, write := range map[string]func(opts ...ipc.WriteOption) ([]byte, error){
		"NewWriter": func(opts ...ipc.WriteOption) ([]byte, error) { return writeTyped(ipc.NewWriter[verbRow], rows, opts) },
		"NewFileWriter": func(opts ...ipc.WriteOption) ([]byte, error) {
			return writeTyped(ipc.NewFileWriter[verbRow], rows, opts)
		},
		"WriteFile": func(opts ...ipc.WriteOption) ([]byte, error) {
			path := tempPath(t, "md.arrow")
			if err := ipc.WriteFile(path, rows, opts...); err != nil {
				return nil, err
			}
			return os.ReadFile(path)
		},
		"NewRecordFileWriter": func(opts ...ipc.WriteOption) ([]byte, error) { return writeRecord(ipc.NewRecordFileWriter, rec, opts) },
		"NewRecordStreamWriter": func(opts ...ipc.WriteOption) ([]byte, error) {
			return writeRecord(ipc.NewRecordStreamWriter, rec, opts)
		},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := write(mapper.SchemaMetadata(md))
			require.NoError(t, err)
			got := schemaOf(t, data).Metadata()
			assert.Equal(t, md.ToMap(), got.ToMap())
		})
	}
}

func writeTyped(newWriter func(io.Writer, ...ipc.WriteOption) (*ipc.Writer[verbRow], error), rows []verbRow, opts []ipc.WriteOption) ([]byte, error) {
	var buf bytes.Buffer
	w, err := newWriter(&buf, opts...)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	err = w.Close()
	return buf.Bytes(), err
}

func writeRecord(newWriter func(io.Writer, *arrow.Schema, ...ipc.WriteOption) (*ipc.RecordWriter, error), rec arrow.RecordBatch, opts []ipc.WriteOption) ([]byte, error) {
	var buf bytes.Buffer
	w, err := newWriter(&buf, rec.Schema(), opts...)
	if err != nil {
		return nil, err
	}
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	err = w.Close()
	return buf.Bytes(), err
}

// foreignWriteOption is a write option of another package, as a config of
// another IO package is: of the right direction, and not ipc's.
type foreignWriteOption struct{}

func (foreignWriteOption) WriteOption() {}

// TestAnOptionAnEntryPointDoesNotTakeIsRefusedAtTheCallNamingIt: an option
// of the wrong direction does not compile (TestAnOptionOfTheOtherDirectionDoesNotCompile,
// mapper/options_test.go); one of the right direction that the entry
// point does not take is an ErrOption naming both.
func TestAnOptionAnEntryPointDoesNotTakeIsRefusedAtTheCallNamingIt(t *testing.T) {
	path := tempPath(t, "none.arrow") // never opened: the options are refused first
	for _, tc := range []struct {
		err  func() error
		want string
	}{
		{func() error { _, err := ipc.ReadFile[verbRow](path, mapper.ZeroCopy()); return err }, "ipc.ReadFile does not take ZeroCopy"},
		{func() error { _, err := ipc.OpenColumns[verbCols](path, mapper.LastKeyWins()); return err }, "ipc.OpenColumns does not take LastKeyWins"},
		{func() error { _, err := ipc.OpenRecords(path, mapper.Strict()); return err }, "ipc.OpenRecords does not take Strict"},
		{func() error { return ipc.WriteFile(path, verbRows(1), ipc.WriteConfig{}, ipc.WriteConfig{}) }, "ipc.WriteFile does not take two ipc.WriteConfig values"},
		{func() error { _, err := ipc.NewRecordFileWriter(io.Discard, nil, mapper.SnakeCase()); return err }, "ipc.NewRecordFileWriter does not take SnakeCase"},
		{func() error { _, err := ipc.NewWriter[verbRow](io.Discard, foreignWriteOption{}); return err }, "ipc.NewWriter does not take ipc_test.foreignWriteOption"},
	} {
		err := tc.err()
		var me *mapper.Error
		require.ErrorAs(t, err, &me, tc.want)
		assert.ErrorIs(t, err, mapper.ErrOption, tc.want)
		assert.ErrorContains(t, err, tc.want)
	}
	_, err := os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "WriteFile refused before creating anything")
}

func TestWriteReturnsTheRowsBeforeARefusedOne(t *testing.T) {
	type bounded struct {
		D decimal128.Num `arrow:"d,decimal(3,0)"`
	}
	var out bytes.Buffer
	w, err := ipc.NewWriter[bounded](&out, ipc.WriteConfig{BatchRows: 4})
	require.NoError(t, err)
	rows := []bounded{{decimal128.FromI64(1)}, {decimal128.FromI64(2)}, {decimal128.FromI64(3)}, {decimal128.FromI64(4)},
		{decimal128.FromI64(5)}, {decimal128.FromI64(6000)}, {decimal128.FromI64(7)}}
	n, err := w.Write(rows)
	require.Error(t, err)
	assert.Equal(t, 4, n, "the record of rows 0–3 was written; row 4's record, with the refused row 5, is not")

	// A refused row stops nothing: Close ends the stream as usual.
	require.NoError(t, w.Close())
	r, err := arrowipc.NewReader(&out)
	require.NoError(t, err)
	defer r.Release()
	var got []uint64
	for r.Next() {
		col := r.RecordBatch().Column(0).(*array.Decimal128)
		for i := range col.Len() {
			got = append(got, col.Value(i).LowBits())
		}
	}
	require.NoError(t, r.Err())
	assert.Equal(t, []uint64{1, 2, 3, 4}, got, "what arrow-go's reader reads of the stream")
}
