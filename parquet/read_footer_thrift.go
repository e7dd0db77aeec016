package parquet

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/mapper"
)

// arrow-go decodes the footer with code generated from parquet.thrift,
// which makes every list at the length the bytes claim before reading an
// element, and the schema's groups at the number of children a schema
// element claims: one damaged varint makes it ask for gigabytes, and the
// runtime ends the process rather than fail the allocation. checkThrift
// walks the footer's encoding first, with nothing allocated by a count.

// The fields of FileMetaData and SchemaElement in parquet.thrift that
// checkThrift reads.
const (
	fileMetaSchemaField = 2  // FileMetaData.schema: list<SchemaElement>
	schemaTypeField     = 1  // SchemaElement.type: i32
	schemaRepetition    = 3  // SchemaElement.repetition_type: i32
	schemaNameField     = 4  // SchemaElement.name: string
	schemaChildrenField = 5  // SchemaElement.num_children: i32
	schemaConvertedType = 6  // SchemaElement.converted_type: i32
	schemaLogicalType   = 10 // SchemaElement.logicalType: LogicalType
	maxThriftDepth      = 64

	typeInt96          = 3 // Type.INT96
	convertedMap       = 1 // ConvertedType.MAP
	convertedMapKV     = 2 // ConvertedType.MAP_KEY_VALUE
	logicalMapMember   = 2 // LogicalType.MAP
	convertedList      = 3 // ConvertedType.LIST
	logicalListMember  = 3 // LogicalType.LIST
	repetitionRequired = 0 // FieldRepetitionType.REQUIRED
	repetitionRepeated = 2 // FieldRepetitionType.REPEATED
)

// knownLogicalTypes is the members of the LogicalType union that arrow-go
// v18.8.0 knows; it panics on a footer of another ("invalid logical type").
var knownLogicalTypes = [...]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true,
	10: true, 11: true, 12: true, 13: true, 14: true, 15: true, 16: true, 17: true, 18: true}

// knownLogicalType reports whether id is a member of the LogicalType union
// arrow-go knows.
func knownLogicalType(id int16) bool {
	return id >= 0 && int(id) < len(knownLogicalTypes) && knownLogicalTypes[id]
}

// repairs is what of a footer arrow-go cannot read as it is, found as
// checkThrift walks it (see repairFooter).
type repairs uint8

const (
	repairInt96       repairs = 1 << iota // a column of INT96
	repairLogicalType                     // a logical type arrow-go does not know
	repairMap                             // a MAP, whose key may be optional
	repairLZ4                             // a column chunk of the deprecated LZ4 codec
	repairV2                              // a compressed column chunk of version 2 data pages
	repairNestedList                      // a list of lists of the old structure
)

// The fields of RowGroup, ColumnChunk, ColumnMetaData and
// PageEncodingStats that checkThrift reads.
const (
	fileMetaRowGroupsField = 4  // FileMetaData.row_groups: list<RowGroup>
	rowGroupColumnsField   = 1  // RowGroup.columns: list<ColumnChunk>
	chunkMetaDataField     = 3  // ColumnChunk.meta_data: ColumnMetaData
	metaCodecField         = 4  // ColumnMetaData.codec: i32
	metaEncodingStatsField = 13 // ColumnMetaData.encoding_stats: list<PageEncodingStats>
	statsPageTypeField     = 1  // PageEncodingStats.page_type: i32

	codecUncompressed = 0 // CompressionCodec.UNCOMPRESSED
	codecSnappy       = 1 // CompressionCodec.SNAPPY
	codecLZ4          = 5 // CompressionCodec.LZ4, deprecated
)

// checkThrift checks the encoding of the plain footer of the Parquet file
// of size bytes that r reads, before arrow-go decodes it: every list, set,
// map and string no longer than the bytes left, nesting no deeper than
// maxThriftDepth, and no schema element claiming more children than the
// schema has elements. It returns the footer's bytes and what of them
// arrow-go cannot read as they are; none of an encrypted footer, which is
// left to arrow-go.
func checkThrift(r io.ReaderAt, size int64, name string) ([]byte, repairs, error) {
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, 0, fmt.Errorf("arrowmap/parquet: %s: reading the footer: %w", name, err)
	}
	if string(tail[4:]) != string(magic) {
		return nil, 0, nil // "PARE": encrypted
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil, 0, fmt.Errorf("arrowmap/parquet: %s: %w: a footer of %d bytes in a file of %d", name, mapper.ErrInvalidData, n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return nil, 0, fmt.Errorf("arrowmap/parquet: %s: reading the footer: %w", name, err)
	}
	needs, err := walkFooter(footer)
	if err != nil {
		return nil, 0, fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer: %w", name, mapper.ErrInvalidData, err)
	}
	return footer, needs, nil
}

// footerWalker reads a thrift compact encoding, checking sizes.
type footerWalker struct {
	buf   *thrift.TMemoryBuffer
	proto *thrift.TCompactProtocol
	ctx   context.Context
	needs repairs
}

// walkFooter checks footer, the compact encoding of a FileMetaData, and
// returns what of it arrow-go cannot read as it is.
func walkFooter(footer []byte) (repairs, error) {
	buf := thrift.NewTMemoryBufferLen(len(footer))
	buf.Write(footer)
	w := &footerWalker{buf: buf, proto: thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{}), ctx: context.Background()}
	err := w.structure(0, func(id int16, t thrift.TType) (bool, error) {
		switch {
		case id == fileMetaSchemaField && t == thrift.LIST:
			return true, w.schema()
		case id == fileMetaRowGroupsField && t == thrift.LIST:
			return true, w.structs(1, func(id int16, t thrift.TType) (bool, error) {
				if id != rowGroupColumnsField || t != thrift.LIST {
					return false, nil
				}
				return true, w.structs(2, func(id int16, t thrift.TType) (bool, error) {
					if id != chunkMetaDataField || t != thrift.STRUCT {
						return false, nil
					}
					return true, w.columnMeta()
				})
			})
		}
		return false, nil
	})
	return w.needs, err
}

// structs reads a list of structs at depth, handing each field of each to
// own, as structure does.
func (w *footerWalker) structs(depth int, own func(id int16, t thrift.TType) (bool, error)) error {
	elem, n, err := w.proto.ReadListBegin(w.ctx)
	if err != nil {
		return err
	}
	if err := w.size(n); err != nil {
		return err
	}
	for range n {
		if elem != thrift.STRUCT {
			err = w.skip(elem, depth+1)
		} else {
			err = w.structure(depth+1, own)
		}
		if err != nil {
			return err
		}
	}
	return w.proto.ReadListEnd(w.ctx)
}

// columnMeta reads a ColumnMetaData, noting a chunk of the LZ4 codec,
// and a compressed chunk whose encoding statistics count version 2 data
// pages.
func (w *footerWalker) columnMeta() error {
	codec, v2 := int32(-1), false
	err := w.structure(3, func(id int16, t thrift.TType) (bool, error) {
		switch {
		case id == metaCodecField && t == thrift.I32:
			c, err := w.proto.ReadI32(w.ctx)
			codec = c
			return true, err
		case id == metaEncodingStatsField && t == thrift.LIST:
			return true, w.structs(4, func(id int16, t thrift.TType) (bool, error) {
				if id != statsPageTypeField || t != thrift.I32 {
					return false, nil
				}
				typ, err := w.proto.ReadI32(w.ctx)
				v2 = v2 || typ == dataPageV2
				return true, err
			})
		}
		return false, nil
	})
	switch {
	case codec == codecLZ4:
		w.needs |= repairLZ4
	case v2 && codec != codecUncompressed:
		w.needs |= repairV2
	}
	return err
}

// left is the number of bytes not yet read.
func (w *footerWalker) left() int { return w.buf.Len() }

// size checks a container or string of n elements against the bytes left:
// each element takes one byte at least.
func (w *footerWalker) size(n int) error {
	if n < 0 || n > w.left() {
		return fmt.Errorf("a length of %d with %d bytes left", n, w.left())
	}
	return nil
}

// structure reads a struct, handing each field to own first: a field own
// reads (true) is not skipped.
func (w *footerWalker) structure(depth int, own func(id int16, t thrift.TType) (bool, error)) error {
	if depth > maxThriftDepth {
		return errors.New("structures nested too deep")
	}
	if _, err := w.proto.ReadStructBegin(w.ctx); err != nil {
		return err
	}
	for {
		_, t, id, err := w.proto.ReadFieldBegin(w.ctx)
		if err != nil {
			return err
		}
		if t == thrift.STOP {
			return w.proto.ReadStructEnd(w.ctx)
		}
		read := false
		if own != nil {
			if read, err = own(id, t); err != nil {
				return err
			}
		}
		if !read {
			if err := w.skip(t, depth+1); err != nil {
				return err
			}
		}
		if err := w.proto.ReadFieldEnd(w.ctx); err != nil {
			return err
		}
	}
}

// schema reads FileMetaData.schema: no element may claim more children
// than the list has elements.
func (w *footerWalker) schema() error {
	_, n, err := w.proto.ReadListBegin(w.ctx)
	if err != nil {
		return err
	}
	if err := w.size(n); err != nil {
		return err
	}
	// What of each element tells a list of lists of the old structure,
	// whose element pqarrow reads as a struct (see read_repair.go).
	type element struct {
		name           string
		list, repeated bool
		children       int32
	}
	var prev element
	for range n {
		var el element
		err := w.structure(1, func(id int16, t thrift.TType) (bool, error) {
			switch {
			case id == schemaNameField && t == thrift.STRING:
				name, err := w.proto.ReadString(w.ctx)
				el.name = name
				return true, err
			case id == schemaRepetition && t == thrift.I32:
				rep, err := w.proto.ReadI32(w.ctx)
				el.repeated = rep == repetitionRepeated
				return true, err
			case id == schemaChildrenField && t == thrift.I32:
				children, err := w.proto.ReadI32(w.ctx)
				if err == nil && (children < 0 || int(children) >= n) {
					err = fmt.Errorf("a schema element of %d children in a schema of %d elements", children, n)
				}
				el.children = children
				return true, err
			case id == schemaTypeField && t == thrift.I32:
				typ, err := w.proto.ReadI32(w.ctx)
				if typ == typeInt96 {
					w.needs |= repairInt96
				}
				return true, err
			case id == schemaConvertedType && t == thrift.I32:
				converted, err := w.proto.ReadI32(w.ctx)
				if converted == convertedMap || converted == convertedMapKV {
					w.needs |= repairMap
				}
				el.list = el.list || converted == convertedList
				return true, err
			case id == schemaLogicalType && t == thrift.STRUCT:
				members := 0
				err := w.structure(2, func(id int16, t thrift.TType) (bool, error) {
					members++
					if !knownLogicalType(id) {
						w.needs |= repairLogicalType
					}
					if id == logicalMapMember {
						w.needs |= repairMap
					}
					el.list = el.list || id == logicalListMember
					return false, nil
				})
				if members == 0 {
					w.needs |= repairLogicalType
				}
				return true, err
			}
			return false, nil
		})
		if err != nil {
			return err
		}
		if prev.list && prev.children == 1 && el.list && el.repeated && el.children == 1 && (el.name == "array" || el.name == prev.name+"_tuple") {
			w.needs |= repairNestedList
		}
		prev = el
	}
	return w.proto.ReadListEnd(w.ctx)
}

// skip reads a value of type t, checking every size in it.
func (w *footerWalker) skip(t thrift.TType, depth int) error {
	if depth > maxThriftDepth {
		return errors.New("values nested too deep")
	}
	var err error
	switch t {
	case thrift.BOOL:
		_, err = w.proto.ReadBool(w.ctx)
	case thrift.BYTE:
		_, err = w.proto.ReadByte(w.ctx)
	case thrift.I16:
		_, err = w.proto.ReadI16(w.ctx)
	case thrift.I32:
		_, err = w.proto.ReadI32(w.ctx)
	case thrift.I64:
		_, err = w.proto.ReadI64(w.ctx)
	case thrift.DOUBLE:
		_, err = w.proto.ReadDouble(w.ctx)
	case thrift.UUID:
		_, err = w.proto.ReadUUID(w.ctx)
	case thrift.STRING:
		_, err = w.proto.ReadBinary(w.ctx) // read in pieces, by what is there
	case thrift.STRUCT:
		err = w.structure(depth, nil)
	case thrift.LIST, thrift.SET:
		var elem thrift.TType
		var n int
		if t == thrift.LIST {
			elem, n, err = w.proto.ReadListBegin(w.ctx)
		} else {
			elem, n, err = w.proto.ReadSetBegin(w.ctx)
		}
		if err == nil {
			err = w.size(n)
		}
		for i := 0; i < n && err == nil; i++ {
			err = w.skip(elem, depth+1)
		}
	case thrift.MAP:
		var key, value thrift.TType
		var n int
		key, value, n, err = w.proto.ReadMapBegin(w.ctx)
		if err == nil {
			err = w.size(n)
		}
		for i := 0; i < n && err == nil; i++ {
			if err = w.skip(key, depth+1); err == nil {
				err = w.skip(value, depth+1)
			}
		}
	default:
		err = fmt.Errorf("a value of unknown type %d", t)
	}
	return err
}
