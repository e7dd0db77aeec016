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
// counts, every buffer inside the body, a codec arrow-go knows, variadic
// buffer counts within the buffers it has, and compressed buffers of at
// least their length prefix whose prefixes, added, claim at most
// expansion.Limit(bodyLen, ratio) bytes uncompressed (ratio: see
// expansion.Limit). Only the prefixes of the body are read.
//
// A structure that does not hold is an error wrapping ErrMalformed; a
// claim past the limit one wrapping expansion.ErrTooLarge; a failure to
// read the body is returned as it is.
func CheckBatch(meta []byte, body io.ReaderAt, bodyLen, ratio int64) error {
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
	batch := header
	if kind == headerDictionaryBatch {
		if batch, ok, err = header.subtable(1); err != nil {
			return err
		} else if !ok {
			return fb.fail("a dictionary batch without its data")
		}
	}
	return checkRecordBatch(batch, kind, body, bodyLen, ratio)
}

func batchName(kind byte) string {
	if kind == headerDictionaryBatch {
		return "dictionary batch"
	}
	return "record batch"
}

// checkRecordBatch checks a RecordBatch table: length 0, nodes 1, buffers
// 2, compression 3, variadicBufferCounts 4.
func checkRecordBatch(t fbTable, kind byte, body io.ReaderAt, bodyLen, ratio int64) error {
	fb := t.fb
	if at, err := t.field(0, 8); err != nil {
		return err
	} else if at != 0 {
		if rows := int64(binary.LittleEndian.Uint64(fb.buf[at:])); rows < 0 {
			return fb.fail("a %s of %d rows", batchName(kind), rows)
		}
	}
	start, n, err := t.vector(1, fieldNodeSize)
	if err != nil {
		return err
	}
	for i := range n {
		at := start + i*fieldNodeSize
		length := int64(binary.LittleEndian.Uint64(fb.buf[at:]))
		nulls := int64(binary.LittleEndian.Uint64(fb.buf[at+8:]))
		if length < 0 || nulls < 0 {
			return fb.fail("field node %d of %d values, %d of them null", i, length, nulls)
		}
	}
	codec, compressed, err := compression(t)
	if err != nil {
		return err
	}
	start, buffers, err := t.vector(2, bufferSize)
	if err != nil {
		return err
	}
	if err := checkVariadic(t, buffers); err != nil {
		return err
	}
	limit := expansion.Limit(bodyLen, ratio)
	var claimed int64 // the uncompressed bytes the compressed buffers claim, at most limit
	var prefix [uncompressedPrefix]byte
	for i := range buffers {
		at := start + i*bufferSize
		offset := int64(binary.LittleEndian.Uint64(fb.buf[at:]))
		length := int64(binary.LittleEndian.Uint64(fb.buf[at+8:]))
		if offset < 0 || length < 0 || offset > bodyLen || length > bodyLen-offset {
			return fb.fail("buffer %d of %d bytes at %d, in a body of %d", i, length, offset, bodyLen)
		}
		if !compressed || length == 0 {
			continue
		}
		if length < uncompressedPrefix {
			return fb.fail("compressed buffer %d of %d bytes, shorter than its length prefix", i, length)
		}
		if _, err := body.ReadAt(prefix[:], offset); err != nil {
			return fmt.Errorf("reading the length prefix of buffer %d: %w", i, cut(err))
		}
		size := int64(binary.LittleEndian.Uint64(prefix[:]))
		switch {
		case size == -1:
			continue // stored uncompressed: arrow-go slices the body
		case size < 0:
			return fb.fail("compressed buffer %d claims %d bytes uncompressed", i, size)
		case size > limit-claimed:
			return fmt.Errorf("%w: %s buffer %d of a %s claims %d bytes uncompressed, after %d claimed by the buffers before it: "+
				"more than the %d its message may claim, 64 MiB and %d bytes a byte of its body of %d (mapper.MaxExpansion raises the limit)",
				expansion.ErrTooLarge, codecName(codec), i, batchName(kind), size, claimed, limit, ratioOf(ratio), bodyLen)
		}
		claimed += size
	}
	return nil
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

// CheckBlock checks the message of b, a block of the IPC file of size
// bytes that f reads, as CheckBatch does, before arrow-go's file reader
// reads it: the block inside the file, its metadata's length prefix
// agreeing with the block, and its batch. It reads the block's metadata
// and the length prefixes of its compressed buffers, never its body.
func CheckBlock(f io.ReaderAt, size int64, b Block, ratio int64) error {
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
	return CheckBatch(meta, io.NewSectionReader(f, b.Offset+int64(b.MetaData), b.Body), b.Body, ratio)
}
