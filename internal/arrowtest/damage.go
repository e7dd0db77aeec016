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
