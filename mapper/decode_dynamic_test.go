package mapper_test

import (
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/mapper"
)

// DecodeTo decodes into a struct type built at run time, here one field
// per column of a schema, as the command line does for files.
func ExampleDecodeTo() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"Ada", ""}, []bool{true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()

	fields := make([]reflect.StructField, len(schema.Fields()))
	for i, f := range schema.Fields() {
		typ := reflect.TypeFor[int64]()
		if f.Nullable {
			typ = reflect.TypeFor[*string]()
		}
		fields[i] = reflect.StructField{
			Name: fmt.Sprintf("F%d", i),
			Type: typ,
			Tag:  reflect.StructTag(fmt.Sprintf("arrow:%q", f.Name)),
		}
	}
	rows, err := mapper.DecodeTo(reflect.StructOf(fields), rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range rows.Len() {
		row := rows.Index(i)
		name := "null"
		if p := row.Field(1); !p.IsNil() {
			name = p.Elem().String()
		}
		fmt.Println(row.Field(0).Int(), name)
	}
	// Output:
	// 1 Ada
	// 2 null
}
