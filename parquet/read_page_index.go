package parquet

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/arrowmap/arrowmap/mapper"
)

// errInvalidPageIndex is wrapped by the error of an offset index whose
// pages do not cover their row group in order.
var errInvalidPageIndex = fmt.Errorf("%w: a malformed page index", mapper.ErrInvalidData)

// Page is one data page of one leaf column in a row group, as the file's
// page index describes it (the offset index: where the page lies and its
// first row; the column index: its min, max and nulls): what
// ReadConfig.KeepPage decides on before the page is read.
type Page struct {
	// RowGroup is the index in the file of the page's row group.
	RowGroup int
	// Column is the leaf column's dotted Parquet path, as RowGroup.Column
	// names it ("id", "items.list.element.sku").
	Column string
	// Index is the page's index among the data pages of its column chunk.
	Index int
	// FirstRow is the page's first row, counted from the first row of its
	// row group, and NumRows its rows.
	FirstRow, NumRows int64
	// Stats is the page's min, max and null count from the column index,
	// in the Go types ColumnStats names; HasMinMax is false when the file
	// has no column index for the column or the page holds only nulls.
	Stats ColumnStats
}

// rowRange is the rows [from, to) of the selected row groups, counted from
// the first row of the first; in keptRanges' ranges, of the row group
// group (a file's index) whose first row is first, counted alike.
type rowRange struct {
	from, to int64
	group    int
	first    int64
}

// keptRanges is the rows of the selected row groups that keep leaves every
// page holding them: for each row group, the intersection over leaves of
// the rows of the pages keep keeps. A column chunk without an offset index
// is kept whole, unasked. The ranges are in order, disjoint and not empty,
// none across the end of a row group.
func (s *source) keptRanges(leaves []int, keep func(Page) bool) (_ []rowRange, err error) {
	// A page index is hostile input too, and arrow-go decodes it as it
	// is asked for it; a panic of keep is the caller's, and stays one.
	inKeep := false
	defer func() {
		if p := recover(); p != nil {
			if inKeep {
				panic(p)
			}
			err = fmt.Errorf("%w (%v)", errInvalidPageIndex, p)
		}
	}()
	idx := s.pf.GetPageIndexReader()
	md := s.pf.MetaData()
	var out []rowRange
	var first int64 // the first row of the row group, in the selection
	for _, g := range s.rowGroups {
		rows := md.RowGroup(g).NumRows()
		kept := []rowRange{{from: 0, to: rows}} // within the row group
		var rg *metadata.RowGroupPageIndexReader
		if idx != nil {
			if rg, err = idx.RowGroup(g); err != nil {
				return nil, fmt.Errorf("row group %d: page index: %w", g, err)
			}
		}
		for _, leaf := range leaves {
			if rg == nil {
				break
			}
			pages, err := s.leafPages(rg, g, leaf, rows)
			if err != nil {
				return nil, err
			}
			if pages == nil {
				continue // no offset index: the chunk is read whole
			}
			var ranges []rowRange
			for _, p := range pages {
				inKeep = true
				k := keep(p)
				inKeep = false
				if k {
					ranges = appendRange(ranges, rowRange{from: p.FirstRow, to: p.FirstRow + p.NumRows})
				}
			}
			kept = intersect(kept, ranges)
		}
		for _, k := range kept {
			// Not merged with the last row group's: each row group is
			// read by column readers of its own (see sizedRecords.seek).
			out = append(out, rowRange{from: first + k.from, to: first + k.to, group: g, first: first})
		}
		first += rows
	}
	return out, nil
}

// pageStart is the first row, in row group g, of the page of leaf that
// holds the row group's row row, as its offset index says (keptRanges has
// checked it); -1 without one.
func (s *source) pageStart(g, leaf int, row int64) int64 {
	idx := s.pf.GetPageIndexReader()
	if idx == nil {
		return -1
	}
	rg, err := idx.RowGroup(g)
	if err != nil {
		return -1
	}
	oi, err := rg.GetOffsetIndex(leaf)
	if err != nil || oi == nil {
		return -1
	}
	start := int64(-1)
	for _, loc := range oi.GetPageLocations() {
		if loc.GetFirstRowIndex() > row {
			break
		}
		start = loc.GetFirstRowIndex()
	}
	return start
}

// leafPages is the pages of the column chunk of leaf in row group g (of
// rows rows) as its offset index and column index say, nil when it has no
// offset index. An offset index whose pages do not start at row 0 and
// grow within the row group is malformed.
func (s *source) leafPages(rg *metadata.RowGroupPageIndexReader, g, leaf int, rows int64) ([]Page, error) {
	oi, err := rg.GetOffsetIndex(leaf)
	if err != nil || oi == nil {
		return nil, nil // no offset index, or one arrow-go cannot read: the chunk whole
	}
	descr := s.pf.MetaData().Schema.Column(leaf)
	locs := oi.GetPageLocations()
	ci, _ := rg.GetColumnIndex(leaf) // nil without a column index
	pages := make([]Page, len(locs))
	for i, loc := range locs {
		end := rows
		if i+1 < len(locs) {
			end = locs[i+1].GetFirstRowIndex()
		}
		if start := loc.GetFirstRowIndex(); (i == 0 && start != 0) || start < 0 || end <= start || end > rows {
			return nil, fmt.Errorf("%w: row group %d, column %q: page %d of the offset index holds rows [%d, %d) of %d", errInvalidPageIndex, g, descr.Path(), i, start, end, rows)
		}
		pages[i] = Page{RowGroup: g, Column: descr.Path(), Index: i, FirstRow: loc.GetFirstRowIndex(), NumRows: end - loc.GetFirstRowIndex()}
		if ci != nil {
			pages[i].Stats = pageStats(ci, i, descr)
		}
	}
	return pages, nil
}

// pageStats is page i's statistics in the column index ci of the column
// descr, decoded as a row group's are (minMax); the zero ColumnStats when
// ci does not hold them.
func pageStats(ci metadata.ColumnIndex, i int, descr *schema.Column) ColumnStats {
	var st ColumnStats
	if nc := ci.GetNullCounts(); ci.IsSetNullCounts() && i < len(nc) {
		st.NullCount, st.HasNullCount = nc[i], true
	}
	nulls, mins, maxs := ci.GetNullPages(), ci.GetMinValues(), ci.GetMaxValues()
	if i >= len(nulls) || i >= len(mins) || i >= len(maxs) || nulls[i] {
		return st
	}
	typed := metadata.NewStatisticsFromEncoded(descr, memory.DefaultAllocator, 0, encodedMinMax{mins[i], maxs[i]})
	if typed == nil || !typed.HasMinMax() {
		return st
	}
	st.Min, st.Max = minMax(typed, descr)
	st.HasMinMax = st.Min != nil
	return st
}

// encodedMinMax is a page's min and max as the column index stores them,
// as arrow-go decodes statistics from (metadata.StatProvider).
type encodedMinMax struct{ min, max []byte }

func (e encodedMinMax) GetMin() []byte           { return e.min }
func (e encodedMinMax) GetMax() []byte           { return e.max }
func (e encodedMinMax) GetNullCount() int64      { return 0 }
func (e encodedMinMax) GetDistinctCount() int64  { return 0 }
func (e encodedMinMax) IsSetMax() bool           { return true }
func (e encodedMinMax) IsSetMin() bool           { return true }
func (e encodedMinMax) IsSetNullCount() bool     { return false }
func (e encodedMinMax) IsSetDistinctCount() bool { return false }

// appendRange is ranges with r appended, merged with the last when they
// touch.
func appendRange(ranges []rowRange, r rowRange) []rowRange {
	if r.to <= r.from {
		return ranges
	}
	if n := len(ranges); n > 0 && ranges[n-1].to >= r.from {
		ranges[n-1].to = max(ranges[n-1].to, r.to)
		return ranges
	}
	return append(ranges, r)
}

// intersect is the rows in both a and b, ranges in order and disjoint.
func intersect(a, b []rowRange) []rowRange {
	var out []rowRange
	for i, j := 0, 0; i < len(a) && j < len(b); {
		from, to := max(a[i].from, b[j].from), min(a[i].to, b[j].to)
		out = appendRange(out, rowRange{from: from, to: to})
		if a[i].to < b[j].to {
			i++
		} else {
			j++
		}
	}
	return slices.Clip(out)
}
