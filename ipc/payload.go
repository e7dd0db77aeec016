package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	flatbuffers "github.com/google/flatbuffers/go"
)

// payloadWriter lays out the messages that arrow-go's stream writer
// encodes, as an IPC stream or as an IPC file. arrow-go's own file writer
// cannot write a dictionary that changes between records, even as a delta,
// which the file format allows: this one writes the file's footer itself,
// listing the delta dictionaries with the others.
//
// It remembers the first error of the output and writes nothing after it,
// so that the caller can tell a failed output (nothing more can be
// written: no footer, no end-of-stream marker) from a record refused
// before any of its bytes were written.
type payloadWriter struct {
	w       io.Writer
	file    bool
	pos     int64 // bytes written
	err     error // the first error of w
	started bool
	closed  bool
	schema  []byte // the schema message's flatbuffer, for the footer
	dicts   []block
	recs    []block
	ids     map[int64]bool // the dictionaries written, by id
}

// block is where a message is in a file, as the footer lists it.
type block struct {
	offset int64
	meta   int32 // the metadata's length with its prefix and padding
	body   int64
}

// The message headers of Message.fbs.
const (
	headerSchema     = 1
	headerDictionary = 2
	headerRecord     = 3
)

// endOfStream is the end-of-stream marker: a continuation and a zero length.
var endOfStream = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}

// errReplacement is a dictionary written again in full, which an IPC file
// cannot hold.
type errReplacement struct{ id int64 }

func (e errReplacement) Error() string {
	return fmt.Sprintf("dictionary %d changed in a way an IPC file cannot hold: a file takes deltas, which add values, but no replacement", e.id)
}

func (p *payloadWriter) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	n, err := p.w.Write(b)
	p.pos += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		p.err = err
	}
	return n, err
}

// Start writes the file's magic; arrow-go's stream writer never calls it,
// so WritePayload does before the first message.
func (p *payloadWriter) Start() error {
	if p.started {
		return p.err
	}
	p.started = true
	p.ids = make(map[int64]bool)
	if p.file {
		// The magic, padded to 8 bytes so that the messages are aligned.
		if _, err := p.Write([]byte("ARROW1\x00\x00")); err != nil {
			return err
		}
	}
	return nil
}

func (p *payloadWriter) WritePayload(payload arrowipc.Payload) error {
	if err := p.Start(); err != nil {
		return err
	}
	meta := payload.Meta()
	if meta == nil {
		return errors.New("a message without metadata")
	}
	defer meta.Release()
	header, id, delta, err := messageHeader(meta.Bytes())
	if err != nil {
		return err
	}
	if p.file {
		switch header {
		case headerSchema:
			p.schema = bytes.Clone(meta.Bytes())
		case headerDictionary:
			if p.ids[id] && !delta {
				return errReplacement{id}
			}
		}
	}
	start := p.pos
	n, err := payload.WritePayload(p)
	if err != nil {
		return err
	}
	blk := block{offset: start, meta: int32(n), body: p.pos - start - int64(n)}
	switch header {
	case headerDictionary:
		p.ids[id] = true
		p.dicts = append(p.dicts, blk)
	case headerRecord:
		p.recs = append(p.recs, blk)
	}
	return nil
}

// Close ends the stream, or the file with its footer, unless the output
// failed: then it writes nothing and returns that error.
func (p *payloadWriter) Close() error {
	if p.closed || p.err != nil {
		return p.err
	}
	p.closed = true
	if err := p.Start(); err != nil {
		return err
	}
	if _, err := p.Write(endOfStream); err != nil {
		return err
	}
	if !p.file {
		return nil
	}
	footer, err := fileFooter(p.schema, p.dicts, p.recs)
	if err != nil {
		return err
	}
	var size [4]byte
	binary.LittleEndian.PutUint32(size[:], uint32(len(footer)))
	for _, b := range [][]byte{footer, size[:], fileMagic} {
		if _, err := p.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// messageHeader reads the header type of the Message flatbuffer meta and,
// for a dictionary batch, its id and whether it is a delta.
func messageHeader(meta []byte) (header byte, id int64, delta bool, err error) {
	if len(meta) < 8 {
		return 0, 0, false, fmt.Errorf("a message of %d bytes of metadata", len(meta))
	}
	// Message: version 0, header_type 1, header 2, bodyLength 3, custom_metadata 4.
	msg := flatbuffers.Table{Bytes: meta, Pos: flatbuffers.GetUOffsetT(meta)}
	header = msg.GetByteSlot(slot(1), 0)
	if header != headerDictionary {
		return header, 0, false, nil
	}
	o := msg.Offset(slot(2))
	if o == 0 {
		return 0, 0, false, errors.New("a dictionary message without its header")
	}
	// DictionaryBatch: id 0, data 1, isDelta 2.
	dict := flatbuffers.Table{Bytes: meta, Pos: msg.Indirect(msg.Pos + flatbuffers.UOffsetT(o))}
	return header, dict.GetInt64Slot(slot(0), 0), dict.GetBoolSlot(slot(2), false), nil
}

// slot is the vtable offset of a table's field i.
func slot(i int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*i) }

// fileFooter builds the Footer flatbuffer of File.fbs: the schema and the
// blocks of the dictionaries and records.
func fileFooter(schemaMessage []byte, dicts, recs []block) ([]byte, error) {
	if len(schemaMessage) < 8 {
		return nil, errors.New("no schema was written")
	}
	// The footer's schema is the one of the schema message: its bytes are
	// copied whole, aligned as they were, and the footer points at the
	// Schema table inside them, whose offsets are relative and stay valid.
	msg := flatbuffers.Table{Bytes: schemaMessage, Pos: flatbuffers.GetUOffsetT(schemaMessage)}
	o := msg.Offset(slot(2))
	if o == 0 {
		return nil, errors.New("a schema message without its schema")
	}
	schemaAt := msg.Indirect(msg.Pos + flatbuffers.UOffsetT(o))

	b := flatbuffers.NewBuilder(len(schemaMessage) + 24*(len(dicts)+len(recs)) + 128)
	b.Prep(8, len(schemaMessage))
	vec := b.CreateByteVector(schemaMessage)
	// Builder offsets count from the end: the vector's bytes start 4 bytes
	// (its length) after it, so byte i is at vec-4-i.
	schema := vec - 4 - schemaAt

	blocks := func(blks []block) flatbuffers.UOffsetT {
		b.StartVector(24, len(blks), 8)
		for i := len(blks) - 1; i >= 0; i-- {
			// struct Block { offset: long; metaDataLength: int; bodyLength: long; }
			b.Prep(8, 24)
			b.PrependInt64(blks[i].body)
			b.Pad(4)
			b.PrependInt32(blks[i].meta)
			b.PrependInt64(blks[i].offset)
		}
		return b.EndVector(len(blks))
	}
	dictBlocks := blocks(dicts)
	recBlocks := blocks(recs)

	// Footer: version 0, schema 1, dictionaries 2, recordBatches 3.
	b.StartObject(5)
	b.PrependUOffsetTSlot(3, recBlocks, 0)
	b.PrependUOffsetTSlot(2, dictBlocks, 0)
	b.PrependUOffsetTSlot(1, schema, 0)
	b.PrependInt16Slot(0, int16(arrowipc.MetadataV5), 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes(), nil
}
