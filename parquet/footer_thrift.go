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
	fileMetaSchemaField = 2 // FileMetaData.schema: list<SchemaElement>
	schemaChildrenField = 5 // SchemaElement.num_children: i32
	maxThriftDepth      = 64
)

// checkThrift checks the encoding of the plain footer of the Parquet file
// of size bytes that r reads, before arrow-go decodes it: every list, set,
// map and string no longer than the bytes left, nesting no deeper than
// maxThriftDepth, and no schema element claiming more children than the
// schema has elements. An encrypted footer is left to arrow-go.
func checkThrift(r io.ReaderAt, size int64, name string) error {
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("arrowmap/parquet: %s: reading the footer: %w", name, err)
	}
	if string(tail[4:]) != string(magic) {
		return nil // "PARE": encrypted
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("arrowmap/parquet: %s: %w: a footer of %d bytes in a file of %d", name, mapper.ErrInvalidData, n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return fmt.Errorf("arrowmap/parquet: %s: reading the footer: %w", name, err)
	}
	if err := walkFooter(footer); err != nil {
		return fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer: %w", name, mapper.ErrInvalidData, err)
	}
	return nil
}

// footerWalker reads a thrift compact encoding, checking sizes.
type footerWalker struct {
	buf   *thrift.TMemoryBuffer
	proto *thrift.TCompactProtocol
	ctx   context.Context
}

// walkFooter checks footer, the compact encoding of a FileMetaData.
func walkFooter(footer []byte) error {
	buf := thrift.NewTMemoryBufferLen(len(footer))
	buf.Write(footer)
	w := &footerWalker{buf: buf, proto: thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{}), ctx: context.Background()}
	return w.structure(0, func(id int16, t thrift.TType) (bool, error) {
		if id != fileMetaSchemaField || t != thrift.LIST {
			return false, nil
		}
		return true, w.schema()
	})
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
	for range n {
		err := w.structure(1, func(id int16, t thrift.TType) (bool, error) {
			if id != schemaChildrenField || t != thrift.I32 {
				return false, nil
			}
			children, err := w.proto.ReadI32(w.ctx)
			if err == nil && (children < 0 || int(children) >= n) {
				err = fmt.Errorf("a schema element of %d children in a schema of %d elements", children, n)
			}
			return true, err
		})
		if err != nil {
			return err
		}
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
