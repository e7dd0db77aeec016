package ipc_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeRows writes rows with a Writer of cfg, in Write calls of the sizes
// of pieces (cycled), and returns the bytes.
func writeRows[T any](t *testing.T, file bool, cfg ipc.WriteConfig, rows []T, pieces ...int) []byte {
	t.Helper()
	return writeRowsWith(t, file, []ipc.WriteOption{cfg}, rows, pieces...)
}

// writeRowsWith is writeRows with the writer's options opts.
func writeRowsWith[T any](t *testing.T, file bool, opts []ipc.WriteOption, rows []T, pieces ...int) []byte {
	t.Helper()
	var buf bytes.Buffer
	newWriter := ipc.NewWriter[T]
	if file {
		newWriter = ipc.NewFileWriter[T]
	}
	w, err := newWriter(&buf, opts...)
	require.NoError(t, err)
	if len(pieces) == 0 {
		pieces = []int{len(rows)}
	}
	for i, k := 0, 0; i < len(rows); k++ {
		j := min(len(rows), i+pieces[k%len(pieces)])
		require.NoError(t, errOf(w.Write(rows[i:j])))
		i = j
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// hasDictionary reports whether dt is or holds a dictionary.
func hasDictionary(dt arrow.DataType) bool {
	switch dt := dt.(type) {
	case *arrow.DictionaryType:
		return true
	case arrow.NestedType:
		for _, f := range dt.Fields() {
			if hasDictionary(f.Type) {
				return true
			}
		}
	}
	return false
}

// requireArrowGoReads checks the bytes with arrow-go's own reader: the
// schema is SchemaOf[T]'s, the records have the sizes given, and each holds
// what mapper.Encode makes of its rows — the same arrays but for the
// dictionaries, which hold the values of the records before too (so only
// their values are compared), and exactly the same arrays when one record
// holds every row.
func requireArrowGoReads[T any](t *testing.T, data []byte, file bool, rows []T, sizes []int) {
	t.Helper()
	schema, recs := ipcRecords(t, data, file)
	defer releaseAll(recs)
	want, err := mapper.SchemaOf[T]()
	require.NoError(t, err)
	require.True(t, schema.Equal(want), "schema\n%s\nwant\n%s", schema, want)
	var got []int
	for _, rec := range recs {
		got = append(got, int(rec.NumRows()))
	}
	require.Equal(t, sizes, got, "record sizes")
	from := 0
	for k, rec := range recs {
		enc, err := mapper.Encode(rows[from : from+int(rec.NumRows())])
		require.NoError(t, err)
		from += int(rec.NumRows())
		if len(recs) == 1 {
			assert.True(t, array.RecordEqual(enc, rec), "the one record is Encode's")
		}
		for j, f := range schema.Fields() {
			if !hasDictionary(f.Type) {
				assert.True(t, array.Equal(enc.Column(j), rec.Column(j)), "record %d, column %s", k, f.Name)
			}
		}
		assert.Equal(t, recordJSON(t, enc), recordJSON(t, rec), "record %d in values", k)
		enc.Release()
	}
}

func batchSizes(n, batch int) []int {
	var sizes []int
	for ; n > 0; n -= batch {
		sizes = append(sizes, min(n, batch))
	}
	return sizes
}

func TestWrittenRowsReadBackAsTheyWere(t *testing.T) {
	rows := rowsOf(0, 300)
	want := throughMemory(t, rows)
	for _, tc := range []struct {
		name   string
		file   bool
		cfg    ipc.WriteConfig
		pieces []int
		sizes  []int
	}{
		{"a file of one record", true, ipc.WriteConfig{}, nil, []int{300}},
		{"a stream of one record", false, ipc.WriteConfig{}, nil, []int{300}},
		{"a file in records of 64 rows, written in uneven pieces", true, ipc.WriteConfig{BatchRows: 64}, []int{1, 7, 100, 3, 64}, batchSizes(300, 64)},
		{"a stream in records of 64 rows, written in uneven pieces", false, ipc.WriteConfig{BatchRows: 64}, []int{50, 1, 200}, batchSizes(300, 64)},
		{"a stream with dictionary deltas", false, ipc.WriteConfig{BatchRows: 100, DictionaryDeltas: true}, []int{33}, batchSizes(300, 100)},
		{"a file written row by row", true, ipc.WriteConfig{BatchRows: 128}, []int{1}, batchSizes(300, 128)},
		{"a file compressed with LZ4", true, ipc.WriteConfig{Compression: ipc.LZ4, BatchRows: 100}, nil, batchSizes(300, 100)},
		{"a stream compressed with ZSTD", false, ipc.WriteConfig{Compression: ipc.ZSTD, BatchRows: 100}, nil, batchSizes(300, 100)},
		{"a file compressed with ZSTD, with dictionary deltas", true, ipc.WriteConfig{Compression: ipc.ZSTD, BatchRows: 77, DictionaryDeltas: true}, nil, batchSizes(300, 77)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := checked(t)
			data := writeRowsWith(t, tc.file, []ipc.WriteOption{tc.cfg, mapper.Allocator(mem)}, rows, tc.pieces...)
			requireArrowGoReads(t, data, tc.file, rows, tc.sizes)

			name := "rows.arrows"
			if tc.file {
				name = "rows.arrow"
			}
			path := writeTemp(t, name, data)
			got, err := ipc.ReadFile[everything](path, mapper.Allocator(mem))
			require.NoError(t, err)
			require.Equal(t, want, got, "ReadFile")

			var r *mapper.Reader[everything]
			if tc.file {
				r, err = ipc.Open[everything](path, mapper.Allocator(mem))
			} else {
				r, err = ipc.NewReader[everything](bytes.NewReader(data), mapper.Allocator(mem))
			}
			require.NoError(t, err)
			var paged []everything
			for page, err := range r.Pages(70) {
				require.NoError(t, err)
				paged = append(paged, page...)
			}
			r.Release()
			require.Equal(t, want, paged, "Pages")
		})
	}
}

// The rows come back equal to the rows written, not only to what the
// mapper makes of them, for the fields that Arrow keeps exactly.
func TestRowsOfExactTypesComeBackEqual(t *testing.T) {
	type exact struct {
		ID    int64             `arrow:"id"`
		Name  *string           `arrow:"name"`
		Tags  []string          `arrow:"tags"`
		Attrs map[string]int32  `arrow:"attrs"`
		Leaf  *leaf             `arrow:"leaf"`
		Kind  string            `arrow:"kind,dict"`
		Grid  [2][]float32      `arrow:"grid"`
		Blobs map[string][]byte `arrow:"blobs"`
	}
	var rows []exact
	for i := range 500 {
		r := exact{ID: int64(i), Tags: []string{fmt.Sprint(i)}, Kind: regions[i%4+i/200], Grid: [2][]float32{{float32(i)}, nil}}
		if i%3 != 0 {
			r.Name = ptr(fmt.Sprintf("n%d", i))
			r.Attrs = map[string]int32{"a": int32(i)}
			r.Leaf = &leaf{SKU: "s", Qty: int32(i), Price: ptr(float64(i) / 2)}
			r.Blobs = map[string][]byte{"b": {byte(i)}}
		}
		rows = append(rows, r)
	}
	for _, file := range []bool{true, false} {
		t.Run(fmt.Sprintf("file %v", file), func(t *testing.T) {
			data := writeRows(t, file, ipc.WriteConfig{BatchRows: 90, Compression: ipc.LZ4}, rows, 45)
			path := writeTemp(t, "exact", data)
			got, err := ipc.ReadFile[exact](path)
			require.NoError(t, err)
			require.Equal(t, rows, got)
		})
	}
}

func TestWriteFileWritesAFileThatOpenFileReads(t *testing.T) {
	mem := checked(t)
	rows := rowsOf(0, 250)
	path := tempPath(t, "rows.arrow")
	require.NoError(t, ipc.WriteFile(path, rows, ipc.WriteConfig{BatchRows: 100}, mapper.Allocator(mem), mapper.SchemaMetadata(arrow.MetadataFrom(map[string]string{"origin": "test"}))))

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, []byte("ARROW1")), "an IPC file starts with its magic")
	requireArrowGoReads(t, data, true, rows, []int{100, 100, 50})
	schema, recs := ipcRecords(t, data, true)
	releaseAll(recs)
	origin, ok := schema.Metadata().GetValue("origin")
	require.True(t, ok, "the schema has the metadata: %s", schema)
	assert.Equal(t, "test", origin)

	r, err := ipc.Open[everything](path, mapper.Allocator(mem))
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	assert.Equal(t, throughMemory(t, rows), got)
	v, _ := r.Schema().Metadata().GetValue("origin")
	assert.Equal(t, "test", v, "the Reader's schema keeps the metadata")
}

func TestCompressionShrinksRepetitiveRecords(t *testing.T) {
	type reading struct {
		Sensor string  `arrow:"sensor"`
		Value  float64 `arrow:"value"`
	}
	rows := make([]reading, 20000)
	for i := range rows {
		rows[i] = reading{Sensor: "sensor-the-same-for-every-row", Value: float64(i % 10)}
	}
	sizes := map[ipc.Codec]int{}
	for _, codec := range []ipc.Codec{ipc.None, ipc.LZ4, ipc.ZSTD} {
		for _, file := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, file %v", codec, file), func(t *testing.T) {
				mem := checked(t)
				data := writeRowsWith(t, file, []ipc.WriteOption{ipc.WriteConfig{Compression: codec, BatchRows: 5000}, mapper.Allocator(mem)}, rows)
				sizes[codec] = len(data)
				got, err := ipc.ReadFile[reading](writeTemp(t, "r", data), mapper.Allocator(mem))
				require.NoError(t, err)
				require.Equal(t, rows, got)
				requireArrowGoReads(t, data, file, rows, batchSizes(len(rows), 5000))
			})
		}
	}
	assert.Less(t, sizes[ipc.LZ4]*4, sizes[ipc.None], "LZ4 shrinks repetitive records: %v", sizes)
	assert.Less(t, sizes[ipc.ZSTD]*4, sizes[ipc.None], "ZSTD shrinks repetitive records: %v", sizes)
}

func TestOpenFileColumnsBindsEachRecord(t *testing.T) {
	type columns struct {
		ID     arrow.Array `arrow:"base_id"`
		Region arrow.Array `arrow:"region"`
	}
	mem := checked(t)
	rows := rowsOf(0, 250)
	path := tempPath(t, "rows.arrow")
	require.NoError(t, ipc.WriteFile(path, rows, ipc.WriteConfig{BatchRows: 100}))
	cr, err := ipc.OpenColumns[columns](path, mapper.Allocator(mem))
	require.NoError(t, err)
	defer cr.Release()
	var ids []int64
	var got []string
	for c, err := range cr.All() {
		require.NoError(t, err)
		id := c.ID.(*array.Int64)
		dict := c.Region.(*array.Dictionary)
		values := dict.Dictionary().(*array.String)
		for i := range id.Len() {
			ids = append(ids, id.Value(i))
			got = append(got, values.Value(dict.GetValueIndex(i)))
		}
	}
	require.Len(t, ids, len(rows))
	for i, r := range rows {
		assert.Equal(t, r.BaseID, ids[i])
		assert.Equal(t, r.Region, got[i])
	}
}

func TestRecordReadersReadWhatRecordWritersWrote(t *testing.T) {
	mem := checked(t)
	rows := rowsOf(0, 150)
	for _, file := range []bool{true, false} {
		t.Run(fmt.Sprintf("file %v", file), func(t *testing.T) {
			data := writeRowsWith(t, file, []ipc.WriteOption{ipc.WriteConfig{BatchRows: 60}, mapper.Allocator(mem)}, rows)
			var rr array.RecordReader
			var err error
			if file {
				rr, err = ipc.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), mapper.Allocator(mem))
			} else {
				rr, err = ipc.NewRecordReader(bytes.NewReader(data), mapper.Allocator(mem))
			}
			require.NoError(t, err)
			defer rr.Release()
			want, err := mapper.SchemaOf[everything]()
			require.NoError(t, err)
			require.True(t, rr.Schema().Equal(want))
			var got []everything
			for rr.Next() {
				page, err := mapper.Decode[everything](rr.RecordBatch())
				require.NoError(t, err)
				got = append(got, page...)
			}
			require.NoError(t, rr.Err())
			assert.Equal(t, throughMemory(t, rows), got)
		})
	}
	t.Run("a file cut short, and bytes that are not IPC", func(t *testing.T) {
		data := writeRows(t, true, ipc.WriteConfig{}, rows)
		_, err := ipc.OpenRecordsReaderAt(bytes.NewReader(data[:len(data)-1]), int64(len(data)-1), mapper.Allocator(mem))
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
		_, err = ipc.NewRecordReader(bytes.NewReader([]byte("hello, world")), mapper.Allocator(mem))
		assert.ErrorIs(t, err, ipc.ErrNotIPC)
	})
}
