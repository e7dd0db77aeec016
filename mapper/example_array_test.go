package mapper_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// A single column, a slice of it and a list's child decode without a
// record.
func ExampleDecodeArray() {
	arr, _, err := array.FromJSON(memory.DefaultAllocator, arrow.ListOf(arrow.BinaryTypes.String),
		strings.NewReader(`[["gift", "express"], null, [], ["bulk"]]`))
	if err != nil {
		panic(err)
	}
	defer arr.Release()

	tags, err := mapper.DecodeArray[[]string](arr)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q, the null list nil: %v\n", tags, tags[1] == nil)

	last := array.NewSlice(arr, 2, 4)
	defer last.Release()
	tags, _ = mapper.DecodeArray[[]string](last)
	fmt.Printf("%q\n", tags)

	all, _ := mapper.DecodeArray[string](arr.(*array.List).ListValues())
	fmt.Printf("%q\n", all)

	_, err = mapper.DecodeArray[[]int64](arr)
	fmt.Println(err)
	// Output:
	// [["gift" "express"] [] [] ["bulk"]], the null list nil: true
	// [[] ["bulk"]]
	// ["gift" "express" "bulk"]
	// arrowmap: field [], column "item": type mismatch: int64 from utf8: int64 reads uint8|int8|uint16|int16|uint32|int32|int64 without loss, and the storage of date32|date64|timestamp|time32|time64|duration
}

// Values of any field type encode to the column Encode would write for
// them.
func ExampleEncodeArray() {
	type point struct {
		X, Y float64
	}
	arr, err := mapper.EncodeArray([]*point{{1, 2}, nil, {-1, 0.5}})
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	fmt.Println(arr.DataType())
	fmt.Println(arr)
	// Output:
	// struct<X: float64, Y: float64>
	// {[1 (null) -1] [2 (null) 0.5]}
}

// A struct type for a schema known only at run time, to decode any file:
// what arrowmap head does.
func ExampleGoTypeOf() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "user_name", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "placed_at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Asia/Tokyo"}},
		{Name: "scores", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true},
	}, nil)
	typ, err := mapper.GoTypeOf(schema)
	if err != nil {
		panic(err)
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		fmt.Printf("%s %s `%s`\n", f.Name, f.Type, f.Tag)
	}

	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(`[
		{"id": 1, "user_name": "ada", "placed_at": 1700000000000, "scores": [1, null], "attrs": [{"key": "k", "value": "v"}]},
		{"id": 2, "user_name": null, "placed_at": 0, "scores": null, "attrs": null}
	]`))
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	rows, err := mapper.DecodeTo(typ, rec)
	if err != nil {
		panic(err)
	}
	for i := range rows.Len() {
		line, _ := json.Marshal(rows.Index(i).Interface())
		fmt.Println(string(line))
	}
	// Output:
	// ID int64 `arrow:"id" json:"id"`
	// UserName *string `arrow:"user_name,large_utf8" json:"user_name"`
	// PlacedAt time.Time `arrow:"placed_at,timestamp,unit=ms,tz=Asia/Tokyo" json:"placed_at"`
	// Scores []*int32 `arrow:"scores" json:"scores"`
	// Attrs []struct { Key string "arrow:\"key\" json:\"key\""; Value *string "arrow:\"value\" json:\"value\"" } `arrow:"attrs,map" json:"attrs"`
	// {"id":1,"user_name":"ada","placed_at":"2023-11-15T07:13:20+09:00","scores":[1,null],"attrs":[{"key":"k","value":"v"}]}
	// {"id":2,"user_name":null,"placed_at":"1970-01-01T09:00:00+09:00","scores":null,"attrs":null}
}
