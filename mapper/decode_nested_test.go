package mapper_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestAPlanOfAGoTypeOfGigabytesAllocatesNothingOfItsSizeWithoutRows(t *testing.T) {
	// A schema's fixed size makes a Go type of GoTypeOf's 4 GiB, without a
	// byte of data behind it: every level of a plan, the struct's, the
	// pointer's and the array's, made a zero value of its type when the
	// plan was built.
	dt := arrow.FixedSizeListOf(1<<29, arrow.PrimitiveTypes.Int64)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "point", Type: arrow.StructOf(arrow.Field{Name: "v", Type: dt, Nullable: true}), Nullable: true},
	}, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	typ, err := mapper.GoTypeOf(schema) // which builds the plan
	require.NoError(t, err)
	require.Equal(t, uintptr(1<<32), typ.Field(0).Type.Elem().Field(0).Type.Elem().Size(), "*struct{V *[1<<29]int64}")
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	rec := b.NewRecordBatch() // no rows
	defer rec.Release()
	rows, err := mapper.DecodeTo(typ, rec)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, 0, rows.Len())
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
}

func TestDecodeStructs(t *testing.T) {
	fxRun(t, []fxCase{
		{"a struct nested three deep decodes field by field", func(t *testing.T, mem memory.Allocator) {
			meta := arrow.StructOf(
				arrow.Field{Name: "owner", Type: fxOwnerType},
				arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})
			rec := fxRecord(t,
				fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, 5]`)},
				fxCol{"meta", fxJSON(t, mem, meta, `[
					{"owner": {"age": 30, "name": "ann"}, "tags": ["x", "y"]},
					{"owner": {"age": 0, "name": ""}, "tags": []},
					{"owner": {"age": 7, "name": "a name longer than twelve"}, "tags": null},
					{"owner": {"age": -1, "name": "dee"}, "tags": ["z"]},
					{"owner": {"age": 99, "name": "eve"}, "tags": ["", "w"]}]`)})
			defer rec.Release()
			require.Equal(t, []fxDoc{
				{1, fxMeta{fxOwner{30, "ann"}, []string{"x", "y"}}},
				{2, fxMeta{fxOwner{0, ""}, []string{}}},
				{3, fxMeta{fxOwner{7, "a name longer than twelve"}, nil}},
				{4, fxMeta{fxOwner{-1, "dee"}, []string{"z"}}},
				{5, fxMeta{fxOwner{99, "eve"}, []string{"", "w"}}},
			}, fxDecodeAll[fxDoc](t, rec))
		}},
		{"a *struct is nil on a null row", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V *fxOwner `arrow:"v"`
			}
			rec := fxRecord(t, fxCol{"v", fxNullStructRows(t, mem)})
			defer rec.Release()
			require.Equal(t, []row{{&fxOwner{30, "ann"}}, {nil}, {&fxOwner{50, "cy"}}, {nil}, {&fxOwner{70, "eve"}}}, fxDecodeAll[row](t, rec))
		}},
		{"a nullable struct is the zero struct on a null row, though its children hold values", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V fxOwner `arrow:"v,nullable"`
			}
			rec := fxRecord(t, fxCol{"v", fxNullStructRows(t, mem)})
			defer rec.Release()
			require.Equal(t, []row{{fxOwner{30, "ann"}}, {}, {fxOwner{50, "cy"}}, {}, {fxOwner{70, "eve"}}}, fxDecodeAll[row](t, rec))
		}},
		{"a struct that is not nullable rejects a null row", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V fxOwner `arrow:"v"`
			}
			rec := fxRecord(t, fxCol{"v", fxNullStructRows(t, mem)})
			defer rec.Release()
			_, err := mapper.Decode[row](rec)
			fxRequireError(t, err, mapper.ErrNull, "V", "v", 1)
		}},
		{"a list of nullable structs clears the null elements", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V []fxOwner `arrow:"v" arrow-elem:"nullable"`
			}
			elems := fxNullStructRows(t, mem)
			defer elems.Release()
			offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 2, 3, 5}))
			data := array.NewData(arrow.ListOf(fxOwnerType), 4, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{elems.Data()}, 0, 0)
			defer data.Release()
			rec := fxRecord(t, fxCol{"v", array.MakeFromData(data)})
			defer rec.Release()
			require.Equal(t, []row{
				{[]fxOwner{{30, "ann"}, {}}},
				{[]fxOwner{}},
				{[]fxOwner{{50, "cy"}}},
				{[]fxOwner{{}, {70, "eve"}}},
			}, fxDecodeAll[row](t, rec))
		}},
		{"pointers decode at any level", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				A *int64    `arrow:"a"`
				B []*string `arrow:"b"`
				C *[]int64  `arrow:"c"`
				D **int32   `arrow:"d"`
			}
			rec := fxRecord(t,
				fxCol{"a", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, null, 3, null, 5]`)},
				fxCol{"b", fxJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["x", null], null, [], [null], ["y"]]`)},
				fxCol{"c", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1], [], null, [2, 3], null]`)},
				fxCol{"d", fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[null, 7, 8, null, 9]`)})
			defer rec.Release()
			pp := func(v int32) **int32 { p := &v; return &p }
			require.Equal(t, []row{
				{A: fxPtr(int64(1)), B: []*string{fxPtr("x"), nil}, C: &[]int64{1}},
				{C: &[]int64{}, D: pp(7)},
				{A: fxPtr(int64(3)), B: []*string{}, D: pp(8)},
				{B: []*string{nil}, C: &[]int64{2, 3}},
				{A: fxPtr(int64(5)), B: []*string{fxPtr("y")}, D: pp(9)},
			}, fxDecodeAll[row](t, rec))
		}},
		{"named types decode by their underlying kind", func(t *testing.T, mem memory.Allocator) {
			type Celsius float64
			type Name string
			type IDs []int64
			type Flag bool
			type Count uint16
			type row struct {
				Temp  Celsius  `arrow:"temp"`
				Name  Name     `arrow:"name"`
				IDs   IDs      `arrow:"ids"`
				Flag  Flag     `arrow:"flag"`
				Count *Count   `arrow:"count"`
				Names []Name   `arrow:"names"`
				Temps *Celsius `arrow:"temps"`
			}
			rec := fxRecord(t,
				fxCol{"temp", fxJSON(t, mem, arrow.PrimitiveTypes.Float32, `[21.5, -4, 0, 100, 37.25]`)},
				fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "", "d", "e"]`)},
				fxCol{"ids", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1], null, [], [2, 3], [4]]`)},
				fxCol{"flag", fxJSON(t, mem, arrow.FixedWidthTypes.Boolean, `[true, false, true, false, false]`)},
				fxCol{"count", fxJSON(t, mem, arrow.PrimitiveTypes.Uint8, `[1, null, 255, 0, null]`)},
				fxCol{"names", fxJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["x"], [], null, ["y", "z"], ["w"]]`)},
				fxCol{"temps", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, `[null, 1.5, null, 2.5, 3.5]`)})
			defer rec.Release()
			require.Equal(t, []row{
				{Temp: 21.5, Name: "a", IDs: IDs{1}, Flag: true, Count: fxPtr(Count(1)), Names: []Name{"x"}},
				{Temp: -4, Name: "b", Names: []Name{}, Temps: fxPtr(Celsius(1.5))},
				{Temp: 0, Name: "", IDs: IDs{}, Flag: true, Count: fxPtr(Count(255))},
				{Temp: 100, Name: "d", IDs: IDs{2, 3}, Count: fxPtr(Count(0)), Names: []Name{"y", "z"}, Temps: fxPtr(Celsius(2.5))},
				{Temp: 37.25, Name: "e", IDs: IDs{4}, Names: []Name{"w"}, Temps: fxPtr(Celsius(3.5))},
			}, fxDecodeAll[row](t, rec))
		}},
	})
}

type EmbBase struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

type EmbAudit struct {
	By string `arrow:"by"`
}

type EmbLevel struct {
	*EmbAudit
	Level int64 `arrow:"level"`
}

type EmbLeft struct {
	X int64 `arrow:"x"`
	L int64 `arrow:"l"`
}

type EmbRight struct {
	X int64 `arrow:"x"`
	R int64 `arrow:"r"`
}

type EmbPlain struct {
	X int64
}

type EmbTaggedX struct {
	X int64 `arrow:"X"`
}

type EmbAddress struct {
	City string `arrow:"city"`
	Zip  string `arrow:"zip"`
}

func TestDecodeEmbedded(t *testing.T) {
	// Every case reads the same record; fields pick their columns.
	build := func(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
		return fxRecord(t,
			fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, 5]`)},
			fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "c", "d", "e"]`)},
			fxCol{"by", fxJSON(t, mem, arrow.BinaryTypes.String, `["u1", "u2", "u3", "u4", "u5"]`)},
			fxCol{"level", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[10, 20, 30, 40, 50]`)},
			fxCol{"x", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[7, 7, 7, 7, 7]`)},
			fxCol{"X", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[8, 8, 8, 8, 8]`)},
			fxCol{"l", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[-1, -2, -3, -4, -5]`)},
			fxCol{"r", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, 5]`)},
			fxCol{"city", fxJSON(t, mem, arrow.BinaryTypes.String, `["Oslo", "Rome", "Lima", "Pune", "Kobe"]`)},
			fxCol{"zip", fxJSON(t, mem, arrow.BinaryTypes.String, `["0150", "00100", "15001", "411001", "650-0001"]`)},
			fxCol{"base", fxJSON(t, mem, arrow.StructOf(
				arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64},
				arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}),
				`[{"id": 100, "name": "s1"}, {"id": 200, "name": "s2"}, {"id": 300, "name": "s3"}, {"id": 400, "name": "s4"}, {"id": 500, "name": "s5"}]`)})
	}
	ids := []int64{1, 2, 3, 4, 5}
	names := []string{"a", "b", "c", "d", "e"}
	bys := []string{"u1", "u2", "u3", "u4", "u5"}
	fxRun(t, []fxCase{
		{"an embedded struct's fields are promoted", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbBase
				Level int64 `arrow:"level"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbBase{ids[i], names[i]}, int64(10 * (i + 1))}, r)
			}
		}},
		{"an embedded pointer is allocated for each row when its fields are filled", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				*EmbAudit
				ID int64 `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.NotNil(t, r.EmbAudit)
				require.Equal(t, bys[i], r.By)
				require.Equal(t, ids[i], r.ID)
				if i > 0 {
					require.NotSame(t, got[i-1].EmbAudit, r.EmbAudit, "rows share an embedded pointer")
				}
			}
		}},
		{"an embedded pointer without any column stays nil", func(t *testing.T, mem memory.Allocator) {
			type Missing struct {
				Gone string `arrow:"gone"`
			}
			type row struct {
				*Missing
				ID int64 `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec, mapper.AllowMissing())
			for i, r := range got {
				require.Equal(t, row{ID: ids[i]}, r)
			}
		}},
		{"an embedded pointer inside an embedded pointer is allocated too", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				*EmbLevel
				ID int64 `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.NotNil(t, r.EmbLevel)
				require.NotNil(t, r.EmbAudit)
				require.Equal(t, row{&EmbLevel{&EmbAudit{bys[i]}, int64(10 * (i + 1))}, ids[i]}, r)
			}
		}},
		{"a tagged embedded struct is a named struct field", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbBase `arrow:"base"`
				Level   int64 `arrow:"level"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbBase{int64(100 * (i + 1)), fmt.Sprintf("s%d", i+1)}, int64(10 * (i + 1))}, r)
			}
		}},
		{"a shallower field shadows a promoted one of the same name", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbBase
				Name string `arrow:"by"` // same Go name, another column: the column name decides
				ID   int64  `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbBase: EmbBase{Name: names[i]}, Name: bys[i], ID: ids[i]}, r,
					"the outer id hides EmbBase.ID; EmbBase.Name still reads name")
			}
		}},
		{"two promoted fields of one name at one depth hide each other", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbLeft
				EmbRight
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbLeft{X: 0, L: -int64(i + 1)}, EmbRight{X: 0, R: int64(i + 1)}}, r)
			}
			_, err := mapper.New[row](fxSchema("l", arrow.PrimitiveTypes.Int64, "r", arrow.PrimitiveTypes.Int64))
			require.NoError(t, err, "a hidden field needs no column")
		}},
		{"of two promoted fields of one name, the only tagged one wins", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbPlain
				EmbTaggedX
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for _, r := range got {
				require.Equal(t, row{EmbPlain{0}, EmbTaggedX{8}}, r)
			}
		}},
		{"an inline struct field is flattened", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				Addr EmbAddress `arrow:",inline"`
				ID   int64      `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			require.Equal(t, row{EmbAddress{"Oslo", "0150"}, 1}, got[0])
			require.Equal(t, row{EmbAddress{"Kobe", "650-0001"}, 5}, got[4])
		}},
	})
}

type fxOwner struct {
	Age  int32  `arrow:"age"`
	Name string `arrow:"name"`
}

type fxMeta struct {
	Owner fxOwner  `arrow:"owner"`
	Tags  []string `arrow:"tags"`
}

type fxDoc struct {
	ID   int64  `arrow:"id"`
	Meta fxMeta `arrow:"meta"`
}

var fxOwnerType = arrow.StructOf(
	arrow.Field{Name: "age", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true})

// fxNullStructRows is a struct<age, name> array whose rows 1 and 3 are null
// over children that hold values: ann 30, (bob 40), cy 50, (dee 60), eve 70.
func fxNullStructRows(t *testing.T, mem memory.Allocator) arrow.Array {
	ages := fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[30, 40, 50, 60, 70]`)
	defer ages.Release()
	names := fxJSON(t, mem, arrow.BinaryTypes.String, `["ann", "bob", "cy", "dee", "eve"]`)
	defer names.Release()
	data := array.NewData(fxOwnerType, 5, []*memory.Buffer{memory.NewBufferBytes([]byte{0b10101})},
		[]arrow.ArrayData{ages.Data(), names.Data()}, 2, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
