package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
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
// page to page. It writes what pqarrow writes for the same record (the
// same Parquet schema from pqarrow.ToParquet, the same column chunk
// statistics, the Arrow schema in the key/value metadata) at a fraction of
// the allocations: pqarrow's column writers allocate a few hundred MiB per
// million rows (encoder buffers from a sync.Pool that the collector
// empties, a buffer grown for every page, a closure for every dictionary
// lookup), and the collector scanning the caller's rows is what then
// costs the time. It covers the columns of newDirectFile's leafKindOf
// under structs and lists; a schema with another column is written by
// pqarrow.
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

	closed   bool
	closeErr error
}

// newDirectFile is the directFile of records of arrowSchema, or nil when
// a column is not one it writes (pqarrow writes those): a type of no
// leafKind, a Parquet dictionary of numbers, an Arrow dictionary of
// anything but text or binary. The caller writes the magic bytes.
func newDirectFile(arrowSchema *arrow.Schema, s *sink, props *parquet.WriterProperties) (*directFile, error) {
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
	for i, lw := range leaves {
		col := pq.Column(i)
		if !lw.fits(col) || !directEncodes(lw, props, col.Path()) {
			return nil, nil
		}
		lw.descr = col
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
			if spare, ok := spareDicts.Get().(*byteDict); ok {
				lw.dict = spare // reset by startChunk
			} else {
				lw.dict = newByteDict()
			}
			lw.dict.width = lw.width()
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
	if props.PageIndexEnabled() {
		d.pageIndex = &metadata.PageIndexBuilder{Schema: pq}
	}
	for _, lw := range leaves {
		lw.takeBuffers()
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
		if err := lw.writeRows(d, int(rec.NumRows())); err != nil {
			return err
		}
	}
	d.rgRows += rec.NumRows()
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
		pager, err := file.NewPageWriter(d.sink, d.props.Compression(), d.level, lw.cc, d.groups, int16(i), d.props.Allocator(), true, nil, nil)
		if err != nil {
			return err
		}
		if d.pageIndex != nil && d.props.PageIndexEnabledFor(lw.descr.Path()) {
			colIdx, err := d.pageIndex.GetColumnIndexBuilder(i)
			if err != nil {
				return err
			}
			offIdx, err := d.pageIndex.GetOffsetIndexBuilder(i)
			if err != nil {
				return err
			}
			pager.SetIndexBuilders(colIdx, offIdx)
		}
		lw.startChunk(pager)
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
	for _, lw := range d.leaves {
		if err := lw.closeChunk(d); err != nil {
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
			lw.releaseBuffers()
			lw.bloom = nil
		}
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
)

// stepKind is a nesting level above a leaf.
type stepKind uint8

const (
	stepStruct stepKind = iota
	stepList
)

// step is one struct or list on the way from a top-level column down to a
// leaf, bound to the array of the current record at that level.
type step struct {
	kind     stepKind
	nullable bool
	child    int   // the struct field the path goes down
	rep      int16 // a list's repetition level
	valid    []byte
	off      int
	offsets  []int32
}

// leafWriter writes one leaf column's chunk of the current row group.
type leafWriter struct {
	top      int // the record's column the leaf is under
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
	plain   int // size of the values plain encoded, with a dictionary

	// The column chunk.
	pager     file.PageWriter
	cc        *metadata.ColumnChunkMetaDataBuilder
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
	dictPage     bool // a dictionary page was written in this chunk
	fallback     bool
}

// pageBuffers are the buffers a leafWriter builds its pages in, grown to
// a page's size once, and handed from one file's leafWriter to the next
// one's through spareBuffers: writing file after file, a column allocates
// them once, not once a file.
type pageBuffers struct {
	defs, reps []int16
	idx        []int32 // values present in the rows of a batch, nested
	values     []byte  // plain encoded
	indices    []uint32
	byteVals   []parquet.ByteArray // a batch's byte-array values, for chunkStats
	held       []heldPage          // dictionary pages' data pages until the dictionary is written
	heldData   []byte              // the held pages' data, end to end

	page, compressed []byte
	scratch          []byte // a piece of a page compressed by snappy
}

var (
	spareBuffers sync.Pool // of *pageBuffers
	spareDicts   sync.Pool // of *byteDict
)

// takeBuffers gives lw the buffers of a leafWriter released before, if any.
func (lw *leafWriter) takeBuffers() {
	if b, ok := spareBuffers.Get().(*pageBuffers); ok {
		lw.pageBuffers = *b
	}
}

// releaseBuffers hands lw's buffers to the next file's leafWriters, empty:
// a file closed after its io.Writer failed leaves a page built and pages
// held, which are not the next file's.
func (lw *leafWriter) releaseBuffers() {
	b := lw.pageBuffers
	clear(b.held)
	b.defs, b.reps, b.idx, b.values, b.indices = b.defs[:0], b.reps[:0], b.idx[:0], b.values[:0], b.indices[:0]
	b.byteVals, b.held, b.heldData = b.byteVals[:0], b.held[:0], b.heldData[:0]
	b.page, b.compressed, b.scratch = b.page[:0], b.compressed[:0], b.scratch[:0]
	spareBuffers.Put(&b)
	lw.pageBuffers = pageBuffers{}
	if lw.dict != nil {
		spareDicts.Put(lw.dict)
		lw.dict = nil
	}
}

type dictState uint8

const (
	dictUndecided dictState = iota // the first page decides
	dictOn
	dictOff
)

type heldPage struct {
	data                         []byte
	at                           int // where its data starts in heldData, while held
	num, nulls, rows, defN, repN int32
	uncompressed                 int32
	firstRow                     int64
	stats                        metadata.EncodedStatistics
}

// leafPaths appends the leaves under field f (the record's column top),
// below the steps given, reporting false for a type it does not write.
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
	case r.Layout == arrowtype.List && !r.Large && !r.Map:
		rep := int16(1)
		for _, s := range steps {
			if s.kind == stepList {
				rep++
			}
		}
		s := append(steps[:len(steps):len(steps)], step{kind: stepList, nullable: f.Nullable, rep: rep})
		return leafPaths(f.Type.(arrow.ListLikeType).ElemField(), top, s, out)
	}
	dt, arrowDict := f.Type, arrowtype.OfType(f.Type).Layout == arrowtype.Dictionary
	if arrowDict {
		dt, _ = arrowtype.Encoded(dt)
	}
	row := arrowtype.OfType(dt)
	kind, ok := leafKindOf(row)
	if !ok || (arrowDict && kind != leafBinary && kind != leafLargeBinary) {
		return false
	}
	lw := &leafWriter{top: top, steps: steps, kind: kind, row: row, dt: dt, nullable: f.Nullable, arrowDict: arrowDict}
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
	}
	return 0
}

// leafKindOf is the layout of the Arrow leaf types whose buffers hold
// their Parquet plain values as they are: bools, strings and binaries, and
// the 32- and 64-bit integers and floats with the temporal types stored as
// them (date32, times of day, timestamps). Date64 is stored as days, and
// durations and the other widths are left to pqarrow.
func leafKindOf(r *arrowtype.Row) (leafKind, bool) {
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
	}[lw.kind]
	if lw.row.Float && lw.kind == leafFixed4 {
		want = parquet.Types.Float
	} else if lw.row.Float {
		want = parquet.Types.Double
	}
	if col.PhysicalType() != want {
		return false
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
			s.offsets = nil
			if b := l.Data().Buffers()[1]; b != nil {
				s.offsets = arrow.Int32Traits.CastFromBytes(b.Bytes())
			}
			a = l.ListValues()
		}
	}
	lw.valid, lw.off = validity(a)
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
	case leafFixed4, leafFixed8, leafBool:
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
// nulls.
func validity(a arrow.Array) ([]byte, int) {
	if a.NullN() == 0 || a.Data().Buffers()[0] == nil {
		return nil, a.Data().Offset()
	}
	return a.Data().Buffers()[0].Bytes(), a.Data().Offset()
}

func bitSet(b []byte, i int) bool { return b[i>>3]&(1<<(i&7)) != 0 }

// rowsPerStep is the most rows that go to a page between checks of its
// size; fewer when their values would overfill the page or the dictionary
// (stepEnd).
const rowsPerStep = 1024

func (lw *leafWriter) startChunk(pager file.PageWriter) {
	lw.pager = pager
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
	lw.dictPage, lw.fallback = false, false
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
// a time.
func (lw *leafWriter) writeRows(d *directFile, n int) error {
	for a := 0; a < n; {
		b, fits := lw.stepEnd(d, a, n)
		if !fits {
			if lw.nlevels == 0 {
				return &mapper.Error{Column: lw.descr.Path(), Row: -1, Err: fmt.Errorf("%w: a row of more than %d bytes, past Parquet's int32 page sizes", mapper.ErrUnsupported, math.MaxInt32)}
			}
			if err := lw.flushPage(d); err != nil { // row a is a page of its own
				return err
			}
			continue
		}
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
		if lw.dictState == dictUndecided && !lw.dictPays() {
			lw.dictState = dictOff // the values are plain already
			lw.dict.reset()
			lw.indices = lw.indices[:0]
		}
		if lw.pageBytes() >= d.pageCap || (lw.dictState != dictOff && lw.dict.plainBytes() >= lw.dictLimit) {
			if err := lw.flushPage(d); err != nil {
				return err
			}
		}
		a = b
	}
	return nil
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
			a, b = int(st.offsets[st.off+a]), int(st.offsets[st.off+b])
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

// dictPays reports whether the dictionary and the indices of the chunk's
// values so far are smaller than the values plain, as pqarrow's cost
// fallback (parquet-mr's) decides after every batch of the first page.
func (lw *leafWriter) dictPays() bool {
	return lw.dict.plainBytes()+(len(lw.indices)*indexWidth(lw.dict.len())+7)/8 < lw.plain
}

// pageBytes is the memory the page being built holds: its levels and
// dictionary indices as the int16s and uint32s they are until the page is
// encoded, and its plain values. The page ends when that reaches the page
// size rather than when its encoding would: a page of levels and indices of
// a few bits each would otherwise hold a million of them (8 MiB for a list
// of text) before reaching 256 KiB encoded.
func (lw *leafWriter) pageBytes() int {
	return len(lw.values) + 2*(len(lw.defs)+len(lw.reps)) + 4*len(lw.indices)
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
			if lw.valid != nil && !bitSet(lw.valid, lw.off+i) {
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
		start, end := int(s.offsets[s.off+i]), int(s.offsets[s.off+i+1])
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
		lw.byteVals = lw.byteVals[:0]
		for k := range n {
			i := a + k
			if idx != nil {
				i = int(idx[k])
			}
			v := lw.binValue(i)
			if lw.stats {
				lw.byteVals = append(lw.byteVals, v)
			}
			if lw.bloomOn {
				lw.bloomInsert(lw.bloomHasher.Sum64(v))
			}
			lw.byteValue(v)
		}
		if lw.stats {
			lw.pageStats.(*metadata.ByteArrayStatistics).Update(lw.byteVals, 0)
		}
	}
}

// fixedIndices adds the dictionary indices of the plain values from start
// on, just added, which the page keeps only while the dictionary is
// undecided.
func (lw *leafWriter) fixedIndices(start, w int) {
	vals := lw.values[start:]
	for k := 0; k < len(vals); k += w {
		lw.indices = append(lw.indices, lw.dict.index(vals[k:k+w]))
	}
	if lw.dictState == dictOn {
		lw.values = lw.values[:start]
		return
	}
	lw.plain += len(vals)
}

func (lw *leafWriter) byteValue(v []byte) {
	switch lw.dictState {
	case dictOn:
		lw.indices = append(lw.indices, lw.dict.index(v))
		return
	case dictUndecided:
		lw.indices = append(lw.indices, lw.dict.index(v))
	}
	lw.plain += 4 + len(v)
	lw.values = binary.LittleEndian.AppendUint32(lw.values, uint32(len(v)))
	lw.values = append(lw.values, v...)
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

// flushPage writes the page built, or holds it while the dictionary it
// indexes is not written.
func (lw *leafWriter) flushPage(d *directFile) error {
	if lw.nlevels == 0 {
		return nil
	}
	if lw.dictState == dictUndecided {
		lw.dictState = dictOn // dictPays said so after every step
	}
	enc := parquet.Encodings.Plain
	var values []byte
	if lw.dictState == dictOn {
		enc = d.props.DictionaryIndexEncoding()
		width := indexWidth(lw.dict.len())
		values = appendHybrid(append(lw.compressed[:0], byte(width)), lw.indices, width)
		lw.compressed = values
	} else if lw.valueEncoding == parquet.Encodings.ByteStreamSplit {
		enc = lw.valueEncoding
		values = byteStreamSplit(lw.compressed[:0], lw.values, lw.width())
		lw.compressed = values
	} else {
		values = lw.values
	}
	page := lw.page[:0]
	var repN, defN int
	if lw.maxRep > 0 {
		page, repN = appendLevels(page, lw.reps, lw.maxRep, !d.v2)
	}
	if lw.maxDef > 0 {
		page, defN = appendLevels(page, lw.defs, lw.maxDef, !d.v2)
	}
	levels := len(page)
	page = append(page, values...)
	lw.page = page
	uncompressed := len(page)
	data := page
	if d.codec != nil {
		src, dst := page, lw.compressed[:0]
		if d.v2 { // version 2 pages keep their levels uncompressed
			src, dst = page[levels:], append(dst, page[:levels]...)
		}
		if d.snappy {
			data = appendSnappy(dst, src, &lw.scratch)
		} else {
			bound := int(d.codec.CompressBound(int64(len(src))))
			dst = slices.Grow(dst, bound)
			data = append(dst, d.codec.EncodeLevel(dst[len(dst):len(dst)+bound], src, d.level)...)
		}
		lw.compressed = data
	}
	// Every count and size of a page header is an int32; a page holds at
	// most one row past the page size, so only a row of more than 2 GiB
	// (a large_binary value, a list of a billion elements) reaches them.
	if max(uncompressed, len(data), lw.nlevels) > math.MaxInt32 {
		return fmt.Errorf("column %s: a page of %d bytes and %d values past Parquet's int32 page sizes: a row too large for one page", lw.descr.Path(), max(uncompressed, len(data)), lw.nlevels)
	}
	stats, err := lw.endPageStats(int64(lw.nlevels - lw.nvals))
	if err != nil {
		return err
	}
	hp := heldPage{data: data, num: int32(lw.nlevels), nulls: int32(lw.nlevels - lw.nvals), rows: int32(lw.nrows),
		defN: int32(defN), repN: int32(repN), uncompressed: int32(uncompressed), firstRow: lw.chunkRows, stats: stats}
	lw.chunkRows += int64(lw.nrows)
	lw.defs, lw.reps, lw.values, lw.indices = lw.defs[:0], lw.reps[:0], lw.values[:0], lw.indices[:0]
	lw.nvals, lw.nlevels, lw.nrows, lw.plain = 0, 0, 0, 0
	if lw.dictState == dictOn {
		hp.at = len(lw.heldData)
		lw.heldData = append(lw.heldData, data...)
		hp.data = nil // in heldData, which may move as it grows
		lw.held = append(lw.held, hp)
		if lw.dict.plainBytes() >= lw.dictLimit {
			// The dictionary is full: write it and its pages, and the rest
			// of the chunk plain.
			if err := lw.writeDictionary(d); err != nil {
				return err
			}
			lw.dictState, lw.fallback = dictOff, true
		}
		return nil
	}
	return lw.writePage(d, hp, enc)
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

func (lw *leafWriter) writePage(d *directFile, hp heldPage, enc parquet.Encoding) error {
	cfg := file.DataPageConfig{Num: hp.num, Encoding: enc, UncompressedSize: hp.uncompressed, FirstRowIndex: hp.firstRow, Stats: hp.stats}
	var page file.DataPage
	if d.v2 {
		page = file.NewDataPageV2WithConfig(memory.NewBufferBytes(hp.data), hp.nulls, hp.rows, hp.defN, hp.repN, d.codec != nil, cfg)
	} else {
		page = file.NewDataPageV1WithConfig(memory.NewBufferBytes(hp.data), parquet.Encodings.RLE, parquet.Encodings.RLE, cfg)
	}
	_, err := lw.pager.WriteDataPage(page)
	page.Release()
	return err
}

// writeDictionary writes the dictionary page and the pages held for it.
func (lw *leafWriter) writeDictionary(d *directFile) error {
	plain := lw.dict.appendPlain(lw.page[:0])
	lw.page = plain
	if len(plain) > math.MaxInt32 {
		return fmt.Errorf("column %s: a dictionary page of %d bytes past Parquet's int32 page sizes", lw.descr.Path(), len(plain))
	}
	page := file.NewDictionaryPage(memory.NewBufferBytes(plain), int32(lw.dict.len()), d.props.DictionaryPageEncoding())
	_, err := lw.pager.WriteDictionaryPage(page)
	page.Release()
	if err != nil {
		return err
	}
	lw.dictPage = true
	enc := d.props.DictionaryIndexEncoding()
	for k, hp := range lw.held {
		end := len(lw.heldData)
		if k+1 < len(lw.held) {
			end = lw.held[k+1].at
		}
		hp.data = lw.heldData[hp.at:end]
		if err := lw.writePage(d, hp, enc); err != nil {
			return err
		}
	}
	lw.held, lw.heldData = lw.held[:0], lw.heldData[:0]
	return nil
}

// closeChunk writes what is left of the chunk and its metadata.
func (lw *leafWriter) closeChunk(d *directFile) error {
	if err := lw.flushPage(d); err != nil {
		return err
	}
	if lw.dictState == dictOn {
		if err := lw.writeDictionary(d); err != nil {
			return err
		}
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
	err := lw.pager.Close(lw.dictPage, lw.fallback && lw.dictPage)
	lw.pager, lw.cc = nil, nil
	if err != nil {
		return fmt.Errorf("closing column %s: %w", lw.descr.Path(), err)
	}
	return nil
}
