package ipcschema

import (
	"encoding/binary"
)

// arrow-go loads a batch walking the schema: each field takes the next
// field node, the next buffers and, for a view, the next variadic buffer
// count, read by index from the batch's vectors without comparing the
// index with the vector's length (flatbuf.RecordBatch.Buffers and its
// kin). A batch whose vectors are shorter than its schema needs has
// arrow-go read the bytes after them as buffers: lengths and offsets no
// check saw, one of them a compressed buffer claiming terabytes. The
// Schema says what each batch needs, and checkRecordBatch that its
// vectors hold it.

// The Type union's members (Schema.fbs).
const (
	typeNull            = 1
	typeInt             = 2
	typeFloatingPoint   = 3
	typeBinary          = 4
	typeUtf8            = 5
	typeBool            = 6
	typeDecimal         = 7
	typeDate            = 8
	typeTime            = 9
	typeTimestamp       = 10
	typeInterval        = 11
	typeList            = 12
	typeStruct          = 13
	typeFixedSizeBinary = 15
	typeFixedSizeList   = 16
	typeMap             = 17
	typeDuration        = 18
	typeLargeBinary     = 19
	typeLargeUtf8       = 20
	typeLargeList       = 21
	typeRunEndEncoded   = 22
	typeBinaryView      = 23
	typeUtf8View        = 24
	typeListView        = 25
	typeLargeListView   = 26
)

// unionDense is the UnionMode of a dense union (Schema.fbs).
const unionDense = 1

// metadataV5 is the MetadataVersion from which unions and run-end encoded
// arrays have no validity buffer (arrow-go's internal.HasValidityBitmap).
const metadataV5 = 4

// Schema is the schema of one stream or file, as its batches are checked
// against it: its top-level fields, which a record batch holds, and the
// field of each dictionary id, whose values a dictionary batch holds.
type Schema struct {
	fields []fbTable
	dicts  map[int64]fbTable
}

// SchemaOfMessage checks buf, the schema message of a stream, as
// CheckSchemaMessage does, and returns its schema.
func SchemaOfMessage(buf []byte) (*Schema, error) {
	if err := CheckSchemaMessage(buf); err != nil {
		return nil, err
	}
	fb := &flatbuffer{buf: buf}
	msg, _ := fb.root()
	schema, _, _ := msg.subtable(2)
	return schemaOf(schema)
}

// SchemaOfFooter checks buf, the footer of a file, as CheckFooter does,
// and returns its schema.
func SchemaOfFooter(buf []byte) (*Schema, error) {
	if err := CheckFooter(buf); err != nil {
		return nil, err
	}
	fb := &flatbuffer{buf: buf}
	footer, _ := fb.root()
	schema, _, _ := footer.subtable(1)
	return schemaOf(schema)
}

// schemaOf is the Schema of the checked Schema table s.
func schemaOf(s fbTable) (*Schema, error) {
	out := &Schema{dicts: map[int64]fbTable{}}
	var walk func(f fbTable) error
	walk = func(f fbTable) error {
		if dict, ok, err := f.subtable(4); err != nil {
			return err
		} else if ok {
			id, err := int64Field(dict, 0)
			if err != nil {
				return err
			}
			if _, seen := out.dicts[id]; !seen {
				out.dicts[id] = f
			}
		}
		return f.tables(5, walk)
	}
	err := s.tables(1, func(f fbTable) error {
		out.fields = append(out.fields, f)
		return walk(f)
	})
	return out, err
}

// int64Field is field i of t as an int64, 0 when absent.
func int64Field(t fbTable, i int) (int64, error) {
	at, err := t.field(i, 8)
	if err != nil || at == 0 {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(t.fb.buf[at:])), nil
}

// layout counts what arrow-go's loader takes of a batch's vectors,
// loading fields: the schema's top-level fields for a record batch, the
// field of the dictionary's id for a dictionary batch (values true).
type layout struct {
	fields []fbTable
	values bool
	v5     bool // the metadata version is V5 or later

	variadic []byte // the batch's variadicBufferCounts, nil when absent
	nodes    uint64
	buffers  uint64
	views    uint64 // variadic counts taken
}

// count counts what loading l.fields takes of the RecordBatch t, whose
// variadic buffer counts checkVariadic has checked.
func (l *layout) count(t fbTable) (err error) {
	if l.variadic, err = variadicCounts(t); err != nil {
		return err
	}
	for i, f := range l.fields {
		if err := l.field(f, l.values && i == 0); err != nil {
			return err
		}
	}
	return nil
}

// variadicCounts is the variadicBufferCounts vector of the RecordBatch t
// (field 4), its 8 bytes a count, nil when absent.
func variadicCounts(t fbTable) ([]byte, error) {
	if to, err := t.ref(4); err != nil || to == 0 {
		return nil, err
	}
	start, n, err := t.vector(4, 8)
	if err != nil {
		return nil, err
	}
	return t.fb.buf[start : start+8*n], nil
}

// field counts what arrow-go takes loading the field f, its dictionary's
// indices when it is dictionary encoded and values is false, its own
// type's arrays when values is true (the values of a dictionary batch).
func (l *layout) field(f fbTable, values bool) error {
	if !values {
		if _, ok, err := f.subtable(4); err != nil {
			return err
		} else if ok {
			l.nodes++
			l.buffers += 2 // validity and indices
			return nil
		}
	}
	kind, err := f.byteField(2)
	if err != nil {
		return err
	}
	l.nodes++
	if kind != typeNull && (!l.v5 || kind != typeUnion && kind != typeRunEndEncoded) {
		l.buffers++ // validity
	}
	switch kind {
	case typeNull, typeStruct, typeFixedSizeList, typeRunEndEncoded:
	case typeInt, typeFloatingPoint, typeBool, typeDecimal, typeDate, typeTime, typeTimestamp,
		typeInterval, typeDuration, typeFixedSizeBinary, typeList, typeLargeList, typeMap:
		l.buffers++
	case typeBinary, typeUtf8, typeLargeBinary, typeLargeUtf8, typeListView, typeLargeListView:
		l.buffers += 2
	case typeBinaryView, typeUtf8View:
		l.buffers++
		if l.variadic != nil {
			if l.views >= uint64(len(l.variadic)/8) {
				return f.fb.fail("a batch of %d variadic buffer counts, for more views", len(l.variadic)/8)
			}
			l.buffers += binary.LittleEndian.Uint64(l.variadic[8*l.views:]) // checkVariadic's, at most the buffers
			l.views++
		}
	case typeUnion:
		typ, ok, err := f.subtable(3)
		if err != nil {
			return err
		}
		l.buffers++ // type ids
		if ok {
			mode, err := typ.byteField(0)
			if err != nil {
				return err
			}
			if mode == unionDense {
				l.buffers++ // offsets
			}
		}
	default:
		return f.fb.fail("a field of type %d", kind)
	}
	return f.tables(5, func(c fbTable) error { return l.field(c, false) })
}
