package ipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var indexTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Uint16,
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint64,
}

// rawDictionary is a dictionary<indexType, utf8> array over values whose
// index buffer holds indices as they are, truncated to the index width
// (whatever a null row holds, or one past the dictionary), valid[i] false
// for a null row, and whose buffers are of length+offset rows from offset.
func rawDictionary(mem memory.Allocator, indexType arrow.DataType, values []string, indices []int64, valid []bool, offset, length int) arrow.Array {
	width := indexType.(arrow.FixedWidthDataType).BitWidth() / 8
	raw := make([]byte, len(indices)*width)
	for i, v := range indices {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		copy(raw[i*width:], b[:width])
	}
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		bits := make([]byte, bitutil.BytesForBits(int64(len(valid))))
		for i, ok := range valid {
			if ok {
				bitutil.SetBit(bits, i)
			} else if i >= offset && i < offset+length {
				nulls++
			}
		}
		bitmap = memory.NewBufferBytes(bits)
	}
	vb := array.NewStringBuilder(mem)
	defer vb.Release()
	vb.AppendValues(values, nil)
	dict := vb.NewArray()
	defer dict.Release()
	dt := &arrow.DictionaryType{IndexType: indexType, ValueType: arrow.BinaryTypes.String}
	data := array.NewDataWithDictionary(dt, length, []*memory.Buffer{bitmap, memory.NewBufferBytes(raw)}, nulls, offset, dict.Data().(*array.Data))
	defer data.Release()
	return array.MakeFromData(data)
}

// rowValues is the value of each row of column 0 of recs as arrow-go reads
// it, "<null>" for a null.
func rowValues(recs []arrow.RecordBatch) []string {
	var out []string
	for _, rec := range recs {
		col := rec.Column(0).(*array.Dictionary)
		dict := col.Dictionary().(*array.String)
		for i := range col.Len() {
			if col.IsNull(i) || dict.IsNull(col.GetValueIndex(i)) {
				out = append(out, "<null>")
				continue
			}
			out = append(out, dict.Value(col.GetValueIndex(i)))
		}
	}
	return out
}

// writeRecords writes recs with a RecordWriter, file or stream with deltas.
func writeRecords(t *testing.T, mem memory.Allocator, file bool, schema *arrow.Schema, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	newWriter := ipc.NewRecordStreamWriter
	if file {
		newWriter = ipc.NewRecordFileWriter
	}
	w, err := newWriter(&buf, schema, ipc.WriteConfig{DictionaryDeltas: true}, mapper.Allocator(mem))
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func dictionarySchema(indexType arrow.DataType) *arrow.Schema {
	dt := &arrow.DictionaryType{IndexType: indexType, ValueType: arrow.BinaryTypes.String}
	return arrow.NewSchema([]arrow.Field{{Name: "tag", Type: dt, Nullable: true}}, nil)
}

// Whatever the index width, a record's indices are mapped into the
// dictionary written: nulls stay null whatever their slot holds (even an
// index past the dictionary, or a negative one), and a slice is read from
// its offset — also one without nulls cut from an array with some.
func TestEveryIndexWidthIsMappedIntoTheDictionaryWritten(t *testing.T) {
	for _, indexType := range indexTypes {
		for _, file := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s file %v", indexType, file), func(t *testing.T) {
				mem := checked(t)
				schema := dictionarySchema(indexType)
				// x y z; rows z x null y, the null slot holding 100.
				first := recordOf(schema, rawDictionary(mem, indexType, []string{"x", "y", "z"},
					[]int64{2, 0, 100, 1}, []bool{true, true, false, true}, 0, 4))
				defer first.Release()
				// w z v x; from offset 2: v null(-1) x z, then nulls out of range.
				second := recordOf(schema, rawDictionary(mem, indexType, []string{"w", "z", "v", "x"},
					[]int64{0, 1, 2, -1, 3, 1, 77, 0}, []bool{true, true, true, false, true, true, false, true}, 2, 4))
				defer second.Release()
				// v w from offset 3 of an array whose nulls are outside the slice.
				third := recordOf(schema, rawDictionary(mem, indexType, []string{"w", "v"},
					[]int64{-1, 9, 0, 1, 0, 0, 5}, []bool{false, false, true, true, true, true, false}, 3, 3))
				defer third.Release()

				data := writeRecords(t, mem, file, schema, first, second, third)
				_, recs := ipcRecords(t, data, file)
				defer releaseAll(recs)
				assert.Equal(t, []string{"z", "x", "<null>", "y", "v", "<null>", "x", "z", "v", "w", "w"}, rowValues(recs))
				assert.Equal(t, []string{"x", "y", "z", "w", "v"}, stringValues(recs[2].Column(0).(*array.Dictionary).Dictionary()),
					"the values of the first record, then the new ones in the order they are met")
			})
		}
	}
}

func stringValues(arr arrow.Array) []string {
	var out []string
	for i := range arr.Len() {
		out = append(out, arr.(*array.String).Value(i))
	}
	return out
}

// A row whose index is past its record's dictionary or negative is refused with an error naming the column and the row
// of the stream; the record changes nothing, and the writer goes on.
func TestADictionaryIndexOutsideItsDictionaryIsRefused(t *testing.T) {
	type hostile struct {
		name    string
		indices []int64
		row     int // the row refused, from the record's start
		detail  string
	}
	for _, indexType := range indexTypes {
		cases := []hostile{
			{"one past the dictionary", []int64{0, 1, 2}, 2, "out of range"},
			{"far past the dictionary", []int64{1, 0, 0, 1<<7 - 1}, 3, "out of range"},
		}
		if indexType.(arrow.FixedWidthDataType).BitWidth() == 64 {
			cases = append(cases, hostile{"past any int", []int64{0, -1 << 63}, 1, "out of range"})
		}
		signed := arrow.IsSignedInteger(indexType.ID())
		if signed {
			cases = append(cases, hostile{"negative", []int64{0, -1}, 1, "out of range"})
		}
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s %s", indexType, tc.name), func(t *testing.T) {
				mem := checked(t)
				schema := dictionarySchema(indexType)
				first := recordOf(schema, rawDictionary(mem, indexType, []string{"a", "b"}, []int64{1, 0}, nil, 0, 2))
				defer first.Release()
				bad := recordOf(schema, rawDictionary(mem, indexType, []string{"b", "new"}, tc.indices, nil, 0, len(tc.indices)))
				defer bad.Release()
				for _, file := range []bool{false, true} {
					var buf bytes.Buffer
					newWriter := ipc.NewRecordStreamWriter
					if file {
						newWriter = ipc.NewRecordFileWriter
					}
					w, err := newWriter(&buf, schema, ipc.WriteConfig{DictionaryDeltas: true}, mapper.Allocator(mem))
					require.NoError(t, err)
					require.NoError(t, w.Write(first))
					err = w.Write(bad)
					require.Error(t, err)
					assert.ErrorIs(t, err, mapper.ErrInvalidData)
					var e *mapper.Error
					require.True(t, errors.As(err, &e), "a *mapper.Error: %v", err)
					assert.Equal(t, "tag", e.Column)
					want := tc.row
					if want >= 0 {
						want += first.Column(0).Len()
					}
					assert.Equal(t, want, e.Row, "the row of the stream: %v", err)
					assert.Contains(t, err.Error(), tc.detail)
					require.NoError(t, w.Write(first), "the refused record wrote nothing: the writer goes on")
					require.NoError(t, w.Close())
					_, recs := ipcRecords(t, buf.Bytes(), file)
					assert.Equal(t, []string{"b", "a", "b", "a"}, rowValues(recs))
					assert.Equal(t, []string{"a", "b"}, stringValues(recs[1].Column(0).(*array.Dictionary).Dictionary()),
						"the refused record's new value is in no dictionary")
					releaseAll(recs)
				}
			})
		}
	}
}

// A dictionary that grows over many records is written as the values of
// the first, then deltas of the values each record adds, in the order
// they are met: read back, every row holds the value written.
func TestAGrowingDictionaryIsWrittenAsDeltasOfItsNewValues(t *testing.T) {
	mem := checked(t)
	schema, recs := growingRecords(mem, 200, 10)
	defer releaseAll(recs)
	var want, seen []string
	met := map[string]bool{}
	for _, rec := range recs {
		for _, v := range rowValues([]arrow.RecordBatch{rec}) {
			want = append(want, v)
			if !met[v] {
				met[v] = true
				seen = append(seen, v)
			}
		}
	}
	for _, file := range []bool{false, true} {
		data := writeRecords(t, mem, file, schema, recs...)
		_, got := ipcRecords(t, data, file)
		assert.Equal(t, want, rowValues(got), "file %v", file)
		assert.Equal(t, seen, stringValues(got[len(got)-1].Column(0).(*array.Dictionary).Dictionary()), "file %v", file)
		releaseAll(got)
		if !file {
			types, _ := messages(t, data)
			assert.Equal(t, 10, count(types, arrowipc.MessageDictionaryBatch), "a dictionary message a record: each adds values")
		}
	}
}

// A record's dictionary may hold a value twice, and a null: the rows read
// back the same, and the dictionary written holds each value once.
func TestADictionaryHoldingAValueTwiceOrANullReadsBackTheSame(t *testing.T) {
	mem := checked(t)
	schema := dictionarySchema(arrow.PrimitiveTypes.Int16)
	vb := array.NewStringBuilder(mem)
	defer vb.Release()
	vb.AppendValues([]string{"a", "b", "a", "", "c"}, []bool{true, true, true, false, true})
	dict := vb.NewArray()
	defer dict.Release()
	ib := array.NewInt16Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int16{4, 2, 3, 0, 1, 2}, nil)
	idx := ib.NewArray()
	defer idx.Release()
	dt := schema.Field(0).Type.(*arrow.DictionaryType)
	first := recordOf(schema, rawDictionary(mem, dt.IndexType, []string{"b"}, []int64{0}, nil, 0, 1))
	defer first.Release()
	second := recordOf(schema, array.NewDictionaryArray(dt, idx, dict))
	defer second.Release()
	for _, file := range []bool{false, true} {
		data := writeRecords(t, mem, file, schema, first, second)
		_, got := ipcRecords(t, data, file)
		assert.Equal(t, []string{"b", "c", "a", "<null>", "a", "b", "a"}, rowValues(got), "file %v", file)
		last := got[1].Column(0).(*array.Dictionary).Dictionary()
		assert.Equal(t, 4, last.Len(), "b, a, null, c: file %v", file)
		releaseAll(got)
	}
}

// A record refused for its second dictionary column leaves the first one's
// dictionary as it was: the values the refused record adds to it are in no
// dictionary written after.
func TestARefusedRecordAddsNoValueToAnyDictionary(t *testing.T) {
	indexType := arrow.PrimitiveTypes.Int8
	dt := &arrow.DictionaryType{IndexType: indexType, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: dt, Nullable: true}, {Name: "b", Type: dt, Nullable: true}}, nil)
	many := make([]string, 200)
	manyIndices := make([]int64, 200)
	for i := range many {
		many[i] = fmt.Sprint("v", i)
		manyIndices[i] = int64(i % 100)
	}
	for _, tc := range []struct {
		name   string
		values []string
		idx    []int64
		err    string
	}{
		{"an index outside its dictionary", []string{"b0"}, []int64{0, 1}, "out of range"},
		{"a dictionary that outgrows its indices", many[:150], manyIndices[:2], "more than its int8 indices"},
	} {
		for _, file := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s file %v", tc.name, file), func(t *testing.T) {
				mem := checked(t)
				good := recordOf(schema,
					rawDictionary(mem, indexType, []string{"a0"}, []int64{0, 0}, nil, 0, 2),
					rawDictionary(mem, indexType, many[:100], manyIndices[:2], nil, 0, 2))
				defer good.Release()
				bad := recordOf(schema,
					rawDictionary(mem, indexType, []string{"new", "a0"}, []int64{0, 1}, nil, 0, 2),
					rawDictionary(mem, indexType, tc.values, tc.idx, nil, 0, 2))
				defer bad.Release()
				var buf bytes.Buffer
				newWriter := ipc.NewRecordStreamWriter
				if file {
					newWriter = ipc.NewRecordFileWriter
				}
				w, err := newWriter(&buf, schema, ipc.WriteConfig{DictionaryDeltas: true}, mapper.Allocator(mem))
				require.NoError(t, err)
				require.NoError(t, w.Write(good))
				err = w.Write(bad)
				require.Error(t, err)
				assert.Contains(t, err.Error(), `column "b"`)
				assert.Contains(t, err.Error(), tc.err)
				require.NoError(t, w.Write(good), "the writer goes on")
				require.NoError(t, w.Close())
				_, recs := ipcRecords(t, buf.Bytes(), file)
				defer releaseAll(recs)
				require.Len(t, recs, 2)
				assert.Equal(t, []string{"a0"}, stringValues(recs[1].Column(0).(*array.Dictionary).Dictionary()),
					"the refused record's value of column a is in no dictionary")
				assert.Equal(t, many[:100], stringValues(recs[1].Column(1).(*array.Dictionary).Dictionary()))
			})
		}
	}
}

// A dictionary inside a list is checked as well: an index outside it is
// refused, naming the column and the entry, no row of the output.
func TestADictionaryIndexOutsideItsDictionaryInAListIsRefused(t *testing.T) {
	mem := checked(t)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint16, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "tags", Type: arrow.ListOf(dt), Nullable: true}}, nil)
	list := func(indices ...int64) arrow.RecordBatch {
		values := rawDictionary(mem, dt.IndexType, []string{"a", "b"}, indices, nil, 0, len(indices))
		defer values.Release()
		offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, int32(len(indices))}))
		data := array.NewData(arrow.ListOf(dt), 2, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{values.Data()}, 0, 0)
		defer data.Release()
		return recordOf(schema, array.MakeFromData(data))
	}
	good, bad := list(1, 0, 1), list(0, 1, 2)
	defer good.Release()
	defer bad.Release()
	var buf bytes.Buffer
	w, err := ipc.NewRecordFileWriter(&buf, schema, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	require.NoError(t, w.Write(good))
	err = w.Write(bad)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	var e *mapper.Error
	require.True(t, errors.As(err, &e), "a *mapper.Error: %v", err)
	assert.Equal(t, "tags.item", e.Column)
	assert.Equal(t, -1, e.Row, "an entry of a list is no row")
	assert.Contains(t, err.Error(), "dictionary index 2 out of range for 2 entries")
	require.NoError(t, w.Close())
}

// A bitmap shorter than its column is refused, not read past its end.
func TestADictionaryWhoseBitmapIsShorterThanItsColumnIsRefused(t *testing.T) {
	mem := checked(t)
	schema := dictionarySchema(arrow.PrimitiveTypes.Int32)
	bad := recordOf(schema, rawDictionary(mem, arrow.PrimitiveTypes.Int32, []string{"a"}, make([]int64, 40), []bool{true, false}, 0, 40))
	defer bad.Release()
	w, err := ipc.NewRecordFileWriter(io.Discard, schema, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	err = w.Write(bad)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.Contains(t, err.Error(), "validity bitmap of 1 bytes for 40 rows")
	require.NoError(t, w.Close())
}
