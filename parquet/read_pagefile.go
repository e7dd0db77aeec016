package parquet

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/klauspost/compress/s2"
)

// ErrChecksum is wrapped by the error of a page whose header carries a
// CRC that its bytes do not have: the page was damaged after it was
// written. It wraps mapper.ErrInvalidData.
var ErrChecksum = fmt.Errorf("%w: a page's checksum does not match its bytes", mapper.ErrInvalidData)

// errEmptyPage is the kind of error of a version 2 page arrow-go cannot
// read.
var errEmptyPage = fmt.Errorf("%w: a version 2 data page arrow-go cannot read", mapper.ErrInvalidData)

// errMalformedPage is the kind of error of a page header arrow-go would
// panic on.
var errMalformedPage = fmt.Errorf("%w: a malformed page", mapper.ErrInvalidData)

// ErrPageTooLarge is wrapped by the error of a page whose header says it
// holds more bytes uncompressed than ReadConfig.MaxPageSize lets a page
// hold. It wraps mapper.ErrInvalidData: the file may be whole, but it
// cannot be read under the limit.
var ErrPageTooLarge = fmt.Errorf("%w: a page larger than ReadConfig.MaxPageSize", mapper.ErrInvalidData)

// arrow-go reads a column chunk's pages through the io.ReaderAt it is
// given, in order, each byte once (a buffered reader over a section of
// the chunk), but for a seek to a page by the offset index. pageFile is
// that io.ReaderAt: it follows each chunk's pages in the bytes arrow-go
// reads, and checks each page there before arrow-go can decode it — its
// CRC, when its header has one, and its size against the limit — so that
// the error names the column and the page, which arrow-go's does not, and
// a damaged page is never read as values. The bytes of a page that fails
// are held back from its failing point on: arrow-go gets the error when it
// reads the page, not when its buffer reads ahead into it.

// pageHeaderBytes is the bytes a page header is first read in when the
// read arrow-go asked for does not hold it whole, doubled up to
// maxPageHeaderBytes (arrow-go's own limit) while it does not decode.
const (
	pageHeaderBytes    = 1 << 10
	maxPageHeaderBytes = 4 << 20
)

// pageFile is the Parquet file as arrow-go reads it (see above).
type pageFile struct {
	r        io.ReaderAt
	size     int64
	name     string // for errors
	verify   bool   // page CRCs are checked
	maxPage  int64  // the most bytes a page may hold uncompressed
	limitDoc string // how the limit was set, for its error

	mu     sync.Mutex
	chunks []*chunkReads // by start, once the footer is read
	moved  []*movedChunk // past size, by base (see read_relocate.go)
	err    error         // the first page that failed
}

// chunkReads is one column chunk and where arrow-go is in its pages.
type chunkReads struct {
	group, column int
	path          string
	start, end    int64 // the bytes arrow-go reads of it
	values        int64 // the values its footer counts
	compressed    bool  // by a codec
	snappy        bool  // by snappy: its blocks' lengths are checked

	// next is the offset the read arrow-go goes on with would start at, -1
	// before the first; lost is set when the bytes read are no longer
	// known to be at a page (a header that does not decode, a page of a
	// type arrow-go does not step over).
	next int64
	lost bool
	// The page being read: its header at page, its body [body, end) (end
	// -1 before its header is read); its index among the data pages
	// (-1 the dictionary page, -2 not known after a seek); the values
	// of the pages before it.
	page, body, bodyEnd int64
	index               int
	seen                int64
	crc                 uint32 // of the body read so far
	want                uint32
	check               bool
	// failAt, when err is set, is the offset from which the chunk's
	// bytes are held back, err what a read of them returns.
	failAt int64
	err    error
}

// newPageFile is the pageFile of the size bytes r reads, with the page
// limit and verification of cfg.
func newPageFile(r io.ReaderAt, size int64, name string, cfg ReadConfig) *pageFile {
	f := &pageFile{r: r, size: size, name: name, verify: !cfg.SkipPageChecksums}
	f.maxPage, f.limitDoc = pageLimit(cfg.MaxPageSize, size)
	return f
}

// pageLimit is the most bytes a page may hold uncompressed in a file of
// size bytes, and how that was decided: maxPage when it is set; else
// pageSlack + pageGrowth × size, no more than arrow-go's own limit.
func pageLimit(maxPage, size int64) (int64, string) {
	if maxPage > 0 {
		return maxPage, "ReadConfig.MaxPageSize"
	}
	return defaultPageLimit(size), "ReadConfig.MaxPageSize, 0: 64 MiB plus 64 times the file's size, at most 256 MiB"
}

// ReadAt reads the file's bytes, checking the pages of each column chunk
// they hold.
func (f *pageFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.size {
		return f.readMoved(p, off)
	}
	n, err := f.r.ReadAt(p, off)
	if n <= 0 {
		return n, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.chunkAt(off)
	if c == nil {
		return n, err
	}
	held, herr := c.follow(f, p[:n], off)
	if herr != nil {
		if f.err == nil {
			f.err = herr
		}
		return held, herr
	}
	return n, err
}

// readMoved reads p at off, in a chunk moved past the end of the file.
func (f *pageFile) readMoved(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.moved {
		if off >= m.base && off < m.end {
			n, err := m.readAt(f, p[:min(int64(len(p)), m.end-off)], off)
			if err != nil && err != io.EOF && f.err == nil {
				f.err = err
			}
			if err == nil && n < len(p) {
				err = io.EOF
			}
			return n, err
		}
	}
	return 0, io.EOF
}

// failed is the error of the first page that failed, nil when none has.
func (f *pageFile) failed() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// setChunks makes the column chunks of md those whose pages are followed,
// where arrow-go reads them (RowGroupReader.GetColumnPageReader).
func (f *pageFile) setChunks(md *metadata.FileMetaData) error {
	var chunks []*chunkReads
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for c := range rg.NumColumns() {
			col, err := rg.ColumnChunk(c)
			if err != nil {
				return err
			}
			start := col.DataPageOffset()
			if col.HasDictionaryPage() && col.DictionaryPageOffset() > 0 && start > col.DictionaryPageOffset() {
				start = col.DictionaryPageOffset()
			}
			if start >= f.size {
				for _, m := range f.moved {
					if m.group == g && m.column == c {
						m.path = md.Schema.Column(c).Path()
					}
				}
				continue // moved: served, not followed
			}
			if col.CryptoMetadata() != nil || col.NumValues() == 0 {
				continue // encrypted pages are arrow-go's; no page is read of an empty chunk
			}
			chunks = append(chunks, &chunkReads{
				group: g, column: c, path: md.Schema.Column(c).Path(),
				start: start, end: start + col.TotalCompressedSize(), values: col.NumValues(),
				compressed: col.Compression() != compress.Codecs.Uncompressed, next: -1,
				snappy: col.Compression() == compress.Codecs.Snappy,
			})
		}
	}
	sort.SliceStable(chunks, func(i, j int) bool { return chunks[i].start < chunks[j].start })
	f.mu.Lock()
	f.chunks = chunks
	f.mu.Unlock()
	return nil
}

// chunkAt is the chunk holding the byte at off: of chunks that overlap
// (only a damaged footer makes them), the one a read is going on in.
func (f *pageFile) chunkAt(off int64) *chunkReads {
	i := sort.Search(len(f.chunks), func(i int) bool { return f.chunks[i].start > off })
	var found *chunkReads
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		c := f.chunks[j]
		if off >= c.end {
			continue
		}
		if c.next == off {
			return c
		}
		if found == nil {
			found = c
		}
	}
	return found
}

// follow follows the pages of c through b, the bytes at off that arrow-go
// reads, checking each page they complete, and returns, when a page
// fails, how many bytes of b arrow-go may have and the error.
func (c *chunkReads) follow(f *pageFile, b []byte, off int64) (int, error) {
	if off != c.next {
		c.seek(off)
	}
	if c.err != nil {
		// Going on from the point a page failed at.
		held := min(max(c.failAt-off, 0), int64(len(b)))
		c.next = off + held
		return int(held), c.err
	}
	end := off + int64(len(b))
	c.next = end
	fail := func(at int64, err error) (int, error) {
		c.failAt, c.err, c.next = at, err, at
		return int(at - off), err
	}
	for pos := off; pos < end && !c.lost; {
		if c.bodyEnd < 0 {
			if pos != c.page || c.seen >= c.values || pos >= c.end {
				c.lost = true // past the last page arrow-go reads
				break
			}
			if err := c.header(f, b, off); err != nil {
				return fail(c.page, err)
			}
			if c.lost {
				break
			}
			pos = c.body
		}
		to := min(end, c.bodyEnd)
		if c.check && to > pos {
			c.crc = crc32.Update(c.crc, crc32.IEEETable, b[pos-off:to-off])
		}
		pos = max(pos, to)
		if pos < c.bodyEnd {
			break
		}
		if c.check && c.crc != c.want {
			// Held back from its last byte: arrow-go fails reading its body.
			return fail(c.bodyEnd-1, c.pageError(f, ErrChecksum, "its bytes have the CRC %08x, its header says %08x", c.crc, c.want))
		}
		c.page, c.bodyEnd = c.bodyEnd, -1
		if c.index >= 0 {
			c.index++
		}
	}
	return len(b), nil
}

// seek starts following c at off, where a page starts: the first read of
// the chunk, or a seek of arrow-go's (to a page by the offset index, or
// to the dictionary page). What failed before is checked again.
func (c *chunkReads) seek(off int64) {
	c.err, c.lost = nil, false
	c.page, c.bodyEnd = off, -1
	c.index, c.seen = -2, 0
	if off == c.start {
		c.index = 0
	}
}

// pageError is the error of the page being read, wrapping kind.
func (c *chunkReads) pageError(f *pageFile, kind error, format string, args ...any) error {
	var page string
	switch {
	case c.index == -1:
		page = "its dictionary page"
	case c.index >= 0:
		page = fmt.Sprintf("data page %d", c.index)
	default:
		page = "the page"
	}
	return fmt.Errorf("arrowmap/parquet: %s: %w: row group %d, column %q, %s (at byte %d): %s",
		f.name, kind, c.group, c.path, page, c.page, fmt.Sprintf(format, args...))
}

// The fields of PageHeader in parquet.thrift that pageFile reads.
const (
	pageTypeField         = 1
	pageUncompressedField = 2
	pageCompressedField   = 3
	pageCRCField          = 4
	pageV1Field           = 5
	pageDictionaryField   = 7
	pageV2Field           = 8

	dataPage           = 0
	dictionaryPage     = 2
	dataPageV2         = 3
	pageNumValuesField = 1 // of DataPageHeader, DictionaryPageHeader, DataPageHeaderV2
	pageV2RowsField    = 3
)

// header reads the header of the page at c.page, from b (the bytes at
// off) when it holds it, else from the file, and sets the page's body and
// what to check of it. A header that does not decode loses the pages:
// arrow-go fails on it with an error of its own. A page past the limit
// is an error.
func (c *chunkReads) header(f *pageFile, b []byte, off int64) error {
	var h *tStruct
	var n int
	if at := c.page - off; at >= 0 && at < int64(len(b)) {
		h, n, _ = decodeThriftPrefix(b[at:])
	}
	// Not whole in b: read from the file, in more bytes while it does not
	// decode, as arrow-go reads it.
	most := min(c.end-c.page, maxPageHeaderBytes)
	for size := min(int64(pageHeaderBytes), most); h == nil; size = min(2*size, most) {
		buf := make([]byte, size)
		m, _ := f.r.ReadAt(buf, c.page)
		if h, n, _ = decodeThriftPrefix(buf[:m]); h == nil && (m < len(buf) || size == most) {
			c.lost = true // arrow-go fails on it, with an error of its own
			return nil
		}
	}
	typ, _ := h.i32(pageTypeField)
	uncompressed, _ := h.i32(pageUncompressedField)
	compressed, ok := h.i32(pageCompressedField)
	c.body = c.page + int64(n)
	c.bodyEnd = c.body + int64(compressed)
	if !ok || compressed < 0 || c.bodyEnd > c.end {
		c.lost = true // arrow-go refuses it
		return nil
	}
	// arrow-go dereferences the header of its type unchecked.
	if field := map[int32]int16{dataPage: pageV1Field, dataPageV2: pageV2Field, dictionaryPage: pageDictionaryField}[typ]; field != 0 && h.child(field) == nil {
		return c.pageError(f, errMalformedPage, "a page of type %d without its header of that type", typ)
	}
	var values int64
	block, blockSize := c.body, int64(uncompressed) // where the page's snappy block is, and what it decodes to
	switch typ {
	case dataPage:
		if c.index == -1 {
			c.index = 0
		}
		if v := h.child(pageV1Field); v != nil {
			n, _ := v.i32(pageNumValuesField)
			values = int64(n)
		}
	case dataPageV2:
		if c.index == -1 {
			c.index = 0
		}
		if v := h.child(pageV2Field); v != nil {
			n, _ := v.i32(pageV2RowsField)
			values = int64(n)
			def, _ := v.i32(v2LevelsDefField)
			rep, _ := v.i32(v2LevelsRepField)
			marked := v.field(v2CompressedField)
			block, blockSize = c.body+int64(def)+int64(rep), int64(uncompressed)-int64(def)-int64(rep)
			if marked != nil && marked.typ == thrift.BOOL && !marked.val.(bool) {
				block = c.bodyEnd // not compressed
			}
			if c.compressed && int64(def)+int64(rep) == int64(compressed) && (marked == nil || marked.typ == thrift.BOOL && marked.val.(bool)) {
				// A chunk whose encoding statistics count no version 2 page
				// or no null is not moved (see read_relocate.go), and arrow-go
				// decompresses these 0 bytes.
				return c.pageError(f, errEmptyPage, "its values take no bytes and it is marked compressed, which arrow-go v18.8.0 cannot read; "+
					"arrowmap reads such pages in a column chunk whose encoding statistics count version 2 pages and whose statistics count nulls")
			}
		}
	case dictionaryPage:
		if c.index == 0 {
			c.index = -1
		}
	default:
		c.lost = true // arrow-go steps over no other page
		return nil
	}
	if int64(uncompressed) > f.maxPage {
		return c.pageError(f, ErrPageTooLarge, "an uncompressed page size of %d bytes, past the limit of %d (%s): raise it to read the page",
			uncompressed, f.maxPage, f.limitDoc)
	}
	if c.snappy && block >= c.body && block < c.bodyEnd {
		n := min(c.bodyEnd-block, binary.MaxVarintLen32) // the block's length, at most
		var head []byte
		if at := block - off; at >= 0 && at+n <= int64(len(b)) {
			head = b[at : at+n]
		} else {
			head = make([]byte, n)
			k, _ := f.r.ReadAt(head, block)
			head = head[:k]
		}
		if err := snappyFits(head, blockSize); err != nil {
			return c.pageError(f, errMalformedPage, "%v", err)
		}
	}
	c.seen += max(values, 0)
	crc, hasCRC := h.i32(pageCRCField)
	c.check = f.verify && hasCRC
	c.crc, c.want = 0, uint32(crc)
	return nil
}

// snappyFits refuses a snappy block (the compressed bytes of a page, or
// their first bytes) whose length, which the block starts with, is more
// than size, the bytes the page's header says it holds uncompressed:
// arrow-go's snappy codec decodes into a buffer of the header's size, and
// allocates what the block claims when that is short, up to 4 GiB for a
// damaged five-byte length. A valid block decodes to exactly size bytes,
// so none is refused. The pages are checked here, before arrow-go reads
// them, rather than by a codec of arrowmap's registered with arrow-go:
// its registry (compress.RegisterCodec) is the process's. A block whose
// length does not decode is left to arrow-go, which refuses it.
func snappyFits(block []byte, size int64) error {
	n, err := s2.DecodedLen(block)
	if err != nil || int64(n) <= size {
		return nil
	}
	return fmt.Errorf("a snappy block of %d bytes decoded, past the page's uncompressed size of %d", n, size)
}
