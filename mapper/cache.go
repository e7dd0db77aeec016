package mapper

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// Decode decodes every row of rec into a []T, through a plan cached per
// (T, schema fingerprint, options): after the first call for a schema it is
// as fast as a reused Mapper. Plans built with As are not cached.
func Decode[T any](rec arrow.RecordBatch, opts ...Option) ([]T, error) {
	if rec == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	p, err := cachedPlan(reflect.TypeFor[T](), rec.Schema(), newOptions(opts))
	if err != nil {
		return nil, err
	}
	m := Mapper[T]{plan: p}
	return m.Decode(rec)
}

type cacheKey struct {
	typ         reflect.Type
	fingerprint string
	opts        optionsKey
}

type lastKey struct {
	typ  reflect.Type
	opts optionsKey
}

var (
	plans sync.Map // cacheKey → *plan
	// last is, per (type, options), the plan used last: records of one
	// stream share their schema pointer, which spares the fingerprint.
	last sync.Map // lastKey → *atomic.Pointer[plan]
)

// cachedPlan is the plan for typ and schema, compiled once per (typ, schema
// fingerprint, options) and shared by Decode and DecodeTo.
func cachedPlan(typ reflect.Type, schema *arrow.Schema, o *options) (*plan, error) {
	okey, cacheable := o.key()
	if !cacheable || schema == nil {
		if schema == nil {
			return nil, newError(ErrTypeMismatch, "", "", -1, "nil schema")
		}
		return compilePlan(typ, schema, o)
	}
	lk := lastKey{typ, okey}
	slot, ok := last.Load(lk)
	if !ok {
		// Only the first call for (typ, options) makes the slot.
		slot, _ = last.LoadOrStore(lk, new(atomic.Pointer[plan]))
	}
	lastPlan := slot.(*atomic.Pointer[plan])
	if p := lastPlan.Load(); p != nil && p.schema == schema {
		return p, nil
	}
	fp := schema.Fingerprint()
	key := cacheKey{typ, fp, okey}
	if fp != "" {
		if p, ok := plans.Load(key); ok && sameColumns(p.(*plan).schema, schema) {
			lastPlan.Store(p.(*plan))
			return p.(*plan), nil
		}
	}
	p, err := compilePlan(typ, schema, o)
	if err != nil {
		return nil, err
	}
	if fp != "" {
		plans.Store(key, p)
	}
	lastPlan.Store(p)
	return p, nil
}

// sameColumns reports whether schemas a and b have the same column names
// and types. Equal fingerprints do not promise it: arrow-go's leave out a
// fixed_size_binary's width and an extension type's name.
func sameColumns(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}
