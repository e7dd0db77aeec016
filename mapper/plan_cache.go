package mapper

import (
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/tags"
)

// The plan cache: one for every entry point. A plan is cached under its
// key, which planKeyOf computes from every input of the plan: the kind of
// plan, the Go type, the plan options (SchemaMetadata included, and
// whether it was given) and the planned columns — the column each field of
// the type reads, with its name and type. A column no field reads is not
// part of a plan's identity, so a stream whose schemas differ only in
// unused columns reuses one plan; the entry point that uses it holds the
// schema it reads beside it (a binding: a Mapper, a Reader, a
// ColumnsReader), and reports that schema, never the one the plan was
// compiled for. Call options (ZeroCopy, Parallelism, Allocator) are not
// part of a plan.
//
// The cache is bounded in total: at most maxPlans plans, and so at most
// maxPlans keys, since a key is dropped with its last plan. Past the bound
// a clock sweep drops a plan not used since the sweep last passed it. At
// most plansPerKey plans are kept for one Go type and plan options, the
// least recently used dropped first, so that one type's stream of schemas
// does not sweep out every other type's plans.
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

// planKey is every input of a plan. Two keys are of one plan when their
// heads are equal and their schemas plan the same columns: the same
// indexes, names and types, whatever else the schemas hold.
type planKey struct {
	head   planHead
	schema *arrow.Schema // the schema planned, nil for an encode plan
}

// planHead is the comparable part of a planKey: plans for different
// planned columns are kept under one head.
type planHead struct {
	kind planKind
	typ  reflect.Type
	opts planOptions
}

// planOptions is the plan options, comparable.
type planOptions struct {
	strict, allowMissing, snakeCase, rejectExtra, lastKeyWins bool
	// Without SchemaMetadata, the schema's metadata is the row type's
	// ArrowSchemaMetadata; with it, SchemaMetadata's, empty or not.
	schemaMetaGiven bool
	schemaMeta      string // SchemaMetadata's, as tags.FormatMetadata writes it
}

// planKeyOf is the key of the plan of kind for typ, schema and o: the one
// place that says what a plan depends on. ok is false for a plan that is
// not cached: one with As conversions.
func planKeyOf(kind planKind, typ reflect.Type, schema *arrow.Schema, o *options) (key planKey, ok bool) {
	opts := planOptions{
		strict: o.strict, allowMissing: o.allowMissing, snakeCase: o.snakeCase,
		rejectExtra: o.rejectExtra, lastKeyWins: o.lastKeyWins,
		schemaMetaGiven: o.given&optSchemaMetadata != 0,
	}
	if opts.schemaMetaGiven {
		opts.schemaMeta = tags.FormatMetadata(o.schemaMeta)
	}
	return planKey{planHead{kind, typ, opts}, schema}, len(o.conversions) == 0
}

const (
	// maxPlans bounds the plans of the whole cache: far more than the
	// schemas a program alternates between, and a bound on what a stream
	// of ever new schemas or GoTypeOf types can hold.
	maxPlans = 256
	// plansPerKey bounds the plans kept under one planHead.
	plansPerKey = 8
)

// plans is the plan cache.
var plans planCache

type planCache struct {
	sets sync.Map // planHead → *planSet, read without a lock
	// mu guards every change: the ring, the hand, which sets are in sets,
	// and each set's plans.
	mu   sync.Mutex
	ring []*cachedPlan // every plan held, at most maxPlans
	hand int           // the clock's: the next slot of ring the sweep looks at
}

// planSet is the plans of one planHead, the most recently used first.
type planSet struct {
	plans []*cachedPlan
	// last is the plan used last with the schema it was used for: the
	// records of one stream share their schema object, which spares
	// matching, and makes a hit allocation-free.
	last atomic.Pointer[lastUse]
}

type lastUse struct {
	schema *arrow.Schema
	plan   *cachedPlan
}

// cachedPlan is a compiled plan and the columns it plans.
type cachedPlan struct {
	head planHead
	// matched is, per field of the Go type, the index of its column in the
	// schema, or -1 for a field without one (AllowMissing).
	matched []int
	columns []arrow.Field // by field: the matched column, for its name and type
	plan    any
	slot    int         // in the ring
	used    atomic.Bool // since the sweep last passed it
}

// planFor returns the plan of kind for typ and schema (nil for an encode
// plan, which depends on no schema), compiling it with compile when the
// cache has none for the columns schema plans.
func planFor[P any](kind planKind, typ reflect.Type, schema *arrow.Schema, o *options, compile func() (P, error)) (P, error) {
	key, cacheable := planKeyOf(kind, typ, schema, o)
	if !cacheable {
		return compile()
	}
	if cp := plans.last(key); cp != nil {
		return cp.plan.(P), nil
	}
	var matched []int
	if schema != nil {
		var ok bool
		if matched, ok = matchedColumns(typ, schema, o); !ok {
			return compile() // the compiler reports what does not match
		}
	}
	if cp := plans.find(key, matched); cp != nil {
		return cp.plan.(P), nil
	}
	p, err := compile()
	if err != nil {
		return p, err
	}
	return plans.add(key, matched, p).plan.(P), nil
}

// last is the plan last used for key's head, if it was used for key's
// schema object: the hit of every record of a stream after its first,
// without a lock or an allocation.
func (c *planCache) last(key planKey) *cachedPlan {
	s, ok := c.sets.Load(key.head)
	if !ok {
		return nil
	}
	last := s.(*planSet).last.Load()
	if last == nil || last.schema != key.schema {
		return nil
	}
	if !last.plan.used.Load() {
		last.plan.used.Store(true)
	}
	return last.plan
}

// find returns the plan of key's head whose fields read the same columns
// of key's schema as matched says, with the same names and types, and
// makes it the most recently used.
func (c *planCache) find(key planKey, matched []int) *cachedPlan {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sets.Load(key.head)
	if !ok {
		return nil
	}
	set := s.(*planSet)
	cp := set.find(matched, key.schema)
	if cp != nil {
		cp.used.Store(true)
		set.last.Store(&lastUse{key.schema, cp})
	}
	return cp
}

// find is planCache.find within one set, under the cache's lock.
func (s *planSet) find(matched []int, schema *arrow.Schema) *cachedPlan {
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

// add caches plan p of key, whose fields read the columns matched says,
// and returns it, or the plan another goroutine added for them meanwhile.
// Past plansPerKey, it takes the slot of its set's least recently used
// plan; past maxPlans, that of the plan the clock sweep finds unused.
func (c *planCache) add(key planKey, matched []int, p any) *cachedPlan {
	c.mu.Lock()
	defer c.mu.Unlock()
	var set *planSet
	if s, ok := c.sets.Load(key.head); ok {
		set = s.(*planSet)
		if cp := set.find(matched, key.schema); cp != nil {
			return cp
		}
	}
	cp := &cachedPlan{head: key.head, matched: matched, plan: p}
	if key.schema != nil {
		cp.columns = make([]arrow.Field, len(matched))
		for k, i := range matched {
			if i >= 0 {
				cp.columns[k] = key.schema.Field(i)
			}
		}
	}
	switch {
	case set != nil && len(set.plans) >= plansPerKey:
		cp.slot = c.drop(set.plans[len(set.plans)-1])
	case len(c.ring) < maxPlans:
		cp.slot = len(c.ring)
		c.ring = append(c.ring, nil)
	default:
		cp.slot = c.drop(c.ring[c.sweep()])
	}
	c.ring[cp.slot] = cp
	if s, ok := c.sets.Load(key.head); ok { // the drop may have emptied the set
		set = s.(*planSet)
	} else {
		set = &planSet{}
		c.sets.Store(key.head, set)
	}
	set.plans = slices.Insert(set.plans, 0, cp)
	set.last.Store(&lastUse{key.schema, cp})
	return cp
}

// sweep moves the clock's hand to a plan not used since it last passed,
// clearing the use of those it passes, and returns its slot.
func (c *planCache) sweep() int {
	for {
		slot := c.hand
		c.hand = (c.hand + 1) % len(c.ring)
		if !c.ring[slot].used.Swap(false) {
			return slot
		}
	}
}

// drop takes cp out of its set, and the set out of the cache with its
// last plan, and returns cp's slot in the ring, free for another.
func (c *planCache) drop(cp *cachedPlan) int {
	s, _ := c.sets.Load(cp.head)
	set := s.(*planSet)
	set.plans = slices.DeleteFunc(set.plans, func(p *cachedPlan) bool { return p == cp })
	if last := set.last.Load(); last != nil && last.plan == cp {
		set.last.Store(nil)
	}
	if len(set.plans) == 0 {
		c.sets.Delete(cp.head)
	}
	c.ring[cp.slot] = nil
	return cp.slot
}

// sameColumns reports whether the columns cp plans have the same names and
// types in schema, by arrow.TypeEqual: a fixed_size_binary's width and an
// extension type's name count.
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
// matchFields; ok is false when the fields do not bind, which compiling
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

// cachedDecodePlan is the decode plan for typ and schema.
func cachedDecodePlan(typ reflect.Type, schema *arrow.Schema, o *options) (*plan, error) {
	if schema == nil {
		return nil, newError(ErrTypeMismatch, "", "", -1, "nil schema")
	}
	return planFor(decodeKind, typ, schema, o, func() (*plan, error) { return compilePlan(typ, schema, o) })
}
