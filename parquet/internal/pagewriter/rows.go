package pagewriter

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/arrowmap/arrowmap/mapper"
)

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
func (lw *leafWriter) writeRows(d *File, sc *pageScratch, n int) error {
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
func (lw *leafWriter) reserve(d *File, a, b int) {
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
// for, but no more than the row group is expected to take (File's
// expect, at least these rows). The page's buffers grow for as much at
// once.
func (lw *leafWriter) ahead(d *File, a, b int) float64 {
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
func (lw *leafWriter) stepEnd(d *File, a, n int) (b int, fits bool) {
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
