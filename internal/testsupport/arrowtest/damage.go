package arrowtest

import (
	"bytes"
	"encoding/binary"
)

// ClaimFields is a copy of stream, the IPC bytes of a schema of fields
// top-level fields, whose flatbuffer vector of those fields claims claim
// elements instead: the damage that makes arrow-go, which trusts the
// claim, allocate claim fields. It finds the vector as the first aligned
// count of fields followed by as many offsets that point inside stream,
// and returns nil when there is none.
func ClaimFields(stream []byte, fields int, claim uint32) []byte {
	u32 := func(at int) uint32 { return binary.LittleEndian.Uint32(stream[at:]) }
	for at := 0; at+4*(fields+1) <= len(stream); at += 4 {
		if u32(at) != uint32(fields) {
			continue
		}
		ok := true
		for k := range fields {
			pos := at + 4 + 4*k
			if off := int(u32(pos)); off == 0 || pos+off >= len(stream) {
				ok = false
				break
			}
		}
		if ok {
			out := bytes.Clone(stream)
			binary.LittleEndian.PutUint32(out[at:], claim)
			return out
		}
	}
	return nil
}

// The magic numbers that start an LZ4 frame and a Zstandard frame: what a
// compressed buffer of an IPC body holds after its 8-byte length.
var (
	lz4Magic  = []byte{0x04, 0x22, 0x4D, 0x18}
	zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}
)

// ClaimUncompressed is a copy of data — an IPC stream, an IPC file or a
// FlightData body — whose compressed buffers each claim claim bytes
// uncompressed: the damage that makes arrow-go, which allocates a buffer
// at the length it claims before decompressing it, allocate claim bytes.
// It finds the buffers by the frame that follows their length, a length
// smaller than data, and returns nil when there is none.
func ClaimUncompressed(data []byte, claim int64) []byte {
	out := bytes.Clone(data)
	found := false
	for at := 8; at+4 <= len(data); at++ {
		if !bytes.Equal(data[at:at+4], lz4Magic) && !bytes.Equal(data[at:at+4], zstdMagic) {
			continue
		}
		if n := int64(binary.LittleEndian.Uint64(data[at-8:])); n <= 0 || n >= 1<<40 {
			continue
		}
		binary.LittleEndian.PutUint64(out[at-8:], uint64(claim))
		found = true
	}
	if !found {
		return nil
	}
	return out
}

// Message is one encapsulated message of an IPC stream: its Message
// flatbuffer and its body, slices of the stream.
type Message struct {
	Meta, Body []byte
}

// StreamMessages is the messages of stream, an IPC stream (or an IPC
// file past its first 8 bytes), up to its end-of-stream marker or the
// first message that does not hold.
func StreamMessages(stream []byte) []Message {
	var out []Message
	at := 0
	for at+8 <= len(stream) {
		n := int(binary.LittleEndian.Uint32(stream[at:]))
		at += 4
		if uint32(n) == 0xFFFFFFFF {
			n = int(binary.LittleEndian.Uint32(stream[at:]))
			at += 4
		}
		if n == 0 || n > len(stream)-at {
			break
		}
		meta := stream[at : at+n]
		at += n
		f := flatTable(meta, int(binary.LittleEndian.Uint32(meta)))
		body := 0
		if p := f.field(3); p > 0 {
			body = int(binary.LittleEndian.Uint64(meta[p:]))
		}
		if body < 0 || body > len(stream)-at {
			break
		}
		out = append(out, Message{Meta: meta, Body: stream[at : at+body]})
		at += body
	}
	return out
}

// ClaimVariadicBuffers sets, in place, the first variadic buffer count of
// the record batch of the Message flatbuffer meta to claim, and reports
// whether it had one: the damage that makes arrow-go, which makes a slice
// of as many buffers as it claims, allocate claim buffers.
func ClaimVariadicBuffers(meta []byte, claim int64) bool {
	batch, ok := recordBatch(meta)
	if !ok {
		return false
	}
	start, n := batch.vector(4)
	if n == 0 {
		return false
	}
	binary.LittleEndian.PutUint64(meta[start:], uint64(claim))
	return true
}

// ClaimCustomMetadata sets, in place, the length of the custom metadata
// vector of the Message flatbuffer meta to claim, and reports whether it
// had one: the damage that makes arrow-go, which makes slices of as many
// keys and values as it claims, allocate them.
func ClaimCustomMetadata(meta []byte, claim uint32) bool {
	msg := flatTable(meta, int(binary.LittleEndian.Uint32(meta)))
	p := msg.field(4)
	if p == 0 {
		return false
	}
	binary.LittleEndian.PutUint32(meta[p+int(binary.LittleEndian.Uint32(meta[p:])):], claim)
	return true
}

// recordBatch is the RecordBatch table of the Message flatbuffer meta,
// when it is a record batch's (header type 3, header field 2).
func recordBatch(meta []byte) (table, bool) {
	msg := flatTable(meta, int(binary.LittleEndian.Uint32(meta)))
	if p := msg.field(1); p == 0 || meta[p] != 3 {
		return table{}, false
	}
	p := msg.field(2)
	return flatTable(meta, p+int(binary.LittleEndian.Uint32(meta[p:]))), true
}

// table is a flatbuffer table at pos of buf, trusted: the tests damage
// messages a writer wrote.
type table struct {
	buf []byte
	pos int
}

func flatTable(buf []byte, pos int) table { return table{buf, pos} }

// field is the position of field i, 0 when absent.
func (t table) field(i int) int {
	vt := t.pos - int(int32(binary.LittleEndian.Uint32(t.buf[t.pos:])))
	if 4+2*i >= int(binary.LittleEndian.Uint16(t.buf[vt:])) {
		return 0
	}
	off := int(binary.LittleEndian.Uint16(t.buf[vt+4+2*i:]))
	if off == 0 {
		return 0
	}
	return t.pos + off
}

// vector is the position of the first element of the vector field i
// points at, and its length.
func (t table) vector(i int) (int, int) {
	p := t.field(i)
	if p == 0 {
		return 0, 0
	}
	p += int(binary.LittleEndian.Uint32(t.buf[p:]))
	return p + 4, int(binary.LittleEndian.Uint32(t.buf[p:]))
}
