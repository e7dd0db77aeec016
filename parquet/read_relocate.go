package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/pierrec/lz4/v4"
)

// Two kinds of column chunk arrow-go v18.8.0 cannot read page by page as
// they are:
//
//   - a chunk of Parquet's deprecated LZ4 codec, for which arrow-go has no
//     codec ("compression for LZ4 unimplemented"): its pages are in
//     Hadoop's framing (parquet-mr, arrow-cpp) or a raw LZ4 block (older
//     parquet-cpp), which it does not say;
//   - a version 2 data page whose values take no bytes (all its rows are
//     null) and which is marked compressed, as parquet-mr writes it: arrow-go
//     decompresses the 0 bytes, which no codec takes ("s2: corrupt input").
//
// Such a chunk is moved, for arrow-go, past the end of the file (the
// footer it reads says so, see repairFooter), where pageFile serves it
// page by page as arrow-go reads it, re-encoded from the file's bytes: an
// LZ4 page decompressed (each framing tried in arrow-cpp's order), its
// header saying so; an empty version 2 page marked uncompressed, which
// takes one byte more. Each page's CRC and size are checked as pageFile
// checks those it follows. arrowmap registers no codec with arrow-go: its
// registry (compress.RegisterCodec) is the process's.

// The fields of the footer's structs that a move changes.
const (
	chunkFileOffset     = 2  // ColumnChunk.file_offset
	chunkCryptoField    = 8  // ColumnChunk.crypto_metadata
	metaTotalCompressed = 7  // ColumnMetaData.total_compressed_size
	metaTotalRaw        = 6  // ColumnMetaData.total_uncompressed_size
	metaNumValues       = 5  // ColumnMetaData.num_values
	metaDataPageOffset  = 9  // ColumnMetaData.data_page_offset
	metaIndexPageOffset = 10 // ColumnMetaData.index_page_offset
	metaDictPageOffset  = 11 // ColumnMetaData.dictionary_page_offset
	metaStatisticsField = 12 // ColumnMetaData.statistics
	statsNullCountField = 3  // Statistics.null_count
	v2LevelsDefField    = 5  // DataPageHeaderV2.definition_levels_byte_length
	v2LevelsRepField    = 6  // DataPageHeaderV2.repetition_levels_byte_length
	v2CompressedField   = 7  // DataPageHeaderV2.is_compressed
)

// maxMovedRoom is the most bytes a chunk moved may take past the file
// (1 TiB: pages of 2 GiB at most, thousands of them), and maxMovedEnd the
// offset past which no chunk is moved, so that no offset overflows.
const (
	maxMovedRoom = 1 << 40
	maxMovedEnd  = 1 << 61
)

// movedChunk is a column chunk arrow-go reads re-encoded, at [base, end)
// past the end of the file, from its bytes [orig, origEnd) in the file.
type movedChunk struct {
	group, column int
	path          string
	orig, origEnd int64
	base, end     int64
	values        int64
	lz4           bool
	snappy        bool // its blocks' lengths are checked (snappyFits)

	// The page served: its bytes as arrow-go reads them at [at,
	// at+len(cur)); page is its offset in the file, src that of the page
	// after it, seen the values of the pages up to it; dataPages the data
	// pages before it, and dict whether it is the dictionary page. done is
	// set after the last.
	at, page, src int64
	cur           []byte
	seen          int64
	dataPages     int
	dict, done    bool
	// failAt, when err is set, is the offset from which reads fail.
	failAt int64
	err    error
}

// moveChunks moves the column chunks of tree, a FileMetaData, that
// arrow-go cannot read as they are (see above) past size, the end of the
// file: it changes where the footer says they are, and returns them.
func moveChunks(tree *tStruct, size int64) []*movedChunk {
	var moved []*movedChunk
	end := size
	for g, rg := range tree.structs(fileMetaRowGroupsField) {
		for c, chunk := range rg.structs(rowGroupColumnsField) {
			meta := chunk.child(chunkMetaDataField)
			if meta == nil || chunk.field(chunkCryptoField) != nil { // encrypted: arrow-go's
				continue
			}
			codec, _ := meta.i32(metaCodecField)
			v2 := false
			for _, st := range meta.structs(metaEncodingStatsField) {
				if typ, _ := st.i32(statsPageTypeField); typ == dataPageV2 {
					v2 = true
				}
			}
			// A page whose values take no bytes holds nulls only: a chunk
			// whose statistics count none has none.
			nulls := int64(-1)
			if st := meta.child(metaStatisticsField); st != nil {
				if n, ok := st.i64(statsNullCountField); ok {
					nulls = n
				}
			}
			if codec != codecLZ4 && !(v2 && codec != codecUncompressed && nulls != 0) {
				continue
			}
			start, _ := meta.i64(metaDataPageOffset)
			if dict, ok := meta.i64(metaDictPageOffset); ok && dict > 0 && dict < start {
				start = dict
			}
			length, _ := meta.i64(metaTotalCompressed)
			values, _ := meta.i64(metaNumValues)
			raw, _ := meta.i64(metaTotalRaw)
			if length < 0 || length > size || raw < 0 || end > maxMovedEnd {
				continue // checkFooter refuses it, or arrow-go does
			}
			// Room for what it is re-encoded into: a few bytes more a page
			// (a page takes more than 8), and LZ4's pages uncompressed. It
			// is an offset, not an allocation: what a damaged footer claims
			// is bounded only so that offsets add up.
			room := length + length/8 + 64
			if codec == codecLZ4 {
				room += min(raw, maxMovedRoom)
				meta.set(metaCodecField, thrift.I32, int32(codecUncompressed))
			}
			m := &movedChunk{group: g, column: c, orig: start, origEnd: start + length, base: end, end: end + room, values: values, lz4: codec == codecLZ4, snappy: codec == codecSnappy}
			m.rewind()
			moved = append(moved, m)
			meta.set(metaDataPageOffset, thrift.I64, m.base)
			meta.set(metaTotalCompressed, thrift.I64, room)
			meta.drop(metaDictPageOffset)
			meta.drop(metaIndexPageOffset)
			chunk.set(chunkFileOffset, thrift.I64, m.base)
			for _, id := range []int16{4, 5, 6, 7} { // the page indexes: offsets of the pages in the file
				chunk.drop(id)
			}
			end = m.end
		}
	}
	return moved
}

// rewind starts serving m from its first page.
func (m *movedChunk) rewind() {
	m.at, m.page, m.src, m.cur, m.seen, m.dataPages, m.dict, m.done = m.base, m.orig, m.orig, nil, 0, 0, false, false
	m.failAt, m.err = 0, nil
}

// readAt serves p, the bytes of m at off as arrow-go reads them, from the
// file f reads.
func (m *movedChunk) readAt(f *pageFile, p []byte, off int64) (int, error) {
	if off < m.at {
		m.rewind() // read again from the start: only a seek does that
	}
	if m.err != nil && off+int64(len(p)) > m.failAt {
		return int(max(m.failAt-off, 0)), m.err
	}
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		for pos >= m.at+int64(len(m.cur)) {
			if m.done {
				return n, io.EOF // arrow-go reads no page past the last
			}
			m.at += int64(len(m.cur))
			if err := m.next(f); err != nil {
				m.failAt, m.err = m.at, err
				return n, err
			}
		}
		n += copy(p[n:], m.cur[pos-m.at:])
	}
	return n, nil
}

// next makes m.cur the next page, re-encoded; m.done after the last.
func (m *movedChunk) next(f *pageFile) error {
	if len(m.cur) > 0 && !m.dict {
		m.dataPages++
	}
	m.cur, m.page, m.dict = m.cur[:0], m.src, false
	if m.src >= m.origEnd || m.seen >= m.values {
		m.done = true
		return nil
	}
	// The header, read in more bytes while it does not decode.
	var h *tStruct
	var hn int
	most := min(m.origEnd-m.src, maxPageHeaderBytes)
	for size := min(int64(pageHeaderBytes), most); h == nil; size = min(2*size, most) {
		buf := make([]byte, size)
		k, _ := f.r.ReadAt(buf, m.src)
		if h, hn, _ = decodeThriftPrefix(buf[:k]); h == nil && (k < len(buf) || size == most) {
			return m.pageError(f, errMovedPage, "its header does not decode")
		}
	}
	typ, _ := h.i32(pageTypeField)
	raw, _ := h.i32(pageUncompressedField)
	compressed, _ := h.i32(pageCompressedField)
	if field := map[int32]int16{dataPage: pageV1Field, dataPageV2: pageV2Field, dictionaryPage: pageDictionaryField}[typ]; field != 0 && h.child(field) == nil {
		return m.pageError(f, errMovedPage, "a page of type %d without its header of that type", typ)
	}
	bodyAt := m.src + int64(hn)
	if compressed < 0 || raw < 0 || bodyAt+int64(compressed) > m.origEnd {
		return m.pageError(f, errMovedPage, "a body of %d bytes past the end of its column chunk", compressed)
	}
	if int64(raw) > f.maxPage {
		return m.pageError(f, ErrPageTooLarge, "an uncompressed page size of %d bytes, past the limit of %d (%s): raise it to read the page",
			raw, f.maxPage, f.limitDoc)
	}
	body := make([]byte, compressed)
	if k, err := f.r.ReadAt(body, bodyAt); k < len(body) {
		return m.pageError(f, errMovedPage, "its body cut short: %v", err)
	}
	m.src = bodyAt + int64(compressed)
	if crc, ok := h.i32(pageCRCField); ok && f.verify && crc32.ChecksumIEEE(body) != uint32(crc) {
		return m.pageError(f, ErrChecksum, "its bytes have the CRC %08x, its header says %08x", crc32.ChecksumIEEE(body), uint32(crc))
	}
	var values int64
	switch typ {
	case dictionaryPage, dataPage:
		m.dict = typ == dictionaryPage
		if v := h.child(pageV1Field); v != nil && !m.dict {
			n, _ := v.i32(pageNumValuesField)
			values = int64(n)
		}
		if m.lz4 {
			out, err := lz4Decompress(body, int(raw))
			if err != nil {
				return m.pageError(f, errMovedPage, "%v", err)
			}
			body = out
			h.drop(pageCRCField) // of the compressed bytes, checked
		}
		if m.snappy {
			if err := snappyFits(body, int64(raw)); err != nil {
				return m.pageError(f, errMovedPage, "%v", err)
			}
		}
	case dataPageV2:
		v := h.child(pageV2Field)
		if v == nil {
			return m.pageError(f, errMovedPage, "a version 2 data page without its header")
		}
		rows, _ := v.i32(pageV2RowsField)
		values = int64(rows)
		def, _ := v.i32(v2LevelsDefField)
		rep, _ := v.i32(v2LevelsRepField)
		levels := int64(def) + int64(rep)
		if def < 0 || rep < 0 || levels > int64(len(body)) || levels > int64(raw) {
			return m.pageError(f, errMovedPage, "levels of %d bytes in a page of %d", levels, len(body))
		}
		isCompressed := true
		if fld := v.field(v2CompressedField); fld != nil && fld.typ == thrift.BOOL {
			isCompressed = fld.val.(bool)
		}
		switch {
		case m.lz4 && isCompressed:
			out, err := lz4Decompress(body[levels:], int(int64(raw)-levels))
			if err != nil {
				return m.pageError(f, errMovedPage, "%v", err)
			}
			body = append(body[:levels:levels], out...)
			h.drop(pageCRCField)
			v.set(v2CompressedField, thrift.BOOL, false)
		case m.snappy && isCompressed && levels < int64(len(body)):
			if err := snappyFits(body[levels:], int64(raw)-levels); err != nil {
				return m.pageError(f, errMovedPage, "%v", err)
			}
		case isCompressed && levels == int64(len(body)):
			// Values of no bytes, marked compressed: arrow-go would
			// decompress them.
			v.set(v2CompressedField, thrift.BOOL, false)
		}
	}
	h.set(pageCompressedField, thrift.I32, int32(len(body)))
	header, err := encodeThrift(h)
	if err != nil {
		return m.pageError(f, errMovedPage, "%v", err)
	}
	m.seen += max(values, 0)
	m.cur = append(append(m.cur, header...), body...)
	return nil
}

var errMovedPage = errMalformedPage

// pageError is the error of the page of m being read, wrapping kind.
func (m *movedChunk) pageError(f *pageFile, kind error, format string, args ...any) error {
	page := fmt.Sprintf("data page %d", m.dataPages)
	if m.dict {
		page = "its dictionary page"
	}
	return fmt.Errorf("arrowmap/parquet: %s: %w: row group %d, column %q, %s (at byte %d): %s",
		f.name, kind, m.group, m.path, page, m.page, fmt.Sprintf(format, args...))
}

// lz4Decompress is src, a page (or a version 2 page's values) of
// Parquet's deprecated LZ4 codec, decompressed into size bytes, read as
// arrow-cpp reads it: in Hadoop's framing (blocks, each after its sizes
// uncompressed and compressed, 4 bytes big-endian each), which parquet-mr
// and arrow-cpp write; else as one raw LZ4 block, which parquet-cpp wrote
// before 1.6; else as an LZ4 frame.
func lz4Decompress(src []byte, size int) ([]byte, error) {
	out := make([]byte, size)
	if hadoopLZ4(src, out) {
		return out, nil
	}
	if n, err := lz4.UncompressBlock(src, out); err == nil && n == size {
		return out, nil
	}
	r := lz4.NewReader(bytes.NewReader(src))
	if _, err := io.ReadFull(r, out); err == nil {
		var one [1]byte
		if k, err := r.Read(one[:]); k == 0 && errors.Is(err, io.EOF) {
			return out, nil
		}
	}
	return nil, fmt.Errorf("%d bytes of the LZ4 codec that are neither Hadoop's framing, nor a raw LZ4 block, nor an LZ4 frame of %d bytes", len(src), size)
}

// hadoopLZ4 decompresses src, blocks in Hadoop's framing, into out, and
// reports whether they fill it exactly.
func hadoopLZ4(src, out []byte) bool {
	at := 0
	for len(src) >= 8 {
		raw, compressed := binary.BigEndian.Uint32(src[:4]), binary.BigEndian.Uint32(src[4:8])
		src = src[8:]
		if uint64(compressed) > uint64(len(src)) || uint64(raw) > uint64(len(out)-at) {
			return false
		}
		n, err := lz4.UncompressBlock(src[:compressed], out[at:at+int(raw)])
		if err != nil || n != int(raw) {
			return false
		}
		at += n
		src = src[compressed:]
	}
	return len(src) == 0 && at == len(out)
}
