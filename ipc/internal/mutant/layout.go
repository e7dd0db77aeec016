package mutant

import (
	"bytes"
	"encoding/binary"
)

// The layout of IPC data, found by walking it as the format says, every
// step checked: it runs on damaged data, in the child, and must not panic
// there. It shares no code with the readers it checks.

// fileMagic starts and ends an IPC file.
var fileMagic = []byte("ARROW1")

// The MessageHeader union's members (Message.fbs).
const (
	headerSchema     = 1
	headerDictionary = 2
	headerRecord     = 3
)

// message is one message of a stream, and where its parts lie in the data
// it was found in.
type message struct {
	start      int  // the first byte of its frame
	lengthAt   int  // its metadata length
	meta, body span // its Message flatbuffer and its body
	kind       byte // its header type
	rows       int64
	// Where the fields of a record batch (or a dictionary batch's) lie:
	rowsAt    int   // its length, 0 when absent
	nodes     []int // each FieldNode (length, null_count)
	buffers   []int // each Buffer (offset, length)
	prefixes  []int // each compressed buffer's uncompressed length
	variadic  []int // each variadic buffer count
	codecAt   int   // its compression's codec, 0 when absent
	keyValues int   // the length of the message's custom metadata, 0 when absent
}

type span struct{ start, end int }

// stream is the messages of the stream in data from at, and whether it
// ends cleanly: at an end-of-stream marker, or at the end of data between
// two messages. A message that does not hold ends it, not cleanly.
func stream(data []byte, at int) ([]message, bool) {
	var msgs []message
	for {
		if at == len(data) {
			return msgs, true
		}
		m := message{start: at}
		length, ok := u32(data, at)
		if !ok {
			return msgs, false
		}
		if length == 0xFFFFFFFF {
			at += 4
			if length, ok = u32(data, at); !ok {
				return msgs, false
			}
		}
		m.lengthAt = at
		at += 4
		if length == 0 {
			return msgs, true
		}
		if length < 8 || length > 64<<20 || int64(length) > int64(len(data)-at) {
			return msgs, false
		}
		m.meta = span{at, at + int(length)}
		at = m.meta.end
		body, ok := m.parse(data)
		if !ok || body < 0 || body > int64(len(data)-at) {
			return msgs, false
		}
		m.body = span{at, at + int(body)}
		at = m.body.end
		m.findPrefixes(data)
		msgs = append(msgs, m)
	}
}

// parse finds the fields of m's Message flatbuffer, and returns its body
// length.
func (m *message) parse(data []byte) (int64, bool) {
	fb := fbuf{data, m.meta.start, m.meta.end}
	msg, ok := fb.root()
	if !ok {
		return 0, false
	}
	var body int64
	if p := msg.field(3, 8); p > 0 {
		body = int64(binary.LittleEndian.Uint64(data[p:]))
	}
	if p := msg.field(1, 1); p > 0 {
		m.kind = data[p]
	}
	if p := msg.field(4, 4); p > 0 {
		if to, ok := fb.deref(p); ok && fb.fits(to, 4) {
			m.keyValues = to
		}
	}
	header, ok := msg.table(2)
	if !ok {
		return body, m.kind != headerRecord && m.kind != headerDictionary
	}
	batch := header
	if m.kind == headerDictionary {
		if batch, ok = header.table(1); !ok {
			return body, false
		}
	} else if m.kind != headerRecord {
		return body, true
	}
	if p := batch.field(0, 8); p > 0 {
		m.rowsAt = p
		m.rows = int64(binary.LittleEndian.Uint64(data[p:]))
	}
	m.nodes, _ = batch.structs(1, 16)
	m.buffers, _ = batch.structs(2, 16)
	m.variadic, _ = batch.structs(4, 8)
	if c, ok := batch.table(3); ok {
		m.codecAt = -1 // compressed, codec LZ4_FRAME unless stored
		if p := c.field(0, 1); p > 0 {
			m.codecAt = p
		}
	}
	return body, true
}

// findPrefixes finds the uncompressed lengths of m's compressed buffers.
func (m *message) findPrefixes(data []byte) {
	if m.codecAt == 0 {
		return
	}
	for _, b := range m.buffers {
		off := int64(binary.LittleEndian.Uint64(data[b:]))
		n := int64(binary.LittleEndian.Uint64(data[b+8:]))
		if off >= 0 && n >= 8 && off <= int64(m.body.end-m.body.start)-n {
			m.prefixes = append(m.prefixes, m.body.start+int(off))
		}
	}
}

// streamRows is the rows of the record batches of msgs.
func streamRows(msgs []message) int64 {
	var n int64
	for _, m := range msgs {
		if m.kind == headerRecord {
			n += m.rows
		}
	}
	return n
}

// file is the layout of an IPC file: its footer, the places of the
// blocks the footer lists, and the messages they point at.
type file struct {
	footer   span
	lengthAt int   // the footer's length
	blocks   []int // each Block struct (offset, metaDataLength, bodyLength) in the footer
	records  []message
	ok       bool // every record block holds
}

// readFile finds the layout of data, an IPC file.
func readFile(data []byte) file {
	var f file
	n := len(data)
	if n < 2*len(fileMagic)+2+4 || !bytes.Equal(data[n-len(fileMagic):], fileMagic) {
		return f
	}
	f.lengthAt = n - len(fileMagic) - 4
	length, _ := u32(data, f.lengthAt)
	if int64(length) > int64(f.lengthAt-8) || length < 8 {
		return f
	}
	f.footer = span{f.lengthAt - int(length), f.lengthAt}
	fb := fbuf{data, f.footer.start, f.footer.end}
	footer, ok := fb.root()
	if !ok {
		return f
	}
	dicts, _ := footer.structs(2, 24)
	records, ok := footer.structs(3, 24)
	f.blocks = append(dicts, records...)
	if !ok {
		return f
	}
	f.ok = true
	for _, b := range records {
		off := int64(binary.LittleEndian.Uint64(data[b:]))
		meta := int64(int32(binary.LittleEndian.Uint32(data[b+8:])))
		body := int64(binary.LittleEndian.Uint64(data[b+16:]))
		if off < 8 || meta < 8 || body < 0 || off > int64(n) || meta > int64(n)-off || body > int64(n)-off-meta {
			f.ok = false
			continue
		}
		msgs, _ := stream(data[:off+meta+body], int(off))
		if len(msgs) != 1 || msgs[0].kind != headerRecord {
			f.ok = false
			continue
		}
		f.records = append(f.records, msgs[0])
	}
	return f
}

// fileRows is the rows of the record batches the footer of f lists, -1
// when a block does not hold.
func (f file) fileRows() int64 {
	if !f.ok {
		return -1
	}
	return streamRows(f.records)
}

// fbuf is a flatbuffer in data[start:end], every access checked.
type fbuf struct {
	data       []byte
	start, end int
}

type table struct {
	fb      fbuf
	pos, vt int
	vtLen   int
}

func u32(data []byte, at int) (uint32, bool) {
	if at < 0 || at > len(data)-4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(data[at:]), true
}

func (fb fbuf) fits(at, n int) bool { return at >= fb.start && n >= 0 && at <= fb.end-n }

func (fb fbuf) root() (table, bool) {
	off, ok := u32(fb.data, fb.start)
	if !ok || !fb.fits(fb.start, 4) {
		return table{}, false
	}
	return fb.table(fb.start + int(off))
}

func (fb fbuf) table(pos int) (table, bool) {
	if !fb.fits(pos, 4) {
		return table{}, false
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(fb.data[pos:])))
	if !fb.fits(vt, 4) {
		return table{}, false
	}
	vtLen := int(binary.LittleEndian.Uint16(fb.data[vt:]))
	size := int(binary.LittleEndian.Uint16(fb.data[vt+2:]))
	if !fb.fits(vt, vtLen) || !fb.fits(pos, size) {
		return table{}, false
	}
	return table{fb, pos, vt, vtLen}, true
}

// deref is where the offset at p points.
func (fb fbuf) deref(p int) (int, bool) {
	off, ok := u32(fb.data, p)
	if !ok {
		return 0, false
	}
	to := p + int(off)
	return to, fb.fits(to, 1)
}

// field is the position of field i, of n bytes, 0 when absent.
func (t table) field(i, n int) int {
	at := 4 + 2*i
	if at+2 > t.vtLen {
		return 0
	}
	// Where the vtable says, inside the buffer: flatbuffers' readers, and
	// its verifier, do not bound a field by the table's size.
	off := int(binary.LittleEndian.Uint16(t.fb.data[t.vt+at:]))
	if off == 0 || !t.fb.fits(t.pos+off, n) {
		return 0
	}
	return t.pos + off
}

func (t table) table(i int) (table, bool) {
	p := t.field(i, 4)
	if p == 0 {
		return table{}, false
	}
	to, ok := t.fb.deref(p)
	if !ok {
		return table{}, false
	}
	return t.fb.table(to)
}

// structs is the positions of the structs of size bytes of the vector
// field i points at.
func (t table) structs(i, size int) ([]int, bool) {
	p := t.field(i, 4)
	if p == 0 {
		return nil, true
	}
	to, ok := t.fb.deref(p)
	if !ok || !t.fb.fits(to, 4) {
		return nil, false
	}
	n := int(binary.LittleEndian.Uint32(t.fb.data[to:]))
	if n > (t.fb.end-to-4)/size {
		return nil, false
	}
	out := make([]int, n)
	for k := range out {
		out[k] = to + 4 + k*size
	}
	return out, true
}
