package ipc_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type tagged struct {
	ID  int64  `arrow:"id"`
	Tag string `arrow:"tag,dict"`
}

// long makes a dictionary value long enough that a dictionary message's
// body says how many values it holds.
func long(s string) string { return s + strings.Repeat(".", 200) }

// taggedRows are records of 3 rows each (BatchRows 3) whose own
// dictionaries are, in order of first appearance: [a b], [b a c] (a
// reordering and one more), [d b] (one more, most left out), [a b] (nothing
// new).
var taggedRecords = [][]string{{"a", "b", "a"}, {"b", "a", "c"}, {"d", "b", "d"}, {"a", "b", "b"}}

func taggedRows() []tagged {
	var rows []tagged
	for _, rec := range taggedRecords {
		for _, tag := range rec {
			rows = append(rows, tagged{ID: int64(len(rows)), Tag: long(tag)})
		}
	}
	return rows
}

// dictionaryValues is the dictionary of column 1 of each record, as
// arrow-go's reader gives it.
func dictionaryValues(t *testing.T, recs []arrow.RecordBatch) [][]string {
	var out [][]string
	for _, rec := range recs {
		dict := rec.Column(1).(*array.Dictionary).Dictionary().(*array.String)
		var values []string
		for i := range dict.Len() {
			values = append(values, strings.TrimRight(dict.Value(i), "."))
		}
		out = append(out, values)
	}
	return out
}

func TestDictionariesThatGrowAreWrittenAsDeltas(t *testing.T) {
	rows := taggedRows()
	mem := checked(t)
	deltas := writeRowsWith(t, false, []ipc.WriteOption{ipc.WriteConfig{BatchRows: 3, DictionaryDeltas: true}, mapper.Allocator(mem)}, rows, 2)
	full := writeRowsWith(t, false, []ipc.WriteOption{ipc.WriteConfig{BatchRows: 3}, mapper.Allocator(mem)}, rows, 2)

	t.Run("with deltas, each dictionary message holds only the values it adds", func(t *testing.T) {
		types, bodies := messages(t, deltas)
		require.Equal(t, []arrowipc.MessageType{
			arrowipc.MessageSchema,
			arrowipc.MessageDictionaryBatch, arrowipc.MessageRecordBatch, // [a b]
			arrowipc.MessageDictionaryBatch, arrowipc.MessageRecordBatch, // + c
			arrowipc.MessageDictionaryBatch, arrowipc.MessageRecordBatch, // + d
			arrowipc.MessageRecordBatch, // nothing new: no dictionary message
		}, types)
		// A body of one value is about half one of two.
		assert.Less(t, bodies[3]*3, bodies[1]*2, "the delta adding c is smaller than the first dictionary: %v", bodies)
		assert.Equal(t, bodies[3], bodies[5], "both deltas hold one value: %v", bodies)
		_, recs := ipcRecords(t, deltas, false)
		defer releaseAll(recs)
		assert.Equal(t, [][]string{{"a", "b"}, {"a", "b", "c"}, {"a", "b", "c", "d"}, {"a", "b", "c", "d"}}, dictionaryValues(t, recs),
			"arrow-go's reader appends each delta to the dictionary before")
	})
	t.Run("without deltas, each record's dictionary replaces the last in full", func(t *testing.T) {
		types, bodies := messages(t, full)
		require.Equal(t, 4, count(types, arrowipc.MessageDictionaryBatch), "types %v", types)
		assert.Greater(t, bodies[3], bodies[1], "the second dictionary holds 3 values: %v", bodies)
		_, recs := ipcRecords(t, full, false)
		defer releaseAll(recs)
		assert.Equal(t, [][]string{{"a", "b"}, {"b", "a", "c"}, {"d", "b"}, {"a", "b"}}, dictionaryValues(t, recs))
		assert.Less(t, len(deltas), len(full), "deltas make a smaller stream")
	})
	t.Run("both read back as the rows written", func(t *testing.T) {
		for _, data := range [][]byte{deltas, full} {
			r, err := ipc.NewReader[tagged](bytes.NewReader(data), mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.NoError(t, err)
			r.Release()
			require.Equal(t, rows, got)
		}
	})
	t.Run("a file holds its first dictionary and every delta", func(t *testing.T) {
		data := writeRowsWith(t, true, []ipc.WriteOption{ipc.WriteConfig{BatchRows: 3}, mapper.Allocator(mem)}, rows, 5)
		fr, err := arrowipc.NewFileReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer fr.Close()
		assert.Equal(t, 3, fr.NumDictionaries(), "[a b], + c, + d")
		assert.Equal(t, 4, fr.NumRecords())
		requireArrowGoReads(t, data, true, rows, []int{3, 3, 3, 3})
		got, err := ipc.ReadFile[tagged](writeTemp(t, "tagged.arrow", data), mapper.Allocator(mem))
		require.NoError(t, err)
		require.Equal(t, rows, got)
	})
}

// stringDictionary is a dictionary<int8, utf8> array of the values indexed.
func stringDictionary(mem memory.Allocator, values []string, indices []int8, valid []bool) arrow.Array {
	vb := array.NewStringBuilder(mem)
	defer vb.Release()
	vb.AppendValues(values, nil)
	dict := vb.NewArray()
	defer dict.Release()
	ib := array.NewInt8Builder(mem)
	defer ib.Release()
	ib.AppendValues(indices, valid)
	idx := ib.NewArray()
	defer idx.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, idx, dict)
}

var int8Dictionary = arrow.NewSchema([]arrow.Field{
	{Name: "tag", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, Nullable: true},
}, nil)

func recordOf(schema *arrow.Schema, cols ...arrow.Array) arrow.RecordBatch {
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(schema, cols, int64(cols[0].Len()))
}

// Records read from Parquet have a dictionary per row group, in any order,
// with nulls and sliced: a RecordWriter maps each into the values before.
func TestARecordWriterMergesTheDictionariesOfItsRecords(t *testing.T) {
	mem := checked(t)
	first := recordOf(int8Dictionary, stringDictionary(mem, []string{"x", "y", "z"}, []int8{2, 0, 0, 1}, []bool{true, true, false, true}))
	defer first.Release()
	whole := recordOf(int8Dictionary, stringDictionary(mem, []string{"w", "z", "v", "x"}, []int8{0, 1, 2, 3, 3, 0}, []bool{true, true, true, false, true, true}))
	defer whole.Release()
	second := whole.NewSlice(1, 5) // z v null x
	defer second.Release()

	for _, file := range []bool{true, false} {
		t.Run(fmt.Sprintf("file %v", file), func(t *testing.T) {
			var buf bytes.Buffer
			newWriter := ipc.NewRecordStreamWriter
			if file {
				newWriter = ipc.NewRecordFileWriter
			}
			w, err := newWriter(&buf, int8Dictionary, ipc.WriteConfig{DictionaryDeltas: true}, mapper.Allocator(mem))
			require.NoError(t, err)
			require.NoError(t, w.Write(first))
			require.NoError(t, w.Write(second))
			require.NoError(t, w.Close())

			_, recs := ipcRecords(t, buf.Bytes(), file)
			defer releaseAll(recs)
			require.Len(t, recs, 2)
			assert.Equal(t, recordJSON(t, first), recordJSON(t, recs[0]))
			assert.Equal(t, recordJSON(t, second), recordJSON(t, recs[1]))
			dict := recs[1].Column(0).(*array.Dictionary).Dictionary().(*array.String)
			var values []string
			for i := range dict.Len() {
				values = append(values, dict.Value(i))
			}
			// Every value of a record's dictionary is kept, used or not (w is
			// outside the slice).
			assert.Equal(t, []string{"x", "y", "z", "w", "v"}, values, "the values of the first record, then the new ones")
		})
	}
}

func TestADictionaryThatOutgrowsItsIndicesIsAnError(t *testing.T) {
	mem := checked(t)
	values := func(from int) []string {
		var vs []string
		for i := range 100 {
			vs = append(vs, fmt.Sprint(from+i))
		}
		return vs
	}
	indices := make([]int8, 100)
	for i := range indices {
		indices[i] = int8(i)
	}
	first := recordOf(int8Dictionary, stringDictionary(mem, values(0), indices, nil))
	defer first.Release()
	second := recordOf(int8Dictionary, stringDictionary(mem, values(100), indices, nil))
	defer second.Release()

	var buf bytes.Buffer
	w, err := ipc.NewRecordFileWriter(&buf, int8Dictionary, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	require.NoError(t, w.Write(first))
	err = w.Write(second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `column "tag"`)
	assert.Contains(t, err.Error(), "int8")
	require.NoError(t, w.Write(first), "the refused record wrote nothing: the writer goes on")
	require.NoError(t, w.Close())
	_, recs := ipcRecords(t, buf.Bytes(), true)
	defer releaseAll(recs)
	assert.Len(t, recs, 2)
}

// A dictionary of structs is one arrow-go cannot merge: in a file, a
// second, different one is refused, and Close still writes a valid file of
// the records before.
func TestAFileRefusesADictionaryItCannotMerge(t *testing.T) {
	mem := checked(t)
	point := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32})
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: point}
	schema := arrow.NewSchema([]arrow.Field{{Name: "point", Type: dt}}, nil)
	record := func(xs ...int32) arrow.RecordBatch {
		sb := array.NewStructBuilder(mem, point)
		defer sb.Release()
		for _, x := range xs {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Int32Builder).Append(x)
		}
		dict := sb.NewArray()
		defer dict.Release()
		ib := array.NewInt32Builder(mem)
		defer ib.Release()
		for i := range xs {
			ib.Append(int32(i))
		}
		idx := ib.NewArray()
		defer idx.Release()
		return recordOf(schema, array.NewDictionaryArray(dt, idx, dict))
	}
	first, second := record(1, 2), record(3)
	defer first.Release()
	defer second.Release()

	var buf bytes.Buffer
	w, err := ipc.NewRecordFileWriter(&buf, schema, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	require.NoError(t, w.Write(first))
	require.NoError(t, w.Write(first), "the same dictionary again is not written again")
	err = w.Write(second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no replacement")
	assert.Equal(t, err, w.Write(first), "the writer stopped")
	err = w.Close()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "holds only the 2 records written before an error")

	_, recs := ipcRecords(t, buf.Bytes(), true)
	defer releaseAll(recs)
	require.Len(t, recs, 2, "the file is valid, with the records before the error")
	assert.Equal(t, recordJSON(t, first), recordJSON(t, recs[1]))
}
