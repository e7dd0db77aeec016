package pagewriter

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// flushPage ends the page built: encoded, compressed and held in the
// chunk (chunkPages) until the chunk ends.
func (lw *leafWriter) flushPage(d *File, sc *pageScratch) error {
	if lw.nlevels == 0 {
		return nil
	}
	if lw.dictState == dictUndecided {
		lw.decideDictionary()
	}
	enc := parquet.Encodings.Plain
	var values []byte
	if lw.dictState == dictOn {
		enc = d.props.DictionaryIndexEncoding()
		width := indexWidth(lw.dict.len())
		values = appendHybrid(append(grow(sc.encoded[:0], hybridBound(len(lw.indices), width)), byte(width)), lw.indices, width)
		sc.encoded = values
	} else if lw.valueEncoding == parquet.Encodings.ByteStreamSplit {
		enc = lw.valueEncoding
		values = byteStreamSplit(grow(sc.encoded[:0], len(lw.values)), lw.values, lw.width())
		sc.encoded = values
	} else {
		values = lw.values
	}
	levels := sc.levels[:0]
	var repN, defN int
	if lw.maxRep > 0 {
		levels, repN = appendLevels(levels, lw.reps, lw.maxRep, !d.v2)
	}
	if lw.maxDef > 0 {
		levels, defN = appendLevels(levels, lw.defs, lw.maxDef, !d.v2)
	}
	sc.levels = levels
	// Every count and size of a page header is an int32; a page holds at
	// most one row past the page size, so only a row of more than 2 GiB
	// (a large_binary value, a list of a billion elements) reaches them.
	if uncompressed := len(levels) + len(values); max(d.pageBound(uncompressed), lw.nlevels) > math.MaxInt32 {
		return fmt.Errorf("column %s: a page of %d bytes and %d values past Parquet's int32 page sizes: a row too large for one page", lw.descr.Path(), uncompressed, lw.nlevels)
	}
	stats, err := lw.endPageStats(int64(lw.nlevels - lw.nvals))
	if err != nil {
		return err
	}
	h := pageHeader{kind: pageData, values: int32(lw.nlevels), encoding: enc}
	if d.v2 {
		h.kind, h.nulls, h.rows, h.defN, h.repN, h.valuesCompressed = pageDataV2, int32(lw.nlevels-lw.nvals), int32(lw.nrows), int32(defN), int32(repN), d.codec != nil
	}
	// The chunk's other pages are expected to be as large as this one,
	// for the rows the row group is expected to take after it.
	ahead := 1 + float64(max(lw.rowsLeft, 0))/float64(max(lw.nrows, 1))
	if err := lw.chunk.hold(d, sc, h, levels, values, lw.chunkRows, stats, lw.colIdx == nil, ahead); err != nil {
		return fmt.Errorf("column %s: %w", lw.descr.Path(), err)
	}
	lw.chunkRows += int64(lw.nrows)
	lw.defs, lw.reps, lw.values, lw.indices = lw.defs[:0], lw.reps[:0], lw.values[:0], lw.indices[:0]
	lw.nvals, lw.nlevels, lw.nrows, lw.plain = 0, 0, 0, 0
	clear(lw.seen)
	if lw.dictState == dictOn {
		lw.dictPages = true
		if lw.dict.plainBytes() >= lw.dictLimit {
			// The dictionary is full: the rest of the chunk is plain.
			lw.dictState, lw.fallback = dictOff, true
		}
	}
	return nil
}

// pageBound is the most bytes of a page's data, of n bytes uncompressed,
// once compressed by the file's codec.
func (d *File) pageBound(n int) int {
	switch {
	case d.codec == nil:
		return n
	case d.snappy:
		return snappyBound(n, 2)
	}
	return n + int(d.codec.CompressBound(int64(n)))
}

// appendPage appends the data of a page of levels then values to dst:
// compressed by the file's codec, but for the levels of version 2 pages.
// It appends no more than pageBound of their size.
func (d *File) appendPage(dst []byte, sc *pageScratch, levels, values []byte) []byte {
	dst = grow(dst, d.pageBound(len(levels)+len(values)))
	switch {
	case d.codec == nil:
		return append(append(dst, levels...), values...)
	case d.v2:
		dst, levels = append(dst, levels...), nil
	}
	if d.snappy {
		return appendSnappy(dst, &sc.snappy, levels, values)
	}
	src := values
	if len(levels) > 0 {
		src = append(append(sc.page[:0], levels...), values...)
		sc.page = src
	}
	bound := int(d.codec.CompressBound(int64(len(src))))
	dst = grow(dst, bound)
	return append(dst, d.codec.EncodeLevel(dst[len(dst):len(dst)+bound], src, d.level)...)
}

// appendLevels appends levels in the hybrid encoding, with the 4-byte
// length of version 1 pages when prefixed, and reports their size without
// it.
func appendLevels(dst []byte, levels []int16, max int16, prefixed bool) ([]byte, int) {
	at := len(dst)
	if prefixed {
		dst = append(dst, 0, 0, 0, 0)
	}
	dst = appendHybrid(dst, levels, indexWidth(int(max)+1))
	n := len(dst) - at
	if prefixed {
		n -= 4
		binary.LittleEndian.PutUint32(dst[at:], uint32(n))
	}
	return dst, n
}

// closeChunk writes the chunk to the file: its dictionary page when a page
// indexes it, its data pages, and its metadata, with its statistics, bloom
// filter and page index entries.
func (lw *leafWriter) closeChunk(d *File) error {
	lw.rowsLeft = 0
	if err := lw.flushPage(d, &d.scratch[0]); err != nil {
		return err
	}
	if lw.bloomOn {
		lw.finishBloom(d)
	}
	if lw.stats && lw.chunkRows > 0 {
		st, err := lw.encodedStats(lw.chunkStats)
		if err != nil {
			return err
		}
		lw.cc.SetStats(st)
	}
	err := lw.writeChunk(d)
	lw.cc, lw.colIdx, lw.offIdx = nil, nil, nil
	lw.chunk.reset()
	if err != nil {
		return fmt.Errorf("closing column %s: %w", lw.descr.Path(), err)
	}
	return nil
}

// writeChunk writes the chunk's pages to the file, the dictionary page
// first, then its metadata, as arrow-go's page writer does: the page
// index entries of its pages, and the metadata of the chunk, written in
// the file after it too.
func (lw *leafWriter) writeChunk(d *File) error {
	c := &lw.chunk
	info := metadata.ChunkMetaInfo{NumValues: c.values, IndexPageOffset: -1, UncompressedSize: c.uncompressed}
	var stats metadata.EncodingStats
	if lw.dictPages {
		sc := &d.scratch[0]
		plain := lw.dict.appendPlain(sc.dictionary[:0])
		sc.dictionary = plain
		if len(plain) > math.MaxInt32 {
			return fmt.Errorf("a dictionary page of %d bytes past Parquet's int32 page sizes", len(plain))
		}
		var data []byte
		if d.snappy && len(plain) > snappyPiece {
			data = appendSnappyBetter(sc.compressed[:0], plain)
		} else {
			data = d.appendPage(sc.compressed[:0], sc, nil, plain)
		}
		sc.compressed = data
		h := pageHeader{kind: pageDictionary, uncompressed: int32(len(plain)), compressed: int32(len(data)), values: int32(lw.dict.len()), encoding: d.props.DictionaryPageEncoding()}
		header := h.append(sc.header[:0])
		sc.header = header
		info.DictPageOffset = d.sink.Tell()
		if _, err := d.sink.Write(header); err != nil {
			return err
		}
		if _, err := d.sink.Write(data); err != nil {
			return err
		}
		info.UncompressedSize += int64(len(header) + len(plain))
		info.CompressedSize += int64(len(header) + len(data))
		stats.DictEncodingStats = map[parquet.Encoding]int32{h.encoding: 1}
	}
	info.DataPageOffset = d.sink.Tell()
	if _, err := d.sink.Write(c.data); err != nil {
		return err
	}
	info.CompressedSize += int64(len(c.data))
	stats.DataEncodingStats = map[parquet.Encoding]int32{}
	for enc, n := range c.encodings {
		if n > 0 {
			stats.DataEncodingStats[parquet.Encoding(enc)] = n
		}
	}
	for _, p := range c.pages {
		if lw.colIdx != nil {
			lw.colIdx.AddPage(&p.stats)
		}
		if lw.offIdx != nil {
			if err := lw.offIdx.AddPage(info.DataPageOffset+int64(p.at), p.firstRow, int32(p.size)); err != nil {
				return err
			}
		}
	}
	if lw.colIdx != nil {
		lw.colIdx.Finish()
	}
	if lw.offIdx != nil {
		lw.offIdx.Finish(0) // the pages' offsets are the file's
	}
	if err := lw.cc.Finish(info, lw.dictPages, lw.fallback && lw.dictPages, stats); err != nil {
		return err
	}
	_, err := lw.cc.WriteTo(d.sink)
	return err
}
