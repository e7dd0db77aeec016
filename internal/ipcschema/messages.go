package ipcschema

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync/atomic"

	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// MessageReader reads the messages of a stream for arrow-go's stream
// reader (arrowipc.NewReaderFromMessageReader). arrow-go's own, as its NewReader makes it in v18.8.0, takes none
// of the size limits and allocates a body at the length its metadata
// claims before reading it: one corrupt length asks for terabytes, which
// ends the process. This one reads a large body as its bytes arrive, so
// that memory follows what the input holds, not what it claims; it
// checks the structure of the first message, the schema, before arrow-go
// parses it (see CheckSchemaMessage), and every message after it, with
// its body, before arrow-go loads a batch from it (see CheckBatch).
type MessageReader struct {
	r      io.Reader
	ratio  int64   // CheckBatch's
	schema *Schema // the stream's, from its first message
	dicts  Dictionaries
	refs   atomic.Int64
	msg    *arrowipc.Message
	first  bool // the next message is the first
	read   int  // the messages read
}

// NewMessageReader is the MessageReader of the stream r, whose first
// message must be a schema; ratio bounds what the compressed buffers of
// each batch may claim, as CheckBatch does.
func NewMessageReader(r io.Reader, ratio int64) *MessageReader {
	m := &MessageReader{r: r, ratio: ratio, first: true}
	m.refs.Store(1)
	return m
}

// Retain adds a reference.
func (m *MessageReader) Retain() { m.refs.Add(1) }

// Release drops a reference; the last releases the current message.
func (m *MessageReader) Release() {
	if m.refs.Add(-1) == 0 {
		m.releaseMessage()
	}
}

func (m *MessageReader) releaseMessage() {
	if m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}

// Message reads the next message, valid until the next call. The end of
// the stream, an end-of-stream marker or no byte more, is io.EOF itself; a
// stream cut inside a message is an io.ErrUnexpectedEOF error.
func (m *MessageReader) Message() (*arrowipc.Message, error) {
	m.releaseMessage()
	first := m.first
	m.first = false
	m.read++
	var word [4]byte
	if _, err := io.ReadFull(m.r, word[:]); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading a message: %w", err)
	}
	length := binary.LittleEndian.Uint32(word[:])
	if length == Continuation {
		if _, err := io.ReadFull(m.r, word[:]); err != nil {
			return nil, fmt.Errorf("reading the length of a message: %w", cut(err))
		}
		length = binary.LittleEndian.Uint32(word[:])
	} // else a stream written before Arrow 0.15: no continuation marker
	switch {
	case length == 0:
		return nil, io.EOF
	case length < 8 || length > MaxMetadata:
		return nil, fmt.Errorf("%w: a message of %d bytes of metadata", ErrMalformed, length)
	}
	meta, err := readBytes(m.r, int64(length))
	if err != nil {
		return nil, fmt.Errorf("reading the metadata of a message: %w", err)
	}
	if first {
		if m.schema, err = SchemaOfMessage(meta); err != nil {
			return nil, err
		}
	}
	size, err := bodyLength(meta)
	if err != nil {
		return nil, err
	}
	body, err := readBytes(m.r, size)
	if err != nil {
		return nil, fmt.Errorf("reading the body of a message: %w", err)
	}
	if !first {
		if err := CheckBatch(meta, BodyAt(body), size, m.ratio, m.schema, &m.dicts); err != nil {
			return nil, fmt.Errorf("message %d of the stream: %w", m.read, err)
		}
	}
	m.msg = arrowipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(body))
	return m.msg, nil
}

// BodyAt is a message body in memory, as CheckBatch reads it.
type BodyAt []byte

// ReadAt reads len(p) bytes of b from off, or fails with io.EOF.
func (b BodyAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) || int64(len(p)) > int64(len(b))-off {
		return 0, io.EOF
	}
	return copy(p, b[off:]), nil
}

// cut is err, of reading a message begun, as a stream cut short.
func cut(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readBytes reads n bytes of r: at once when n is small, else as they
// come, so that a corrupt n makes memory grow only as far as r goes.
func readBytes(r io.Reader, n int64) ([]byte, error) {
	const atOnce = 16 << 20
	if n <= atOnce {
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, cut(err)
		}
		return b, nil
	}
	var buf bytes.Buffer
	buf.Grow(atOnce)
	if _, err := io.CopyN(&buf, r, n); err != nil {
		return nil, cut(err)
	}
	return buf.Bytes(), nil
}

// bodyLength is the bodyLength of a Message flatbuffer (field 3).
func bodyLength(meta []byte) (int64, error) {
	fb := &flatbuffer{buf: meta}
	msg, err := fb.root()
	if err != nil {
		return 0, err
	}
	at, err := msg.field(3, 8)
	if err != nil || at == 0 {
		return 0, err
	}
	n := int64(binary.LittleEndian.Uint64(meta[at:]))
	if n < 0 {
		return 0, fb.fail("a message body of %d bytes", n)
	}
	return n, nil
}
