package parquet

import (
	"bytes"
	"encoding/base64"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
)

// arrowSchemaKey is the key of the file metadata that holds the Arrow
// schema, the one pqarrow's reader applies over what it derives from the
// Parquet schema.
const arrowSchemaKey = "ARROW:schema"

// goSchemaKey holds, beside arrowSchemaKey, the schema of T when it
// differs from the one stored for pqarrow: what Open reads columns back as.
const goSchemaKey = "arrowmap:schema"

// storageType is dt as pqarrow can write and read it: durations as their
// int64 counts. pqarrow writes no duration column, and fails to read one
// that a stored Arrow schema asks for, so the file's Arrow schema says
// int64 (what other readers see), and goSchemaKey's says duration, for
// Open to retype the int64 arrays it reads. changed reports whether
// anything differs from dt.
func storageType(dt arrow.DataType) (_ arrow.DataType, changed bool) {
	switch t := dt.(type) {
	case *arrow.DurationType:
		return arrow.PrimitiveTypes.Int64, true
	case *arrow.ListType:
		if elem, ok := storageField(t.ElemField()); ok {
			return arrow.ListOfField(elem), true
		}
	case *arrow.LargeListType:
		if elem, ok := storageField(t.ElemField()); ok {
			return arrow.LargeListOfField(elem), true
		}
	case *arrow.FixedSizeListType:
		if elem, ok := storageField(t.ElemField()); ok {
			return arrow.FixedSizeListOfField(t.Len(), elem), true
		}
	case *arrow.MapType:
		key, kok := storageField(t.KeyField())
		item, iok := storageField(t.ItemField())
		if kok || iok {
			m := arrow.MapOfFields(key, item)
			m.KeysSorted = t.KeysSorted
			return m, true
		}
	case *arrow.StructType:
		fields := t.Fields()
		for i, f := range fields {
			if sf, ok := storageField(f); ok {
				fields[i], changed = sf, true
			}
		}
		if changed {
			return arrow.StructOf(fields...), true
		}
	case *arrow.DictionaryType:
		if v, ok := storageType(t.ValueType); ok {
			return &arrow.DictionaryType{IndexType: t.IndexType, ValueType: v, Ordered: t.Ordered}, true
		}
	}
	return dt, false
}

func storageField(f arrow.Field) (arrow.Field, bool) {
	dt, changed := storageType(f.Type)
	f.Type = dt
	return f, changed
}

// storageSchema is schema with storageType's types, and whether it differs.
func storageSchema(schema *arrow.Schema) (*arrow.Schema, bool) {
	fields := schema.Fields()
	changed := false
	for i, f := range fields {
		if sf, ok := storageField(f); ok {
			fields[i], changed = sf, true
		}
	}
	if !changed {
		return schema, false
	}
	meta := schema.Metadata()
	return arrow.NewSchema(fields, &meta), true
}

// retypeRecord is rec with the types of schema, which differ from rec's
// only where one is a storageType of the other: the same buffers, retyped.
// The caller releases it.
func retypeRecord(rec arrow.RecordBatch, schema *arrow.Schema) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for i, col := range rec.Columns() {
		if dt := schema.Field(i).Type; dt == col.DataType() {
			col.Retain()
			cols[i] = col
			continue
		}
		d := retype(col.Data(), schema.Field(i).Type)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	out := array.NewRecordBatch(schema, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return out
}

// retype is d's buffers as an array of dt, of the same layout as d's type.
func retype(d arrow.ArrayData, dt arrow.DataType) arrow.ArrayData {
	var children []arrow.ArrayData
	switch t := dt.(type) {
	case arrow.NestedType:
		fields := t.Fields() // a map's one child is its entries struct
		for i, c := range d.Children() {
			children = append(children, retype(c, fields[i].Type))
		}
		defer func() {
			for _, c := range children {
				c.Release()
			}
		}()
	default:
		children = d.Children()
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		values := retype(dict, dt.(*arrow.DictionaryType).ValueType)
		defer values.Release()
		return array.NewDataWithDictionary(dt, d.Len(), d.Buffers(), d.NullN(), d.Offset(), values.(*array.Data))
	}
	return array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
}

// storedSchema is the value of arrowSchemaKey for schema: an IPC stream of
// the schema alone, in base64, as pqarrow stores it, with list elements
// named "element" as in the Parquet schema (readers that map the stored
// names to Parquet paths need that).
func storedSchema(schema *arrow.Schema, mem memory.Allocator) (string, error) {
	fields := schema.Fields()
	for i, f := range fields {
		fields[i] = elementNames(f)
	}
	meta := schema.Metadata()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(arrow.NewSchema(fields, &meta)), ipc.WithAllocator(mem))
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("arrowmap/parquet: storing the Arrow schema: %w", err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// elementNames is f with the elements of its lists named "element", at
// every depth.
func elementNames(f arrow.Field) arrow.Field {
	switch t := f.Type.(type) {
	case *arrow.ListType:
		f.Type = arrow.ListOfField(element(t.ElemField()))
	case *arrow.LargeListType:
		f.Type = arrow.LargeListOfField(element(t.ElemField()))
	case *arrow.FixedSizeListType:
		f.Type = arrow.FixedSizeListOfField(t.Len(), element(t.ElemField()))
	case *arrow.MapType:
		m := arrow.MapOfFields(elementNames(t.KeyField()), elementNames(t.ItemField()))
		m.KeysSorted = t.KeysSorted
		f.Type = m
	case *arrow.StructType:
		fields := t.Fields()
		for i, c := range fields {
			fields[i] = elementNames(c)
		}
		f.Type = arrow.StructOf(fields...)
	}
	return f
}

func element(f arrow.Field) arrow.Field {
	f = elementNames(f)
	f.Name = "element"
	return f
}

// decodeSchema is the schema that storedSchema encoded as value.
func decodeSchema(value string, mem memory.Allocator) (*arrow.Schema, error) {
	raw, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		return nil, err
	}
	return ipcschema.Decode(raw, mem)
}

// restoredTypes is, by name, the types of the top-level columns of the
// file's T schema (goSchemaKey's value) that pqarrow reads as their
// storageType: the types Open retypes them to. A schema that does not fit
// the file is an error.
func restoredTypes(value string, fileSchema *arrow.Schema, mem memory.Allocator) (map[string]arrow.DataType, error) {
	goSchema, err := decodeSchema(value, mem)
	if err != nil {
		return nil, fmt.Errorf("the %s metadata: %w", goSchemaKey, err)
	}
	types := map[string]arrow.DataType{}
	for _, f := range goSchema.Fields() {
		st, changed := storageType(f.Type)
		if !changed {
			continue
		}
		idx := fileSchema.FieldIndices(f.Name)
		if len(idx) != 1 || !sameLayout(st, fileSchema.Field(idx[0]).Type) {
			return nil, fmt.Errorf("the %s metadata: column %q of type %s does not fit the file's column", goSchemaKey, f.Name, f.Type)
		}
		types[f.Name] = f.Type
	}
	return types, nil
}

// restore is schema with the columns of types retyped, and whether any is.
func restore(schema *arrow.Schema, types map[string]arrow.DataType) (*arrow.Schema, bool) {
	if len(types) == 0 {
		return schema, false
	}
	fields := schema.Fields()
	changed := false
	for i, f := range fields {
		if dt, ok := types[f.Name]; ok {
			fields[i].Type, changed = dt, true
		}
	}
	if !changed {
		return schema, false
	}
	meta := schema.Metadata()
	return arrow.NewSchema(fields, &meta), true
}

// sameLayout reports whether a and b are the same type but for the names,
// nullability and metadata of their children: arrays of one can be
// retyped as the other.
func sameLayout(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	an, aok := a.(arrow.NestedType)
	bn, bok := b.(arrow.NestedType)
	if !aok || !bok {
		return arrow.TypeEqual(a, b)
	}
	af, bf := an.Fields(), bn.Fields()
	if len(af) != len(bf) {
		return false
	}
	if al, ok := a.(*arrow.FixedSizeListType); ok && al.Len() != b.(*arrow.FixedSizeListType).Len() {
		return false
	}
	for i := range af {
		if !sameLayout(af[i].Type, bf[i].Type) {
			return false
		}
	}
	return true
}
