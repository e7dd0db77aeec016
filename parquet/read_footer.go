package parquet

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/mapper"
)

// A footer is checked here before pqarrow reads by it: pqarrow and
// arrow-go's file reader trust its sizes and offsets, some of them on
// goroutines of their own (a struct's children are opened on an errgroup
// even when reads are not parallel), where a panic ends the process and
// no recover of ours can help; and they decode the stored Arrow schema
// trusting its lengths, where one flipped byte asks for gigabytes.

// A page may uncompress to pageSlack + pageGrowth × the file's size at
// most: past any page a writer makes of real data (pages are about a MiB,
// and a file holds its compressed bytes), and a bound on what one damaged
// header can make the reader allocate.
const (
	pageSlack  = 64 << 20
	pageGrowth = 64
)

// boundPages sets the largest page props lets a page header claim, for a
// file of size bytes: compressed no larger than the file, uncompressed no
// larger than limit (see pageLimit), so that the buffers a page header
// makes the reader allocate are bounded by what the file holds, or by
// what the caller allows.
func boundPages(props *parquet.ReaderProperties, size, limit int64) {
	props.MaxCompressedPageSize = max(size, 1)
	props.MaxUncompressedPageSize = limit
}

// defaultPageLimit is the most bytes a page of a file of size bytes may
// hold uncompressed when ReadConfig.MaxPageSize is 0: pageSlack +
// pageGrowth × size, no more than arrow-go's own limit.
func defaultPageLimit(size int64) int64 {
	limit := int64(parquet.DefaultMaxUncompressedPageSize)
	if size < (limit-pageSlack)/pageGrowth {
		limit = pageSlack + pageGrowth*size
	}
	return limit
}

// checkFooter checks what pqarrow trusts of the footer of pf, a file of
// size bytes whose footer takes footerLen: the row groups' row counts non-negative and adding up to the
// file's (or the file's 0, which parquet-rs 0.3 wrote over row groups of
// rows, and which every reader takes: arrow-go and arrowmap read by the
// row groups' counts); each column chunk's offsets and sizes non-negative
// and its bytes, and those of its page indexes, inside the file before the
// footer; its value count non-negative; and the stored schemas decodable
// (see checkStoredSchemas). An error wraps mapper.ErrInvalidData and names
// name and what is wrong.
func checkFooter(pf *file.Reader, size, footerLen int64, name string, fix *footerFix) error {
	md := pf.MetaData()
	invalid := func(format string, args ...any) error {
		return fmt.Errorf("arrowmap/parquet: %s: %w: %s", name, mapper.ErrInvalidData, fmt.Sprintf(format, args...))
	}
	if md.NumRows < 0 {
		return invalid("the footer counts %d rows", md.NumRows)
	}
	// The column chunks lie between the magic at the start and the footer:
	// its metadata, its length and the magic at the end.
	end := size - footerLen - 8
	if end < int64(len(magic)) {
		return invalid("a footer of %d bytes in a file of %d", footerLen, size)
	}
	inside := func(offset, length int64) bool {
		return offset >= int64(len(magic)) && length >= 0 && offset <= end && length <= end-offset
	}
	columns := md.Schema.NumColumns()
	var rows int64
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		n := rg.NumRows()
		if n < 0 {
			return invalid("row group %d counts %d rows", g, n)
		}
		if rows > math.MaxInt64-n {
			return invalid("the row groups count more than %d rows", int64(math.MaxInt64))
		}
		rows += n
		if rg.NumColumns() != columns {
			return invalid("row group %d has %d column chunks, the schema %d columns", g, rg.NumColumns(), columns)
		}
		for c := range columns {
			col, err := rg.ColumnChunk(c)
			if err != nil {
				return invalid("row group %d, column %q: %v", g, md.Schema.Column(c).Path(), err)
			}
			if err := checkColumnChunk(rg, c, col, inside, fix.movedChunk(g, c)); err != nil {
				return invalid("row group %d, column %q: %v", g, md.Schema.Column(c).Path(), err)
			}
		}
	}
	if rows != md.NumRows && md.NumRows != 0 {
		return invalid("the row groups count %d rows, the footer %d", rows, md.NumRows)
	}
	return checkStoredSchemas(md.KeyValueMetadata(), name)
}

// checkColumnChunk checks the column chunk c of rg, whose metadata is col,
// for checkFooter: inside reports whether a range of bytes lies in the file.
// A chunk moved past the end of the file (moved) is checked where it is in
// the file.
func checkColumnChunk(rg *metadata.RowGroupMetaData, c int, col *metadata.ColumnChunkMetaData, inside func(offset, length int64) bool, moved *movedChunk) error {
	if col.FilePath() != "" {
		return fmt.Errorf("its data is in another file, %q", col.FilePath())
	}
	if n := col.NumValues(); n < 0 {
		return fmt.Errorf("%d values", n)
	}
	if n := col.TotalUncompressedSize(); n < 0 {
		return fmt.Errorf("an uncompressed size of %d bytes", n)
	}
	data, length := col.DataPageOffset(), col.TotalCompressedSize()
	if data < 0 || length < 0 {
		return fmt.Errorf("data pages at offset %d, %d bytes", data, length)
	}
	// Where arrow-go starts reading the chunk (RowGroupReader.GetColumnPageReader).
	start := data
	if col.HasDictionaryPage() {
		dict := col.DictionaryPageOffset()
		if dict < 0 {
			return fmt.Errorf("a dictionary page at offset %d", dict)
		}
		// A chunk of no values has no data page: arrow-cpp writes its data
		// page offset as 0, its bytes (a dictionary page) where the
		// dictionary page offset says. arrow-go reads no page of it.
		if dict > 0 && (dict < start || start == 0 && col.NumValues() == 0) {
			start = dict
		}
	}
	if moved != nil {
		start, length = moved.orig, moved.origEnd-moved.orig
	}
	// arrow-go's error for a codec it has none for comes only when a page is
	// read, unwrapped; a moved LZ4 chunk reads as uncompressed.
	if _, err := compress.GetCodec(col.Compression()); err != nil {
		return fmt.Errorf("pages compressed by %s, a codec arrowmap cannot read", col.Compression())
	}
	if !inside(start, length) {
		return fmt.Errorf("%d bytes at offset %d, past the column chunks", length, start)
	}
	for _, index := range []struct {
		what string
		at   func(int) (metadata.IndexLocation, bool)
	}{{"column index", rg.ColumnIndexLocation}, {"offset index", rg.OffsetIndexLocation}} {
		if loc, ok := index.at(c); ok && !inside(loc.Offset, int64(loc.Length)) {
			return fmt.Errorf("a %s of %d bytes at offset %d, past the column chunks", index.what, loc.Length, loc.Offset)
		}
	}
	return nil
}

// checkStoredSchemas decodes, through the verified path (ipcschema.Decode),
// the Arrow schemas stored in meta, the footer's key-value metadata: the
// ARROW:schema that pqarrow.NewFileReader decodes trusting its lengths,
// and arrowmap's own.
func checkStoredSchemas(meta metadata.KeyValueMetadata, name string) error {
	for _, key := range []string{arrowSchemaKey, goSchemaKey} {
		v := meta.FindValue(key)
		if v == nil {
			continue
		}
		raw, err := storedSchemaBytes(*v)
		if err == nil {
			_, err = ipcschema.Decode(raw, memory.DefaultAllocator)
		}
		if err != nil {
			return fmt.Errorf("arrowmap/parquet: %s: %w: the %s metadata: %w", name, mapper.ErrInvalidData, key, err)
		}
	}
	return nil
}

// storedSchemaBytes is the IPC stream that value, a stored schema, holds
// in base64: padded, or unpadded, as pqarrow reads it.
func storedSchemaBytes(value string) ([]byte, error) {
	var raw []byte
	var err error
	if len(value)%4 == 0 {
		raw, err = base64.StdEncoding.DecodeString(value)
	}
	if len(raw) == 0 || err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(value)
	}
	return raw, err
}

// recordReader is the record reader of the leaf columns leaves of the
// selected row groups, through pqarrow's column readers (sizedRecords),
// in records of the FileReader's batch size unless sized smaller. It
// opens the first column chunk of each, and a panic of arrow-go's on a
// chunk checkFooter let through is an error.
func (s *source) recordReader(leaves []int) (_ *sizedRecords, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: a malformed column chunk (%v)", mapper.ErrInvalidData, p)
		}
	}()
	batch := s.fr.Props.BatchSize
	if rows := s.numRows(); batch > 0 && rows > 0 {
		batch = min(batch, rows) // pqarrow sizes its buffers by the batch
	}
	rr, err := newSizedRecords(s.ctx, s.fr, leaves, s.rowGroups, batch, s.mem)
	if err == nil {
		rr.ranges, rr.pageStart = s.ranges, s.pageStart
	}
	return rr, err
}

// checkRowsRead is the error of records that ended, with err (nil or
// io.EOF at their end), after rows rows: nil unless they ended cleanly
// with another count of rows than the footer gives the selected row
// groups, a column chunk cut short or holding more than its row group.
func (s *source) checkRowsRead(rows int64, err error) error {
	if err != nil && err != io.EOF {
		return nil
	}
	want := s.numRows()
	if rows == want {
		return nil
	}
	return fmt.Errorf("arrowmap/parquet: %s: %w: %d rows read, where the footer counts %d", s.name, mapper.ErrInvalidData, rows, want)
}

// readError is err, of pqarrow's reading the column chunks, naming the
// file: what arrow-go found malformed wraps mapper.ErrInvalidData; a
// failure to read the file is itself; the end of the records is io.EOF or
// nil, as pqarrow says.
func (s *source) readError(err error) error {
	var pathErr *fs.PathError
	if err == nil || err == io.EOF {
		return err
	}
	if s.pages != nil {
		if failed := s.pages.failed(); failed != nil {
			// A page pageFile held back: arrow-go's error about it names
			// neither the column nor the page.
			return failed
		}
	}
	switch {
	case errors.As(err, &pathErr) || errors.Is(err, mapper.ErrInvalidData):
		return fmt.Errorf("arrowmap/parquet: %s: %w", s.name, err)
	default:
		return fmt.Errorf("arrowmap/parquet: %s: %w: %w", s.name, mapper.ErrInvalidData, err)
	}
}
