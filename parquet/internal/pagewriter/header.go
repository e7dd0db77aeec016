package pagewriter

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// The direct writer's pages. A leaf holds its column chunk's data pages,
// each its header then its data, encoded and compressed, until the chunk
// ends; then it writes the chunk to the file in one piece: the dictionary
// page first, when a page indexes it, the data pages, and the chunk's
// metadata, as arrow-go's page writer does (file.NewPageWriter), whose
// header encoding pageHeader.append reproduces byte for byte
// (header_test.go). Written here rather than through
// arrow-go's page writer: its buffered writer grows a buffer of every
// chunk anew, allocates a page object and thrift structs a page, and
// compresses dictionary pages with arrow-go's own snappy codec, s2's
// "better" mode, whose tables it allocates for every page (a tenth of the
// writer's time and a fifth of its garbage on TPC-H's lineitem, whose
// l_comment fills a 1 MiB dictionary every row group).

// Parquet's PageType.
const (
	pageData       = 0
	pageDictionary = 2
	pageDataV2     = 3
)

// pageHeader is what a page's PageHeader says of it.
type pageHeader struct {
	kind                     int32 // pageData, pageDictionary or pageDataV2
	uncompressed, compressed int32 // sizes of the page's data
	values                   int32 // levels of a data page, values of a dictionary page
	encoding                 parquet.Encoding
	// A version 2 data page's nulls, rows, sizes of its repetition and
	// definition levels, and whether its values are compressed.
	nulls, rows, defN, repN int32
	valuesCompressed        bool
	// stats are a data page's statistics, nil when the column index holds
	// them (as arrow-go's page writer leaves them out of the header then).
	stats *metadata.EncodedStatistics
}

// append appends h in thrift's compact protocol, as parquet.thrift's
// PageHeader, with the optional fields arrow-go's page writer sets.
func (h *pageHeader) append(dst []byte) []byte {
	c := compactStruct{b: dst}
	c.i32(1, h.kind)
	c.i32(2, h.uncompressed)
	c.i32(3, h.compressed)
	switch h.kind {
	case pageData: // DataPageHeader
		in := c.begin(5)
		in.i32(1, h.values)
		in.i32(2, int32(h.encoding))
		in.i32(3, int32(parquet.Encodings.RLE)) // of the definition levels
		in.i32(4, int32(parquet.Encodings.RLE)) // of the repetition levels
		in.statistics(5, h.stats)
		c.end(in)
	case pageDictionary: // DictionaryPageHeader
		in := c.begin(7)
		in.i32(1, h.values)
		in.i32(2, int32(h.encoding))
		in.boolean(3, false) // is_sorted
		c.end(in)
	case pageDataV2: // DataPageHeaderV2
		in := c.begin(8)
		in.i32(1, h.values)
		in.i32(2, h.nulls)
		in.i32(3, h.rows)
		in.i32(4, int32(h.encoding))
		in.i32(5, h.defN)
		in.i32(6, h.repN)
		if !h.valuesCompressed { // true is the field's default, which is left out
			in.boolean(7, false)
		}
		in.statistics(8, h.stats)
		c.end(in)
	}
	return append(c.b, 0) // the end of PageHeader
}

// compactStruct appends the fields of one struct in thrift's compact
// protocol: each field's id as the difference from the one before it when
// that fits four bits, its type, its value.
type compactStruct struct {
	b    []byte
	last int16 // the id of the field appended last
}

// Types of thrift's compact protocol.
const (
	compactTrue   = 1
	compactFalse  = 2
	compactI32    = 5
	compactI64    = 6
	compactBinary = 8
	compactNested = 12
)

func (c *compactStruct) field(id int16, t byte) {
	if d := id - c.last; d > 0 && d <= 15 {
		c.b = append(c.b, byte(d)<<4|t)
	} else {
		c.b = append(c.b, t)
		c.b = binary.AppendUvarint(c.b, uint64(uint16(id<<1^id>>15)))
	}
	c.last = id
}

func (c *compactStruct) i32(id int16, v int32) {
	c.field(id, compactI32)
	c.b = binary.AppendUvarint(c.b, uint64(uint32(v<<1^v>>31)))
}

func (c *compactStruct) i64(id int16, v int64) {
	c.field(id, compactI64)
	c.b = binary.AppendUvarint(c.b, uint64(v<<1^v>>63))
}

func (c *compactStruct) binary(id int16, v []byte) {
	c.field(id, compactBinary)
	c.b = binary.AppendUvarint(c.b, uint64(len(v)))
	c.b = append(c.b, v...)
}

func (c *compactStruct) boolean(id int16, v bool) {
	if v {
		c.field(id, compactTrue)
	} else {
		c.field(id, compactFalse)
	}
}

// begin starts the struct field id: its fields go to the compactStruct
// returned, which end closes.
func (c *compactStruct) begin(id int16) compactStruct {
	c.field(id, compactNested)
	return compactStruct{b: c.b}
}

// end closes in, a struct field begun by begin.
func (c *compactStruct) end(in compactStruct) {
	c.b = append(in.b, 0)
}

// statistics appends st as the Statistics field id, the fields that
// arrow-go's EncodedStatistics.ToThrift sets: min_value and max_value,
// and the deprecated min and max too for a signed sort order. Nothing is
// appended when st is nil.
func (c *compactStruct) statistics(id int16, st *metadata.EncodedStatistics) {
	if st == nil {
		return
	}
	in := c.begin(id)
	if st.HasMax && st.Signed && st.Max != nil {
		in.binary(1, st.Max)
	}
	if st.HasMin && st.Signed && st.Min != nil {
		in.binary(2, st.Min)
	}
	if st.HasNullCount {
		in.i64(3, st.NullCount)
	}
	if st.HasDistinctCount {
		in.i64(4, st.DistinctCount)
	}
	if st.HasMax && st.Max != nil {
		in.binary(5, st.Max)
	}
	if st.HasMin && st.Min != nil {
		in.binary(6, st.Min)
	}
	c.end(in)
}

// chunkPages is the data pages of the column chunk being built, held until
// it ends (leafWriter.writeChunk).
type chunkPages struct {
	data  []byte     // each page's header and data, end to end
	pages []heldPage // where each is in data
	// values is the number of levels of the pages, uncompressed their
	// size with their data uncompressed, and encodings how many pages
	// there are of each encoding: the chunk's metadata.
	values       int64
	uncompressed int64
	encodings    [16]int32
}

// heldPage is a data page held in chunkPages.
type heldPage struct {
	at, size int                        // its header and data, in chunkPages.data
	firstRow int64                      // its first row in the row group, for the offset index
	stats    metadata.EncodedStatistics // for the column index
}

func (c *chunkPages) reset() {
	c.data, c.pages = c.data[:0], c.pages[:0]
	c.values, c.uncompressed = 0, 0
	clear(c.encodings[:])
}

// hold adds a data page to the chunk: its header h, then its data, levels
// and values compressed by d's codec (File.appendPage), the page
// holding firstRow on, its statistics stats (for the column index, or for
// the header when inHeader). ahead is how many pages of this one's size
// the chunk is expected to hold from this one on.
//
// Where the chunk has room for the most the page may take, the page is
// compressed straight into it, after room for the header of the largest
// size the data may take, and moved back to the header's end when the
// header is shorter (by a byte or two of a varint). Else it is compressed
// into sc, and the chunk grows once for it and the pages expected after
// it, of its size compressed: a first page does not make the chunk grow
// for its size uncompressed.
func (c *chunkPages) hold(d *File, sc *pageScratch, h pageHeader, levels, values []byte, firstRow int64, stats metadata.EncodedStatistics, inHeader bool, ahead float64) error {
	if inHeader {
		h.stats = &stats
	}
	h.uncompressed = int32(len(levels) + len(values))
	bound := d.pageBound(len(levels) + len(values))
	h.compressed = int32(bound)
	most := len(h.append(sc.header[:0]))
	at := len(c.data)
	var header []byte
	if cap(c.data)-at >= most+bound {
		data := d.appendPage(c.data[at+most:at+most], sc, levels, values) // within the chunk's room
		h.compressed = int32(len(data))
		header = h.append(sc.header[:0])
		c.data = c.data[:at+most+len(data)]
		copy(c.data[at+len(header):], data)
		copy(c.data[at:], header)
		c.data = c.data[:at+len(header)+len(data)]
	} else {
		// The scratch takes a page of the page size at once, the most a
		// page but for a row larger than the page takes: growing it page
		// after page would leave each size before as garbage.
		data := d.appendPage(grow(sc.compressed[:0], max(bound, d.pageBound(d.pageCap))), sc, levels, values)
		sc.compressed = data
		h.compressed = int32(len(data))
		header = h.append(sc.header[:0])
		c.data = growFor(c.data, len(header)+len(data), ahead)
		c.data = append(append(c.data, header...), data...)
	}
	sc.header = header
	if len(c.data)-at > math.MaxInt32 {
		return fmt.Errorf("a page of %d bytes with its header, past Parquet's int32 page sizes", len(c.data)-at)
	}
	c.pages = append(c.pages, heldPage{at: at, size: len(c.data) - at, firstRow: firstRow, stats: stats})
	c.values += int64(h.values)
	c.uncompressed += int64(len(header)) + int64(h.uncompressed)
	c.encodings[h.encoding]++
	return nil
}
