package ipcschema

import "encoding/binary"

// Block is where one record batch of an IPC file lies, as its footer
// says: its message, metadata (the continuation marker and length prefix
// included) then body, from Offset.
type Block struct {
	Offset   int64
	MetaData int32
	Body     int64
}

// RecordBlocks is the recordBatches of the Footer flatbuffer of an IPC
// file, buf (field 3, structs of 24 bytes: offset int64, metaDataLength
// int32, padding, bodyLength int64). An error wraps ErrMalformed.
func RecordBlocks(buf []byte) ([]Block, error) { return blocks(buf, 3) }

// DictionaryBlocks is the dictionaries of the Footer flatbuffer of an IPC
// file, buf (field 2, of the structs of RecordBlocks).
func DictionaryBlocks(buf []byte) ([]Block, error) { return blocks(buf, 2) }

func blocks(buf []byte, field int) ([]Block, error) {
	fb := &flatbuffer{buf: buf}
	footer, err := fb.root()
	if err != nil {
		return nil, err
	}
	start, n, err := footer.vector(field, 24)
	if err != nil {
		return nil, err
	}
	blocks := make([]Block, n) // n*24 bytes lie in buf: vector checked it
	for i := range blocks {
		b := buf[start+24*uint32(i):]
		blocks[i] = Block{
			Offset:   int64(binary.LittleEndian.Uint64(b)),
			MetaData: int32(binary.LittleEndian.Uint32(b[8:])),
			Body:     int64(binary.LittleEndian.Uint64(b[16:])),
		}
	}
	return blocks, nil
}

// messageRecordBatch is the MessageHeader union's member of a
// RecordBatch.
const messageRecordBatch = 3

// RecordBatchRows is the length (the rows) of the record batch whose
// encapsulated message starts meta: the continuation marker and the
// metadata length (or, before Arrow 0.15, the length alone), then the
// Message flatbuffer, whose header (field 2, of type field 1) is a
// RecordBatch whose length is field 0. meta may be cut after the
// flatbuffer's fields; a message that is not a record batch, or whose
// structure does not hold, is an error wrapping ErrMalformed.
func RecordBatchRows(meta []byte) (int64, error) {
	fb := &flatbuffer{buf: meta}
	if !fb.fits(0, 8) {
		return 0, fb.fail("a message of %d bytes", len(meta))
	}
	skip := 4
	if binary.LittleEndian.Uint32(meta) == Continuation {
		skip = 8
	}
	fb.buf = meta[skip:]
	msg, err := fb.root()
	if err != nil {
		return 0, err
	}
	kind, err := msg.byteField(1)
	if err != nil {
		return 0, err
	}
	if kind != messageRecordBatch {
		return 0, fb.fail("a message of type %d, not a record batch", kind)
	}
	batch, ok, err := msg.subtable(2)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fb.fail("a record batch message without its header")
	}
	at, err := batch.field(0, 8)
	if err != nil || at == 0 {
		return 0, err // no length: a batch of no rows
	}
	rows := int64(binary.LittleEndian.Uint64(fb.buf[at:]))
	if rows < 0 {
		return 0, fb.fail("a record batch of %d rows", rows)
	}
	return rows, nil
}
