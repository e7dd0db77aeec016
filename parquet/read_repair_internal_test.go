package parquet

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editFooter is the Parquet file data with its footer as edit changes it,
// the rest as it is.
func editFooter(t *testing.T, data []byte, edit func(footer *tStruct)) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	footer, err := decodeThrift(data[len(data)-8-n : len(data)-8])
	require.NoError(t, err)
	edit(footer)
	encoded, err := encodeThrift(footer)
	require.NoError(t, err)
	out := append(append([]byte{}, data[:len(data)-8-n]...), encoded...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(encoded)))
	return append(out, "PAR1"...)
}

// writeFile writes data to a file of the test and returns its path.
func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file.parquet")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// writeColumns writes a file of one row group of the schema root, each
// leaf column's values, definition and repetition levels written by
// write, with arrow-go's low-level column writers.
func writeColumns(t *testing.T, root *schema.GroupNode, write func(i int, cw file.ColumnChunkWriter) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root, file.WithWriterProps(parquet.NewWriterProperties(parquet.WithDictionaryDefault(false))))
	rg, err := w.AppendRowGroupChecked()
	require.NoError(t, err)
	for i := range schema.NewSchema(root).NumColumns() {
		cw, err := rg.NextColumn()
		require.NoError(t, err)
		require.NoError(t, write(i, cw))
		require.NoError(t, cw.Close())
	}
	require.NoError(t, rg.Close())
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestALogicalTypeArrowGoDoesNotKnowReadsAsThePhysicalType(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "known", Type: arrow.BinaryTypes.String}, {Name: "unknown", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a", "b", "c"}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"x", "", "z"}, []bool{true, false, true})
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	// The second column's STRING logical type made a member of the union
	// arrow-go v18.8.0 does not know (as parquet-testing's
	// unknown-logical-type.parquet has), and its converted type dropped.
	data := editFooter(t, buf.Bytes(), func(footer *tStruct) {
		e := footer.structs(fileMetaSchemaField)[2]
		e.drop(schemaConvertedType)
		e.set(schemaLogicalType, thrift.STRUCT, &tStruct{fields: []tField{{id: 2555, typ: thrift.STRUCT, val: &tStruct{}}}})
	})

	type row struct {
		Known   string `arrow:"known"`
		Unknown []byte `arrow:"unknown"`
	}
	got, err := ReadFile[row](writeFile(t, data))
	require.NoError(t, err)
	assert.Equal(t, []row{{"a", []byte("x")}, {"b", nil}, {"c", []byte("z")}}, got)

	sc2, err := ReadSchema(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	assert.Equal(t, arrow.BinaryTypes.Binary, sc2.Field(1).Type, "read as its physical type, BYTE_ARRAY")
}

// int96 is the INT96 value of the Julian day and nanoseconds.
func int96(day int32, nanos int64) parquet.Int96 {
	var v parquet.Int96
	binary.LittleEndian.PutUint64(v[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(v[8:], uint32(day))
	return v
}

// int96Of is the INT96 value of t, as Spark and Impala write it.
func int96Of(t time.Time) parquet.Int96 {
	days := t.Unix() / 86400
	if t.Unix()%86400 < 0 {
		days--
	}
	return int96(int32(days+julianUnixEpoch), t.Sub(time.Unix(days*86400, 0)).Nanoseconds())
}

// int96File is a file of one optional INT96 column "ts" of values, a nil
// value a null.
func int96File(t *testing.T, values []*parquet.Int96) []byte {
	node := schema.NewInt96Node("ts", parquet.Repetitions.Optional, -1)
	root := schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{node}, -1))
	return writeColumns(t, root, func(_ int, cw file.ColumnChunkWriter) error {
		var vals []parquet.Int96
		defs := make([]int16, len(values))
		for i, v := range values {
			if v != nil {
				vals = append(vals, *v)
				defs[i] = 1
			}
		}
		_, err := cw.(*file.Int96ColumnChunkWriter).WriteBatch(vals, defs, nil)
		return err
	})
}

func ptr[T any](v T) *T { return &v }

// Spark writes timestamps as INT96 in microseconds: dates past 2262, which
// nanoseconds do not hold, and past 287,564, whose Julian microseconds
// wrap around (parquet-testing's int96_from_spark.parquet).
func TestINT96TimestampsReadInMicrosecondsByDefaultEveryDateSparkWrites(t *testing.T) {
	first := time.Date(2024, 1, 1, 12, 34, 56, 123456000, time.UTC)
	last := time.Date(9999, 12, 31, 3, 0, 0, 0, time.UTC)
	before := time.Date(1066, 10, 14, 9, 0, 0, 1000, time.UTC)
	far := time.Date(290000, 12, 30, 23, 0, 0, 0, time.UTC)
	data := int96File(t, []*parquet.Int96{
		ptr(int96Of(first)), ptr(int96Of(last)), nil, ptr(int96Of(before)),
		// What Spark writes of far: its Julian microseconds wrap around.
		ptr(int96(-105862232, -32509551616000)),
	})
	path := writeFile(t, data)

	type row struct {
		TS *time.Time `arrow:"ts"`
	}
	got, err := ReadFile[row](path)
	require.NoError(t, err)
	want := []row{{&first}, {&last}, {nil}, {&before}, {&far}}
	require.Len(t, got, len(want))
	for i := range want {
		if want[i].TS == nil {
			assert.Nil(t, got[i].TS, "row %d", i)
			continue
		}
		require.NotNil(t, got[i].TS, "row %d", i)
		assert.True(t, want[i].TS.Equal(*got[i].TS), "row %d: %s, want %s", i, got[i].TS, want[i].TS)
	}
	sc, err := ReadSchema(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	assert.Equal(t, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, sc.Field(0).Type, "in UTC, as pqarrow reads INT96")

	// In nanoseconds, 9999 is past the range: an error naming the field
	// that sets the unit, the column and the row.
	_, err = ReadFile[row](path, ReadConfig{Int96Unit: ptr(arrow.Nanosecond)})
	require.ErrorIs(t, err, mapper.ErrOverflow)
	require.ErrorIs(t, err, ErrInt96)
	var merr *mapper.Error
	require.ErrorAs(t, err, &merr)
	assert.Equal(t, "ts", merr.Column)
	assert.Equal(t, 1, merr.Row)
	assert.ErrorContains(t, err, "ReadConfig.Int96Unit")

	// In milliseconds, the microseconds of the first row are not dropped.
	_, err = ReadFile[row](path, ReadConfig{Int96Unit: ptr(arrow.Millisecond)})
	require.ErrorContains(t, err, "has digits below the unit of timestamp[ms, tz=UTC]")
}

// Impala writes INT96 in nanoseconds: read in microseconds, their last
// digits are refused, never dropped; read in nanoseconds, they are exact.
func TestINT96TimestampsOfNanosecondsReadExactlyInNanoseconds(t *testing.T) {
	ts := time.Date(2020, 2, 29, 23, 59, 59, 999999999, time.UTC)
	early := time.Date(1677, 9, 22, 0, 12, 43, 145224192, time.UTC) // the first nanosecond timestamp
	path := writeFile(t, int96File(t, []*parquet.Int96{ptr(int96Of(ts)), ptr(int96Of(early))}))
	type row struct {
		TS time.Time `arrow:"ts,nullable"`
	}
	_, err := ReadFile[row](path)
	require.ErrorContains(t, err, "has digits below the unit of timestamp[us, tz=UTC] (ReadConfig.Int96Unit sets the unit)")

	got, err := ReadFile[row](path, ReadConfig{Int96Unit: ptr(arrow.Nanosecond)})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.True(t, ts.Equal(got[0].TS), "%s", got[0].TS)
	assert.True(t, early.Equal(got[1].TS), "%s", got[1].TS)
}

func TestINT96TimestampsInAStructAndAListReadAsTimestamps(t *testing.T) {
	ns := &arrow.TimestampType{Unit: arrow.Nanosecond}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "ts", Type: ns, Nullable: true}), Nullable: true},
		{Name: "l", Type: arrow.ListOf(ns), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	t0 := time.Date(2001, 2, 3, 4, 5, 6, 7000, time.UTC)
	sb := b.Field(0).(*array.StructBuilder)
	sb.Append(true)
	sb.FieldBuilder(0).(*array.TimestampBuilder).Append(arrow.Timestamp(t0.UnixNano()))
	lb := b.Field(1).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(t0.UnixNano()), arrow.Timestamp(t0.Add(time.Hour).UnixNano())}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true)))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Equal(t, parquet.Types.Int96, pf.MetaData().Schema.Column(0).PhysicalType())
	require.Equal(t, parquet.Types.Int96, pf.MetaData().Schema.Column(1).PhysicalType())

	type row struct {
		S struct {
			TS time.Time `arrow:"ts"`
		} `arrow:"s"`
		L []time.Time `arrow:"l"`
	}
	got, err := ReadFile[row](writeFile(t, buf.Bytes()))
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.True(t, t0.Equal(got[0].S.TS))
	require.Len(t, got[0].L, 2)
	assert.True(t, t0.Equal(got[0].L[0]))
	assert.True(t, t0.Add(time.Hour).Equal(got[0].L[1]))
}

// mapFile is a file of one optional MAP column "m" of optional string
// keys and values (as parquet-testing's incorrect_map_schema.parquet
// has), of the rows: {"a": "1", "b": null}, null, {}, {key: "3"}.
func mapFile(t *testing.T, key *string) []byte {
	k := schema.MustPrimitive(schema.NewPrimitiveNodeLogical("key", parquet.Repetitions.Optional, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1))
	v := schema.MustPrimitive(schema.NewPrimitiveNodeLogical("value", parquet.Repetitions.Optional, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1))
	kv := schema.MustGroup(schema.NewGroupNode("key_value", parquet.Repetitions.Repeated, schema.FieldList{k, v}, -1))
	m := schema.MustGroup(schema.NewGroupNodeLogical("m", parquet.Repetitions.Optional, schema.FieldList{kv}, schema.MapLogicalType{}, -1))
	root := schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{m}, -1))
	return writeColumns(t, root, func(i int, cw file.ColumnChunkWriter) error {
		reps := []int16{0, 1, 0, 0, 0}
		var vals []parquet.ByteArray
		var defs []int16
		if i == 0 { // keys
			vals = []parquet.ByteArray{[]byte("a"), []byte("b")}
			defs = []int16{3, 3, 0, 1, 2}
			if key != nil {
				vals, defs[4] = append(vals, []byte(*key)), 3
			}
		} else {
			vals = []parquet.ByteArray{[]byte("1"), []byte("3")}
			defs = []int16{3, 2, 0, 1, 3}
		}
		_, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(vals, defs, reps)
		return err
	})
}

func TestAMapWhoseKeyIsOptionalReadsAsAMap(t *testing.T) {
	data := mapFile(t, ptr("c"))
	type row struct {
		M map[string]*string `arrow:"m"`
	}
	got, err := ReadFile[row](writeFile(t, data))
	require.NoError(t, err)
	assert.Equal(t, []row{{map[string]*string{"a": ptr("1"), "b": nil}}, {nil}, {map[string]*string{}}, {map[string]*string{"c": ptr("3")}}}, got)

	sc, err := ReadSchema(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	mt, ok := sc.Field(0).Type.(*arrow.MapType)
	require.True(t, ok, "a map, not %s", sc.Field(0).Type)
	assert.Equal(t, arrow.BinaryTypes.String, mt.KeyType())
	assert.Equal(t, arrow.BinaryTypes.String, mt.ItemType())
}

// A damaged header whose lists reach past their entries: arrow-go decodes
// the column with offsets past its child, and the conversion of the
// optional key joins slices of it with array.Concatenate, which recovers
// its own panic and returned it as an error of no kind (CI's mutation
// seed 2874839986006093369, mutant 104). The column is checked first.
func TestAMapColumnWhoseOffsetsPassItsEntriesIsInvalidDataBeforeItIsConverted(t *testing.T) {
	data := mapFile(t, ptr("c"))
	require.Equal(t, byte(0x4f), data[42], "the byte the seed damaged")
	data[42] ^= 0xf7
	rr, err := OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	defer rr.Release()
	for rr.Next() {
	}
	err = rr.Err()
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.ErrorContains(t, err, `column "m"`)
	assert.NotContains(t, err.Error(), "arrow/concat")
}

// An Arrow map holds no null key: one is an error naming the row.
func TestANullKeyOfAMapWhoseKeyIsOptionalIsAnErrorNamingTheRow(t *testing.T) {
	path := writeFile(t, mapFile(t, nil))
	type row struct {
		M map[string]*string `arrow:"m"`
	}
	_, err := ReadFile[row](path)
	require.ErrorIs(t, err, mapper.ErrNull)
	var merr *mapper.Error
	require.ErrorAs(t, err, &merr)
	assert.Equal(t, "m", merr.Column)
	assert.Equal(t, 3, merr.Row)
	assert.ErrorContains(t, err, "a null map key")

	rr, err := OpenRecords(path)
	require.NoError(t, err)
	defer rr.Release()
	assert.False(t, rr.Next())
	assert.ErrorIs(t, rr.Err(), mapper.ErrNull)
}

// parquet-mr's two-level lists: a list of lists whose repeated group,
// named array, is the element, a list itself (parquet-testing's
// old_list_structure.parquet), which pqarrow reads as a list of structs of
// one list.
func TestAListOfListsOfTheOldStructureReadsAsAListOfLists(t *testing.T) {
	leaf := schema.NewInt32Node("array", parquet.Repetitions.Repeated, -1)
	inner := schema.MustGroup(schema.NewGroupNodeLogical("array", parquet.Repetitions.Repeated, schema.FieldList{leaf}, schema.ListLogicalType{}, -1))
	outer := schema.MustGroup(schema.NewGroupNodeLogical("a", parquet.Repetitions.Required, schema.FieldList{inner}, schema.ListLogicalType{}, -1))
	root := schema.MustGroup(schema.NewGroupNode("my_record", parquet.Repetitions.Required, schema.FieldList{outer}, -1))
	data := writeColumns(t, root, func(_ int, cw file.ColumnChunkWriter) error {
		// [[1, 2], [3, 4]], then [[5]], then [].
		_, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{1, 2, 3, 4, 5}, []int16{2, 2, 2, 2, 2, 0}, []int16{0, 2, 1, 2, 0, 0})
		return err
	})
	type row struct {
		A [][]int32 `arrow:"a"`
	}
	got, err := ReadFile[row](writeFile(t, data))
	require.NoError(t, err)
	assert.Equal(t, []row{{[][]int32{{1, 2}, {3, 4}}}, {[][]int32{{5}}}, {[][]int32{}}}, got)

	sc, err := ReadSchema(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	elem := sc.Field(0).Type.(*arrow.ListType).Elem()
	_, isList := elem.(*arrow.ListType)
	assert.True(t, isList, "a list of lists, not of %s", elem)
}
