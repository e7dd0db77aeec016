package mapper_test

import (
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// The unexported fields below are never read: the types are what the
// tests hand the mapper, which must refuse them.
//
//lint:file-ignore U1000 fields a user forgot to export, refused unread
type (
	// unexportedTagged is what a user writes who forgot to export: every
	// field tagged, none exported.
	unexportedTagged struct {
		id   int64  `arrow:"id"`
		name string `arrow:"name"`
	}
	unexportedElemTag struct {
		ID   int64    `arrow:"id"`
		tags []string `arrow-elem:"nullable"`
	}
	unexportedNested struct {
		ID    int64            `arrow:"id"`
		Inner unexportedTagged `arrow:"inner"`
	}
	unexportedSkipped struct {
		ID    int64  `arrow:"id"`
		cache string `arrow:"-"`
		note  string
	}
	unexportedEmbedded struct {
		ID int64 `arrow:"id"`
	}
	embedsUnexported struct {
		unexportedEmbedded
		Name string `arrow:"name"`
	}
	embedsUnexportedNamed struct {
		unexportedEmbedded `arrow:"base"`
		Name               string `arrow:"name"`
	}
	unexportedColumns struct {
		id views.PrimitiveColumn[int64] `arrow:"id"`
	}
)

// fieldsRecord is a record of columns id and name, and an inner struct of
// the two, of 3 rows.
func fieldsRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	inner := arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "name", Type: arrow.BinaryTypes.String})
	return fxRecord(t,
		fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3]`)},
		fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "c"]`)},
		fxCol{"base", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[7, 8, 9]`)},
		fxCol{"inner", fxJSON(t, mem, inner, `[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]`)},
		fxCol{"tags", fxJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["x"], [], null]`)})
}

// requireUnexported checks that err is the ErrTag of the unexported field
// at path, saying that it must be exported.
func requireUnexported(t *testing.T, err error, path string) {
	t.Helper()
	require.ErrorIs(t, err, mapper.ErrTag)
	var me *mapper.Error
	require.True(t, errors.As(err, &me), "%T", err)
	assert.Equal(t, path, me.Path)
	assert.Contains(t, me.Error(), "unexported")
	assert.Contains(t, me.Error(), "export it")
}

// unexportedEntryPoints runs every entry point that plans T, in either
// direction, and returns their errors by name.
func unexportedEntryPoints[T any](t *testing.T, rec arrow.RecordBatch) map[string]error {
	t.Helper()
	errs := map[string]error{}
	_, errs["Decode"] = mapper.Decode[T](rec)
	_, errs["New"] = mapper.New[T](rec.Schema())
	rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	defer rr.Release()
	if r, err := mapper.NewReader[T](rr); err != nil {
		errs["NewReader"] = err
	} else {
		r.Release()
		errs["NewReader"] = nil
	}
	var zero T
	if out, err := mapper.Encode([]T{zero}); err != nil {
		errs["Encode"] = err
	} else {
		out.Release()
		errs["Encode"] = nil
	}
	_, errs["SchemaOf"] = mapper.SchemaOf[T]()
	if b, err := mapper.NewBuilder[T](); err != nil {
		errs["NewBuilder"] = err
	} else {
		b.Release()
		errs["NewBuilder"] = nil
	}
	_, errs["FieldTags"] = mapper.FieldTags[T]("arrow")
	return errs
}

func TestAnUnexportedFieldWithATagIsAnError(t *testing.T) {
	cases := []struct {
		name  string
		check func(t *testing.T, rec arrow.RecordBatch)
	}{
		{"a struct whose tagged fields are all unexported is refused in both directions", func(t *testing.T, rec arrow.RecordBatch) {
			for entry, err := range unexportedEntryPoints[unexportedTagged](t, rec) {
				t.Run(entry, func(t *testing.T) { requireUnexported(t, err, "id") })
			}
		}},
		{"an unexported field with an arrow-elem tag alone is refused", func(t *testing.T, rec arrow.RecordBatch) {
			for entry, err := range unexportedEntryPoints[unexportedElemTag](t, rec) {
				t.Run(entry, func(t *testing.T) { requireUnexported(t, err, "tags") })
			}
		}},
		{"an unexported tagged field of a nested struct is named by its whole path", func(t *testing.T, rec arrow.RecordBatch) {
			for entry, err := range unexportedEntryPoints[unexportedNested](t, rec) {
				t.Run(entry, func(t *testing.T) { requireUnexported(t, err, "Inner.id") })
			}
		}},
		{"an embedded unexported struct named by its tag is refused", func(t *testing.T, rec arrow.RecordBatch) {
			for entry, err := range unexportedEntryPoints[embedsUnexportedNamed](t, rec) {
				t.Run(entry, func(t *testing.T) { requireUnexported(t, err, "unexportedEmbedded") })
			}
		}},
		{"Columns refuses an unexported tagged column field", func(t *testing.T, rec arrow.RecordBatch) {
			_, err := mapper.Columns[unexportedColumns](rec)
			requireUnexported(t, err, "id")
			_, err = mapper.ColumnsIndexes[unexportedColumns](rec.Schema())
			requireUnexported(t, err, "id")
		}},
		{"untagged unexported fields and those tagged arrow:\"-\" are still ignored", func(t *testing.T, rec arrow.RecordBatch) {
			got, err := mapper.Decode[unexportedSkipped](rec)
			require.NoError(t, err)
			assert.Equal(t, []unexportedSkipped{{ID: 1}, {ID: 2}, {ID: 3}}, got)
			schema, err := mapper.SchemaOf[unexportedSkipped]()
			require.NoError(t, err)
			assert.Equal(t, []string{"id"}, schemaNames(schema))
		}},
		{"the exported fields of an embedded unexported struct are still promoted", func(t *testing.T, rec arrow.RecordBatch) {
			got, err := mapper.Decode[embedsUnexported](rec)
			require.NoError(t, err)
			want := []embedsUnexported{{unexportedEmbedded{1}, "a"}, {unexportedEmbedded{2}, "b"}, {unexportedEmbedded{3}, "c"}}
			assert.Equal(t, want, got)
			schema, err := mapper.SchemaOf[embedsUnexported]()
			require.NoError(t, err)
			assert.Equal(t, []string{"id", "name"}, schemaNames(schema))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := fieldsRecord(t, mem)
			defer rec.Release()
			tc.check(t, rec)
		})
	}
}

func schemaNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}

// TestInlineOnAFieldThatIsNoStructIsRefused: inline flattens a struct's
// fields into its parent; on anything else it was silently ignored.
func TestInlineOnAFieldThatIsNoStructIsRefused(t *testing.T) {
	type onString struct {
		S string `arrow:"s,inline"`
	}
	type onTime struct {
		At time.Time `arrow:"at,inline"` // a leaf struct: one column, not fields
	}
	type onPointer struct {
		P *struct{ A int32 } `arrow:"p,inline"`
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	for name, check := range map[string]func() error{
		"a string, encoding": func() error { _, err := mapper.SchemaOf[onString](); return err },
		"a string, decoding": func() error { _, err := mapper.New[onString](schema); return err },
		"a time.Time":        func() error { _, err := mapper.SchemaOf[onTime](); return err },
		"a pointer":          func() error { _, err := mapper.SchemaOf[onPointer](); return err },
	} {
		err := check()
		require.ErrorIs(t, err, mapper.ErrTag, name)
		assert.ErrorContains(t, err, "inline does not apply to", name)
	}

	type inner struct{ A, B int32 }
	type flattened struct {
		In inner `arrow:",inline"`
	}
	s, err := mapper.SchemaOf[flattened]()
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, []string{s.Field(0).Name, s.Field(1).Name}, "a struct's fields, flattened")
}

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
