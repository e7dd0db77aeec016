// Package pagewriter writes the pages of a Parquet file straight from
// Arrow records, for arrowmap/parquet's writers: File is that writer, and
// FileWriter what those writers need of a file's writer, which File and
// arrow-go's pqarrow.FileWriter both are (arrowmap/parquet's
// WriteConfig.Encoder picks one).
//
// It compresses snappy pages itself (appendSnappy) and every other codec,
// and the leaves arrow-go's column writers write (arrow_column.go),
// through arrow-go's codecs: it registers no codec with arrow-go, whose
// registry (compress.RegisterCodec) is the process's.
package pagewriter

import (
	"context"
	"encoding/binary"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// FileWriter is what arrowmap/parquet's writers need of the writer of a
// Parquet file: File, or arrow-go's pqarrow.FileWriter. Records are of
// the schema the writer was made for.
type FileWriter interface {
	// AppendKeyValueMetadata adds a key/value pair to the footer.
	AppendKeyValueMetadata(key, value string) error
	// WriteBuffered adds the rows of a record to the current row group,
	// starting one when there is none.
	WriteBuffered(rec arrow.RecordBatch) error
	// NewBufferedRowGroupChecked closes the current row group, writing
	// its column chunks; the next rows start another.
	NewBufferedRowGroupChecked() error
	// Close writes the current row group and the footer.
	Close() error
}

var (
	_ FileWriter = (*File)(nil)
	_ FileWriter = (*pqarrow.FileWriter)(nil)
)

// Output is where a File writes: Tell is how many bytes went to it, Err
// the first failure of its Write (after which the file is lost), nil
// while there is none.
type Output interface {
	io.Writer
	Tell() int64
	Err() error
}

// magic starts and ends a Parquet file.
var magic = []byte("PAR1")

// File writes the column chunks of a Parquet file straight from the
// Arrow records the Writer builds: levels from validity bitmaps and list
// offsets, plain values copied from the Arrow buffers, byte arrays through
// a dictionary where it pays, pages compressed into buffers reused from
// page to page and held until their chunk ends (header.go), the
// leaves of a record encoded at once (parallel.go). It writes what
// pqarrow writes for the same record (the same Parquet schema from
// pqarrow.ToParquet, the same column chunk statistics, the Arrow schema in
// the key/value metadata) at a fraction of
// the allocations: pqarrow's column writers allocate a few hundred MiB per
// million rows (encoder buffers from a sync.Pool that the collector
// empties, a buffer grown for every page, a closure for every dictionary
// lookup), and the collector scanning the caller's rows is what then
// costs the time. It encodes the leaves of leafKindOf (decimal128s too)
// under structs, lists, large lists and maps; every other leaf is written
// by arrow-go's column writer of its chunk, in the same row group, with
// the same page index and writer properties (arrow_column.go): one writer
// per leaf, not per file.
type File struct {
	sink   Output
	schema *schema.Schema
	props  *parquet.WriterProperties
	meta   *metadata.FileMetaDataBuilder
	codec  compress.Codec // nil: uncompressed
	snappy bool           // compressed by appendSnappy
	level  int
	v2     bool
	leaves []*leafWriter
	// pageIndex builds the column and offset indexes of every row group,
	// written before the footer; nil when the page index is off.
	pageIndex *metadata.PageIndexBuilder
	rg        *metadata.RowGroupMetaDataBuilder
	// blooms holds the bloom filters of every row group's columns that
	// have one, written before the page index (as arrow-go's file writer
	// does), which sets their offsets in the column chunks' metadata; nil
	// while there is none.
	blooms  *metadata.FileBloomFilterBuilder
	filters []metadata.BloomFilterBuilder // blooms', released at Close
	// rgFilters is the current row group's filters by column path, in
	// blooms: a filter sized at the chunk's end goes in at closeChunk.
	rgFilters map[string]metadata.BloomFilterBuilder
	rgRows    int64
	// groups is the row groups finished, the next one's int16 ordinal:
	// parquet's writer refuses the 32,768th row group before either
	// encoder starts it, the one rule for both.
	groups  int16
	pageCap int
	// scratch is each worker's (eachLeaf), the first the file's own.
	scratch []pageScratch
	// workers is how many goroutines at most encode the leaves of a
	// record (WriteConfig.Parallelism); order is the leaves, those that
	// took longest on the last record first.
	workers int
	order   []*leafWriter
	// expect is how many rows the row group is expected to take from the
	// first of the record being written on, as the Writer knows them (at
	// least the record's): the pages' buffers grow for them at once.
	expect int64

	closed   bool
	closeErr error
}

// New is the File of records of arrowSchema on s, which it writes the
// magic bytes to, or nil (and nothing written) when pqarrow is to write
// the file: a schema pqarrow cannot store (arrowmap/parquet names the
// column), a struct of no fields, or a leaf whose levels are not those
// leafPaths makes. A leaf of no leafKind, an Arrow dictionary of anything
// but text or binary, or one that pqarrow stores otherwise than as its
// Arrow values, is viaArrow. workers is how many goroutines at most
// encode the leaves of a record.
func New(arrowSchema *arrow.Schema, s Output, props *parquet.WriterProperties, workers int) (*File, error) {
	pq, err := pqarrow.ToParquet(arrowSchema, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, nil // arrowmap/parquet names the column through pqarrow
	}
	var leaves []*leafWriter
	for i, f := range arrowSchema.Fields() {
		if !leafPaths(f, i, nil, &leaves) {
			return nil, nil
		}
	}
	if len(leaves) != pq.NumColumns() || len(leaves) == 0 {
		return nil, nil
	}
	dicts := make([]bool, len(leaves)) // the leaves of chunks with a dictionary
	for i, lw := range leaves {
		col := pq.Column(i)
		if int16(col.MaxDefinitionLevel()) != lw.maxDef || int16(col.MaxRepetitionLevel()) != lw.maxRep {
			return nil, nil // not the nesting leafPaths knows: pqarrow writes the file
		}
		lw.name = arrowSchema.Field(lw.top).Name
		lw.descr, lw.index = col, i
		if !lw.viaArrow && (!lw.fits(col) || !directEncodes(lw, props, col.Path())) {
			// Stored otherwise than as its Arrow values (a uint32 as
			// INT64), or in an encoding only arrow-go's encoders write
			// (the delta encodings): arrow-go converts and encodes them.
			lw.viaArrow, lw.arrowDict = true, false
		}
		if lw.viaArrow {
			continue
		}
		lw.signed = col.SortOrder() == schema.SortSIGNED
		lw.stats = props.StatisticsEnabledFor(col.Path())
		lw.maxStats = int(props.MaxStatsSizeFor(col.Path()))
		lw.valueEncoding = props.EncodingFor(col.Path())
		lw.bloomOn = props.BloomFilterEnabledFor(col.Path())
		// Booleans have no dictionary encoding (pqarrow writes them plain
		// too). An Arrow dictionary column keeps one Parquet dictionary per
		// column chunk (or none, when dictionaries are off): its values are
		// looked up through each record's dictionary, which the Builder
		// makes anew for every record.
		if lw.kind != leafBool && props.DictionaryEnabledFor(col.Path()) {
			dicts[i] = true
			lw.dictLimit = int(props.DictionaryPageSizeLimit())
			lw.costFallback = props.DictionaryCostFallbackEnabledFor(col.Path())
		}
	}
	var codec compress.Codec
	if props.Compression() != compress.Codecs.Uncompressed {
		if codec, err = compress.GetCodec(props.Compression()); err != nil {
			return nil, err
		}
	}
	if _, err := s.Write(magic); err != nil {
		return nil, err
	}
	d := &File{
		sink: s, schema: pq, props: props, codec: codec, level: props.CompressionLevel(),
		snappy: props.Compression() == compress.Codecs.Snappy,
		v2:     props.DataPageVersion() == parquet.DataPageV2, leaves: leaves,
		pageCap: int(props.DataPageSize()),
	}
	d.meta = metadata.NewFileMetadataBuilder(pq, props, nil)
	arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(props.Allocator()))
	for _, lw := range leaves {
		if lw.viaArrow {
			// Its own: the context holds the buffers arrow-go's column
			// writers reuse, and leaves are written at once (eachLeaf).
			lw.arrowCtx = pqarrow.NewArrowWriteContext(context.Background(), &arrowProps)
		}
	}
	d.workers = min(max(workers, 1), len(leaves))
	d.order = slices.Clone(leaves)
	d.scratch = make([]pageScratch, d.workers)
	if props.PageIndexEnabled() {
		d.pageIndex = &metadata.PageIndexBuilder{Schema: pq}
	}
	d.takeBuffers()
	for i, lw := range leaves {
		if dicts[i] {
			lw.dict, lw.spareDict = lw.spareDict, nil // reset by startChunk
			if lw.dict == nil {
				lw.dict = newByteDict()
			}
			lw.dict.width = lw.width()
		}
	}
	return d, nil
}

// ExpectRows says how many rows the row group is expected to take from
// the first of the next record on (at least the record's): the pages'
// buffers grow for them at once.
func (d *File) ExpectRows(n int64) { d.expect = n }

// ArrowGoLeaves is the Parquet paths of the leaves that arrow-go's column
// writers write in the file.
func (d *File) ArrowGoLeaves() []string {
	var paths []string
	for _, lw := range d.leaves {
		if lw.viaArrow {
			paths = append(paths, lw.descr.Path())
		}
	}
	return paths
}

// AppendKeyValueMetadata adds a key/value pair to the footer.
func (d *File) AppendKeyValueMetadata(key, value string) error {
	return d.meta.AppendKeyValueMetadata(key, value)
}

// WriteBuffered adds the rows of rec to the current row group, starting
// one when there is none.
func (d *File) WriteBuffered(rec arrow.RecordBatch) error {
	if d.rg == nil {
		if err := d.startRowGroup(); err != nil {
			return err
		}
	}
	for _, lw := range d.leaves {
		if err := lw.bind(rec.Column(lw.top)); err != nil {
			return err
		}
	}
	n := int(rec.NumRows())
	d.expect = max(d.expect, int64(n))
	err := d.eachLeaf(func(lw *leafWriter, sc *pageScratch) error {
		if lw.viaArrow {
			return lw.writeArrow(n)
		}
		return lw.writeRows(d, sc, n)
	})
	if err != nil {
		return err
	}
	d.rgRows += rec.NumRows()
	d.expect = 0 // the next record's is set anew
	return nil
}

func (d *File) startRowGroup() error {
	d.rg = d.meta.AppendRowGroup()
	if d.pageIndex != nil {
		if err := d.pageIndex.AppendRowGroup(); err != nil {
			return err
		}
	}
	var filters map[string]metadata.BloomFilterBuilder
	for i, lw := range d.leaves {
		lw.cc = d.rg.NextColumnChunk()
		lw.bloom = nil
		if lw.bloomOn {
			if filters == nil {
				filters = map[string]metadata.BloomFilterBuilder{}
			}
			lw.startBloom(d, filters)
		}
		lw.colIdx, lw.offIdx = nil, nil
		if d.pageIndex != nil && d.props.PageIndexEnabledFor(lw.descr.Path()) {
			var err error
			if lw.colIdx, err = d.pageIndex.GetColumnIndexBuilder(i); err != nil {
				return err
			}
			if lw.offIdx, err = d.pageIndex.GetOffsetIndexBuilder(i); err != nil {
				return err
			}
		}
		if lw.viaArrow {
			// arrow-go's column writer of the chunk, on the chunk's
			// metadata and a page writer, as arrow-go's buffered row group
			// writer makes them: its statistics, page index entries,
			// dictionary and fallback are arrow-go's own.
			pager, err := file.NewPageWriter(d.sink, d.props.Compression(), d.level, lw.cc, d.groups, int16(i), d.props.Allocator(), true, nil, nil)
			if err != nil {
				return err
			}
			if lw.colIdx != nil {
				pager.SetIndexBuilders(lw.colIdx, lw.offIdx)
			}
			lw.column = file.NewColumnChunkWriter(lw.cc, pager, d.props)
			if bf := lw.column.GetBloomFilter(); bf != nil {
				// arrow-go's column writer fills the filter it made from
				// the properties; the file writes it, and releases it.
				if filters == nil {
					filters = map[string]metadata.BloomFilterBuilder{}
				}
				filters[lw.descr.Path()] = bf
				d.filters = append(d.filters, bf)
			}
			continue
		}
		lw.startChunk()
	}
	d.rgFilters = filters
	if filters != nil {
		if d.blooms == nil {
			d.blooms = &metadata.FileBloomFilterBuilder{Schema: d.schema}
		}
		d.blooms.AppendRowGroup(d.rg, filters)
	}
	return nil
}

// NewBufferedRowGroupChecked closes the current row group, writing its
// column chunks; the next rows start another.
func (d *File) NewBufferedRowGroupChecked() error {
	if d.rg == nil {
		return nil
	}
	// Each chunk's pages are held (by its leaf, or by arrow-go's page
	// writer of a viaArrow leaf) until it closes, so closing them in leaf
	// order writes the chunks one after the other, in the order of the
	// schema's leaves.
	for _, lw := range d.leaves {
		var err error
		if lw.viaArrow {
			err = lw.closeColumn(d.rgRows)
		} else {
			err = lw.closeChunk(d)
		}
		if err != nil {
			return err
		}
	}
	d.rg.SetNumRows(int(d.rgRows))
	if err := d.rg.Finish(0, d.groups); err != nil {
		return err
	}
	d.rg, d.rgRows = nil, 0
	d.groups++
	return nil
}

// Close writes the current row group and the footer, and hands the
// leaves' buffers on; Close after Close returns what the first returned.
func (d *File) Close() error {
	if !d.closed {
		d.closed, d.closeErr = true, d.close()
		for _, lw := range d.leaves {
			if lw.column != nil {
				// A failure left the chunk open: closing it frees what
				// arrow-go's writer holds (its pages go to a file lost).
				lw.column.Close()
				lw.column = nil
			}
			lw.bloom = nil
		}
		d.releaseBuffers()
		for _, f := range d.filters {
			f.Release()
		}
		d.filters = nil
	}
	return d.closeErr
}

func (d *File) close() error {
	if err := d.sink.Err(); err != nil {
		return err
	}
	if err := d.NewBufferedRowGroupChecked(); err != nil {
		return err
	}
	if d.blooms != nil {
		if err := d.blooms.WriteTo(d.sink); err != nil {
			return err
		}
	}
	if d.pageIndex != nil {
		d.pageIndex.Finish()
		var loc metadata.PageIndexLocation
		if err := d.pageIndex.WriteTo(d.sink, &loc); err != nil {
			return err
		}
		if err := d.meta.SetPageIndexLocation(loc); err != nil {
			return err
		}
	}
	md, err := d.meta.Finish()
	if err != nil {
		return err
	}
	n, err := md.WriteTo(d.sink, nil)
	if err != nil {
		return err
	}
	if _, err := d.sink.Write(binary.LittleEndian.AppendUint32(nil, uint32(n))); err != nil {
		return err
	}
	_, err = d.sink.Write(magic)
	return err
}
