package parquet

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// Some files other readers read, arrow-go v18.8.0 cannot: it panics on a
// logical type it does not know (parquet-testing's
// unknown-logical-type.parquet), refuses a MAP whose key is optional
// ("MAP keys must be required", incorrect_map_schema.parquet; what
// parquet-mr once wrote, and what DuckDB and arrow-rs read), and reads
// INT96 timestamps (Spark's and Impala's) only as nanoseconds, refusing a
// date past 2262 (int96_from_spark.parquet) with no way to ask for
// another unit. repairFooter gives arrow-go a footer it reads, changed
// where it cannot, and footerFix gives back what the change took away:
//
//   - a logical type of a member arrow-go does not know is dropped: the
//     column reads as its physical type (and converted type), as the
//     Parquet spec tells a reader to;
//   - a MAP whose key is optional is labelled a LIST, which pqarrow reads
//     as a list of key-value structs, made a map again (convertList
//     refuses a null key: an Arrow map holds none);
//   - an INT96 column is labelled FIXED_LEN_BYTE_ARRAY of 12 bytes, whose
//     values are the same 12 bytes in every encoding INT96 may have
//     (PLAIN and dictionaries), and made timestamps again
//     (int96Timestamps) in the unit ReadConfig.Int96Unit says.
//
// The layout of the file is not touched: the changed footer is decoded
// by arrow-go in place of the file's own (file.WithMetadata).

// The fields of parquet.thrift's structs that repairFooter changes.
const (
	schemaTypeLength   = 2 // SchemaElement.type_length
	columnMetaType     = 1 // ColumnMetaData.type
	typeFixedLenBinary = 7 // Type.FIXED_LEN_BYTE_ARRAY
	int96Bytes         = 12
)

// footerFix is what repairFooter changed that the columns read give back.
type footerFix struct {
	// int96 is the leaf columns that were INT96; maps, the leaf columns
	// of the keys of maps read as lists; nested, the first leaf columns of
	// the elements of lists of lists of the old structure, which pqarrow
	// reads as structs of one list.
	int96, maps, nested map[int]bool
	// moved is the column chunks arrow-go reads re-encoded past the end
	// of the file (see read_relocate.go), in order.
	moved []*movedChunk
}

// size is the size of the file as arrow-go reads it, of size bytes:
// with the chunks moved past its end.
func (fix *footerFix) size(size int64) int64 {
	if fix == nil || len(fix.moved) == 0 {
		return size
	}
	return fix.moved[len(fix.moved)-1].end
}

// movedChunk is the chunk of row group g, column c, when it was moved.
func (fix *footerFix) movedChunk(g, c int) *movedChunk {
	if fix == nil {
		return nil
	}
	for _, m := range fix.moved {
		if m.group == g && m.column == c {
			return m
		}
	}
	return nil
}

// repairFooter is footer, the compact encoding of the FileMetaData of a
// file of size bytes, changed as needs says (see above and read_relocate.go),
// and what the columns read give back; nil when nothing needed changing.
func repairFooter(footer []byte, needs repairs, size int64) ([]byte, *footerFix, error) {
	tree, err := decodeThrift(footer)
	if err != nil {
		return nil, nil, err
	}
	if tree.field(8) != nil {
		// encryption_algorithm: the plaintext footer of an encrypted file,
		// signed; arrow-go reads it as it is.
		return nil, nil, nil
	}
	elements := tree.structs(fileMetaSchemaField)
	fix := &footerFix{int96: map[int]bool{}, maps: map[int]bool{}, nested: map[int]bool{}}
	changed := false
	// The leaf column each element is (-1 for a group) and the children of
	// each group, in the depth-first order of the list.
	leaf := make([]int, len(elements))
	children := make([][]int, len(elements))
	var walk func(i int) int // returns the element after i's subtree
	leaves := 0
	walk = func(i int) int {
		n, group := elements[i].i32(schemaChildrenField)
		leaf[i] = -1
		if !group && i > 0 {
			leaf[i] = leaves
			leaves++
			return i + 1
		}
		next := i + 1
		for range n {
			if next >= len(elements) {
				return next
			}
			children[i] = append(children[i], next)
			next = walk(next)
		}
		return next
	}
	if len(elements) > 0 {
		walk(0)
	}
	firstLeaf := func(i int) int {
		for leaf[i] < 0 && len(children[i]) > 0 {
			i = children[i][0]
		}
		return leaf[i]
	}
	for i, e := range elements {
		if needs&repairNestedList != 0 && isList(e) && len(children[i]) == 1 {
			// The old structure of a list of lists (parquet-mr's two-level
			// lists): a repeated group named array (or <list>_tuple) is the
			// element, a list itself; pqarrow reads it as a struct.
			r := elements[children[i][0]]
			name, outer := nameOf(r), nameOf(e)
			if rep, _ := r.i32(schemaRepetition); rep == repetitionRepeated && isList(r) && len(children[children[i][0]]) == 1 &&
				(name == "array" || name == outer+"_tuple") {
				if l := firstLeaf(children[i][0]); l >= 0 {
					fix.nested[l] = true
				}
			}
		}
		if needs&repairLogicalType != 0 {
			if lt := e.child(schemaLogicalType); lt != nil && !hasKnownMember(lt) {
				e.drop(schemaLogicalType)
				changed = true
			}
		}
		if needs&repairInt96 != 0 && leaf[i] >= 0 {
			if t, _ := e.i32(schemaTypeField); t == typeInt96 {
				e.set(schemaTypeField, thrift.I32, int32(typeFixedLenBinary))
				e.set(schemaTypeLength, thrift.I32, int32(int96Bytes))
				fix.int96[leaf[i]] = true
				changed = true
			}
		}
		if needs&repairMap != 0 && isMap(e) && len(children[i]) == 1 {
			kv := children[i][0]
			if len(children[kv]) == 0 {
				continue
			}
			key := children[kv][0]
			if rep, _ := elements[key].i32(schemaRepetition); rep == repetitionRequired || leaf[key] < 0 {
				continue
			}
			if _, ok := e.i32(schemaConvertedType); ok {
				e.set(schemaConvertedType, thrift.I32, int32(convertedList))
			}
			if e.child(schemaLogicalType) != nil {
				e.set(schemaLogicalType, thrift.STRUCT, &tStruct{fields: []tField{{id: logicalListMember, typ: thrift.STRUCT, val: &tStruct{}}}})
			}
			if c, _ := elements[kv].i32(schemaConvertedType); c == convertedMapKV {
				elements[kv].drop(schemaConvertedType)
			}
			fix.maps[leaf[key]] = true
			changed = true
		}
	}
	if len(fix.int96) > 0 {
		for _, rg := range tree.structs(fileMetaRowGroupsField) {
			for c, chunk := range rg.structs(rowGroupColumnsField) {
				if meta := chunk.child(chunkMetaDataField); meta != nil && fix.int96[c] {
					meta.set(columnMetaType, thrift.I32, int32(typeFixedLenBinary))
				}
			}
		}
	}
	if needs&(repairLZ4|repairV2) != 0 {
		fix.moved = moveChunks(tree, size)
		changed = changed || len(fix.moved) > 0
	}
	if !changed {
		if len(fix.nested) > 0 {
			return nil, fix, nil // given back, the footer as it is
		}
		return nil, nil, nil
	}
	repaired, err := encodeThrift(tree)
	return repaired, fix, err
}

// hasKnownMember reports whether lt, a LogicalType union, holds a member
// arrow-go knows.
func hasKnownMember(lt *tStruct) bool {
	for _, f := range lt.fields {
		if knownLogicalType(f.id) {
			return true
		}
	}
	return false
}

// nameOf is the name of e, a schema element.
func nameOf(e *tStruct) string {
	if f := e.field(schemaNameField); f != nil && f.typ == thrift.STRING {
		return string(f.val.([]byte))
	}
	return ""
}

// isList reports whether e, a schema element, is annotated LIST.
func isList(e *tStruct) bool {
	if c, ok := e.i32(schemaConvertedType); ok && c == convertedList {
		return true
	}
	lt := e.child(schemaLogicalType)
	return lt != nil && lt.field(logicalListMember) != nil
}

// isMap reports whether e, a schema element, is annotated MAP.
func isMap(e *tStruct) bool {
	if c, ok := e.i32(schemaConvertedType); ok && c == convertedMap {
		return true
	}
	lt := e.child(schemaLogicalType)
	return lt != nil && lt.field(logicalMapMember) != nil
}

// restore gives back, in fields (the top-level fields of the file as
// written), what repairFooter changed of the types pqarrow reads from the
// footer it was given (manifest): INT96 columns as timestamps of unit
// (keeping a stored Arrow schema's timestamp where it has one and
// explicit is false), maps read as lists as maps.
func (fix *footerFix) restore(fields []arrow.Field, manifest *pqarrow.SchemaManifest, unit arrow.TimeUnit, explicit bool) {
	for i := range fields {
		if i >= len(manifest.Fields) {
			return
		}
		if _, ok := fields[i].Type.(*arrow.TimestampType); ok && !explicit {
			continue // the stored Arrow schema's
		}
		if dt, changed := fix.restoreType(&manifest.Fields[i], unit); changed {
			fields[i].Type = withoutFieldIDs(arrow.Field{Type: dt}).Type
		}
	}
}

// restoreType is the type of sf as restore gives it back, and whether it
// differs from pqarrow's.
func (fix *footerFix) restoreType(sf *pqarrow.SchemaField, unit arrow.TimeUnit) (arrow.DataType, bool) {
	if sf.IsLeaf() {
		if fix.int96[sf.ColIndex] {
			// In UTC, as pqarrow reads INT96 (arrow.FixedWidthTypes.Timestamp_ns).
			return &arrow.TimestampType{Unit: unit, TimeZone: "UTC"}, true
		}
		return sf.Field.Type, false
	}
	children := make([]arrow.Field, len(sf.Children))
	changed := false
	for j := range sf.Children {
		dt, c := fix.restoreType(&sf.Children[j], unit)
		children[j] = *sf.Children[j].Field
		children[j].Type = dt
		changed = changed || c
	}
	switch dt := sf.Field.Type.(type) {
	case *arrow.ListType:
		elem := &sf.Children[0]
		if arrowtype.OfType(elem.Field.Type).Layout == arrowtype.Struct && len(elem.Children) == 1 && fix.nested[firstLeafOf(elem)] {
			if _, ok := elem.Children[0].Field.Type.(*arrow.ListType); ok {
				// A struct of one list, pqarrow's reading of a list of the
				// old structure: the list is the element.
				inner := children[0].Type.(arrow.NestedType).Fields()[0]
				return arrow.ListOfField(arrow.Field{Name: elem.Field.Name, Type: inner.Type, Nullable: elem.Field.Nullable}), true
			}
		}
		if len(elem.Children) == 2 && elem.Children[0].IsLeaf() && fix.maps[elem.Children[0].ColIndex] {
			kv := children[0].Type.(arrow.NestedType).Fields()
			key, value := kv[0], kv[1]
			key.Nullable = false
			return arrow.MapOfFields(key, value), true
		}
		if changed {
			return arrow.ListOfField(children[0]), true
		}
	case *arrow.MapType:
		if changed {
			kv := children[0].Type.(arrow.NestedType).Fields()
			return arrow.MapOfFields(kv[0], kv[1]), true
		}
	default:
		if changed && arrowtype.OfType(dt).Layout == arrowtype.Struct {
			return arrow.StructOf(children...), true
		}
	}
	return sf.Field.Type, false
}

// firstLeafOf is the first leaf column under sf.
func firstLeafOf(sf *pqarrow.SchemaField) int {
	for !sf.IsLeaf() && len(sf.Children) > 0 {
		sf = &sf.Children[0]
	}
	return sf.ColIndex
}
