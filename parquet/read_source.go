package parquet

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/arrowmap/arrowmap/mapper"
)

// source is an open Parquet file and what of it a ReadConfig selects.
type source struct {
	name      string // for errors: the path, or "the Parquet data"
	pf        *file.Reader
	fr        *pqarrow.FileReader
	rowGroups []int
	closer    io.Closer // the file opened by path, nil for a caller's reader
	ctx       context.Context
	// fields is the top-level fields of the file's Arrow schema, as
	// written (goSchemaKey's, else what pqarrow reads, without its
	// field ids), and meta the schema's metadata: what the records of
	// every reader are converted to (fromStorage).
	fields []arrow.Field
	meta   arrow.Metadata
	mem    memory.Allocator
	pool   *pool // the allocator without mapper.Allocator, released at close
	// budget is mem, which bounds what decoding a record allocates, at
	// ratio (mapper.MaxExpansion's) bytes a byte of the column chunks
	// read; nil for a pqarrow.FileReader of the caller's (NewReader).
	budget *budget
	ratio  int64
	// pages is the file as arrow-go reads it, checking its pages; nil for
	// a pqarrow.FileReader of the caller's (NewReader).
	pages *pageFile
	// sized is whether the records read may be sized to the rows a
	// Reader's Read asks for (mapper.RecordSizer): only when no record
	// size was given (ReadConfig.BatchRows 0), since a size given is the
	// size of every record, as documented.
	sized bool
	// keepPage is ReadConfig.KeepPage; ranges, when not nil, the rows of
	// the selected row groups it keeps, once records are asked for.
	keepPage func(Page) bool
	ranges   []rowRange
	// size is the file's bytes, and readLeaves the leaf columns read,
	// once records are asked for: what RowsHintBytes counts.
	size       int64
	readLeaves []int
}

func openPath(path string, cfg ReadConfig) (*source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("arrowmap/parquet: %w", err)
	}
	src, err := openSource(f, info.Size(), f, path, cfg)
	if err != nil {
		f.Close()
		return nil, err
	}
	return src, nil
}

// readBufferBytes is the buffer a column chunk is read through, made for
// every chunk: enough for page headers (arrow-go peeks 16 KiB at a time)
// and small pages; a larger page is read past it into the page buffer,
// which the allocator reuses.
const readBufferBytes = 32 << 10

// openSource reads the footer of the Parquet file of size bytes that r
// reads, and selects its row groups as cfg says.
func openSource(r io.ReaderAt, size int64, closer io.Closer, name string, cfg ReadConfig) (_ *source, err error) {
	if cfg.BatchRows < 0 {
		return nil, fmt.Errorf("arrowmap/parquet: ReadConfig.BatchRows %d is negative", cfg.BatchRows)
	}
	if cfg.MaxPageSize < 0 {
		return nil, fmt.Errorf("arrowmap/parquet: ReadConfig.MaxPageSize %d is negative", cfg.MaxPageSize)
	}
	if err := checkMagic(r, size, name); err != nil {
		return nil, err
	}
	footer, needs, err := checkThrift(r, size, name)
	if err != nil {
		return nil, err
	}
	var mem memory.Allocator = cfg.alloc
	var own *pool
	if mem == nil {
		own = &pool{}
		mem = own
	}
	budget := newBudget(mem)
	mem = budget
	// A footer is hostile input too: arrow-go's thrift decoding and schema
	// conversion are not all written to fail cleanly on garbage.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer (%v)", name, mapper.ErrInvalidData, p)
		}
	}()
	props := parquet.NewReaderProperties(mem)
	// Without a buffered stream arrow-go reads each column chunk whole
	// into a new []byte (a few MiB a column a row group, made and dropped
	// for every chunk); buffered, it reads a page at a time through one
	// buffer, and a page larger than the buffer into its page buffer.
	props.BufferedStreamEnabled = true
	props.BufferSize = readBufferBytes
	pages := newPageFile(r, size, name, cfg)
	boundPages(props, size, pages.maxPage)
	readOpts := []file.ReadOption{file.WithReadProps(props)}
	var fix *footerFix
	if needs != 0 {
		repaired, f, err := repairFooter(footer, needs, size)
		if err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer: %w", name, mapper.ErrInvalidData, err)
		}
		fix = f
		if repaired != nil {
			md, err := metadata.NewFileMetaData(repaired, nil)
			if err != nil {
				return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
			}
			md.SetSourceFileSize(f.size(size))
			readOpts = append(readOpts, file.WithMetadata(md))
			pages.moved = f.moved
			for _, m := range f.moved {
				if m.lz4 { // read uncompressed
					props.MaxCompressedPageSize = max(props.MaxCompressedPageSize, pages.maxPage)
				}
			}
		}
	}
	pf, err := file.NewParquetReader(io.NewSectionReader(pages, 0, fix.size(size)), readOpts...)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
	}
	footerLen := int64(len(footer))
	if footer == nil {
		footerLen = int64(pf.MetaData().Size()) // encrypted: arrow-go's
	}
	if err := checkFooter(pf, size, footerLen, name, fix); err != nil {
		return nil, err
	}
	if err := pages.setChunks(pf.MetaData()); err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
	}
	batch := cfg.BatchRows
	if batch == 0 {
		batch = DefaultBatchRows
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(batch)}, mem)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %s%w", name, mapper.ErrInvalidData, unreadableColumn(pf.MetaData().Schema), err)
	}
	src, err := newSource(pf, fr, closer, name, cfg, mem, fix)
	if src != nil {
		src.pool, src.pages, src.size = own, pages, size
		src.budget, src.ratio = budget, cfg.ratio
	}
	return src, err
}

// unreadableColumn is `column "name": ` for the first top-level column of
// descr that pqarrow cannot read as Arrow, "" when each reads alone:
// pqarrow's errors ("MAP keys must be required") name no column.
func unreadableColumn(descr *schema.Schema) string {
	root := descr.Root()
	for i := range root.NumFields() {
		field := root.Field(i)
		one, err := schema.NewGroupNode(root.Name(), parquet.Repetitions.Required, schema.FieldList{field}, -1)
		if err != nil {
			continue
		}
		_, err = pqarrow.FromParquet(schema.NewSchema(one), &pqarrow.ArrowReadProperties{}, nil)
		field.SetParent(root) // NewGroupNode took it
		if err != nil {
			return fmt.Sprintf("column %q: ", field.Name())
		}
	}
	return ""
}

// newSource is the source of the open file fr, with the row groups cfg
// selects, and the column types to restore that its metadata names.
func newSource(pf *file.Reader, fr *pqarrow.FileReader, closer io.Closer, name string, cfg ReadConfig, mem memory.Allocator, fix *footerFix) (_ *source, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer (%v)", name, mapper.ErrInvalidData, p)
		}
	}()
	groups, err := selectRowGroups(pf, cfg)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w", name, err)
	}
	src := &source{name: name, pf: pf, fr: fr, rowGroups: groups, closer: closer, ctx: context.Background(), mem: mem, sized: cfg.BatchRows == 0, keepPage: cfg.KeepPage}
	fileSchema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: schema: %w", name, err)
	}
	kv := pf.MetaData().KeyValueMetadata()
	if src.fields, err = writtenFields(fileSchema, kv.FindValue(goSchemaKey), kv.FindValue(arrowSchemaKey), mem); err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
	}
	if fix != nil {
		unit := arrow.Microsecond
		if cfg.Int96Unit != nil {
			unit = *cfg.Int96Unit
		}
		fix.restore(src.fields, fr.Manifest, unit, cfg.Int96Unit != nil)
	}
	src.meta = schemaMetadata(fileSchema.Metadata())
	return src, nil
}

var (
	_ mapper.BackedRowsHinter = (*fileRecords)(nil)
	_ mapper.RecordSizer      = (*fileRecords)(nil)
)

var magic = []byte("PAR1")

// checkMagic tells a file that is not Parquet from one cut short, by the
// magic bytes a Parquet file starts and ends with.
func checkMagic(r io.ReaderAt, size int64, name string) error {
	head := make([]byte, len(magic))
	if n, _ := r.ReadAt(head, 0); n < len(head) || !bytes.Equal(head, magic) {
		return fmt.Errorf("arrowmap/parquet: %s: %w (%d bytes that do not start with %q)", name, ErrNotParquet, size, magic)
	}
	tail := make([]byte, len(magic))
	// An encrypted footer ends with "PARE" instead: leave it to arrow-go.
	if n, _ := r.ReadAt(tail, size-int64(len(tail))); size < 12 || n < len(tail) || (!bytes.Equal(tail, magic) && string(tail) != "PARE") {
		return fmt.Errorf("arrowmap/parquet: %s: %w: a truncated Parquet file (%d bytes, no footer at its end)", name, io.ErrUnexpectedEOF, size)
	}
	return nil
}

// selectRowGroups is the row groups of cfg.RowGroups (all when nil) that
// cfg.KeepRowGroup keeps, in order.
func selectRowGroups(pf *file.Reader, cfg ReadConfig) ([]int, error) {
	n := pf.NumRowGroups()
	groups := cfg.RowGroups
	if groups == nil {
		groups = make([]int, n)
		for i := range groups {
			groups[i] = i
		}
	}
	kept := make([]int, 0, len(groups))
	for _, g := range groups {
		if g < 0 || g >= n {
			return nil, fmt.Errorf("row group %d does not exist: the file has %d", g, n)
		}
		if cfg.KeepRowGroup == nil || cfg.KeepRowGroup(newRowGroup(pf, g)) {
			kept = append(kept, g)
		}
	}
	return kept, nil
}

// schema is the Arrow schema of the whole file: its stored Arrow schema
// when it has one (time zones, dictionaries, large types come back as
// written), else the one pqarrow derives.
func (s *source) schema() (*arrow.Schema, error) {
	return arrow.NewSchema(s.fields, &s.meta), nil
}

// restored is the schema of records of the top-level columns cols as
// written, and for each column whether pqarrow's type (of read) differs.
func (s *source) restored(read *arrow.Schema, cols []int) (*arrow.Schema, []bool) {
	fields := make([]arrow.Field, len(cols))
	differ := make([]bool, len(cols))
	for j, c := range cols {
		fields[j] = s.fields[c]
		differ[j] = !arrow.TypeEqual(read.Field(j).Type, fields[j].Type, arrow.CheckMetadata())
	}
	return arrow.NewSchema(fields, &s.meta), differ
}

// records reads the top-level columns cols of the selected row groups.
// The records own the source from then on: their last Release closes it,
// and so does an error here.
func (s *source) records(cols []int) (_ *fileRecords, err error) {
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	leaves := s.leaves(cols)
	s.readLeaves = leaves
	if s.keepPage != nil && len(s.rowGroups) > 0 {
		if s.ranges, err = s.keptRanges(leaves, s.keepPage); err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w", s.name, err)
		}
		if len(s.ranges) == 0 {
			s.rowGroups = nil // no row kept: read none
		}
	}
	if len(s.rowGroups) == 0 {
		// pqarrow reads every row group for none: an empty selection is
		// an empty stream of the projected schema.
		sc, err := s.projected(leaves)
		if err != nil {
			return nil, err
		}
		return newFileRecords(emptyRecords{sc}, s, s.roots(leaves)), nil
	}
	rr, err := s.recordReader(leaves)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: reading columns: %w", s.name, err)
	}
	return newFileRecords(rr, s, s.roots(leaves)), nil
}

// projected is the schema of the records of leaves.
func (s *source) projected(leaves []int) (*arrow.Schema, error) {
	_, sc, err := s.fr.GetFieldReaders(s.ctx, leaves, []int{})
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: reading columns: %w", s.name, err)
	}
	return sc, nil
}

// roots is the top-level columns of leaves, in order: the columns of the
// records read.
func (s *source) roots(leaves []int) []int {
	descr := s.pf.MetaData().Schema
	var cols []int
	for _, leaf := range leaves {
		c := descr.Root().FieldIndexByField(descr.ColumnRoot(leaf))
		if len(cols) == 0 || cols[len(cols)-1] != c {
			cols = append(cols, c)
		}
	}
	return cols
}

// leaves is the leaf columns under the top-level columns cols.
func (s *source) leaves(cols []int) []int { return leafColumns(s.pf.MetaData().Schema, cols) }

// leafColumns is the indexes of the Parquet leaf columns of descr under the
// top-level columns cols, in increasing order; the first leaf when cols is
// empty, so that a T that reads no column still gets one row per row of
// the file.
func leafColumns(descr *schema.Schema, cols []int) []int {
	// pqarrow maps each child of the Parquet root to the Arrow field of the
	// same index, so an Arrow column index is a root field index.
	used := make([]bool, descr.Root().NumFields())
	for _, c := range cols {
		if c >= 0 && c < len(used) {
			used[c] = true
		}
	}
	var leaves []int
	for leaf := range descr.NumColumns() {
		if used[descr.Root().FieldIndexByField(descr.ColumnRoot(leaf))] {
			leaves = append(leaves, leaf)
		}
	}
	if len(leaves) == 0 && descr.NumColumns() > 0 {
		leaves = []int{0}
	}
	return leaves
}

// numRows is the rows of the selected row groups, as the footer says,
// or those of them KeepPage keeps.
func (s *source) numRows() int64 {
	var rows int64
	if s.ranges != nil {
		for _, r := range s.ranges {
			rows += r.to - r.from
		}
		return rows
	}
	for _, g := range s.rowGroups {
		rows += s.pf.MetaData().RowGroup(g).NumRows()
	}
	return rows
}

func (s *source) close() error {
	if s.pool != nil {
		// The records are released: the next Reader's pool takes their
		// buffers.
		s.pool.release()
		s.pool = nil
	}
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
