package mapper_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each order of the SchemaOf calls below gets a type of its own, so that
// neither finds the plans of the other in the cache.
type metaFirstDefault struct {
	ID int64 `arrow:"id"`
}

func (metaFirstDefault) ArrowSchemaMetadata() arrow.Metadata {
	return arrow.NewMetadata([]string{"from"}, []string{"type"})
}

type metaFirstGiven struct {
	ID int64 `arrow:"id"`
}

func (metaFirstGiven) ArrowSchemaMetadata() arrow.Metadata {
	return arrow.NewMetadata([]string{"from"}, []string{"type"})
}

func TestSchemaOfGivesTheMetadataOfItsOwnOptions(t *testing.T) {
	typeMeta := arrow.NewMetadata([]string{"from"}, []string{"type"})
	empty := arrow.Metadata{}
	check := func(t *testing.T, got *arrow.Schema, err error, want arrow.Metadata) {
		t.Helper()
		require.NoError(t, err)
		assert.True(t, got.Metadata().Equal(want), "metadata %v, want %v", got.Metadata(), want)
	}
	t.Run("without SchemaMetadata then with an empty one: the type's metadata, then none", func(t *testing.T) {
		s, err := mapper.SchemaOf[metaFirstDefault]()
		check(t, s, err, typeMeta)
		s, err = mapper.SchemaOf[metaFirstDefault](mapper.SchemaMetadata(empty))
		check(t, s, err, empty)
	})
	t.Run("with an empty SchemaMetadata then without: none, then the type's metadata", func(t *testing.T) {
		s, err := mapper.SchemaOf[metaFirstGiven](mapper.SchemaMetadata(empty))
		check(t, s, err, empty)
		s, err = mapper.SchemaOf[metaFirstGiven]()
		check(t, s, err, typeMeta)
	})
	t.Run("a SchemaMetadata of other keys in another order is its own", func(t *testing.T) {
		ab := arrow.NewMetadata([]string{"a", "b"}, []string{"1", "2"})
		ba := arrow.NewMetadata([]string{"b", "a"}, []string{"2", "1"})
		for _, md := range []arrow.Metadata{ab, ba, ab} {
			s, err := mapper.SchemaOf[metaFirstGiven](mapper.SchemaMetadata(md))
			require.NoError(t, err)
			assert.Equal(t, md.Keys(), s.Metadata().Keys())
			assert.Equal(t, md.Values(), s.Metadata().Values())
		}
	})
}

type bindingRow struct {
	ID int64 `arrow:"id"`
}

type bindingColumns struct {
	ID views.PrimitiveColumn[int64] `arrow:"id"`
}

// bindingReader is a record reader of one record of id and one column no
// field reads, named unused.
func bindingReader(t *testing.T, mem memory.Allocator, unused string) array.RecordReader {
	rec := fxRecord(t,
		fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, "[1, 2]")},
		fxCol{unused, fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b"]`)})
	defer rec.Release()
	rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	return rr
}

func TestReadersReportTheSchemaTheyRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	type schemaReader interface {
		Schema() *arrow.Schema
		Release()
	}
	open := map[string]func(rr array.RecordReader) (schemaReader, error){
		"NewReader": func(rr array.RecordReader) (schemaReader, error) {
			return mapper.NewReader[bindingRow](rr)
		},
		"NewColumnsReader": func(rr array.RecordReader) (schemaReader, error) {
			return mapper.NewColumnsReader[bindingColumns](rr)
		},
	}
	for name, open := range open {
		t.Run(name+"s over schemas that differ in an unused column each report their own", func(t *testing.T) {
			var readers []schemaReader
			var schemas []*arrow.Schema
			for i := range 3 {
				rr := bindingReader(t, mem, fmt.Sprintf("%s-unused-%d", name, i))
				r, err := open(rr)
				require.NoError(t, err)
				readers = append(readers, r)
				schemas = append(schemas, rr.Schema())
				rr.Release()
			}
			for i, r := range readers {
				assert.Same(t, schemas[i], r.Schema(), "reader %d", i)
				r.Release()
			}
		})
	}
	t.Run("a Mapper reports the schema it was built for", func(t *testing.T) {
		var schemas []*arrow.Schema
		var mappers []*mapper.Mapper[bindingRow]
		for i := range 3 {
			s := arrow.NewSchema([]arrow.Field{
				{Name: "id", Type: arrow.PrimitiveTypes.Int64},
				{Name: fmt.Sprintf("mapper-unused-%d", i), Type: arrow.BinaryTypes.String},
			}, nil)
			m, err := mapper.New[bindingRow](s)
			require.NoError(t, err)
			schemas, mappers = append(schemas, s), append(mappers, m)
		}
		for i, m := range mappers {
			assert.Same(t, schemas[i], m.Schema(), "mapper %d", i)
		}
	})
}

// distinctSchema is the i'th of many schemas that differ in the planned
// columns: an int64 column named by i (and so a new plan each).
func distinctSchema(mem memory.Allocator, prefix string, i int) arrow.RecordBatch {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Append(int64(i))
	arr := b.NewArray()
	defer arr.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: fmt.Sprintf("%s%d", prefix, i), Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecordBatch(s, []arrow.Array{arr}, 1)
}

// reflectRetains is the heap reflect alone keeps for n new struct types of
// one nullable int64 field, tagged as GoTypeOf tags one, and their slice
// types, as DecodeTo makes them: reflect.StructOf and reflect.SliceOf
// cache every type they make for the life of the program.
func reflectRetains(n int) int64 {
	before := heapInUse()
	for i := range n {
		name := fmt.Sprintf("base%d", i)
		reflect.SliceOf(reflect.StructOf([]reflect.StructField{{
			Name: "B" + name, Type: reflect.TypeFor[*int64](),
			Tag: reflect.StructTag(fmt.Sprintf(`arrow:"%s" json:"%s"`, name, name)),
		}}))
	}
	return int64(heapInUse()) - int64(before)
}

func TestPlanCacheIsBoundedInPlansAndKeys(t *testing.T) {
	const schemas = 20_000
	type anyColumn struct {
		V *int64 `arrow:",pos=0"`
	}
	entries := []struct {
		name   string
		decode func(t *testing.T, rec arrow.RecordBatch) int64
		// the heap reflect keeps of the types the entry makes
		reflectRetains func() int64
	}{
		{"GoTypeOf and DecodeTo", func(t *testing.T, rec arrow.RecordBatch) int64 {
			typ, err := mapper.GoTypeOf(rec.Schema())
			require.NoError(t, err)
			rows, err := mapper.DecodeTo(typ, rec)
			require.NoError(t, err)
			return rows.Index(0).Field(0).Elem().Int()
		}, func() int64 { return reflectRetains(schemas) }},
		{"DecodeTo of one type", func(t *testing.T, rec arrow.RecordBatch) int64 {
			rows, err := mapper.DecodeTo(reflect.TypeFor[anyColumn](), rec)
			require.NoError(t, err)
			return *rows.Interface().([]anyColumn)[0].V
		}, func() int64 { return 0 }},
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for n, e := range entries {
		t.Run(e.name+" of 20,000 distinct schemas keeps the cache within its bound", func(t *testing.T) {
			reflectRetains := e.reflectRetains()
			before := heapInUse()
			for i := range schemas {
				rec := distinctSchema(mem, fmt.Sprintf("c%d_", n), i)
				require.Equal(t, int64(i), e.decode(t, rec))
				rec.Release()
			}
			retained := int64(heapInUse()) - int64(before)
			plans, keys := mapper.PlanCacheSize()
			t.Logf("after %d schemas: %d plans under %d keys; heap retained %d bytes, of which reflect's own types about %d",
				schemas, plans, keys, retained, reflectRetains)
			assert.LessOrEqual(t, plans, mapper.MaxCachedPlans)
			assert.LessOrEqual(t, keys, plans)
			assert.Less(t, retained-reflectRetains, int64(2<<20), "heap retained beyond reflect's own types")
		})
	}
}

func TestPlanCacheServesConcurrentDecodesOfMoreSchemasThanItHolds(t *testing.T) {
	type pair struct {
		A int64 `arrow:",pos=0"`
		B int64 `arrow:",pos=1"`
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	// Each goroutine decodes records of schemas of its own, more in all than
	// the cache holds, half of them into one type (plans under one key),
	// half into a GoTypeOf type per schema (a key per plan): every decode
	// must get a plan for its own columns, whatever the others drop
	// meanwhile.
	const goroutines, perGoroutine = 4, mapper.MaxCachedPlans
	record := func(g, i int) arrow.RecordBatch {
		a, b := fmt.Sprintf("a%d_%d", g, i), fmt.Sprintf("b%d_%d", g, i)
		return fxRecord(t,
			fxCol{a, fxJSON(t, mem, arrow.PrimitiveTypes.Int64, fmt.Sprintf("[%d]", i))},
			fxCol{b, fxJSON(t, mem, arrow.PrimitiveTypes.Int64, fmt.Sprintf("[%d]", -i))})
	}
	errs := make(chan error, goroutines)
	for g := range goroutines {
		recs := make([]arrow.RecordBatch, perGoroutine)
		types := make([]reflect.Type, perGoroutine)
		for i := range recs {
			recs[i] = record(g, i)
			types[i] = reflect.TypeFor[pair]()
			if g%2 == 1 {
				typ, err := mapper.GoTypeOf(recs[i].Schema())
				require.NoError(t, err)
				types[i] = typ
			}
		}
		decodeAll := func() error {
			for round := range 3 {
				for i, rec := range recs {
					rows, err := mapper.DecodeTo(types[i], rec)
					if err != nil {
						return err
					}
					var got pair
					if g%2 == 1 {
						got = pair{rows.Index(0).Field(0).Elem().Int(), rows.Index(0).Field(1).Elem().Int()}
					} else {
						got = rows.Index(0).Interface().(pair)
					}
					if rows.Len() != 1 || got != (pair{int64(i), int64(-i)}) {
						return fmt.Errorf("goroutine %d, round %d, schema %d: %v", g, round, i, got)
					}
				}
			}
			return nil
		}
		go func() {
			err := decodeAll()
			for _, rec := range recs {
				rec.Release()
			}
			errs <- err
		}()
	}
	for range goroutines {
		require.NoError(t, <-errs)
	}
	plans, keys := mapper.PlanCacheSize()
	assert.LessOrEqual(t, plans, mapper.MaxCachedPlans)
	assert.LessOrEqual(t, keys, plans)
}
