package mapper_test

import (
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The columns of generated_duplicate_fieldnames (Arrow's integration
// files): two columns named ints, and a struct of two children named "".
var (
	dupInner  = arrow.StructOf(arrow.Field{Name: "", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "", Type: arrow.BinaryTypes.String, Nullable: true})
	dupSchema = arrow.NewSchema([]arrow.Field{
		{Name: "ints", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "ints", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "struct", Type: dupInner, Nullable: true},
	}, nil)
)

func dupRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	a := fxJSON(t, mem, arrow.PrimitiveTypes.Int8, `[1, 2, null, 4]`)
	defer a.Release()
	b := fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[10, 20, 30, null]`)
	defer b.Release()
	// FromJSON takes no key twice: the children are built one by one.
	n := fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[7, null, null, 9]`)
	defer n.Release()
	str := fxJSON(t, mem, arrow.BinaryTypes.String, `["x", null, "z", null]`)
	defer str.Release()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(1)
	valid.Bytes()[0] = 0b1101
	defer valid.Release()
	data := array.NewData(dupInner, 4, []*memory.Buffer{valid}, []arrow.ArrayData{n.Data(), str.Data()}, 1, 0)
	defer data.Release()
	s := array.NewStructData(data)
	defer s.Release()
	return array.NewRecordBatch(dupSchema, []arrow.Array{a, b, s}, 4)
}

type dupPair struct {
	N *int32  `arrow:"\"\",pos=0"`
	S *string `arrow:"\"\",pos=1"`
}

type dupRow struct {
	Small *int8    `arrow:"ints,pos=0"`
	Big   *int32   `arrow:"ints,pos=1"`
	Pair  *dupPair `arrow:"struct"`
}

func TestPositionsTellApartColumnsOfOneName(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := dupRecord(t, mem)
	defer rec.Release()

	t.Run("pos reads each column of a name twice, at top level and inside a struct", func(t *testing.T) {
		rows, err := mapper.Decode[dupRow](rec)
		require.NoError(t, err)
		want := []dupRow{
			{fxPtr[int8](1), fxPtr[int32](10), &dupPair{fxPtr[int32](7), fxPtr("x")}},
			{fxPtr[int8](2), fxPtr[int32](20), nil},
			{nil, fxPtr[int32](30), &dupPair{nil, fxPtr("z")}},
			{fxPtr[int8](4), nil, &dupPair{fxPtr[int32](9), nil}},
		}
		require.Equal(t, want, rows)
	})
	t.Run("a name without pos reads the one column of its name no pos field reads", func(t *testing.T) {
		type row struct {
			Big   *int32 `arrow:"ints"`
			Small *int8  `arrow:"ints,pos=0"`
		}
		rows, err := mapper.Decode[row](rec)
		require.NoError(t, err)
		assert.Equal(t, fxPtr[int32](10), rows[0].Big)
		assert.Equal(t, fxPtr[int8](1), rows[0].Small)
	})
	t.Run("pos without a name reads the column at that position whatever its name", func(t *testing.T) {
		type row struct {
			Second *int32 `arrow:",pos=1"`
		}
		rows, err := mapper.Decode[row](rec)
		require.NoError(t, err)
		assert.Equal(t, []row{{fxPtr[int32](10)}, {fxPtr[int32](20)}, {fxPtr[int32](30)}, {nil}}, rows)
	})
	t.Run("typed columns bind by position too", func(t *testing.T) {
		type cols struct {
			Small views.PrimitiveColumn[int8]  `arrow:"ints,pos=0,nullable"`
			Big   views.PrimitiveColumn[int32] `arrow:"ints,pos=1,nullable"`
			Pair  struct {
				N views.PrimitiveColumn[int32] `arrow:"\"\",pos=0,nullable"`
				S views.StringColumn           `arrow:"\"\",pos=1,nullable"`
			} `arrow:"struct"`
		}
		tail := rec.NewSlice(2, 4) // rows where the struct is not null: a struct of columns cannot be
		defer tail.Release()
		c, err := mapper.Columns[cols](tail)
		require.NoError(t, err)
		assert.Equal(t, int8(4), c.Small.Value(1))
		assert.Equal(t, int32(30), c.Big.Value(0))
		assert.Equal(t, int32(9), c.Pair.N.Value(1))
		assert.Equal(t, "z", c.Pair.S.Value(0))
		assert.True(t, c.Pair.S.IsNull(1))
	})
}

func TestColumnsOfOneNameWithoutPosAreAnError(t *testing.T) {
	type byName struct {
		Ints *int32 `arrow:"ints"`
	}
	type untagged struct {
		Ints *int32
	}
	type inStruct struct {
		Pair struct {
			N *int32 `arrow:"\"\""`
		} `arrow:"struct"`
	}
	type wrongName struct {
		Ints *int32 `arrow:"longs,pos=1"`
	}
	type pastTheEnd struct {
		Ints *int32 `arrow:",pos=3"`
	}
	tests := []struct {
		name         string
		err          error
		kind         error
		path, column string
		message      string
	}{
		{"a tag name on two columns names both positions", fxNewErr[byName](dupSchema), mapper.ErrTypeMismatch, "Ints", "ints", `"ints" matches the columns at positions 0 and 1`},
		{"with AllowMissing too: the column is there", fxNewErr[byName](dupSchema, mapper.AllowMissing()), mapper.ErrTypeMismatch, "Ints", "ints", "positions 0 and 1"},
		{"an untagged field whose name folds to two columns", fxNewErr[untagged](dupSchema), mapper.ErrMissingColumn, "Ints", "Ints", "positions 0 and 1"},
		{"an empty name on two struct children", fxNewErr[inStruct](dupSchema), mapper.ErrTypeMismatch, "Pair.N", "struct.", `"" matches the columns at positions 0 and 1`},
		{"pos whose column has another name names both", fxNewErr[wrongName](dupSchema), mapper.ErrTypeMismatch, "Ints", "longs", `the column at position 1 is named "ints", the tag names "longs"`},
		{"pos past the last column is a missing column", fxNewErr[pastTheEnd](dupSchema), mapper.ErrMissingColumn, "Ints", "Ints", "no column at position 3: there are 3"},
		{"typed columns refuse it alike", func() error {
			_, err := mapper.Columns[struct {
				Ints views.PrimitiveColumn[int32] `arrow:"ints"`
			}](array.NewRecordBatch(dupSchema, nil, 0))
			return err
		}(), mapper.ErrTypeMismatch, "Ints", "ints", "positions 0 and 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			me := fxRequireError(t, tt.err, tt.kind, tt.path, tt.column, -1)
			assert.Contains(t, me.Error(), tt.message)
		})
	}
	t.Run("pos past the last column with AllowMissing keeps the zero value", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		rec := dupRecord(t, mem)
		defer rec.Release()
		rows, err := mapper.Decode[pastTheEnd](rec, mapper.AllowMissing())
		require.NoError(t, err)
		assert.Equal(t, make([]pastTheEnd, 4), rows)
	})
}

func TestEncodeWritesPositionsInFieldOrder(t *testing.T) {
	t.Run("SchemaOf writes both columns of one name and the empty names", func(t *testing.T) {
		schema, err := mapper.SchemaOf[dupRow]()
		require.NoError(t, err)
		require.True(t, schema.Equal(dupSchema), "got\n%s\nwant\n%s", schema, dupSchema)
	})
	t.Run("Encode then Decode gives the record back", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		rec := dupRecord(t, mem)
		defer rec.Release()
		rows, err := mapper.Decode[dupRow](rec)
		require.NoError(t, err)
		again, err := mapper.Encode(rows, mapper.Allocator(mem))
		require.NoError(t, err)
		defer again.Release()
		require.True(t, array.RecordEqual(rec, again), "got\n%v\nwant\n%v", again, rec)
	})
	t.Run("a name twice with one pos decodes back", func(t *testing.T) {
		type row struct {
			A int64 `arrow:"x,pos=0"`
			B int64 `arrow:"x"`
		}
		rec, err := mapper.Encode([]row{{1, 2}, {3, 4}})
		require.NoError(t, err)
		defer rec.Release()
		assert.Equal(t, "x", rec.ColumnName(1))
		back, err := mapper.Decode[row](rec)
		require.NoError(t, err)
		assert.Equal(t, []row{{1, 2}, {3, 4}}, back)
	})
	type outOfOrder struct {
		A int64 `arrow:"a,pos=1"`
		B int64 `arrow:"b,pos=0"`
	}
	type nestedOutOfOrder struct {
		S struct {
			A int64 `arrow:"a"`
			B int64 `arrow:"b,pos=0"`
		} `arrow:"s"`
	}
	for _, tt := range []struct {
		name         string
		err          error
		path, column string
		message      string
	}{
		{"a pos that is not the field's place is refused", func() error { _, err := mapper.SchemaOf[outOfOrder](); return err }(), "A", "a", "pos=1, but fields are written in order and this one is column 0"},
		{"inside a struct too", func() error { _, err := mapper.SchemaOf[nestedOutOfOrder](); return err }(), "S.B", "s.b", "pos=0, but fields are written in order and this one is column 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			me := fxRequireError(t, tt.err, mapper.ErrTag, tt.path, tt.column, -1)
			assert.Contains(t, me.Error(), tt.message)
		})
	}
}

func TestPlanCacheKeysPlansByTheColumnsPositionsPick(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	i64 := func(js string) arrow.Array { return fxJSON(t, mem, arrow.PrimitiveTypes.Int64, js) }
	type row struct {
		ByName int64 `arrow:"x"`
		ByPos  int64 `arrow:"x,pos=0"`
	}
	first := fxRecord(t, fxCol{"x", i64(`[1]`)}, fxCol{"x", i64(`[2]`)})
	defer first.Release()
	second := fxRecord(t, fxCol{"x", i64(`[1]`)}, fxCol{"y", i64(`[2]`)}, fxCol{"x", i64(`[3]`)})
	defer second.Release()
	for range 2 { // the second time from the cache
		rows, err := mapper.Decode[row](first)
		require.NoError(t, err)
		assert.Equal(t, []row{{2, 1}}, rows)
		rows, err = mapper.Decode[row](second)
		require.NoError(t, err)
		assert.Equal(t, []row{{3, 1}}, rows)
	}
	type unnamed struct {
		Second int64 `arrow:",pos=1"`
	}
	for range 2 {
		rows, err := mapper.Decode[unnamed](first)
		require.NoError(t, err)
		assert.Equal(t, []unnamed{{2}}, rows)
		rows, err = mapper.Decode[unnamed](second)
		require.NoError(t, err)
		assert.Equal(t, []unnamed{{2}}, rows)
	}
	// The plan of first must not serve a schema whose column at pos 1 has
	// another name.
	type named struct {
		Second int64 `arrow:"x,pos=1"`
	}
	_, err := mapper.Decode[named](first)
	require.NoError(t, err)
	_, err = mapper.Decode[named](second)
	fxRequireError(t, err, mapper.ErrTypeMismatch, "Second", "x", -1)
}

// GoTypeOf names what a plain tag cannot, and gen's types round-trip the
// file: Decode, Encode, and the record and schema are the original.
func TestGoTypeOfAddressesDuplicateEmptyAndUnwritableNames(t *testing.T) {
	f, err := os.Open("../testdata/arrow-integration/1.0.0-littleendian/generated_duplicate_fieldnames.arrow_file")
	require.NoError(t, err)
	defer f.Close()
	fr, err := ipc.NewFileReader(f)
	require.NoError(t, err)
	defer fr.Close()
	require.True(t, fr.Schema().Equal(dupSchema), "the file's schema is\n%s", fr.Schema())
	typ, err := mapper.GoTypeOf(fr.Schema())
	require.NoError(t, err)
	assert.Equal(t, `arrow:"ints,pos=0" json:"ints"`, string(typ.Field(0).Tag))
	assert.Equal(t, `arrow:"ints,pos=1" json:"ints"`, string(typ.Field(1).Tag))
	inner := typ.Field(2).Type.Elem()
	assert.Equal(t, `arrow:"\"\",pos=0"`, string(inner.Field(0).Tag))
	back, err := mapper.SchemaOfType(typ)
	require.NoError(t, err)
	require.True(t, back.Equal(fr.Schema()), "SchemaOf(GoTypeOf) is\n%s", back)
	require.Positive(t, fr.NumRecords())
	for i := range fr.NumRecords() {
		rec, err := fr.RecordBatch(i)
		require.NoError(t, err)
		rows, err := mapper.DecodeTo(typ, rec)
		require.NoError(t, err)
		again, err := mapper.EncodeTo(rows)
		require.NoError(t, err)
		require.True(t, array.RecordEqual(rec, again), "record %d: got\n%v\nwant\n%v", i, again, rec)
		again.Release()
	}

	for _, tt := range []struct {
		name, column, tag string
	}{
		{"a name with a comma is quoted, with its position", "a,b", `arrow:"\"a,b\",pos=1"`},
		{"a name with edge spaces is quoted", " a ", `arrow:"\" a \",pos=1" json:" a "`},
		{"a name that starts with a quote is quoted", `"q`, `arrow:"\"\\\"q\",pos=1" json:"\"q"`},
		{"an empty name is quoted", "", `arrow:"\"\",pos=1"`},
		{"a dash keeps its comma", "-", `arrow:"-," json:"-,"`},
		{"a plain name stays plain", "plain name", `arrow:"plain name" json:"plain name"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{
				{Name: "first", Type: arrow.PrimitiveTypes.Int64},
				{Name: tt.column, Type: arrow.StructOf(arrow.Field{Name: tt.column, Type: arrow.PrimitiveTypes.Int64})},
			}, nil)
			typ, err := mapper.GoTypeOf(schema)
			require.NoError(t, err)
			assert.Equal(t, tt.tag, string(typ.Field(1).Tag))
			back, err := mapper.SchemaOfType(typ)
			require.NoError(t, err)
			require.True(t, back.Equal(schema), "SchemaOf(GoTypeOf) is\n%s", back)
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			first := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2]`)
			defer first.Release()
			second := fxJSON(t, mem, schema.Field(1).Type, `[{"`+jsonEscape(tt.column)+`": 3}, {"`+jsonEscape(tt.column)+`": 4}]`)
			defer second.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{first, second}, 2)
			defer rec.Release()
			rows, err := mapper.DecodeTo(typ, rec)
			require.NoError(t, err)
			assert.Equal(t, int64(4), rows.Index(1).Field(1).Field(0).Int())
			again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
			require.NoError(t, err)
			defer again.Release()
			require.True(t, array.RecordEqual(rec, again), "got\n%v\nwant\n%v", again, rec)
		})
	}
}

func jsonEscape(s string) string {
	out := ""
	for _, r := range s {
		if r == '"' || r == '\\' {
			out += `\`
		}
		out += string(r)
	}
	return out
}
