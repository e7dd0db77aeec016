package ipcschema

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/arrowmap/arrowmap/internal/expansion"
)

// arrow-go loads a record batch or a dictionary batch trusting what its
// message claims: it allocates each compressed buffer at the length its
// first 8 bytes claim before decompressing it, makes a slice of as many
// buffers as a view column's variadic count claims, and of as many
// key-values as the message's custom metadata claims. One flipped byte
// asks for terabytes, which ends the process. CheckBatch checks them all
// first.

// The MessageHeader union's members of a dictionary batch and a record
// batch (Message.fbs).
const (
	headerDictionaryBatch = 2
	headerRecordBatch     = 3
)

// The BodyCompression codecs arrow-go decompresses (Message.fbs).
const (
	codecLZ4Frame = 0
	codecZSTD     = 1
)

// The sizes of the structs of a RecordBatch's vectors: FieldNode (length,
// null_count) and Buffer (offset, length), two int64 each.
const (
	fieldNodeSize = 16
	bufferSize    = 16
)

// uncompressedPrefix is the int64 that starts every compressed buffer: the
// buffer's length uncompressed, or -1 for a buffer left uncompressed.
const uncompressedPrefix = 8

// CheckBatch checks meta, the Message flatbuffer of an IPC message whose
// body of bodyLen bytes body reads, before arrow-go loads it. Any message
// must have its header and custom metadata inside meta; a record batch,
// or a dictionary batch's, must also have non-negative lengths and null
// counts, every buffer that is not empty inside the body, a codec arrow-go
// knows (by the BUFFER method, as Arrow C++ requires), variadic
// buffer counts within the buffers it has, and compressed buffers of at
// least their length prefix whose prefixes, added, claim at most
// expansion.Limit(bodyLen, ratio) bytes uncompressed (ratio: see
// expansion.Limit). Only the prefixes of the body are read.
//
// Its field nodes, buffers and variadic buffer counts must hold what
// arrow-go reads of them walking schema, the schema of the stream or file
// (see layout.go).
//
// A dictionary batch stays in memory until the end of its stream or
// file, with the deltas added to it: with dicts, the dictionaries of
// the stream or file read so far, what they claim in all is bounded by
// the bytes of all their bodies (a replacement taking the place of the
// dictionary it replaces), and dicts counts the batch once checked.
//
// A structure that does not hold is an error wrapping ErrMalformed; a
// claim past the limit one wrapping expansion.ErrTooLarge; a failure to
// read the body is returned as it is.
func CheckBatch(meta []byte, body io.ReaderAt, bodyLen, ratio int64, schema *Schema, dicts *Dictionaries) error {
	fb := &flatbuffer{buf: meta}
	msg, err := fb.root()
	if err != nil {
		return err
	}
	if err := keyValues(msg, 4); err != nil {
		return err
	}
	kind, err := msg.byteField(1)
	if err != nil {
		return err
	}
	header, ok, err := msg.subtable(2)
	switch {
	case err != nil:
		return err
	case kind != headerRecordBatch && kind != headerDictionaryBatch:
		return nil // arrow-go refuses any other message where a batch is due
	case !ok:
		return fb.fail("a %s message without its header", batchName(kind))
	}
	b := batchBudget{limit: expansion.Limit(bodyLen, ratio), received: bodyLen, ratio: ratio}
	batch := header
	var id int64
	var delta bool
	if kind == headerDictionaryBatch {
		if batch, ok, err = header.subtable(1); err != nil {
			return err
		} else if !ok {
			return fb.fail("a dictionary batch without its data")
		}
		if id, delta, err = dictionaryOf(header); err != nil {
			return err
		}
		if dicts != nil {
			claimed, received := dicts.others(id, delta)
			b = batchBudget{limit: expansion.Limit(received+bodyLen, ratio), before: claimed, received: received + bodyLen, ratio: ratio, dictionaries: true}
		}
	}
	if schema == nil { // a batch where the schema was due, or after it failed its check
		return fb.fail("a %s before the schema", batchName(kind))
	}
	var l layout
	if kind == headerRecordBatch {
		version, err := int16Field(msg, 0)
		if err != nil {
			return err
		}
		l.v5 = version >= metadataV5
		l.fields = schema.fields
	} else if f, ok := schema.dicts[id]; ok {
		// arrow-go loads a dictionary batch as of metadata version V1.
		l.fields, l.values = []fbTable{f}, true
	} // else arrow-go refuses a dictionary of an id its schema has not
	claimed, err := checkRecordBatch(batch, kind, body, bodyLen, b, &l)
	if err == nil && kind == headerDictionaryBatch && dicts != nil {
		dicts.add(id, delta, claimed, bodyLen)
	}
	return err
}

// messageKind is the header type of the Message flatbuffer meta.
func messageKind(meta []byte) (byte, error) {
	fb := &flatbuffer{buf: meta}
	msg, err := fb.root()
	if err != nil {
		return 0, err
	}
	return msg.byteField(1)
}

// batchBudget is what the compressed buffers of a batch may claim: limit,
// less what was claimed before them (by the dictionaries held), for the
// bytes received.
type batchBudget struct {
	limit, before, received, ratio int64
	dictionaries                   bool // before and received are the dictionaries' held with this one
}

// values refuses a count of rows or values of a batch past limit: a
// column of nulls, a run-end encoded column, a list of them, claims any
// number in a body of a few bytes, and every reader of its rows (a
// decoder, a Parquet writer making a level a value) spends at least a
// byte on each.
func (b batchBudget) values(kind byte, what string, n, bodyLen int64) error {
	if n <= b.limit {
		return nil
	}
	return fmt.Errorf("%w: a %s of %d %s in a body of %d bytes: more than the %d a message may claim, 64 Mi and %d a byte of its body (mapper.MaxExpansion raises the limit)",
		expansion.ErrTooLarge, batchName(kind), n, what, bodyLen, b.limit, ratioOf(b.ratio))
}

// dictionaryOf is the id (field 0) of the DictionaryBatch table t, and
// whether it is a delta (field 2).
func dictionaryOf(t fbTable) (id int64, delta bool, err error) {
	if id, err = int64Field(t, 0); err != nil {
		return 0, false, err
	}
	d, err := t.byteField(2)
	return id, d != 0, err
}

// Dictionaries is what the dictionary batches of one stream or file read
// so far claim uncompressed, and the bytes of their bodies, each
// dictionary's since its last replacement (see CheckBatch). The zero
// value is ready for use.
type Dictionaries struct {
	held              map[int64][2]int64 // by id: claimed, received
	claimed, received int64              // in all
}

// others is what the dictionaries held claim and received, but the one
// of id when a batch that is not a delta replaces it.
func (d *Dictionaries) others(id int64, delta bool) (claimed, received int64) {
	claimed, received = d.claimed, d.received
	if h, ok := d.held[id]; ok && !delta {
		claimed, received = claimed-h[0], received-h[1]
	}
	return claimed, received
}

// add counts a dictionary batch of id that claims claimed bytes in a
// body of received.
func (d *Dictionaries) add(id int64, delta bool, claimed, received int64) {
	if d.held == nil {
		d.held = map[int64][2]int64{}
	}
	h := d.held[id]
	if !delta {
		d.claimed, d.received = d.claimed-h[0], d.received-h[1]
		h = [2]int64{}
	}
	d.held[id] = [2]int64{h[0] + claimed, h[1] + received}
	d.claimed += claimed
	d.received += received
}

func batchName(kind byte) string {
	if kind == headerDictionaryBatch {
		return "dictionary batch"
	}
	return "record batch"
}

// checkRecordBatch checks a RecordBatch table: length 0, nodes 1, buffers
// 2, compression 3, variadicBufferCounts 4. It returns what its compressed
// buffers claim uncompressed.
func checkRecordBatch(t fbTable, kind byte, body io.ReaderAt, bodyLen int64, b batchBudget, l *layout) (int64, error) {
	fb := t.fb
	if at, err := t.field(0, 8); err != nil {
		return 0, err
	} else if at != 0 {
		rows := int64(binary.LittleEndian.Uint64(fb.buf[at:]))
		if rows < 0 {
			return 0, fb.fail("a %s of %d rows", batchName(kind), rows)
		}
		if err := b.values(kind, "rows", rows, bodyLen); err != nil {
			return 0, err
		}
	}
	start, n, err := t.vector(1, fieldNodeSize)
	if err != nil {
		return 0, err
	}
	for i := range n {
		at := start + i*fieldNodeSize
		length := int64(binary.LittleEndian.Uint64(fb.buf[at:]))
		nulls := int64(binary.LittleEndian.Uint64(fb.buf[at+8:]))
		if length < 0 || nulls < 0 {
			return 0, fb.fail("field node %d of %d values, %d of them null", i, length, nulls)
		}
		if err := b.values(kind, fmt.Sprintf("values in field node %d", i), length, bodyLen); err != nil {
			return 0, err
		}
	}
	codec, compressed, err := compression(t)
	if err != nil {
		return 0, err
	}
	start, buffers, err := t.vector(2, bufferSize)
	if err != nil {
		return 0, err
	}
	if err := checkVariadic(t, buffers); err != nil {
		return 0, err
	}
	if err := l.count(t); err != nil {
		return 0, err
	}
	if uint64(n) < l.nodes {
		return 0, fb.fail("a %s of %d field nodes, for a schema of %d", batchName(kind), n, l.nodes)
	}
	if uint64(buffers) < l.buffers {
		return 0, fb.fail("a %s of %d buffers, for a schema of %d", batchName(kind), buffers, l.buffers)
	}
	room := max(0, b.limit-b.before) // what the compressed buffers may claim
	var claimed int64                // what they claim, at most room
	var prefix [uncompressedPrefix]byte
	for i := range buffers {
		at := start + i*bufferSize
		offset := int64(binary.LittleEndian.Uint64(fb.buf[at:]))
		length := int64(binary.LittleEndian.Uint64(fb.buf[at+8:]))
		if length == 0 {
			continue // arrow-go reads nothing of it, wherever it says it is
		}
		if offset < 0 || length < 0 || offset > bodyLen || length > bodyLen-offset {
			return 0, fb.fail("buffer %d of %d bytes at %d, in a body of %d", i, length, offset, bodyLen)
		}
		if !compressed {
			continue
		}
		if length < uncompressedPrefix {
			return 0, fb.fail("compressed buffer %d of %d bytes, shorter than its length prefix", i, length)
		}
		if _, err := body.ReadAt(prefix[:], offset); err != nil {
			return 0, fmt.Errorf("reading the length prefix of buffer %d: %w", i, cut(err))
		}
		size := int64(binary.LittleEndian.Uint64(prefix[:]))
		switch {
		case size == -1:
			continue // stored uncompressed: arrow-go slices the body
		case size < 0:
			return 0, fb.fail("compressed buffer %d claims %d bytes uncompressed", i, size)
		case size > room-claimed && b.dictionaries:
			return 0, fmt.Errorf("%w: %s buffer %d of a dictionary batch claims %d bytes uncompressed, after %d claimed by the buffers before it and %d by the dictionaries held: "+
				"more than the %d the dictionaries may claim, 64 MiB and %d bytes a byte of their bodies, %d (mapper.MaxExpansion raises the limit)",
				expansion.ErrTooLarge, codecName(codec), i, size, claimed, b.before, b.limit, ratioOf(b.ratio), b.received)
		case size > room-claimed:
			return 0, fmt.Errorf("%w: %s buffer %d of a %s claims %d bytes uncompressed, after %d claimed by the buffers before it: "+
				"more than the %d its message may claim, 64 MiB and %d bytes a byte of its body of %d (mapper.MaxExpansion raises the limit)",
				expansion.ErrTooLarge, codecName(codec), i, batchName(kind), size, claimed, b.limit, ratioOf(b.ratio), bodyLen)
		}
		if codec == codecZSTD {
			if err := checkZstdWindows(body, offset+uncompressedPrefix, length-uncompressedPrefix, size); err != nil {
				return 0, fb.fail("ZSTD buffer %d of a %s: %v", i, batchName(kind), err)
			}
		}
		claimed += size
	}
	return claimed, nil
}

// maxZstdWindow is the window a ZSTD frame may ask for whatever the
// bytes it holds: the 8 MiB the format recommends every decoder take.
const maxZstdWindow = 8 << 20

// checkZstdWindows walks the ZSTD frames of the n bytes at off, a buffer
// of size bytes uncompressed, and refuses a frame whose window is past
// both size and maxZstdWindow. arrow-go's decoder (klauspost's, up to its
// 512 MiB) allocates the window a frame header asks for before a block of
// it is read: one damaged byte of a 168-byte buffer asked for 352 MiB.
// Every encoder that knows the content's size keeps the window to it. A
// frame cut short is left to the decoder, which fails on it.
func checkZstdWindows(body io.ReaderAt, off, n, size int64) error {
	r := aheadReader{r: body, end: off + n}
	for {
		hdr := r.at(off, 18)
		if len(hdr) < 8 {
			return nil
		}
		magic := binary.LittleEndian.Uint32(hdr)
		if magic&0xFFFFFFF0 == 0x184D2A50 { // a skippable frame
			off += 8 + int64(binary.LittleEndian.Uint32(hdr[4:]))
			continue
		}
		if magic != 0xFD2FB528 {
			return nil // not ZSTD: the decoder says so
		}
		fhd := hdr[4]
		single := fhd&0x20 != 0
		fcsSize := [4]int{0, 2, 4, 8}[fhd>>6]
		if single && fhd>>6 == 0 {
			fcsSize = 1
		}
		didSize := [4]int{0, 1, 2, 4}[fhd&3]
		at := 5
		var window uint64
		if !single {
			wd := hdr[at]
			base := uint64(1) << (10 + wd>>3)
			window = base + base/8*uint64(wd&7)
			at++
		}
		at += didSize
		if at+fcsSize > len(hdr) {
			return nil
		}
		if single {
			var fcs uint64
			for j := fcsSize - 1; j >= 0; j-- {
				fcs = fcs<<8 | uint64(hdr[at+j])
			}
			if fcsSize == 2 {
				fcs += 256
			}
			window = fcs
		}
		if window > maxZstdWindow && window > uint64(size) {
			return fmt.Errorf("a frame asks for a window of %d bytes, for %d bytes uncompressed", window, size)
		}
		// The frame's blocks, to the next frame: a 3-byte header each,
		// the last flagged, then a checksum when the frame has one.
		off += int64(at + fcsSize)
		for {
			bh := r.at(off, 3)
			if len(bh) < 3 {
				return nil
			}
			h := uint32(bh[0]) | uint32(bh[1])<<8 | uint32(bh[2])<<16
			blockSize := int64(h >> 3)
			if (h>>1)&3 == 1 { // RLE: one byte repeated
				blockSize = 1
			}
			off += 3 + blockSize
			if h&1 != 0 {
				break
			}
		}
		if fhd&4 != 0 {
			off += 4
		}
	}
}

// aheadReader reads the bytes of r before end a window at a time: the
// headers of a frame's blocks, which may be 3 bytes apart, cost a ReadAt
// (a system call, on a file) a window, not one each.
type aheadReader struct {
	r     io.ReaderAt
	end   int64
	buf   []byte
	start int64 // of buf
}

// at is the k bytes at off, fewer before end or where r has no more.
func (a *aheadReader) at(off int64, k int) []byte {
	if off < 0 || off >= a.end {
		return nil
	}
	k = int(min(int64(k), a.end-off))
	if off < a.start || off+int64(k) > a.start+int64(len(a.buf)) {
		if a.buf == nil {
			a.buf = make([]byte, 0, 4096)
		}
		n, _ := a.r.ReadAt(a.buf[:min(int64(cap(a.buf)), a.end-off)], off)
		a.buf, a.start = a.buf[:n], off
	}
	return a.buf[off-a.start : min(off-a.start+int64(k), int64(len(a.buf)))]
}

// compression is the codec of the RecordBatch t's BodyCompression (field
// 3: codec 0, method 1), compressed false without one.
func compression(t fbTable) (codec byte, compressed bool, err error) {
	c, ok, err := t.subtable(3)
	if err != nil || !ok {
		return 0, false, err
	}
	if codec, err = c.byteField(0); err != nil {
		return 0, false, err
	}
	if codec != codecLZ4Frame && codec != codecZSTD {
		return 0, false, t.fb.fail("a body compressed with codec %d, neither LZ4_FRAME nor ZSTD", codec)
	}
	method, err := c.byteField(1)
	if err != nil {
		return 0, false, err
	}
	if method != 0 {
		return 0, false, t.fb.fail("a body compressed by method %d, not BUFFER", method)
	}
	return codec, true, nil
}

func codecName(codec byte) string {
	if codec == codecZSTD {
		return "ZSTD"
	}
	return "LZ4_FRAME"
}

func ratioOf(ratio int64) int64 {
	if ratio <= 0 {
		return expansion.DefaultRatio
	}
	return ratio
}

// checkVariadic checks the variadicBufferCounts of the RecordBatch t (field
// 4): each a count of buffers of the buffers vector, whose length is
// buffers, so that their sum is at most buffers. arrow-go makes a slice of
// each count's capacity.
func checkVariadic(t fbTable, buffers uint32) error {
	start, n, err := t.vector(4, 8)
	if err != nil {
		return err
	}
	var sum uint64
	for i := range n {
		count := int64(binary.LittleEndian.Uint64(t.fb.buf[start+8*i:]))
		if count < 0 || uint64(count) > uint64(buffers)-sum {
			return t.fb.fail("variadic buffer count %d of %d in a batch of %d buffers", i, count, buffers)
		}
		sum += uint64(count)
	}
	return nil
}

// int16Field is field i of t as an int16, 0 when absent.
func int16Field(t fbTable, i int) (int16, error) {
	at, err := t.field(i, 2)
	if err != nil || at == 0 {
		return 0, err
	}
	return int16(binary.LittleEndian.Uint16(t.fb.buf[at:])), nil
}

// CheckBlock checks the message of b, a record batch's block of the IPC
// file of size bytes that f reads, as CheckBatch does, before arrow-go's
// file reader reads it: the block inside the file, its metadata's length
// prefix agreeing with the block, and its batch. It reads the block's
// metadata and the length prefixes of its compressed buffers, never its
// body.
func CheckBlock(f io.ReaderAt, size int64, b Block, ratio int64, schema *Schema) error {
	return checkBlock(f, size, b, ratio, headerRecordBatch, schema, nil)
}

// CheckDictionaryBlock checks the message of b, a dictionary batch's block
// of the IPC file of size bytes that f reads, as CheckBlock does, with
// dicts (see CheckBatch). arrow-go reads the message of a dictionary's
// block as a dictionary batch whatever its header says: one of another
// kind is refused here.
func CheckDictionaryBlock(f io.ReaderAt, size int64, b Block, ratio int64, schema *Schema, dicts *Dictionaries) error {
	return checkBlock(f, size, b, ratio, headerDictionaryBatch, schema, dicts)
}

// checkBlock is CheckBlock's and CheckDictionaryBlock's, for a message
// whose header is of the kind want.
func checkBlock(f io.ReaderAt, size int64, b Block, ratio int64, want byte, schema *Schema, dicts *Dictionaries) error {
	fb := &flatbuffer{}
	if b.Offset < 0 || b.MetaData < 8 || b.MetaData > MaxMetadata || b.Body < 0 ||
		b.Offset > size || int64(b.MetaData) > size-b.Offset || b.Body > size-b.Offset-int64(b.MetaData) {
		return fb.fail("a block of %d bytes of metadata and %d of body at %d, in a file of %d", b.MetaData, b.Body, b.Offset, size)
	}
	meta := make([]byte, b.MetaData)
	if _, err := f.ReadAt(meta, b.Offset); err != nil {
		return fmt.Errorf("reading the metadata of a block: %w", cut(err))
	}
	prefix := 4 // before Arrow 0.15: the length alone
	if binary.LittleEndian.Uint32(meta) == Continuation {
		prefix = 8
	}
	if n := binary.LittleEndian.Uint32(meta[prefix-4:]); int64(n) != int64(len(meta)-prefix) {
		return fb.fail("a block's metadata of %d bytes whose message says %d", len(meta)-prefix, n)
	}
	meta = meta[prefix:]
	if n, err := bodyLength(meta); err != nil {
		return err
	} else if n != b.Body {
		return fb.fail("a block's body of %d bytes whose message says %d", b.Body, n)
	}
	if kind, err := messageKind(meta); err != nil {
		return err
	} else if kind != want {
		return fb.fail("a %s's block holding a message of header type %d", batchName(want), kind)
	}
	return CheckBatch(meta, io.NewSectionReader(f, b.Offset+int64(b.MetaData), b.Body), b.Body, ratio, schema, dicts)
}
