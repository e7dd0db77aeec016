package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// directFile writes the column chunks of a Parquet file straight from the
// Arrow records the Writer builds: levels from validity bitmaps and list
// offsets, plain values copied from the Arrow buffers, byte arrays through
// a dictionary where it pays, pages compressed into buffers reused from
// page to page and held until their chunk ends (direct_pages.go), the
// leaves of a record encoded at once (direct_parallel.go). It writes what
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
// the same page index and writer properties (direct_arrow.go): one writer
// per leaf, not per file.
type directFile struct {
	sink   *sink
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
	groups    int16
	pageCap   int
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

// newDirectFile is the directFile of records of arrowSchema, or nil when
// pqarrow is to write the file: a schema pqarrow cannot store (NewWriter
// names the column), a struct of no fields, or a leaf whose levels are
// not those leafPaths makes. A leaf of no leafKind, an Arrow dictionary of
// anything but text or binary, or one that pqarrow stores otherwise than
// as its Arrow values, is viaArrow. The caller writes the magic bytes.
func newDirectFile(arrowSchema *arrow.Schema, s *sink, props *parquet.WriterProperties, workers int) (*directFile, error) {
	pq, err := pqarrow.ToParquet(arrowSchema, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, nil // NewWriter names the column through pqarrow
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
	d := &directFile{
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

// AppendKeyValueMetadata adds a key/value pair to the footer.
func (d *directFile) AppendKeyValueMetadata(key, value string) error {
	return d.meta.AppendKeyValueMetadata(key, value)
}

// WriteBuffered adds the rows of rec to the current row group, starting
// one when there is none.
func (d *directFile) WriteBuffered(rec arrow.RecordBatch) error {
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

func (d *directFile) startRowGroup() error {
	if d.groups == math.MaxInt16 {
		return fmt.Errorf("more than %d row groups: Parquet's row group ordinals are int16", math.MaxInt16)
	}
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
func (d *directFile) NewBufferedRowGroupChecked() error {
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
func (d *directFile) Close() error {
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

func (d *directFile) close() error {
	if d.sink.err != nil {
		return d.sink.err
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

// leafKind is how a leaf column's Arrow values are laid out, which is how
// they are plain encoded.
type leafKind uint8

const (
	leafFixed4      leafKind = iota // 4-byte values: int32, uint32, float32, date32, time32
	leafFixed8                      // 8-byte values: int64, uint64, float64, timestamp, time64
	leafBool                        // bits
	leafBinary                      // int32 offsets into the value bytes
	leafLargeBinary                 // int64 offsets
	leafDecimal                     // 16-byte little-endian decimal128s, stored big-endian in flbaWidth bytes
)

// stepKind is a nesting level above a leaf.
type stepKind uint8

const (
	stepStruct stepKind = iota
	stepList
)

// step is one struct or list (a map is a list of its entries struct) on
// the way from a top-level column down to a leaf, bound to the array of
// the current record at that level.
type step struct {
	kind      stepKind
	nullable  bool
	large     bool  // a large list, of offsets64
	child     int   // the struct field the path goes down
	rep       int16 // a list's repetition level
	valid     []byte
	off       int
	offsets   []int32
	offsets64 []int64
}

// offset is offset i of a list step's array: where the child slots of
// its slot i start.
func (s *step) offset(i int) int {
	if s.large {
		return int(s.offsets64[s.off+i])
	}
	return int(s.offsets[s.off+i])
}

// span is the child slots [start, end) of slot i of a list step's array.
func (s *step) span(i int) (start, end int) {
	return s.offset(i), s.offset(i + 1)
}

// leafWriter writes one leaf column's chunk of the current row group.
type leafWriter struct {
	top      int           // the record's column the leaf is under
	index    int           // in the file's leaves
	took     time.Duration // to write the last record's rows (eachLeaf)
	steps    []step
	kind     leafKind
	row      *arrowtype.Row // of the values: an Arrow dictionary's value type
	dt       arrow.DataType
	nullable bool
	// arrowDict is a leaf of Arrow dictionary arrays: codes are the
	// current record's indices, whose values are in data and offs32 or
	// offs64 from slot voff on.
	arrowDict bool
	codes     arrowtype.DictionaryArray
	voff      int
	maxDef    int16
	maxRep    int16
	// flbaWidth is the size of a leafDecimal's FIXED_LEN_BYTE_ARRAY values:
	// the fewest bytes that hold its precision, as pqarrow stores them.
	flbaWidth int

	// viaArrow is a leaf whose values the direct writer does not encode
	// (decimals, int8 and int16, float16, fixed-size binary, Arrow
	// dictionaries of numbers…): its levels are made here, as for the
	// other leaves, and its values and pages by arrow-go's column writer,
	// column, from the leaf array, leafArr, of the current record, under
	// the file's writer properties and into the same row group.
	viaArrow bool
	column   file.ColumnChunkWriter
	arrowCtx context.Context // of column's writes, with the file's Arrow writer properties
	leafArr  arrow.Array
	allNull  bool   // leafArr is of the null type, whose slots are all null
	name     string // the record's column, which errors name

	descr    *schema.Column
	signed   bool
	stats    bool
	maxStats int
	// valueEncoding is the encoding of values not dictionary encoded:
	// plain, or BYTE_STREAM_SPLIT of fixed-width numbers.
	valueEncoding parquet.Encoding
	// bloom is the bloom filter of the column chunk when bloomOn and the
	// writer properties give its number of distinct values; else the
	// values' hashes are kept in bloomHashes, and the filter is made for
	// as many as are distinct when the chunk ends (finishBloom).
	bloomOn     bool
	bloom       metadata.BloomFilterBuilder
	bloomHasher metadata.Hasher
	bloomHashes []uint64
	bloomBits   []uint64 // distinctHashes' bitmap, reused from chunk to chunk

	// The leaf array of the current record.
	valid  []byte
	off    int
	data   []byte
	offs32 []int32
	offs64 []int64

	// The page being built, in pageBuffers.
	pageBuffers
	nvals   int // values present
	nlevels int
	nrows   int
	// rowsLeft is how many rows the row group is expected to take after
	// the page being ended (directFile's expect): its chunk grows for them.
	rowsLeft int
	// plain is the size of the page's values plain encoded while the
	// dictionary is undecided, which holds them as indices only.
	plain int

	// The column chunk: its metadata (its pages are held in
	// pageBuffers.chunk; a viaArrow leaf's by arrow-go's column writer),
	// and its column and offset index builders, nil when the page index is
	// off for the column.
	cc        *metadata.ColumnChunkMetaDataBuilder
	colIdx    metadata.ColumnIndexBuilder
	offIdx    *metadata.OffsetIndexBuilder
	chunkRows int64
	// pageStats is the min, max and null count of the page being built,
	// merged into chunkStats, the chunk's, when the page ends: arrow-go's
	// statistics (see encodedStats); nil when statistics are off.
	pageStats, chunkStats metadata.TypedStatistics

	dict      *byteDict // nil: plain
	dictLimit int
	// costFallback drops the dictionary of a chunk whose first page shows
	// it does not pay, as pqarrow's cost fallback does; without it (and
	// for an Arrow dictionary column) the dictionary is kept until full.
	costFallback bool
	dictState    dictState
	dictPages    bool // a page of the chunk is dictionary encoded: the chunk has a dictionary page
	fallback     bool // the dictionary was full, the pages after it are plain
}

// pageBuffers are the buffers a leafWriter builds its pages and holds
// its chunk in, grown to a page's and a chunk's size once, and its
// dictionary: kept from one file to the next (fileBuffers).
type pageBuffers struct {
	defs, reps []int16
	idx        []int32 // values present in the rows of a batch, nested
	values     []byte  // plain encoded
	indices    []uint32
	seen       []uint64 // the dictionary indices of the page built (firstInPage)
	chunk      chunkPages
	spareDict  *byteDict // a dictionary for the leaf, when its chunks have one
}

// pageScratch is where a page is encoded before a leaf holds it,
// compressed, in its chunk: one for each goroutine that encodes leaves
// (eachLeaf), not one per leaf.
type pageScratch struct {
	levels  []byte // a page's, encoded
	encoded []byte // a page's values dictionary encoded or split by byte streams
	page    []byte // the levels and values of a page, for codecs of one source
	snappy  []byte // a piece of a page compressed by appendSnappy
	header  []byte // a page's header
	// dictionary is a dictionary page plain; compressed, a page compressed
	// aside (chunkPages.hold) or a dictionary page compressed.
	dictionary, compressed []byte
}

// fileBuffers is the buffers of a closed file's leaves, in leaf order,
// and its page scratch, handed to the next file through spareFiles: a
// program writing file after file of one type allocates each column's
// buffers once, grown to what that column needs, not once a file, and
// leaf i takes back leaf i's (single leaves' buffers from a sync.Pool
// came back in another order, each column growing another's).
type fileBuffers struct {
	leaves  []pageBuffers
	scratch []pageScratch
	columns string // the file's leaf columns (directFile.columns)
}

var spareFiles spareList[*fileBuffers]

// takeBuffers gives the leaves and the file the buffers of a file closed
// before, if any.
func (d *directFile) takeBuffers() {
	columns := d.columns()
	fb, ok := spareFiles.take(func(fb *fileBuffers) bool { return fb.columns == columns })
	if !ok {
		return
	}
	for i, lw := range d.leaves {
		if i < len(fb.leaves) {
			lw.pageBuffers = fb.leaves[i]
		}
	}
	copy(d.scratch, fb.scratch)
}

// columns names the file's leaf columns and their types: the buffers of a
// file of the same columns are the first a file takes (takeBuffers).
func (d *directFile) columns() string {
	var b strings.Builder
	for _, lw := range d.leaves {
		fmt.Fprintf(&b, "%s %s;", lw.descr.Path(), lw.descr.PhysicalType())
	}
	return b.String()
}

// releaseBuffers hands the leaves' buffers and the file's to the next
// file, empty: a file closed after its io.Writer failed leaves a page
// built and pages held, which are not the next file's.
func (d *directFile) releaseBuffers() {
	fb := &fileBuffers{leaves: make([]pageBuffers, len(d.leaves)), columns: d.columns()}
	for i, lw := range d.leaves {
		b := lw.pageBuffers
		b.defs, b.reps, b.idx, b.values, b.indices = b.defs[:0], b.reps[:0], b.idx[:0], b.values[:0], b.indices[:0]
		clear(b.seen)
		b.chunk.reset()
		if lw.dict != nil {
			b.spareDict = lw.dict
		}
		fb.leaves[i] = b
		lw.pageBuffers, lw.dict = pageBuffers{}, nil
	}
	fb.scratch, d.scratch = d.scratch, nil
	spareFiles.put(fb)
}

type dictState uint8

const (
	dictUndecided dictState = iota // the first page decides
	dictOn
	dictOff
)

// leafPaths appends the leaves under field f (the record's column top),
// below the steps given, reporting false for a type it does not write (a
// struct of no fields). A leaf of a type of no leafKind, or an Arrow
// dictionary of anything but text or binary, is viaArrow.
func leafPaths(f arrow.Field, top int, steps []step, out *[]*leafWriter) bool {
	switch r := arrowtype.OfType(f.Type); {
	case r.Layout == arrowtype.Struct:
		t := f.Type.(arrow.NestedType)
		for j, cf := range t.Fields() {
			s := append(steps[:len(steps):len(steps)], step{kind: stepStruct, nullable: f.Nullable, child: j})
			if !leafPaths(cf, top, s, out) {
				return false
			}
		}
		return len(t.Fields()) > 0
	case r.Layout == arrowtype.List || r.Map:
		// A map is a list of its entries, a struct of the key and the
		// value: the levels of Parquet's MAP group.
		rep := int16(1)
		for _, s := range steps {
			if s.kind == stepList {
				rep++
			}
		}
		s := append(steps[:len(steps):len(steps)], step{kind: stepList, nullable: f.Nullable, large: r.Large, rep: rep})
		return leafPaths(f.Type.(arrow.ListLikeType).ElemField(), top, s, out)
	}
	dt, arrowDict := f.Type, arrowtype.OfType(f.Type).Layout == arrowtype.Dictionary
	if arrowDict {
		dt, _ = arrowtype.Encoded(dt)
	}
	row := arrowtype.OfType(dt)
	kind, ok := leafKindOf(row)
	lw := &leafWriter{top: top, steps: steps, kind: kind, row: row, dt: dt, nullable: f.Nullable, arrowDict: arrowDict}
	if kind == leafDecimal {
		precision, _, _ := arrowtype.Precision(dt)
		lw.flbaWidth = int(pqarrow.DecimalSize(precision))
	}
	if !ok || (arrowDict && kind != leafBinary && kind != leafLargeBinary) {
		// arrow-go's column writer writes it (newDirectFile), from the
		// Arrow array as it is: the dictionary array, not its values.
		lw.viaArrow, lw.arrowDict = true, false
	}
	for _, s := range steps {
		if s.nullable {
			lw.maxDef++
		}
		if s.kind == stepList {
			lw.maxDef++
			lw.maxRep++
		}
	}
	if f.Nullable {
		lw.maxDef++
	}
	*out = append(*out, lw)
	return true
}

// width is the size of a fixed-width plain value, 0 for byte arrays.
func (lw *leafWriter) width() int {
	switch lw.kind {
	case leafFixed4:
		return 4
	case leafFixed8:
		return 8
	case leafDecimal:
		return lw.flbaWidth
	}
	return 0
}

// leafKindOf is the layout of the Arrow leaf types whose buffers hold
// their Parquet plain values as they are: bools, strings and binaries, and
// the 32- and 64-bit integers and floats with the temporal types stored as
// them (date32, times of day, timestamps); and decimal128s, whose plain
// values are their bytes reversed and cut to the precision. Date64 is
// stored as days, and durations and the other widths are left to arrow-go's
// column writers.
func leafKindOf(r *arrowtype.Row) (leafKind, bool) {
	if r.Decimal && r.Value == arrowtype.Decimal128 && r.Layout == arrowtype.Fixed {
		return leafDecimal, true
	}
	switch r.Layout {
	case arrowtype.Boolean:
		return leafBool, true
	case arrowtype.Binary:
		if r.Large {
			return leafLargeBinary, true
		}
		return leafBinary, true
	case arrowtype.Fixed:
		stored := r.Integer || r.Float || r.Temporal == arrowtype.TimeOfDay || r.Temporal == arrowtype.Timestamp ||
			(r.Temporal == arrowtype.Date && r.Bytes == 4)
		if !stored {
			return 0, false
		}
		switch r.Value {
		case arrowtype.Int32, arrowtype.Uint32, arrowtype.Float32:
			return leafFixed4, true
		case arrowtype.Int64, arrowtype.Uint64, arrowtype.Float64:
			return leafFixed8, true
		}
	}
	return 0, false
}

// fits reports whether col, pqarrow's Parquet column for the leaf, stores
// the leaf's Arrow values unchanged: the physical type of its layout, the
// levels of its nesting, and for temporal types the same unit (pqarrow
// converts seconds to milliseconds).
func (lw *leafWriter) fits(col *schema.Column) bool {
	if int16(col.MaxDefinitionLevel()) != lw.maxDef || int16(col.MaxRepetitionLevel()) != lw.maxRep {
		return false
	}
	want := map[leafKind]parquet.Type{
		leafFixed4: parquet.Types.Int32, leafFixed8: parquet.Types.Int64, leafBool: parquet.Types.Boolean,
		leafBinary: parquet.Types.ByteArray, leafLargeBinary: parquet.Types.ByteArray,
		leafDecimal: parquet.Types.FixedLenByteArray,
	}[lw.kind]
	if lw.row.Float && lw.kind == leafFixed4 {
		want = parquet.Types.Float
	} else if lw.row.Float {
		want = parquet.Types.Double
	}
	if col.PhysicalType() != want {
		return false
	}
	if lw.kind == leafDecimal {
		_, ok := col.LogicalType().(schema.DecimalLogicalType)
		return ok && col.TypeLength() == lw.flbaWidth
	}
	unitOf := map[arrow.TimeUnit]schema.TimeUnitType{arrow.Millisecond: schema.TimeUnitMillis, arrow.Microsecond: schema.TimeUnitMicros, arrow.Nanosecond: schema.TimeUnitNanos}
	unit, _ := arrowtype.Unit(lw.dt)
	u, known := unitOf[unit]
	switch lw.row.Temporal {
	case arrowtype.Timestamp:
		lt, ok := col.LogicalType().(schema.TimestampLogicalType)
		return ok && known && lt.TimeUnit() == u
	case arrowtype.TimeOfDay:
		lt, ok := col.LogicalType().(schema.TimeLogicalType)
		return ok && known && lt.TimeUnit() == u
	}
	return true
}

// bind points the steps and the leaf at their arrays in col, a column of
// the current record. A dictionary holding a null is refused: the Builder
// makes none, and its slots would be null values with valid indices.
func (lw *leafWriter) bind(col arrow.Array) error {
	a := col
	for k := range lw.steps {
		s := &lw.steps[k]
		s.valid, s.off = validity(a)
		switch s.kind {
		case stepStruct:
			a = a.(arrowtype.StructArray).Field(s.child)
		case stepList:
			l := a.(array.ListLike)
			s.offsets, s.offsets64 = nil, nil
			if b := l.Data().Buffers()[1]; b != nil && s.large {
				s.offsets64 = arrow.Int64Traits.CastFromBytes(b.Bytes())
			} else if b != nil {
				s.offsets = arrow.Int32Traits.CastFromBytes(b.Bytes())
			}
			a = l.ListValues()
		}
	}
	lw.valid, lw.off = validity(a)
	if lw.viaArrow {
		lw.leafArr, lw.allNull = a, a.DataType().ID() == arrow.NULL
		return nil
	}
	lw.codes, lw.voff = nil, 0
	if lw.arrowDict {
		lw.codes = a.(arrowtype.DictionaryArray)
		a = lw.codes.Dictionary()
		if a.NullN() > 0 {
			return fmt.Errorf("column %s: a dictionary holding a null", lw.descr.Path())
		}
		lw.voff = a.Data().Offset()
	}
	buf := a.Data().Buffers()
	switch lw.kind {
	case leafFixed4, leafFixed8, leafBool, leafDecimal:
		lw.data = nil
		if buf[1] != nil {
			lw.data = buf[1].Bytes()
		}
	case leafBinary:
		lw.offs32, lw.data = nil, nil
		if buf[1] != nil {
			lw.offs32 = arrow.Int32Traits.CastFromBytes(buf[1].Bytes())
		}
		if buf[2] != nil {
			lw.data = buf[2].Bytes()
		}
	case leafLargeBinary:
		lw.offs64, lw.data = nil, nil
		if buf[1] != nil {
			lw.offs64 = arrow.Int64Traits.CastFromBytes(buf[1].Bytes())
		}
		if buf[2] != nil {
			lw.data = buf[2].Bytes()
		}
	}
	return nil
}

// validity is a's validity bitmap and offset, a nil bitmap when a has no
// nulls or none (an array of the null type, which bind tells apart).
func validity(a arrow.Array) ([]byte, int) {
	if bufs := a.Data().Buffers(); a.NullN() == 0 || len(bufs) == 0 || bufs[0] == nil {
		return nil, a.Data().Offset()
	}
	return a.Data().Buffers()[0].Bytes(), a.Data().Offset()
}

func bitSet(b []byte, i int) bool { return b[i>>3]&(1<<(i&7)) != 0 }

// rowsPerStep is the most rows that go to a page between checks of its
// size; fewer when their values would overfill the page or the dictionary
// (stepEnd).
const rowsPerStep = 1024

func (lw *leafWriter) startChunk() {
	lw.chunk.reset()
	lw.chunkRows = 0
	if lw.stats {
		if lw.chunkStats == nil {
			// Go's heap, not the writer's allocator: the statistics keep a
			// plain encoder (for EncodeMin and EncodeMax) they never release.
			lw.chunkStats = metadata.NewStatistics(lw.descr, memory.DefaultAllocator)
			lw.pageStats = metadata.NewStatistics(lw.descr, memory.DefaultAllocator)
		} else {
			lw.chunkStats.Reset()
			lw.pageStats.Reset()
		}
		lw.chunkStats.IncNulls(0) // Reset forgets that nulls are counted
	}
	lw.dictPages, lw.fallback = false, false
	lw.dictState = dictOff
	if lw.dict != nil {
		lw.dict.reset()
		lw.dictState = dictUndecided
		if lw.arrowDict || !lw.costFallback {
			lw.dictState = dictOn // the dict tag asks for it: no cost fallback
		}
	}
}

// writeRows adds the n rows of the bound arrays to the chunk, a page at
// a time, encoded in sc.
func (lw *leafWriter) writeRows(d *directFile, sc *pageScratch, n int) error {
	for a := 0; a < n; {
		b, fits := lw.stepEnd(d, a, n)
		if !fits {
			if lw.nlevels == 0 {
				return &mapper.Error{Column: lw.descr.Path(), Row: -1, Err: fmt.Errorf("%w: a row of more than %d bytes, past Parquet's int32 page sizes", mapper.ErrUnsupported, math.MaxInt32)}
			}
			lw.rowsLeft = int(d.expect) - a
			if err := lw.flushPage(d, sc); err != nil { // row a is a page of its own
				return err
			}
			continue
		}
		lw.reserve(d, a, b)
		if len(lw.steps) == 0 {
			lw.flatRows(a, b)
		} else {
			lw.idx = lw.idx[:0]
			for i := a; i < b; i++ {
				lw.emit(0, i, 0, 0)
			}
			lw.nrows += b - a
			lw.appendValues(0, 0, lw.idx)
		}
		if lw.dictState == dictUndecided && len(lw.indices) >= dictProbeValues && 100*lw.dict.len() >= 99*len(lw.indices) {
			lw.dropDictionary() // unique values: the first page would not pay
		}
		if lw.pageBytes() >= d.pageCap || (lw.dictState != dictOff && lw.dict.plainBytes() >= lw.dictLimit) {
			lw.rowsLeft = int(d.expect) - b
			if err := lw.flushPage(d, sc); err != nil {
				return err
			}
		}
		a = b
	}
	return nil
}

// reserve grows the page's buffers for the levels and values of rows
// [a, b) (of a nested leaf, for at least as many levels as slots) before
// they are added: a buffer that grows, for the rows the page is expected
// to take (ahead, growFor).
func (lw *leafWriter) reserve(d *directFile, a, b int) {
	s, e := lw.slots(a, b)
	n := e - s
	levels := max(n, b-a)
	ahead := lw.ahead(d, a, b)
	if lw.maxDef > 0 {
		lw.defs = growFor(lw.defs, levels, ahead)
	}
	if lw.maxRep > 0 {
		lw.reps = growFor(lw.reps, levels, ahead)
	}
	lw.idx = grow(lw.idx[:0], n)
	switch lw.kind {
	case leafBool:
		lw.values = growFor(lw.values, n/8+1, ahead)
		return
	case leafBinary, leafLargeBinary:
		if lw.dictState == dictOff {
			lw.values = growFor(lw.values, lw.byteSpan(s, e)+4*n, ahead)
		}
	default:
		if lw.dictState == dictOff {
			lw.values = growFor(lw.values, lw.width()*n, ahead)
		} else {
			lw.values = grow(lw.values, lw.width()*n) // copied, then held as indices
		}
	}
	if lw.dictState != dictOff {
		lw.indices = growFor(lw.indices, n, ahead)
	}
}

// ahead is how many times the page built is expected to take as much as
// rows [a, b) add to it, these included: as many rows as the page has room
// for, but no more than the row group is expected to take (directFile's
// expect, at least these rows). The page's buffers grow for as much at
// once.
func (lw *leafWriter) ahead(d *directFile, a, b int) float64 {
	rows := b - a
	left := max(int(d.expect)-a, rows)
	if page, _ := lw.cost(a, b); page > 0 {
		left = min(left, max(rows, rows*(d.pageCap-lw.pageBytes())/page))
	}
	return float64(left) / float64(rows)
}

// growFor returns s with room for n more elements and, when it grows, for
// about n×ahead more (what the page is expected to take), and at least a
// quarter more than it had: the buffers of a file's first pages grow once,
// to their size, where doubling them allocates their size again.
func growFor[S ~[]E, E any](s S, n int, ahead float64) S {
	if n <= cap(s)-len(s) {
		return s
	}
	c := max(len(s)+n, len(s)+int(float64(n)*ahead*9/8), cap(s)+cap(s)/4)
	return append(make(S, 0, c), s...)
}

// grow returns s with room for n more elements, its capacity at least
// doubled when it grows: append grows a slice past a few hundred elements
// by a quarter, which allocates five times a page's buffers before they
// reach a page's size, the garbage a writer's heap peaks with.
func grow[S ~[]E, E any](s S, n int) S {
	if n <= cap(s)-len(s) {
		return s
	}
	return append(make(S, 0, max(2*cap(s), len(s)+n)), s...)
}

// stepEnd is the end of the step of rows from a (of the bound n): at most
// rowsPerStep rows, and no more than the page being built and the
// dictionary have room for, but at least one row. So a data page stays
// under the page size but for a row larger than the page, which is a page
// of its own (fits is false when row a does not fit in the page built,
// which is to be written first, or is past a page's int32 sizes), and a
// dictionary page exceeds the dictionary page size limit by at most the
// values of one row.
func (lw *leafWriter) stepEnd(d *directFile, a, n int) (b int, fits bool) {
	b = min(n, a+rowsPerStep)
	pageRoom, dictRoom := d.pageCap-lw.pageBytes(), math.MaxInt
	if lw.dictState != dictOff {
		dictRoom = lw.dictLimit - lw.dict.plainBytes()
	}
	if page, dict := lw.cost(a, b); page < pageRoom && dict < dictRoom {
		return b, true
	}
	for i := a; i < b; i++ {
		page, dict := lw.cost(i, i+1)
		switch {
		case page > pageRoom && i > a:
			return i, true // row i starts the next page
		case page > pageRoom && (lw.nlevels > 0 || page > math.MaxInt32):
			return a, false
		}
		pageRoom -= page
		dictRoom -= dict
		if pageRoom <= 0 || dictRoom <= 0 {
			return i + 1, true
		}
	}
	return b, true
}

// cost is at most what rows [a, b) add to pageBytes and to the
// dictionary's plainBytes: every value counted, null or not, and every
// value as new to the dictionary.
func (lw *leafWriter) cost(a, b int) (page, dict int) {
	s, e := lw.slots(a, b)
	n := e - s
	levels := 0
	if lw.maxDef > 0 {
		levels += 2
	}
	if lw.maxRep > 0 {
		levels += 2
	}
	page = levels * max(n, b-a)
	switch lw.kind {
	case leafBool:
		page += n/8 + 1
	default:
		plain := lw.width() * n
		if plain == 0 {
			plain = lw.byteSpan(s, e) + 4*n
		}
		switch lw.dictState {
		case dictOn:
			page, dict = page+4*n, plain
		case dictUndecided:
			page, dict = page+4*n+plain, plain
		default:
			page += plain
		}
	}
	return page, dict
}

// slots is the leaf slots [s, e) under rows [a, b) of the bound arrays.
func (lw *leafWriter) slots(a, b int) (s, e int) {
	for k := range lw.steps {
		st := &lw.steps[k]
		if st.kind == stepList {
			a, b = st.offset(a), st.offset(b)
		}
	}
	return a, b
}

// byteSpan is the size of the byte-array values of leaf slots [s, e).
func (lw *leafWriter) byteSpan(s, e int) int {
	if s == e {
		return 0 // an empty array may have no offsets
	}
	if lw.codes == nil {
		if lw.kind == leafBinary {
			return int(lw.offs32[lw.off+e] - lw.offs32[lw.off+s])
		}
		return int(lw.offs64[lw.off+e] - lw.offs64[lw.off+s])
	}
	n := 0
	for i := s; i < e; i++ {
		if !lw.codes.IsNull(i) {
			n += len(lw.binValue(i))
		}
	}
	return n
}

// binValue is the byte-array value of leaf slot i.
func (lw *leafWriter) binValue(i int) []byte {
	j := lw.off + i
	if lw.codes != nil {
		j = lw.voff + lw.codes.GetValueIndex(i)
	}
	if lw.kind == leafBinary {
		return lw.data[lw.offs32[j]:lw.offs32[j+1]]
	}
	return lw.data[lw.offs64[j]:lw.offs64[j+1]]
}

// decideDictionary keeps the chunk's dictionary when the dictionary and the
// indices of the first page are smaller than its values plain, and drops
// it for the rest of the chunk otherwise (the page is written plain: its
// plain values are kept beside the indices until it is decided), as
// parquet-mr decides on its first page. The first page, not the first
// rows: keys and dates that repeat across a row group may be distinct in
// its first thousand rows (TPC-H's l_partkey and dates).
func (lw *leafWriter) decideDictionary() {
	if lw.dict.plainBytes()+(len(lw.indices)*indexWidth(lw.dict.len())+7)/8 < lw.plain {
		lw.dictState, lw.plain = dictOn, 0
		return
	}
	lw.dropDictionary()
}

// dictProbeValues is how many values of a chunk's first page show that
// they are unique, when 99% of them are distinct, and its dictionary is
// dropped before the page ends: the first page of unique ids or names
// would not pay, and hashing a whole page of them into a dictionary to be
// dropped doubled the writer's time on bench's flat rows. A column of
// N distinct values drawn at random has 99% of its first 16,384 distinct
// only when N is past about 800,000, more than a row group's rows; one
// whose values cycle with a period past 16,384 rows (each value once per
// period) keeps no dictionary that would have paid.
const dictProbeValues = 16 << 10

// dropDictionary makes the chunk plain encoded from here on: the values
// of the page built, held as their indices while the dictionary was
// undecided, plain again.
func (lw *leafWriter) dropDictionary() {
	lw.dictState = dictOff
	lw.values = lw.dict.appendPlainOf(grow(lw.values, lw.plain), lw.indices)
	lw.plain = 0
	lw.dict.reset()
	lw.indices = lw.indices[:0]
}

// pageBytes is the memory the page being built holds: its levels and
// dictionary indices as the int16s and uint32s they are until the page is
// encoded, and its plain values (held as indices while the dictionary is
// undecided, counted as the values they are to be if it is dropped). The
// page ends when that reaches the page size rather than when its encoding
// would: a page of levels and indices of a few bits each would otherwise
// hold a million of them (8 MiB for a list of text) before reaching 1 MiB
// encoded.
func (lw *leafWriter) pageBytes() int {
	return len(lw.values) + lw.plain + 2*(len(lw.defs)+len(lw.reps)) + 4*len(lw.indices)
}

// flatRows adds rows [a, b) of a top-level leaf.
func (lw *leafWriter) flatRows(a, b int) {
	lw.nrows += b - a
	lw.nlevels += b - a
	if !lw.nullable {
		lw.appendValues(a, b, nil)
		return
	}
	if lw.valid == nil {
		for range b - a {
			lw.defs = append(lw.defs, 1)
		}
		lw.appendValues(a, b, nil)
		return
	}
	lw.idx = lw.idx[:0]
	for i := a; i < b; i++ {
		if bitSet(lw.valid, lw.off+i) {
			lw.defs = append(lw.defs, 1)
			lw.idx = append(lw.idx, int32(i))
		} else {
			lw.defs = append(lw.defs, 0)
		}
	}
	lw.appendValues(0, 0, lw.idx)
}

// emit adds the levels of slot i of step k's array (the leaf's when k is
// past the steps), whose parents gave it def and rep.
func (lw *leafWriter) emit(k, i int, def, rep int16) {
	if k == len(lw.steps) {
		if lw.nullable {
			if lw.allNull || (lw.valid != nil && !bitSet(lw.valid, lw.off+i)) {
				lw.level(def, rep)
				return
			}
			def++
		}
		lw.level(def, rep)
		lw.idx = append(lw.idx, int32(i))
		return
	}
	s := &lw.steps[k]
	if s.nullable {
		if s.valid != nil && !bitSet(s.valid, s.off+i) {
			lw.level(def, rep)
			return
		}
		def++
	}
	switch s.kind {
	case stepStruct:
		lw.emit(k+1, i, def, rep)
	case stepList:
		start, end := s.span(i)
		if start == end {
			lw.level(def, rep)
			return
		}
		for j := start; j < end; j++ {
			lw.emit(k+1, j, def+1, rep)
			rep = s.rep
		}
	}
}

func (lw *leafWriter) level(def, rep int16) {
	if lw.maxDef > 0 {
		lw.defs = append(lw.defs, def)
	}
	if lw.maxRep > 0 {
		lw.reps = append(lw.reps, rep)
	}
	lw.nlevels++
}

// appendValues adds the leaf values of slots [a, b), or of idx when not
// nil, to the page and the statistics.
func (lw *leafWriter) appendValues(a, b int, idx []int32) {
	n := b - a
	if idx != nil {
		n = len(idx)
		// idx increases strictly (slots in order): its last less its first
		// is n-1 only when it is every slot between them, which is copied
		// as a range (a leaf with no nulls under lists and structs).
		if n > 0 && int(idx[n-1]-idx[0]) == n-1 {
			a, b, idx = int(idx[0]), int(idx[n-1])+1, nil
		}
	}
	if n == 0 {
		return
	}
	lw.nvals += n
	switch lw.kind {
	case leafFixed4, leafFixed8:
		w := 4
		if lw.kind == leafFixed8 {
			w = 8
		}
		start := len(lw.values)
		if idx == nil {
			lw.values = append(lw.values, lw.data[(lw.off+a)*w:(lw.off+b)*w]...)
		} else {
			for _, i := range idx {
				p := (lw.off + int(i)) * w
				lw.values = append(lw.values, lw.data[p:p+w]...)
			}
		}
		if lw.stats {
			lw.fixedStats(lw.values[start:])
		}
		if lw.bloomOn {
			lw.bloomFixed(lw.values[start:], w)
		}
		if lw.dictState != dictOff {
			lw.fixedIndices(start, w)
		}
	case leafDecimal:
		start := len(lw.values)
		if idx == nil {
			for i := a; i < b; i++ {
				lw.appendDecimal(i)
			}
		} else {
			for _, i := range idx {
				lw.appendDecimal(int(i))
			}
		}
		if lw.stats {
			lw.decimalStats(a, b, idx)
		}
		if lw.dictState != dictOff {
			lw.fixedIndices(start, lw.flbaWidth)
		}
	case leafBool:
		for k := range n {
			i := a + k
			if idx != nil {
				i = int(idx[k])
			}
			v := bitSet(lw.data, lw.off+i)
			bit := lw.nvals - n + k
			if bit&7 == 0 {
				lw.values = append(lw.values, 0)
			}
			if v {
				lw.values[bit>>3] |= 1 << (bit & 7)
			}
		}
		if lw.stats {
			lw.pageStats.(*metadata.BooleanStatistics).UpdateFromBitmap(lw.values, int64(lw.nvals-n), int64(n), 0)
		}
	case leafBinary, leafLargeBinary:
		var r byteRange
		for k := range n {
			i := a + k
			if idx != nil {
				i = int(idx[k])
			}
			v := lw.binValue(i)
			if lw.bloomOn {
				lw.bloomInsert(lw.bloomHasher.Sum64(v))
			}
			code, coded := lw.byteValue(v)
			if lw.stats && (!coded || lw.firstInPage(code)) {
				r.add(v)
			}
		}
		if lw.stats {
			st := lw.pageStats.(*metadata.ByteArrayStatistics)
			st.IncNumValues(int64(n))
			if r.some {
				st.SetMinMax(r.min, r.max)
			}
		}
	}
}

// byteRange is the least and the greatest of byte arrays, as Parquet
// orders them (unsigned bytes, shorter first): what a page's statistics
// merge of its values, which are merged by arrow-go's SetMinMax a step of
// rows at a time rather than compared there value by value (its Update
// calls two functions a value, a tenth of the writer's time on TPC-H's
// text columns).
type byteRange struct {
	min, max []byte
	some     bool
}

func (r *byteRange) add(v []byte) {
	switch {
	case !r.some:
		r.min, r.max, r.some = v, v, true
	case bytes.Compare(v, r.min) < 0:
		r.min = v
	case bytes.Compare(v, r.max) > 0:
		r.max = v
	}
}

// firstInPage reports whether code, a dictionary index, is the first of
// its value in the page built, marking it: the page's statistics compare
// each distinct value once (a column of a few statuses, a few values a
// page).
func (lw *leafWriter) firstInPage(code uint32) bool {
	w, bit := int(code>>6), uint64(1)<<(code&63)
	if w >= len(lw.seen) {
		lw.seen = append(lw.seen, make([]uint64, max(w+1-len(lw.seen), len(lw.seen)))...)
	}
	if lw.seen[w]&bit != 0 {
		return false
	}
	lw.seen[w] |= bit
	return true
}

// fixedIndices adds the dictionary indices of the plain values from start
// on, just added, which the page keeps only while the dictionary is
// undecided.
func (lw *leafWriter) fixedIndices(start, w int) {
	vals := lw.values[start:]
	for k := 0; k < len(vals); k += w {
		lw.indices = append(lw.indices, lw.dict.index(vals[k:k+w]))
	}
	if lw.dictState == dictUndecided {
		lw.plain += len(vals)
	}
	lw.values = lw.values[:start] // held as indices (dropDictionary makes them again)
}

// byteValue adds the byte array v to the page: its dictionary index, which
// it returns (coded), or its plain value.
func (lw *leafWriter) byteValue(v []byte) (code uint32, coded bool) {
	if lw.dictState != dictOff {
		code = lw.dict.index(v)
		lw.indices = append(lw.indices, code)
		if lw.dictState == dictUndecided {
			lw.plain += 4 + len(v)
		}
		return code, true
	}
	lw.values = binary.LittleEndian.AppendUint32(lw.values, uint32(len(v)))
	lw.values = append(lw.values, v...)
	return 0, false
}

// appendDecimal appends the plain value of leaf slot i, a decimal128: its
// 16 little-endian bytes big-endian, the last flbaWidth of them (the value
// fits its precision, which fits them), as pqarrow writes it.
func (lw *leafWriter) appendDecimal(i int) {
	p := (lw.off + i) * 16
	var be [16]byte
	binary.BigEndian.PutUint64(be[:8], binary.LittleEndian.Uint64(lw.data[p+8:p+16]))
	binary.BigEndian.PutUint64(be[8:], binary.LittleEndian.Uint64(lw.data[p:p+8]))
	lw.values = append(lw.values, be[16-lw.flbaWidth:]...)
}

// decimalStats merges the least and the greatest of the decimal128s of
// slots [a, b), or of idx when not nil, into the page's statistics: found
// as the numbers they are, merged as their plain values (which order as
// signed FIXED_LEN_BYTE_ARRAYs order the same) by arrow-go's SetMinMax,
// rather than arrow-go's comparisons of every value's bytes (a tenth of
// the writer's time on TPC-H's four decimal columns).
func (lw *leafWriter) decimalStats(a, b int, idx []int32) {
	at := func(k int) (hi int64, lo uint64) {
		p := (lw.off + k) * 16
		return int64(binary.LittleEndian.Uint64(lw.data[p+8:])), binary.LittleEndian.Uint64(lw.data[p:])
	}
	first := a
	if idx != nil {
		first = int(idx[0])
	}
	minHi, minLo := at(first)
	maxHi, maxLo := minHi, minLo
	n := b - a
	if idx != nil {
		n = len(idx)
	}
	for k := range n {
		i := a + k
		if idx != nil {
			i = int(idx[k])
		}
		hi, lo := at(i)
		if hi < minHi || (hi == minHi && lo < minLo) {
			minHi, minLo = hi, lo
		}
		if hi > maxHi || (hi == maxHi && lo > maxLo) {
			maxHi, maxLo = hi, lo
		}
	}
	var minV, maxV [16]byte
	binary.BigEndian.PutUint64(minV[:8], uint64(minHi))
	binary.BigEndian.PutUint64(minV[8:], minLo)
	binary.BigEndian.PutUint64(maxV[:8], uint64(maxHi))
	binary.BigEndian.PutUint64(maxV[8:], maxLo)
	st := lw.pageStats.(*metadata.FixedLenByteArrayStatistics)
	st.IncNumValues(int64(n))
	st.SetMinMax(minV[16-lw.flbaWidth:], maxV[16-lw.flbaWidth:])
}

// fixedStats merges the min and max of vals, the plain values just added.
func (lw *leafWriter) fixedStats(vals []byte) {
	switch st := lw.pageStats.(type) {
	case *metadata.Int32Statistics: // and uint32, by the column's sort order
		st.Update(castBytes[int32](vals), 0)
	case *metadata.Int64Statistics:
		st.Update(castBytes[int64](vals), 0)
	case *metadata.Float32Statistics:
		st.Update(castBytes[float32](vals), 0)
	case *metadata.Float64Statistics:
		st.Update(castBytes[float64](vals), 0)
	}
}

// castBytes is b as a slice of T: plain values are little-endian, as the
// machines arrow-go runs on.
func castBytes[T any](b []byte) []T {
	var zero T
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(zero)))
}

// encodedStats is st, the statistics of a page or a chunk, as the page
// header, the column index or the footer stores them, as pqarrow's column
// writer makes them: arrow-go's statistics of the values (NaNs skipped, a
// zero min is -0 and a zero max +0, as parquet-mr's), the nulls counted by
// the levels, cut to the size limit. arrow-go's statistics
// cost the direct writer 2–4% of its time and 460 allocations a file over
// the hand-written min and max they replaced (bench/RESULTS.md, "Direct
// writer statistics: hand vs metadata.Statistics"): one implementation of
// Parquet's ordering rules, arrow-go's, is worth that.
func (lw *leafWriter) encodedStats(st metadata.TypedStatistics) (metadata.EncodedStatistics, error) {
	enc, err := st.Encode()
	if err != nil {
		return enc, fmt.Errorf("statistics of column %s: %w", lw.descr.Path(), err)
	}
	enc.ApplyStatSizeLimits(lw.maxStats)
	enc.Signed = lw.signed
	return enc, nil
}

// endPageStats is the statistics of the page built, whose nulls (null
// values, null or empty parents) are nulls, merged into the chunk's.
func (lw *leafWriter) endPageStats(nulls int64) (metadata.EncodedStatistics, error) {
	if !lw.stats {
		return metadata.EncodedStatistics{}, nil
	}
	lw.pageStats.IncNulls(nulls)
	enc, err := lw.encodedStats(lw.pageStats)
	lw.chunkStats.Merge(lw.pageStats)
	lw.pageStats.Reset()
	return enc, err
}

// flushPage ends the page built: encoded, compressed and held in the
// chunk (chunkPages) until the chunk ends.
func (lw *leafWriter) flushPage(d *directFile, sc *pageScratch) error {
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
func (d *directFile) pageBound(n int) int {
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
func (d *directFile) appendPage(dst []byte, sc *pageScratch, levels, values []byte) []byte {
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
func (lw *leafWriter) closeChunk(d *directFile) error {
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
func (lw *leafWriter) writeChunk(d *directFile) error {
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
