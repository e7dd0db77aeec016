// Package ipcschema is the one verified decoding path for untrusted Arrow
// IPC schema bytes: the messages of IPC streams, the footers of IPC files,
// Flight schemas and FlightData headers, and the Arrow schema a Parquet
// file stores; and the check of every record and dictionary batch message
// after them (CheckBatch, CheckBlock) before arrow-go loads it. Every
// length, offset and count of the bytes is checked against the bytes
// before arrow-go, which trusts them, allocates or indexes by them.
package ipcschema

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Continuation starts every message of a stream written since Arrow 0.15.
const Continuation = 0xFFFFFFFF

// MaxMetadata is the longest metadata of a message, arrow-go's limit.
const MaxMetadata = 64 << 20

// HeaderSchema is the header type of a schema message (Message.fbs).
const HeaderSchema = 1

// Decode is the schema of b, an IPC stream that starts with a schema
// message (what flight.DeserializeSchema reads, and what Parquet files
// store base64-encoded as "ARROW:schema"). The message's framing, its
// flatbuffer (see CheckSchemaMessage) and its body length are checked
// against b before arrow-go parses it, and a panic of arrow-go's parsing is
// an error: malformed bytes are an error wrapping ErrMalformed, never an
// allocation larger than b, never a panic.
func Decode(b []byte, mem memory.Allocator) (_ *arrow.Schema, err error) {
	if err := checkStream(b); err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %s", ErrMalformed, strings.Join(strings.Fields(fmt.Sprint(p)), " "))
		}
	}()
	r, err := arrowipc.NewReaderFromMessageReader(NewMessageReader(bytes.NewReader(b), 0), arrowipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	defer r.Release()
	return r.Schema(), nil
}

// checkStream checks the first message of the stream b: its length, its
// flatbuffer and its body inside b.
func checkStream(b []byte) error {
	word := func(at int) (uint32, bool) {
		if at+4 > len(b) {
			return 0, false
		}
		return binary.LittleEndian.Uint32(b[at:]), true
	}
	at := 0
	length, ok := word(at)
	if ok && length == Continuation {
		at += 4
		length, ok = word(at)
	}
	if !ok {
		return fmt.Errorf("%w: %d bytes, no schema message", ErrMalformed, len(b))
	}
	at += 4
	if length < 8 || uint64(length) > uint64(len(b)-at) {
		return fmt.Errorf("%w: a schema message of %d bytes of metadata in %d bytes", ErrMalformed, length, len(b))
	}
	meta := b[at : at+int(length)]
	if err := CheckSchemaMessage(meta); err != nil {
		return err
	}
	body, err := bodyLength(meta)
	if err != nil {
		return err
	}
	if rest := int64(len(b) - at - int(length)); body > rest {
		return fmt.Errorf("%w: a schema message with a body of %d bytes, %d left", ErrMalformed, body, rest)
	}
	return nil
}
