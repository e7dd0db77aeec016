package mapper

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// Decode decodes every row of rec into a []T, through a Mapper cached per
// (T, schema fingerprint, options): after the first call for a schema it is
// as fast as a reused Mapper. Plans built with As are not cached.
func Decode[T any](rec arrow.RecordBatch, opts ...Option) ([]T, error) {
	if rec == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	m, err := cachedMapper[T](rec.Schema(), opts)
	if err != nil {
		return nil, err
	}
	return m.Decode(rec)
}

type cacheKey struct {
	typ         reflect.Type
	fingerprint string
	opts        optionsKey
}

// cacheEntry is a cached Mapper[T], for one schema.
type cacheEntry struct {
	schema *arrow.Schema
	mapper any
}

var (
	mappers sync.Map // cacheKey → *cacheEntry
	// last is, per (T, options), the entry used last: records of one
	// stream share their schema pointer, which spares the fingerprint.
	last sync.Map // lastKey → *atomic.Pointer[cacheEntry]
)

type lastKey struct {
	typ  reflect.Type
	opts optionsKey
}

func cachedMapper[T any](schema *arrow.Schema, opts []Option) (*Mapper[T], error) {
	o := newOptions(opts)
	okey, cacheable := o.key()
	if !cacheable || schema == nil {
		return newMapper[T](schema, o)
	}
	typ := reflect.TypeFor[T]()
	lk := lastKey{typ, okey}
	slot, _ := last.LoadOrStore(lk, new(atomic.Pointer[cacheEntry]))
	lastEntry := slot.(*atomic.Pointer[cacheEntry])
	if e := lastEntry.Load(); e != nil && e.schema == schema {
		return e.mapper.(*Mapper[T]), nil
	}
	fp := schema.Fingerprint()
	key := cacheKey{typ, fp, okey}
	if fp != "" {
		if e, ok := mappers.Load(key); ok && sameColumns(e.(*cacheEntry).schema, schema) {
			entry := e.(*cacheEntry)
			lastEntry.Store(&cacheEntry{schema: schema, mapper: entry.mapper})
			return entry.mapper.(*Mapper[T]), nil
		}
	}
	m, err := newMapper[T](schema, o)
	if err != nil {
		return nil, err
	}
	entry := &cacheEntry{schema: schema, mapper: m}
	if fp != "" {
		mappers.Store(key, entry)
	}
	lastEntry.Store(entry)
	return m, nil
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
