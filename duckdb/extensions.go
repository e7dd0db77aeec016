package duckdb

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype"
)

// DuckDB's records come through arrow-go's C data import, which keeps an
// extension type (arrow.uuid, arrow.json, arrow.bool8, DuckDB's
// arrow.opaque types) as its field's metadata only, over its storage. The
// reader gives them their extension types back, those registered in
// arrow-go (arrow-go's extensions package, which this package imports,
// registers the canonical ones): the buffers are DuckDB's, unchanged.

const (
	extensionName     = "ARROW:extension:name"
	extensionMetadata = "ARROW:extension:metadata"
)

// withExtensions is f's type with the extensions its metadata, and its
// children's, name, and whether it differs from f's.
func withExtensions(f arrow.Field) (arrow.DataType, bool) {
	dt, changed := f.Type, false
	if children := slices.Clone(arrowtype.Children(dt)); len(children) > 0 {
		for i := range children {
			if t, ch := withExtensions(children[i]); ch {
				children[i].Type, changed = t, true
			}
		}
		if changed {
			dt, changed = arrowtype.WithChildren(dt, children)
		}
	}
	name, ok := f.Metadata.GetValue(extensionName)
	if !ok {
		return dt, changed
	}
	registered := arrow.GetExtensionType(name)
	if registered == nil {
		return dt, changed
	}
	md, _ := f.Metadata.GetValue(extensionMetadata)
	ext, err := registered.Deserialize(dt, md)
	if err != nil {
		return dt, changed // its storage, as an unregistered one
	}
	return ext, true
}

// schemaWithExtensions is schema with the extensions of its fields'
// metadata, nil when it names none that is registered.
func schemaWithExtensions(schema *arrow.Schema) *arrow.Schema {
	fields := schema.Fields()
	changed := false
	for i, f := range fields {
		if t, ch := withExtensions(f); ch {
			fields[i].Type, changed = t, true
		}
	}
	if !changed {
		return nil
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// retype is rec under schema, a schemaWithExtensions of its own: the same
// buffers.
func retype(rec arrow.RecordBatch, schema *arrow.Schema) (arrow.RecordBatch, error) {
	return carry(memory.DefaultAllocator, rec, schema)
}
