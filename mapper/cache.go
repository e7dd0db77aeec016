package mapper

import (
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// The plan cache: one for every entry point. Plans are kept per (kind of
// plan, Go type, plan options), and under each such key, for the columns
// they plan: the column each field of the type reads, with its name and
// type. A column no field reads is not part of a plan's identity, so a
// stream whose schemas differ only in unused columns reuses one plan, and
// at most plansPerKey plans are kept per key, the least recently used
// dropped first. Call options (ZeroCopy, Parallelism, Allocator) are not
// part of a plan.
//
// Plans built with As conversions are not cached: the conversions are
// functions, which cannot be compared.

// planKind tells apart the plans compiled for one Go type.
type planKind uint8

const (
	decodeKind  planKind = iota // *plan: rows of a struct type
	columnsKind                 // *columnsPlan: a struct of typed columns
	encodeKind                  // *encodePlan: a struct type to Arrow
)

type cacheKey struct {
	kind planKind
	typ  reflect.Type
	opts planKey
}

// plansPerKey bounds the plans kept per cacheKey: enough for the schemas a
// program alternates between, few enough that a stream of ever new
// schemas cannot grow the cache.
const plansPerKey = 8

var planCache sync.Map // cacheKey → *planSet

// planSet is the plans of one cacheKey, the most recently used first.
type planSet struct {
	mu    sync.Mutex
	plans []*cachedPlan
	// last is the plan used last with the schema it was used for: the
	// records of one stream share their schema, which spares matching.
	last atomic.Pointer[lastUse]
}

type lastUse struct {
	schema *arrow.Schema
	plan   *cachedPlan
}

// cachedPlan is a compiled plan and the columns it plans.
type cachedPlan struct {
	// matched is, per field of the Go type, the index of its column in the
	// schema, or -1 for a field without one (AllowMissing).
	matched []int
	columns []arrow.Field // by field: the matched column, for its name and type
	plan    any
}

// planFor returns the plan of kind for typ and schema (nil for an encode
// plan, which depends on no schema), compiling it with compile when the
// cache has none for the columns schema plans.
func planFor[P any](kind planKind, typ reflect.Type, schema *arrow.Schema, o *options, compile func() (P, error)) (P, error) {
	okey, cacheable := o.key()
	if !cacheable {
		return compile()
	}
	key := cacheKey{kind, typ, okey}
	s, ok := planCache.Load(key)
	if !ok {
		s, _ = planCache.LoadOrStore(key, &planSet{})
	}
	set := s.(*planSet)
	if last := set.last.Load(); last != nil && last.schema == schema {
		return last.plan.plan.(P), nil
	}
	var matched []int
	if schema != nil {
		var ok bool
		if matched, ok = matchedColumns(typ, schema, o); !ok {
			return compile() // the compiler reports what does not match
		}
	}
	if cp := set.find(matched, schema); cp != nil {
		set.last.Store(&lastUse{schema, cp})
		return cp.plan.(P), nil
	}
	p, err := compile()
	if err != nil {
		return p, err
	}
	cp := &cachedPlan{matched: matched, plan: p}
	if schema != nil {
		cp.columns = make([]arrow.Field, len(matched))
		for k, i := range matched {
			if i >= 0 {
				cp.columns[k] = schema.Field(i)
			}
		}
	}
	set.add(cp)
	set.last.Store(&lastUse{schema, cp})
	return p, nil
}

// find returns the plan whose fields read the same columns of schema as
// matched says, with the same names and types, and moves it to the front.
func (s *planSet) find(matched []int, schema *arrow.Schema) *cachedPlan {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, cp := range s.plans {
		if !slices.Equal(cp.matched, matched) || !sameColumns(cp, schema) {
			continue
		}
		copy(s.plans[1:k+1], s.plans[:k])
		s.plans[0] = cp
		return cp
	}
	return nil
}

// add puts cp at the front, dropping the least recently used plan past
// plansPerKey.
func (s *planSet) add(cp *cachedPlan) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plans = slices.Insert(s.plans, 0, cp)
	if len(s.plans) > plansPerKey {
		s.plans[plansPerKey] = nil
		s.plans = s.plans[:plansPerKey]
	}
}

// sameColumns reports whether the columns cp plans have the same names and
// types in schema. Equal fingerprints would not promise it: arrow-go's
// leave out a fixed_size_binary's width and an extension type's name.
func sameColumns(cp *cachedPlan, schema *arrow.Schema) bool {
	for k, i := range cp.matched {
		if i < 0 {
			continue
		}
		f := schema.Field(i)
		if f.Name != cp.columns[k].Name || !arrow.TypeEqual(f.Type, cp.columns[k].Type) {
			return false
		}
	}
	return true
}

// matchedColumns is, per field of struct type typ, the index of the
// schema's column it reads (-1 for none), by the one matching rule of
// bindFields; ok is false when the fields do not bind, which compiling
// reports.
func matchedColumns(typ reflect.Type, schema *arrow.Schema, o *options) ([]int, bool) {
	if typ.Kind() != reflect.Struct {
		return nil, false
	}
	fields, ferr := structFields(typ)
	if ferr != nil {
		return nil, false
	}
	matched, err := matchFields(fields, schema.Fields(), where{}, o)
	return matched, err == nil
}

// Decode decodes every row of rec into a []T, through a plan cached per
// (T, the columns it reads, plan options): after the first call for a
// schema it is as fast as a reused Mapper. Plans built with As are not
// cached.
func Decode[T any](rec arrow.RecordBatch, opts ...Option) ([]T, error) {
	if rec == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	m, err := newMapper[T]("Decode", rec.Schema(), opts)
	if err != nil {
		return nil, err
	}
	return m.Decode(rec)
}

// cachedDecodePlan is the decode plan for typ and schema.
func cachedDecodePlan(typ reflect.Type, schema *arrow.Schema, o *options) (*plan, error) {
	if schema == nil {
		return nil, newError(ErrTypeMismatch, "", "", -1, "nil schema")
	}
	return planFor(decodeKind, typ, schema, o, func() (*plan, error) { return compilePlan(typ, schema, o) })
}
