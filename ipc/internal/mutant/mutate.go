package mutant

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// Original is a seed and where its parts lie: its messages (a file's, its
// stream after the magic) and, for a file, its footer and blocks.
type Original struct {
	Seed
	Data []byte
	msgs []message
	file file
}

// Load reads the seed s and finds its parts.
func Load(s Seed, data []byte) (*Original, error) {
	o := &Original{Seed: s, Data: data}
	at := 0
	if s.File {
		at = 8
		o.file = readFile(data)
		if !o.file.ok {
			return nil, fmt.Errorf("%s: the footer of a seed does not hold", s.Path)
		}
	}
	msgs, clean := stream(data, at)
	if !clean || len(msgs) == 0 {
		return nil, fmt.Errorf("%s: the messages of a seed do not hold", s.Path)
	}
	o.msgs = msgs
	return o, nil
}

// Mutations are the names of the ways Mutate damages a seed.
var Mutations = []string{
	"byte flipped", "metadata byte set", "metadata integer set", "message length set",
	"record length set", "rows claimed", "field node set", "buffer set", "compressed length set",
	"compressed frame damaged", "variadic count set", "key-value count set", "codec set",
	"body byte set", "footer byte set", "footer integer set", "block set", "footer length set",
	"truncated", "message dropped", "message repeated",
}

// Mutate is a damaged copy of o, and what was damaged.
func (o *Original) Mutate(rng *rand.Rand) ([]byte, string) {
	kind := Mutations[rng.IntN(len(Mutations))]
	if d, what, ok := o.mutateLength(rng, kind); ok {
		return d, what
	}
	d := bytes.Clone(o.Data)
	if what, ok := o.mutate(rng, d, kind); ok {
		return d, kind + ": " + what
	}
	at := rng.IntN(len(d))
	d[at] ^= 1 << rng.IntN(8)
	return d, fmt.Sprintf("byte flipped: at %d (for %s, which the seed has not)", at, kind)
}

// mutate damages d, a copy of o.Data, in place as kind says, and reports
// false when o has nothing kind damages.
func (o *Original) mutate(rng *rand.Rand, d []byte, kind string) (string, bool) {
	msg := o.msgs[rng.IntN(len(o.msgs))]
	batches := o.batches()
	switch kind {
	case "byte flipped":
		at := rng.IntN(len(d))
		d[at] ^= 1 << rng.IntN(8)
		return fmt.Sprintf("at %d", at), true
	case "metadata byte set":
		at := msg.meta.start + rng.IntN(msg.meta.end-msg.meta.start)
		d[at] = byteValue(rng)
		return fmt.Sprintf("at %d to %#x", at, d[at]), true
	case "metadata integer set":
		at := msg.meta.start + 4*rng.IntN((msg.meta.end-msg.meta.start)/4)
		if rng.IntN(2) == 0 && at+8 <= msg.meta.end {
			return setInt64(rng, d, at), true
		}
		return setUint32(rng, d, at), true
	case "message length set":
		return setUint32(rng, d, msg.lengthAt), true
	case "record length set":
		m, ok := pick(rng, batches, func(m message) bool { return m.rowsAt > 0 })
		if !ok {
			return "", false
		}
		return setInt64(rng, d, m.rowsAt), true
	case "rows claimed":
		// The record's length and that of every column of as many rows: a
		// record that holds if its columns can claim them (run-end-encoded,
		// null), as many as reading it in pages can go through in time.
		m, ok := pick(rng, batches, func(m message) bool { return m.rowsAt > 0 && m.kind == headerRecord })
		if !ok {
			return "", false
		}
		rows := []int64{m.rows + 1, m.rows * 2, 1 << 20, 1 << 24}[rng.IntN(4)]
		binary.LittleEndian.PutUint64(d[m.rowsAt:], uint64(rows))
		for _, at := range m.nodes {
			if int64(binary.LittleEndian.Uint64(d[at:])) == m.rows {
				binary.LittleEndian.PutUint64(d[at:], uint64(rows))
			}
		}
		return fmt.Sprintf("record at %d from %d rows to %d", m.start, m.rows, rows), true
	case "field node set":
		at, ok := pickField(rng, batches, func(m message) []int { return m.nodes })
		if !ok {
			return "", false
		}
		return setInt64(rng, d, at+8*rng.IntN(2)), true
	case "buffer set":
		at, ok := pickField(rng, batches, func(m message) []int { return m.buffers })
		if !ok {
			return "", false
		}
		return setInt64(rng, d, at+8*rng.IntN(2)), true
	case "compressed length set":
		at, ok := pickField(rng, batches, func(m message) []int { return m.prefixes })
		if !ok {
			return "", false
		}
		return setInt64(rng, d, at), true
	case "compressed frame damaged":
		at, ok := pickField(rng, batches, func(m message) []int { return m.prefixes })
		if !ok || at+9 > len(d) {
			return "", false
		}
		at += 8 + rng.IntN(min(16, len(d)-at-8))
		d[at] = byteValue(rng)
		return fmt.Sprintf("at %d to %#x", at, d[at]), true
	case "variadic count set":
		at, ok := pickField(rng, batches, func(m message) []int { return m.variadic })
		if !ok {
			return "", false
		}
		return setInt64(rng, d, at), true
	case "key-value count set":
		m, ok := pick(rng, o.msgs, func(m message) bool { return m.keyValues > 0 })
		if !ok {
			return "", false
		}
		return setUint32(rng, d, m.keyValues), true
	case "codec set":
		m, ok := pick(rng, batches, func(m message) bool { return m.codecAt > 0 })
		if !ok {
			return "", false
		}
		d[m.codecAt] = byteValue(rng)
		return fmt.Sprintf("at %d to %d", m.codecAt, d[m.codecAt]), true
	case "body byte set":
		m, ok := pick(rng, o.msgs, func(m message) bool { return m.body.end > m.body.start })
		if !ok {
			return "", false
		}
		at := m.body.start + rng.IntN(m.body.end-m.body.start)
		d[at] = byteValue(rng)
		return fmt.Sprintf("at %d to %#x", at, d[at]), true
	case "footer byte set":
		if !o.File {
			return "", false
		}
		at := o.file.footer.start + rng.IntN(o.file.footer.end-o.file.footer.start)
		d[at] = byteValue(rng)
		return fmt.Sprintf("at %d to %#x", at, d[at]), true
	case "footer integer set":
		if !o.File {
			return "", false
		}
		at := o.file.footer.start + 4*rng.IntN((o.file.footer.end-o.file.footer.start)/4)
		return setUint32(rng, d, at), true
	case "block set":
		if !o.File || len(o.file.blocks) == 0 {
			return "", false
		}
		b := o.file.blocks[rng.IntN(len(o.file.blocks))]
		switch rng.IntN(3) {
		case 0:
			return "offset " + setInt64(rng, d, b), true
		case 1:
			return "metadata length " + setUint32(rng, d, b+8), true
		default:
			return "body length " + setInt64(rng, d, b+16), true
		}
	case "footer length set":
		if !o.File {
			return "", false
		}
		return setUint32(rng, d, o.file.lengthAt), true
	}
	return "", false
}

// batches is the record and dictionary batches of o.
func (o *Original) batches() []message {
	var out []message
	for _, m := range o.msgs {
		if m.kind == headerRecord || m.kind == headerDictionary {
			out = append(out, m)
		}
	}
	return out
}

// mutateLength is a damaged copy of o whose length differs from o's (cut
// short, a message dropped or repeated), and what was damaged; ok is false
// for a mutation kind that is not one of those, or that o has not.
func (o *Original) mutateLength(rng *rand.Rand, kind string) ([]byte, string, bool) {
	switch kind {
	case "truncated":
		n := rng.IntN(len(o.Data))
		return bytes.Clone(o.Data[:n]), fmt.Sprintf("%s: to %d of %d bytes", kind, n, len(o.Data)), true
	case "message dropped", "message repeated":
		if o.File || len(o.msgs) < 2 {
			return nil, "", false // a file's blocks would point elsewhere: only a stream, with a message past its schema
		}
		k := 1 + rng.IntN(len(o.msgs)-1) // never the schema
		m := o.msgs[k]
		d := bytes.Clone(o.Data[:m.start])
		if kind == "message repeated" {
			d = append(d, o.Data[m.start:m.body.end]...)
			d = append(d, o.Data[m.start:]...)
		} else {
			d = append(d, o.Data[m.body.end:]...)
		}
		return d, fmt.Sprintf("%s: message %d", kind, k), true
	}
	return nil, "", false
}

func pick(rng *rand.Rand, msgs []message, ok func(message) bool) (message, bool) {
	var in []message
	for _, m := range msgs {
		if ok(m) {
			in = append(in, m)
		}
	}
	if len(in) == 0 {
		return message{}, false
	}
	return in[rng.IntN(len(in))], true
}

// pickField is the position of one of the fields that of gives of a
// message of msgs.
func pickField(rng *rand.Rand, msgs []message, of func(message) []int) (int, bool) {
	var all []int
	for _, m := range msgs {
		all = append(all, of(m)...)
	}
	if len(all) == 0 {
		return 0, false
	}
	return all[rng.IntN(len(all))], true
}

func byteValue(rng *rand.Rand) byte {
	return []byte{0, 0xFF, 0x80, 0x7F, byte(rng.Uint32())}[rng.IntN(5)]
}

// setInt64 sets the int64 at at to a value that breaks what trusts it.
func setInt64(rng *rand.Rand, d []byte, at int) string {
	old := int64(binary.LittleEndian.Uint64(d[at:]))
	values := []int64{0, -1, -2, -8, 1 << 31, 1 << 40, 1 << 62, math.MaxInt64, math.MinInt64,
		old + 1, old - 1, old + 8, old - 8, old * 2, old << 20, int64(rng.Uint64())}
	v := values[rng.IntN(len(values))]
	binary.LittleEndian.PutUint64(d[at:], uint64(v))
	return fmt.Sprintf("int64 at %d from %d to %d", at, old, v)
}

// setUint32 sets the uint32 at at to a value that breaks what trusts it.
func setUint32(rng *rand.Rand, d []byte, at int) string {
	old := binary.LittleEndian.Uint32(d[at:])
	values := []uint32{0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 1 << 20, 1 << 26, old + 1, old - 1, old + 8, old * 2, rng.Uint32()}
	v := values[rng.IntN(len(values))]
	binary.LittleEndian.PutUint32(d[at:], v)
	return fmt.Sprintf("uint32 at %d from %d to %d", at, old, v)
}
