package mapper_test

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// For a schema of each pin, GoTypeOf's type has exactly that schema again
// (metadata included), and the rows it decodes encode to the record again.
func TestGoTypeOfWritesBackEverySchemaPin(t *testing.T) {
	md := func(kv ...string) arrow.Metadata {
		var k, v []string
		for i := 0; i < len(kv); i += 2 {
			k, v = append(k, kv[i]), append(v, kv[i+1])
		}
		return arrow.NewMetadata(k, v)
	}
	dict := func(index, value arrow.DataType, ordered bool) arrow.DataType {
		return &arrow.DictionaryType{IndexType: index, ValueType: value, Ordered: ordered}
	}
	ree := func(runEnds, values arrow.DataType) arrow.DataType {
		return arrow.RunEndEncodedOf(runEnds, values)
	}
	jsonOf := func(storage arrow.DataType) arrow.DataType {
		dt, err := extensions.NewJSONType(storage)
		require.NoError(t, err)
		return dt
	}
	opaque := extensions.NewOpaqueType(arrow.BinaryTypes.Binary, "geometry", "postgis")
	cases := []struct {
		name   string
		fields []arrow.Field
		schema arrow.Metadata
		rows   string
	}{
		{"naive timestamps keep no zone, in every unit", []arrow.Field{
			{Name: "ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}},
			{Name: "s", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true},
		}, arrow.Metadata{}, `[{"ns": 1, "s": -5}, {"ns": 0, "s": null}]`},
		{"binaries, lists and maps that are not nullable stay so", []arrow.Field{
			{Name: "bin", Type: arrow.BinaryTypes.Binary},
			{Name: "lbin", Type: arrow.BinaryTypes.LargeBinary},
			{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
			{Name: "map", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)},
			{Name: "bytes", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Uint8)},
		}, arrow.Metadata{}, `[{"bin": "AAE=", "lbin": "", "list": [1, null], "map": [{"key": "k", "value": 1}], "bytes": [1, 2]},
			{"bin": "", "lbin": "/w==", "list": [], "map": [], "bytes": []}]`},
		{"dictionaries keep their index type and ordered", []arrow.Field{
			{Name: "i8", Type: dict(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String, false)},
			{Name: "u16", Type: dict(arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int64, true), Nullable: true},
			{Name: "i64", Type: dict(arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String, true)},
		}, arrow.Metadata{}, `[{"i8": "a", "u16": 7, "i64": "x"}, {"i8": "b", "u16": null, "i64": "x"}, {"i8": "a", "u16": 7, "i64": "y"}]`},
		{"run-end arrays keep their run-end type", []arrow.Field{
			{Name: "r16", Type: ree(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.String), Nullable: true},
			{Name: "r64", Type: ree(arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64), Nullable: true},
		}, arrow.Metadata{}, `[{"r16": "a", "r64": 1.5}, {"r16": "a", "r64": 1.5}, {"r16": null, "r64": 2}]`},
		{"list elements keep their name and nullability", []arrow.Field{
			{Name: "element", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32}), Nullable: true},
			{Name: "quoted", Type: arrow.LargeListOfField(arrow.Field{Name: "a,b", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
			{Name: "fixed", Type: arrow.FixedSizeListOfField(2, arrow.Field{Name: "xy", Type: arrow.PrimitiveTypes.Float32})},
		}, arrow.Metadata{}, `[{"element": [1, 2], "quoted": ["x", null], "fixed": [1, 2]}, {"element": null, "quoted": [], "fixed": [0, -1]}]`},
		{"the canonical extensions stay, with their metadata", []arrow.Field{
			{Name: "uuid", Type: extensions.NewUUIDType(), Nullable: true},
			{Name: "flag", Type: extensions.NewBool8Type(), Nullable: true},
			{Name: "doc", Type: jsonOf(arrow.BinaryTypes.String), Nullable: true},
			{Name: "large_doc", Type: jsonOf(arrow.BinaryTypes.LargeString)},
			{Name: "shape", Type: opaque, Nullable: true},
		}, arrow.Metadata{}, `[{"uuid": "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "flag": true, "doc": "{\"a\":1}", "large_doc": "[]", "shape": "AAE="},
			{"uuid": null, "flag": null, "doc": null, "large_doc": "null", "shape": null},
			{"uuid": "00000000-0000-0000-0000-000000000001", "flag": false, "doc": "2", "large_doc": "{}", "shape": ""}]`},
		{"an unregistered extension is its storage with its name in the field metadata", []arrow.Field{
			{Name: "ext", Type: arrow.PrimitiveTypes.Int16, Nullable: true, Metadata: md(
				"ARROW:extension:name", "example.unregistered", "ARROW:extension:metadata", `{"a,b": "="}`)},
		}, arrow.Metadata{}, `[{"ext": 1}, {"ext": null}]`},
		{"field, element and schema metadata", []arrow.Field{
			{Name: "a", Type: arrow.PrimitiveTypes.Int64, Metadata: md("k", "v", "", "empty key", "quote\"d", " spaced ")},
			{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int8, Nullable: true, Metadata: md("elem", "{}")}), Nullable: true},
		}, md("schema_custom_0", "{}", "pandas", `{"index_columns": []}`), `[{"a": 1, "l": [1, null]}, {"a": 2, "l": null}]`},
		{"durations in seconds, milliseconds and microseconds are their int64 storage", []arrow.Field{
			{Name: "s", Type: arrow.FixedWidthTypes.Duration_s},
			{Name: "ms", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},
			{Name: "us", Type: arrow.FixedWidthTypes.Duration_us},
		}, arrow.Metadata{}, `[{"s": -9223372036854775808, "ms": 9223372036854775807, "us": 1}, {"s": 0, "ms": null, "us": -1}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			schema := arrow.NewSchema(c.fields, &c.schema)
			rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(c.rows))
			require.NoError(t, err)
			defer rec.Release()

			typ, err := mapper.GoTypeOf(schema)
			require.NoError(t, err)
			back, err := mapper.SchemaOfType(typ, mapper.SchemaMetadata(c.schema))
			require.NoError(t, err)
			require.True(t, back.Equal(schema), "SchemaOf(GoTypeOf) is\n%s\nwant\n%s\ntype %s", back, schema, typ)
			require.True(t, back.Metadata().Equal(schema.Metadata()))
			for i, f := range back.Fields() {
				require.True(t, f.Metadata.Equal(schema.Field(i).Metadata), "field %s metadata %v, want %v", f.Name, f.Metadata, schema.Field(i).Metadata)
				require.True(t, arrow.TypeEqual(f.Type, schema.Field(i).Type, arrow.CheckMetadata()), "field %s: %s, want %s", f.Name, f.Type, schema.Field(i).Type)
			}

			rows, err := mapper.DecodeTo(typ, rec)
			require.NoError(t, err)
			again, err := mapper.EncodeTo(rows, mapper.Allocator(mem), mapper.SchemaMetadata(c.schema))
			require.NoError(t, err)
			defer again.Release()
			require.True(t, again.Schema().Equal(schema) && again.Schema().Metadata().Equal(c.schema), "re-encoded schema\n%s", again.Schema())
			for col := range rec.NumCols() {
				want, got := rec.Column(int(col)), again.Column(int(col))
				for row := range want.Len() {
					require.True(t, arrowtest.SameValue(want, row, got, row), "column %s, row %d: re-encoded\n%v\nwant\n%v", rec.ColumnName(int(col)), row, got, want)
				}
			}
		})
	}
}

// A dictionary of lists or structs, which arrow-go's builders do not
// build, has its exact schema again too, and its values.
func TestGoTypeOfWritesBackADictionaryOfNestedValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	dictOf := func(index arrow.DataType, values string, valueType arrow.DataType, indexes string) arrow.Array {
		d, _, err := array.FromJSON(mem, valueType, strings.NewReader(values))
		require.NoError(t, err)
		defer d.Release()
		idx, _, err := array.FromJSON(mem, index, strings.NewReader(indexes))
		require.NoError(t, err)
		defer idx.Release()
		return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: index, ValueType: valueType}, idx, d)
	}
	lists := dictOf(arrow.PrimitiveTypes.Int16, `[[1, 2], [], null, [3, null]]`, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[0, 1, null, 3, 0, 2]`)
	defer lists.Release()
	structs := dictOf(arrow.PrimitiveTypes.Uint8, `[{"a": "x", "b": 1}, {"a": "y", "b": null}]`,
		arrow.StructOf(arrow.Field{Name: "a", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), `[1, 0, 0, 1, 1, 0]`)
	defer structs.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "lists", Type: lists.DataType(), Nullable: true},
		{Name: "structs", Type: structs.DataType()},
	}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{lists, structs}, 6)
	defer rec.Release()

	typ, err := mapper.GoTypeOf(schema)
	require.NoError(t, err)
	back, err := mapper.SchemaOfType(typ)
	require.NoError(t, err)
	require.True(t, back.Equal(schema), "SchemaOf(GoTypeOf) is\n%s\nwant\n%s", back, schema)
	rows, err := mapper.DecodeTo(typ, rec)
	require.NoError(t, err)
	again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer again.Release()
	require.True(t, again.Schema().Equal(schema))
	for col := range rec.NumCols() {
		for row := range int(rec.NumRows()) {
			require.True(t, arrowtest.SameValue(rec.Column(int(col)), row, again.Column(int(col)), row), "column %s, row %d: re-encoded\n%v\nwant\n%v",
				rec.ColumnName(int(col)), row, again.Column(int(col)), rec.Column(int(col)))
		}
	}
}

// A pointer pinned notnull is not nullable: its schema says so, and Encode
// refuses a nil with ErrNull rather than write a null the schema forbids.
func TestNotNullPointerRefusesNil(t *testing.T) {
	type row struct {
		P *int32   `arrow:"p,notnull"`
		E []*uint8 `arrow:"e" arrow-elem:"notnull"`
	}
	schema, err := mapper.SchemaOf[row]()
	require.NoError(t, err)
	assert.False(t, schema.Field(0).Nullable)
	assert.Equal(t, arrow.ListOfNonNullable(arrow.PrimitiveTypes.Uint8).String(), schema.Field(1).Type.String())
	one := int32(1)
	u := uint8(2)
	rec, err := mapper.Encode([]row{{P: &one, E: []*uint8{&u}}})
	require.NoError(t, err)
	rec.Release()
	_, err = mapper.Encode([]row{{P: nil}})
	require.ErrorIs(t, err, mapper.ErrNull)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "P", e.Path)
	_, err = mapper.Encode([]row{{P: &one, E: []*uint8{nil}}})
	require.ErrorIs(t, err, mapper.ErrNull)
}

// A date64 is a whole number of days: a value between days is refused as
// ErrInvalidData into a time.Time (whose encoding would write another
// value), naming its row, and read as written into its int64 storage.
func TestDate64BetweenDaysIsInvalidData(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.FixedWidthTypes.Date64, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"d": 86400000}, {"d": null}, {"d": -86400001}, {"d": 0}]`))
	require.NoError(t, err)
	defer rec.Release()

	_, err = mapper.Decode[struct {
		D *time.Time `arrow:"d,date64"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 2, e.Row)
	assert.Equal(t, "d", e.Column)

	// The window without the bad row decodes.
	part := rec.NewSlice(0, 2)
	defer part.Release()
	rows, err := mapper.Decode[struct {
		D *time.Time `arrow:"d,date64"`
	}](part)
	require.NoError(t, err)
	assert.True(t, rows[0].D.Equal(time.Unix(86400, 0)))
	assert.Nil(t, rows[1].D)

	raw, err := mapper.Decode[struct {
		D *int64 `arrow:"d"`
	}](rec)
	require.NoError(t, err)
	assert.Equal(t, int64(-86400001), *raw[2].D)
}
