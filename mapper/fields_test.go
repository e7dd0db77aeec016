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
