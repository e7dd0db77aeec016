package ipcschema

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// arrow-go parses a schema trusting the lengths of its flatbuffer vectors:
// it makes a slice of as many fields as a children vector claims, so one
// flipped byte can ask for terabytes, which is no panic but the end of the
// process. The footer of a file and the schema message of a stream are
// checked here first: every table, vector and string inside the buffer,
// nesting and the number of fields bounded. What arrow-go reads after the
// schema (records, dictionaries) it reads through bounds-checked accessors,
// whose panics guard turns into errors.

// Bounds of a schema: arrow-go's own nesting limit, and many more fields
// than any schema of a real file.
const (
	maxSchemaDepth  = 64
	maxSchemaFields = 1 << 20
)

// The Type union's member of a Union, whose table holds a vector.
const typeUnion = 14

// ErrMalformed is wrapped by the error of IPC metadata whose structure
// does not hold: a table, vector or string out of its buffer, fields
// nested too deep or too many.
var ErrMalformed = errors.New("malformed IPC metadata")

// flatbuffer checks the structure of one flatbuffer.
type flatbuffer struct {
	buf    []byte
	fields int // fields seen, against maxSchemaFields
}

// fbTable is a table that has been checked to lie in the buffer.
type fbTable struct {
	fb     *flatbuffer
	pos    uint32
	vtable uint32
	vtSize uint32
}

func (fb *flatbuffer) fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// fits reports whether n bytes from pos lie in the buffer.
func (fb *flatbuffer) fits(pos, n uint64) bool {
	return pos <= uint64(len(fb.buf)) && n <= uint64(len(fb.buf))-pos
}

func (fb *flatbuffer) u32(pos uint32) uint32 { return binary.LittleEndian.Uint32(fb.buf[pos:]) }

func (fb *flatbuffer) root() (fbTable, error) {
	if !fb.fits(0, 4) {
		return fbTable{}, fb.fail("%d bytes", len(fb.buf))
	}
	return fb.table(fb.u32(0))
}

func (fb *flatbuffer) table(pos uint32) (fbTable, error) {
	if !fb.fits(uint64(pos), 4) {
		return fbTable{}, fb.fail("a table at %d, past the end", pos)
	}
	vt := int64(pos) - int64(int32(fb.u32(pos)))
	if vt < 0 || !fb.fits(uint64(vt), 4) {
		return fbTable{}, fb.fail("the vtable of the table at %d is out of the buffer", pos)
	}
	vtSize := uint32(binary.LittleEndian.Uint16(fb.buf[vt:]))
	size := uint32(binary.LittleEndian.Uint16(fb.buf[vt+2:]))
	if vtSize < 4 || vtSize%2 != 0 || !fb.fits(uint64(vt), uint64(vtSize)) || !fb.fits(uint64(pos), uint64(size)) {
		return fbTable{}, fb.fail("the table at %d is out of the buffer", pos)
	}
	return fbTable{fb: fb, pos: pos, vtable: uint32(vt), vtSize: vtSize}, nil
}

// field is the position of field i, of n bytes inline, or 0 when absent.
func (t fbTable) field(i int, n uint32) (uint32, error) {
	at := uint32(4 + 2*i)
	if at+2 > t.vtSize {
		return 0, nil
	}
	off := uint32(binary.LittleEndian.Uint16(t.fb.buf[t.vtable+at:]))
	if off == 0 {
		return 0, nil
	}
	// Inside the buffer, as flatbuffers' own verifier checks a field: not
	// inside the table's size, which flatbuffers-go writes short of an
	// int64 field after padding (arrow-go's DictionaryEncoding.id).
	if !t.fb.fits(uint64(t.pos)+uint64(off), uint64(n)) {
		return 0, t.fb.fail("field %d of the table at %d is out of the buffer", i, t.pos)
	}
	return t.pos + off, nil
}

// byteField is field i as a byte, 0 when absent.
func (t fbTable) byteField(i int) (byte, error) {
	at, err := t.field(i, 1)
	if err != nil || at == 0 {
		return 0, err
	}
	return t.fb.buf[at], nil
}

// ref is where the offset in field i points, or 0 when absent.
func (t fbTable) ref(i int) (uint32, error) {
	at, err := t.field(i, 4)
	if err != nil || at == 0 {
		return 0, err
	}
	to := uint64(at) + uint64(t.fb.u32(at))
	if to >= uint64(len(t.fb.buf)) {
		return 0, t.fb.fail("field %d of the table at %d points past the end", i, t.pos)
	}
	return uint32(to), nil
}

// subtable is the table field i points at, ok false when absent.
func (t fbTable) subtable(i int) (fbTable, bool, error) {
	to, err := t.ref(i)
	if err != nil || to == 0 {
		return fbTable{}, false, err
	}
	sub, err := t.fb.table(to)
	return sub, err == nil, err
}

// vector checks the vector field i points at, of elements of elem bytes,
// and returns the position of its first element and its length.
func (t fbTable) vector(i int, elem uint32) (start, n uint32, err error) {
	to, err := t.ref(i)
	if err != nil || to == 0 {
		return 0, 0, err
	}
	if !t.fb.fits(uint64(to), 4) {
		return 0, 0, t.fb.fail("a vector at %d, past the end", to)
	}
	n = t.fb.u32(to)
	if !t.fb.fits(uint64(to)+4, uint64(n)*uint64(elem)) {
		return 0, 0, t.fb.fail("a vector of %d elements at %d, past the end", n, to)
	}
	return to + 4, n, nil
}

// tables checks the vector of tables in field i with check.
func (t fbTable) tables(i int, check func(fbTable) error) error {
	start, n, err := t.vector(i, 4)
	if err != nil {
		return err
	}
	for k := range n {
		at := start + 4*k
		sub, err := t.fb.table(uint32(uint64(at) + uint64(t.fb.u32(at))))
		if err != nil {
			return err
		}
		if err := check(sub); err != nil {
			return err
		}
	}
	return nil
}

// keyValues checks a custom_metadata vector.
func keyValues(t fbTable, i int) error {
	return t.tables(i, func(kv fbTable) error {
		for _, f := range []int{0, 1} { // key, value
			if _, _, err := kv.vector(f, 1); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkSchema checks a Schema table: fields 1, custom_metadata 2,
// features 3.
func checkSchema(s fbTable) error {
	if err := s.tables(1, func(f fbTable) error { return checkField(f, 1) }); err != nil {
		return err
	}
	if err := keyValues(s, 2); err != nil {
		return err
	}
	_, _, err := s.vector(3, 8)
	return err
}

// checkField checks a Field table: name 0, type_type 2, type 3,
// dictionary 4, children 5, custom_metadata 6.
func checkField(f fbTable, depth int) error {
	if depth > maxSchemaDepth {
		return f.fb.fail("fields nested more than %d deep", maxSchemaDepth)
	}
	if f.fb.fields++; f.fb.fields > maxSchemaFields {
		return f.fb.fail("more than %d fields", maxSchemaFields)
	}
	if _, _, err := f.vector(0, 1); err != nil {
		return err
	}
	kind, err := f.byteField(2)
	if err != nil {
		return err
	}
	typ, ok, err := f.subtable(3)
	if err != nil {
		return err
	}
	if ok && kind == typeUnion {
		if _, _, err := typ.vector(1, 4); err != nil { // typeIds
			return err
		}
	}
	dict, ok, err := f.subtable(4)
	if err != nil {
		return err
	}
	if ok {
		if _, _, err := dict.subtable(1); err != nil { // indexType
			return err
		}
	}
	if err := f.tables(5, func(c fbTable) error { return checkField(c, depth+1) }); err != nil {
		return err
	}
	return keyValues(f, 6)
}

// CheckFooter checks the structure of the Footer flatbuffer of an IPC
// file, buf: schema 1, dictionaries 2 and recordBatches 3 (structs of 24
// bytes), custom_metadata 4. An error wraps ErrMalformed.
func CheckFooter(buf []byte) error {
	fb := &flatbuffer{buf: buf}
	footer, err := fb.root()
	if err != nil {
		return err
	}
	schema, ok, err := footer.subtable(1)
	if err != nil {
		return err
	}
	if !ok {
		return fb.fail("a footer without a schema")
	}
	if err := checkSchema(schema); err != nil {
		return err
	}
	for _, f := range []int{2, 3} {
		if _, _, err := footer.vector(f, 24); err != nil {
			return err
		}
	}
	return keyValues(footer, 4)
}

// CheckSchemaMessage checks the structure of buf, a Message flatbuffer
// that must hold a schema: header_type 1, header 2, custom_metadata 4.
// An error wraps ErrMalformed.
func CheckSchemaMessage(buf []byte) error {
	fb := &flatbuffer{buf: buf}
	msg, err := fb.root()
	if err != nil {
		return err
	}
	kind, err := msg.byteField(1)
	if err != nil {
		return err
	}
	if kind != HeaderSchema {
		return fb.fail("the first message of a stream is of type %d, not a schema", kind)
	}
	schema, ok, err := msg.subtable(2)
	if err != nil {
		return err
	}
	if !ok {
		return fb.fail("a schema message without its schema")
	}
	if err := checkSchema(schema); err != nil {
		return err
	}
	return keyValues(msg, 4)
}
