package parquet

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"
)

// A footer arrow-go cannot read as it is (see read_repair.go) is decoded here
// into a tree of its thrift values, changed, and encoded again: thrift's
// compact protocol writes a field's id as a difference from the previous
// one, so that dropping a field or changing its length moves the bytes of
// every field after it. Each field keeps its id and type, so that what
// arrowmap does not know of a footer is written back as it was read.

// tStruct is a thrift struct: its fields in the order read.
type tStruct struct{ fields []tField }

// tField is one field of a struct. val is a bool, int8, int16, int32,
// int64, float64, []byte (a string or binary), thrift.Tuuid, *tStruct,
// *tList (a list or a set) or *tMap, as typ says.
type tField struct {
	id  int16
	typ thrift.TType
	val any
}

// tList is a thrift list or set of values of type elem.
type tList struct {
	elem thrift.TType
	set  bool
	vals []any
}

// tMap is a thrift map.
type tMap struct {
	key, val   thrift.TType
	keys, vals []any
}

// field is the field id of s, or nil.
func (s *tStruct) field(id int16) *tField {
	for i := range s.fields {
		if s.fields[i].id == id {
			return &s.fields[i]
		}
	}
	return nil
}

// i32 is the value of the i32 field id of s, and whether s has it.
func (s *tStruct) i32(id int16) (int32, bool) {
	if f := s.field(id); f != nil && f.typ == thrift.I32 {
		return f.val.(int32), true
	}
	return 0, false
}

// i64 is the value of the i64 field id of s, and whether s has it.
func (s *tStruct) i64(id int16) (int64, bool) {
	if f := s.field(id); f != nil && f.typ == thrift.I64 {
		return f.val.(int64), true
	}
	return 0, false
}

// child is the struct of field id of s, or nil.
func (s *tStruct) child(id int16) *tStruct {
	if f := s.field(id); f != nil && f.typ == thrift.STRUCT {
		return f.val.(*tStruct)
	}
	return nil
}

// structs is the structs of the list field id of s.
func (s *tStruct) structs(id int16) []*tStruct {
	f := s.field(id)
	if f == nil || f.typ != thrift.LIST {
		return nil
	}
	l := f.val.(*tList)
	if l.elem != thrift.STRUCT {
		return nil
	}
	out := make([]*tStruct, len(l.vals))
	for i, v := range l.vals {
		out[i] = v.(*tStruct)
	}
	return out
}

// set gives s the field id of type typ holding val, in place of one of
// that id, else after the fields of lower ids.
func (s *tStruct) set(id int16, typ thrift.TType, val any) {
	if f := s.field(id); f != nil {
		f.typ, f.val = typ, val
		return
	}
	at := len(s.fields)
	for i, f := range s.fields {
		if f.id > id {
			at = i
			break
		}
	}
	s.fields = append(s.fields, tField{})
	copy(s.fields[at+1:], s.fields[at:])
	s.fields[at] = tField{id: id, typ: typ, val: val}
}

// drop removes the field id of s.
func (s *tStruct) drop(id int16) {
	for i := range s.fields {
		if s.fields[i].id == id {
			s.fields = append(s.fields[:i], s.fields[i+1:]...)
			return
		}
	}
}

// decodeThrift decodes the compact encoding of a struct at the start of
// data: every container and string no longer than the bytes left (each
// element takes one byte at least), so that what it allocates is bounded
// by data's length; nesting no deeper than maxThriftDepth.
func decodeThrift(data []byte) (*tStruct, error) {
	s, _, err := decodeThriftPrefix(data)
	return s, err
}

// decodeThriftPrefix is decodeThrift of the struct that starts data, and
// the length of its encoding.
func decodeThriftPrefix(data []byte) (*tStruct, int, error) {
	buf := thrift.NewTMemoryBufferLen(len(data))
	buf.Write(data)
	d := treeDecoder{buf: buf, proto: thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{}), ctx: context.Background()}
	s, err := d.structure(0)
	if err != nil {
		return nil, 0, err
	}
	return s, len(data) - buf.Len(), nil
}

type treeDecoder struct {
	buf   *thrift.TMemoryBuffer
	proto *thrift.TCompactProtocol
	ctx   context.Context
}

func (d *treeDecoder) size(n int) error {
	if n < 0 || n > d.buf.Len() {
		return fmt.Errorf("a length of %d with %d bytes left", n, d.buf.Len())
	}
	return nil
}

func (d *treeDecoder) structure(depth int) (*tStruct, error) {
	if depth > maxThriftDepth {
		return nil, errors.New("structures nested too deep")
	}
	if _, err := d.proto.ReadStructBegin(d.ctx); err != nil {
		return nil, err
	}
	s := &tStruct{}
	for {
		_, t, id, err := d.proto.ReadFieldBegin(d.ctx)
		if err != nil {
			return nil, err
		}
		if t == thrift.STOP {
			return s, d.proto.ReadStructEnd(d.ctx)
		}
		v, err := d.value(t, depth+1)
		if err != nil {
			return nil, err
		}
		s.fields = append(s.fields, tField{id: id, typ: t, val: v})
		if err := d.proto.ReadFieldEnd(d.ctx); err != nil {
			return nil, err
		}
	}
}

func (d *treeDecoder) value(t thrift.TType, depth int) (any, error) {
	if depth > maxThriftDepth {
		return nil, errors.New("values nested too deep")
	}
	switch t {
	case thrift.BOOL:
		return d.proto.ReadBool(d.ctx)
	case thrift.BYTE:
		return d.proto.ReadByte(d.ctx)
	case thrift.I16:
		return d.proto.ReadI16(d.ctx)
	case thrift.I32:
		return d.proto.ReadI32(d.ctx)
	case thrift.I64:
		return d.proto.ReadI64(d.ctx)
	case thrift.DOUBLE:
		return d.proto.ReadDouble(d.ctx)
	case thrift.UUID:
		return d.proto.ReadUUID(d.ctx)
	case thrift.STRING:
		return d.proto.ReadBinary(d.ctx)
	case thrift.STRUCT:
		return d.structure(depth)
	case thrift.LIST, thrift.SET:
		l := &tList{set: t == thrift.SET}
		var n int
		var err error
		if l.set {
			l.elem, n, err = d.proto.ReadSetBegin(d.ctx)
		} else {
			l.elem, n, err = d.proto.ReadListBegin(d.ctx)
		}
		if err == nil {
			err = d.size(n)
		}
		if err != nil {
			return nil, err
		}
		l.vals = make([]any, n)
		for i := range l.vals {
			if l.vals[i], err = d.value(l.elem, depth+1); err != nil {
				return nil, err
			}
		}
		if l.set {
			return l, d.proto.ReadSetEnd(d.ctx)
		}
		return l, d.proto.ReadListEnd(d.ctx)
	case thrift.MAP:
		m := &tMap{}
		var n int
		var err error
		m.key, m.val, n, err = d.proto.ReadMapBegin(d.ctx)
		if err == nil {
			err = d.size(n)
		}
		if err != nil {
			return nil, err
		}
		m.keys, m.vals = make([]any, n), make([]any, n)
		for i := range n {
			if m.keys[i], err = d.value(m.key, depth+1); err != nil {
				return nil, err
			}
			if m.vals[i], err = d.value(m.val, depth+1); err != nil {
				return nil, err
			}
		}
		return m, d.proto.ReadMapEnd(d.ctx)
	}
	return nil, fmt.Errorf("a value of unknown type %d", t)
}

// encodeThrift is the compact encoding of s.
func encodeThrift(s *tStruct) ([]byte, error) {
	buf := thrift.NewTMemoryBuffer()
	e := treeEncoder{proto: thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{}), ctx: context.Background()}
	if err := e.structure(s); err != nil {
		return nil, err
	}
	if err := e.proto.Flush(e.ctx); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type treeEncoder struct {
	proto *thrift.TCompactProtocol
	ctx   context.Context
}

func (e *treeEncoder) structure(s *tStruct) error {
	if err := e.proto.WriteStructBegin(e.ctx, ""); err != nil {
		return err
	}
	for _, f := range s.fields {
		if err := e.proto.WriteFieldBegin(e.ctx, "", f.typ, f.id); err != nil {
			return err
		}
		if err := e.value(f.typ, f.val); err != nil {
			return err
		}
		if err := e.proto.WriteFieldEnd(e.ctx); err != nil {
			return err
		}
	}
	if err := e.proto.WriteFieldStop(e.ctx); err != nil {
		return err
	}
	return e.proto.WriteStructEnd(e.ctx)
}

func (e *treeEncoder) value(t thrift.TType, v any) error {
	switch t {
	case thrift.BOOL:
		return e.proto.WriteBool(e.ctx, v.(bool))
	case thrift.BYTE:
		return e.proto.WriteByte(e.ctx, v.(int8))
	case thrift.I16:
		return e.proto.WriteI16(e.ctx, v.(int16))
	case thrift.I32:
		return e.proto.WriteI32(e.ctx, v.(int32))
	case thrift.I64:
		return e.proto.WriteI64(e.ctx, v.(int64))
	case thrift.DOUBLE:
		return e.proto.WriteDouble(e.ctx, v.(float64))
	case thrift.UUID:
		return e.proto.WriteUUID(e.ctx, v.(thrift.Tuuid))
	case thrift.STRING:
		return e.proto.WriteBinary(e.ctx, v.([]byte))
	case thrift.STRUCT:
		return e.structure(v.(*tStruct))
	case thrift.LIST, thrift.SET:
		l := v.(*tList)
		var err error
		if l.set {
			err = e.proto.WriteSetBegin(e.ctx, l.elem, len(l.vals))
		} else {
			err = e.proto.WriteListBegin(e.ctx, l.elem, len(l.vals))
		}
		for i := 0; i < len(l.vals) && err == nil; i++ {
			err = e.value(l.elem, l.vals[i])
		}
		if err != nil {
			return err
		}
		if l.set {
			return e.proto.WriteSetEnd(e.ctx)
		}
		return e.proto.WriteListEnd(e.ctx)
	case thrift.MAP:
		m := v.(*tMap)
		err := e.proto.WriteMapBegin(e.ctx, m.key, m.val, len(m.keys))
		for i := 0; i < len(m.keys) && err == nil; i++ {
			if err = e.value(m.key, m.keys[i]); err == nil {
				err = e.value(m.val, m.vals[i])
			}
		}
		if err != nil {
			return err
		}
		return e.proto.WriteMapEnd(e.ctx)
	}
	return fmt.Errorf("a value of unknown type %d", t)
}
