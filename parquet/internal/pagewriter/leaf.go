package pagewriter

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

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
	// the page being ended (File's expect): its chunk grows for them.
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
		// arrow-go's column writer writes it (New), from the
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
	if r.Decimal && r.Bytes == 16 && r.Layout == arrowtype.Fixed { // decimal128
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
		// Integers, floats and the times a time.Time holds, as their
		// counts: all but date64, which Parquet's DATE holds in days.
		stored := r.Integer || r.Float || (r.Times() && !r.MillisecondDate())
		if !stored {
			return 0, false
		}
		switch r.Bytes { // Parquet's INT32 and FLOAT, INT64 and DOUBLE
		case 4:
			return leafFixed4, true
		case 8:
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
				s.offsets64 = arrow.GetData[int64](b.Bytes())
			} else if b != nil {
				s.offsets = arrow.GetData[int32](b.Bytes())
			}
			a = l.ListValues()
		}
	}
	lw.valid, lw.off = validity(a)
	if lw.viaArrow {
		lw.leafArr, lw.allNull = a, arrowtype.OfType(a.DataType()).Layout == arrowtype.Null
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
			lw.offs32 = arrow.GetData[int32](buf[1].Bytes())
		}
		if buf[2] != nil {
			lw.data = buf[2].Bytes()
		}
	case leafLargeBinary:
		lw.offs64, lw.data = nil, nil
		if buf[1] != nil {
			lw.offs64 = arrow.GetData[int64](buf[1].Bytes())
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
