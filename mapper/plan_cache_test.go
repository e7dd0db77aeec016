package mapper_test

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

type cacheRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

type cacheColumns struct {
	ID views.PrimitiveColumn[int64] `arrow:"id"`
}

// cacheRecord is one row of id and name, then an unused column whose name
// (and so the schema) is unused's.
func cacheRecord(t *testing.T, mem memory.Allocator, id int64, unused string) arrow.RecordBatch {
	return fxRecord(t,
		fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, fmt.Sprintf("[%d]", id))},
		fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, fmt.Sprintf(`["n%d"]`, id))},
		fxCol{unused, fxJSON(t, mem, arrow.PrimitiveTypes.Int32, "[1]")})
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func TestPlanCacheIsBoundedByThePlannedColumns(t *testing.T) {
	const records = 20_000
	entries := []struct {
		name   string
		decode func(t *testing.T, rec arrow.RecordBatch) int64
	}{
		{"mapper.Decode", func(t *testing.T, rec arrow.RecordBatch) int64 {
			rows, err := mapper.Decode[cacheRow](rec)
			require.NoError(t, err)
			return rows[0].ID
		}},
		{"mapper.New", func(t *testing.T, rec arrow.RecordBatch) int64 {
			m, err := mapper.New[cacheRow](rec.Schema())
			require.NoError(t, err)
			rows, err := m.Decode(rec)
			require.NoError(t, err)
			return rows[0].ID
		}},
		{"mapper.Columns", func(t *testing.T, rec arrow.RecordBatch) int64 {
			cols, err := mapper.Columns[cacheColumns](rec)
			require.NoError(t, err)
			return cols.ID.Value(0)
		}},
		{"mapper.NewReader", func(t *testing.T, rec arrow.RecordBatch) int64 {
			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewReader[cacheRow](rr)
			require.NoError(t, err)
			defer r.Release()
			dst := make([]cacheRow, 1)
			n, err := r.Read(dst)
			require.NoError(t, err)
			require.Equal(t, 1, n)
			return dst[0].ID
		}},
	}
	for _, e := range entries {
		t.Run(e.name+" of records whose schemas differ only in unused columns keeps one plan", func(t *testing.T) {
			mem := memory.NewGoAllocator()
			first := cacheRecord(t, mem, 0, e.name+"-unused-0")
			require.Equal(t, int64(0), e.decode(t, first))
			first.Release()
			before := heapInUse()
			for i := 1; i < records; i++ {
				rec := cacheRecord(t, mem, int64(i), fmt.Sprintf("%s-unused-%d", e.name, i))
				require.Equal(t, int64(i), e.decode(t, rec))
				rec.Release()
			}
			after := heapInUse()
			grown := int64(after) - int64(before)
			t.Logf("heap retained after %d schemas: %d bytes more than after the first", records, grown)
			require.Less(t, grown, int64(1<<20), "plans retained per schema")
		})
	}
}

type cacheFolded struct {
	Name string // untagged: matched exactly, else case-insensitively when unique
}

func TestPlanCacheNeverServesAPlanForOtherColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	str := func(js string) arrow.Array { return fxJSON(t, mem, arrow.BinaryTypes.String, js) }
	t.Run("a column that makes a case-insensitive match ambiguous is not served the plan of the unambiguous schema", func(t *testing.T) {
		one := fxRecord(t, fxCol{"NAME", str(`["a"]`)}, fxCol{"x", str(`["b"]`)})
		defer one.Release()
		rows, err := mapper.Decode[cacheFolded](one)
		require.NoError(t, err)
		require.Equal(t, []cacheFolded{{"a"}}, rows)
		two := fxRecord(t, fxCol{"NAME", str(`["a"]`)}, fxCol{"name", str(`["b"]`)})
		defer two.Release()
		// "name" is not "Name" exactly, and two columns fold to it.
		_, err = mapper.Decode[cacheFolded](two)
		fxRequireError(t, err, mapper.ErrMissingColumn, "Name", "Name", -1)
	})
	t.Run("the same column at another index gets a plan of its own", func(t *testing.T) {
		a := fxRecord(t, fxCol{"Name", str(`["first"]`)}, fxCol{"other", str(`["x"]`)})
		defer a.Release()
		b := fxRecord(t, fxCol{"other", str(`["x"]`)}, fxCol{"Name", str(`["second"]`)})
		defer b.Release()
		for range 3 {
			for _, c := range []struct {
				rec  arrow.RecordBatch
				want string
			}{{a, "first"}, {b, "second"}} {
				rows, err := mapper.Decode[cacheFolded](c.rec)
				require.NoError(t, err)
				require.Equal(t, []cacheFolded{{c.want}}, rows)
			}
		}
	})
	t.Run("a planned column of another type, equal in fingerprint, gets a plan of its own", func(t *testing.T) {
		type bytesRow struct {
			B [4]byte `arrow:"b"`
		}
		fsb := func(width int, js string) arrow.RecordBatch {
			return fxRecord(t, fxCol{"b", fxJSON(t, mem, &arrow.FixedSizeBinaryType{ByteWidth: width}, js)})
		}
		four := fsb(4, `["AQIDBA=="]`)
		defer four.Release()
		rows, err := mapper.Decode[bytesRow](four)
		require.NoError(t, err)
		require.Equal(t, []bytesRow{{[4]byte{1, 2, 3, 4}}}, rows)
		five := fsb(5, `["AQIDBAU="]`)
		defer five.Release()
		_, err = mapper.Decode[bytesRow](five)
		fxRequireError(t, err, mapper.ErrTypeMismatch, "B", "b", -1)
	})
	t.Run("more schemas in turn than the cache keeps per type all decode right", func(t *testing.T) {
		var recs []arrow.RecordBatch
		for k := range 20 {
			cols := []fxCol{}
			for j := range k {
				cols = append(cols, fxCol{fmt.Sprintf("pad%d", j), str(`["p"]`)})
			}
			cols = append(cols, fxCol{"Name", str(fmt.Sprintf(`["v%d"]`, k))})
			recs = append(recs, fxRecord(t, cols...))
		}
		defer func() {
			for _, r := range recs {
				r.Release()
			}
		}()
		for range 3 {
			for k, rec := range recs {
				rows, err := mapper.Decode[cacheFolded](rec)
				require.NoError(t, err)
				require.Equal(t, []cacheFolded{{fmt.Sprintf("v%d", k)}}, rows)
			}
		}
	})
}

func TestCallOptionsDoNotMakeNewPlans(t *testing.T) {
	schema := fxSchema("id", arrow.PrimitiveTypes.Int64, "name", arrow.BinaryTypes.String)
	plan := func(opts ...mapper.ReadOption) any {
		m, err := mapper.New[cacheRow](schema, opts...)
		require.NoError(t, err)
		return mapper.PlanOf(m)
	}
	base := plan()
	require.Same(t, base, plan(mapper.Parallelism(4)), "Parallelism made a plan of its own")
	require.Same(t, base, plan(mapper.ZeroCopy()), "ZeroCopy made a plan of its own")
	require.Same(t, base, plan(mapper.ZeroCopy(), mapper.Parallelism(2)))
	require.NotSame(t, base, plan(mapper.Strict()), "Strict is a plan option: it needs a plan of its own")
	require.Same(t, plan(mapper.Strict()), plan(mapper.Strict(), mapper.Parallelism(3)))
}

// TestPlanCacheServesIPCRecordsOfOneStream decodes the records of an IPC
// stream one by one through Decode, which meets the stream's schema again
// and again.
func TestPlanCacheServesIPCRecordsOfOneStream(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	rec := cacheRecord(t, mem, 3, "extra")
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	for range 3 {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	rec.Release()
	rr, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	for rr.Next() {
		rows, err := mapper.Decode[cacheRow](rr.RecordBatch())
		require.NoError(t, err)
		require.Equal(t, []cacheRow{{3, "n3"}}, rows)
	}
	require.NoError(t, rr.Err())
}

// cacheName is a named string that the As option of the option tests
// converts; cacheRow's Name is a plain string, so As changes nothing there.
type cacheName string

func reflectTypeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

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
