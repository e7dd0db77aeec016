package parquet_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type cfgRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

type cfgCols struct {
	ID arrow.Array `arrow:"id"`
}

func cfgRows(n int) []cfgRow {
	rows := make([]cfgRow, n)
	for i := range rows {
		rows[i] = cfgRow{ID: int64(i), Name: string(rune('a' + i%26))}
	}
	return rows
}

// countingAllocator is a CheckedAllocator that counts its Allocate calls.
type countingAllocator struct {
	*memory.CheckedAllocator
	calls int
}

func (a *countingAllocator) Allocate(n int) []byte { a.calls++; return a.CheckedAllocator.Allocate(n) }

func readRows[T any](t *testing.T, r *mapper.Reader[T], err error) []T {
	t.Helper()
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	return rows
}

func TestWriteFileWithNoConfigAndEveryReaderVerb(t *testing.T) {
	rows := cfgRows(200)
	path := filepath.Join(t.TempDir(), "rows.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows))
	got, err := amparquet.ReadFile[cfgRow](path)
	require.NoError(t, err)
	assert.Equal(t, rows, got, "ReadFile")
	r, err := amparquet.Open[cfgRow](path)
	assert.Equal(t, rows, readRows(t, r, err), "Open")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	r, err = amparquet.OpenReaderAt[cfgRow](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{BatchRows: 7})
	assert.Equal(t, rows, readRows(t, r, err), "OpenReaderAt")
	cr, err := amparquet.OpenColumns[cfgCols](path)
	require.NoError(t, err)
	n := 0
	for c, err := range cr.All() {
		require.NoError(t, err)
		n += c.ID.Len()
	}
	cr.Release()
	assert.Equal(t, len(rows), n, "OpenColumns")

	var buf bytes.Buffer
	w, err := amparquet.NewWriter[cfgRow](&buf, amparquet.WriteConfig{Compression: amparquet.Snappy}, mapper.SnakeCase())
	require.NoError(t, err, "the old call, a config and options, compiles and works")
	k, err := w.Write(rows)
	require.NoError(t, err)
	assert.Equal(t, len(rows), k, "Write returns the rows it took")
	require.NoError(t, w.Close())
	r, err = amparquet.OpenReaderAt[cfgRow](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	assert.Equal(t, rows, readRows(t, r, err), "NewWriter")
}

func TestParquetAllocatorIsHonouredByEveryReaderAndWriter(t *testing.T) {
	rows := cfgRows(300)
	path := filepath.Join(t.TempDir(), "rows.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows))
	for name, run := range map[string]func(mem memory.Allocator) error{
		"WriteFile": func(mem memory.Allocator) error {
			return amparquet.WriteFile(filepath.Join(t.TempDir(), "w.parquet"), rows, mapper.Allocator(mem))
		},
		"NewWriter": func(mem memory.Allocator) error {
			w, err := amparquet.NewWriter[cfgRow](io.Discard, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			if _, err := w.Write(rows); err != nil {
				return err
			}
			return w.Close()
		},
		"NewRecordWriter": func(mem memory.Allocator) error {
			rec, err := mapper.Encode(rows)
			if err != nil {
				return err
			}
			defer rec.Release()
			w, err := amparquet.NewRecordWriter(io.Discard, rec.Schema(), mapper.Allocator(mem))
			if err != nil {
				return err
			}
			if err := w.Write(rec); err != nil {
				return err
			}
			return w.Close()
		},
		"Open": func(mem memory.Allocator) error {
			r, err := amparquet.Open[cfgRow](path, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer r.Release()
			_, err = r.ReadAll()
			return err
		},
		"ReadFile": func(mem memory.Allocator) error {
			_, err := amparquet.ReadFile[cfgRow](path, mapper.Allocator(mem))
			return err
		},
		"OpenColumns": func(mem memory.Allocator) error {
			r, err := amparquet.OpenColumns[cfgCols](path, mapper.Allocator(mem))
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
		"OpenRecords": func(mem memory.Allocator) error {
			r, err := amparquet.OpenRecords(path, mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer r.Release()
			for r.Next() {
			}
			return r.Err()
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

func TestParquetSchemaMetadataLandsInTheFileOfEveryWriter(t *testing.T) {
	rows := cfgRows(5)
	md := arrow.NewMetadata([]string{"origin"}, []string{"test"})
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	for name, write := range map[string]func(opts ...amparquet.WriteOption) ([]byte, error){
		"NewWriter": func(opts ...amparquet.WriteOption) ([]byte, error) {
			var buf bytes.Buffer
			w, err := amparquet.NewWriter[cfgRow](&buf, opts...)
			if err != nil {
				return nil, err
			}
			if _, err := w.Write(rows); err != nil {
				return nil, err
			}
			err = w.Close()
			return buf.Bytes(), err
		},
		"WriteFile": func(opts ...amparquet.WriteOption) ([]byte, error) {
			path := filepath.Join(t.TempDir(), "md.parquet")
			if err := amparquet.WriteFile(path, rows, opts...); err != nil {
				return nil, err
			}
			return os.ReadFile(path)
		},
		"NewRecordWriter": func(opts ...amparquet.WriteOption) ([]byte, error) {
			var buf bytes.Buffer
			w, err := amparquet.NewRecordWriter(&buf, rec.Schema(), opts...)
			if err != nil {
				return nil, err
			}
			if err := w.Write(rec); err != nil {
				return nil, err
			}
			err = w.Close()
			return buf.Bytes(), err
		},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := write(mapper.SchemaMetadata(md))
			require.NoError(t, err)
			schema, err := amparquet.ReadSchema(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			assert.Equal(t, md.ToMap(), schema.Metadata().ToMap())
		})
	}
}

// foreignReadOption is a read option of another package, as a config of
// another IO package is: of the right direction, and not parquet's.
type foreignReadOption struct{}

func (foreignReadOption) ReadOption() {}

// TestParquetRefusesAtTheCallAnOptionAnEntryPointDoesNotTake: an option
// of the wrong direction does not compile (TestAnOptionOfTheOtherDirectionDoesNotCompile,
// mapper/options_test.go); one of the right direction that the entry
// point does not take is an ErrOption naming both.
func TestParquetRefusesAtTheCallAnOptionAnEntryPointDoesNotTake(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.parquet")
	for _, tc := range []struct {
		err  func() error
		want string
	}{
		{func() error { _, err := amparquet.ReadFile[cfgRow](path, mapper.ZeroCopy()); return err }, "parquet.ReadFile does not take ZeroCopy"},
		{func() error { _, err := amparquet.Open[cfgRow](path, foreignReadOption{}); return err }, "parquet.Open does not take parquet_test.foreignReadOption"},
		{func() error {
			_, err := amparquet.Open[cfgRow](path, amparquet.ReadConfig{}, amparquet.ReadConfig{})
			return err
		}, "parquet.Open does not take two parquet.ReadConfig values"},
		{func() error {
			_, err := amparquet.NewReader[cfgRow](nil, mapper.Allocator(nil))
			return err
		}, "parquet.NewReader does not take Allocator"},
		{func() error {
			_, err := amparquet.NewReader[cfgRow](nil, amparquet.ReadConfig{})
			return err
		}, "parquet.NewReader does not take parquet.ReadConfig"},
		{func() error { _, err := amparquet.OpenColumns[cfgCols](path, mapper.ZeroCopy()); return err }, "parquet.OpenColumns does not take ZeroCopy"},
		{func() error { _, err := amparquet.OpenRecords(path, mapper.SnakeCase()); return err }, "parquet.OpenRecords does not take SnakeCase"},
		{func() error {
			_, err := amparquet.NewRecordWriter(io.Discard, nil, mapper.As[int, int](nil, nil))
			return err
		}, "parquet.NewRecordWriter does not take As"},
	} {
		err := tc.err()
		var me *mapper.Error
		require.ErrorAs(t, err, &me, tc.want)
		assert.ErrorIs(t, err, mapper.ErrOption, tc.want)
		assert.ErrorContains(t, err, tc.want)
	}
	_, err := os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
