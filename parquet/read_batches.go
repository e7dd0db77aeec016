package parquet

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// minSizedRecordRows is the fewest rows a record asked for by
// SizeNextRecord holds: below it the cost of a record (a batch of every
// column reader, a plan's view of it) outweighs what a smaller one saves.
const minSizedRecordRows = 1024

// sizedRecords reads the leaf columns of a file's row groups as pqarrow's
// record reader does, one batch of every column reader a record, but of
// the size asked for before each record (SizeNextRecord), up to its batch
// size: a Reader reading a page of rows holds a record of that page, not
// of a whole batch.
type sizedRecords struct {
	sc      *arrow.Schema
	readers []*pqarrow.ColumnReader
	mem     memory.Allocator
	batch   int64 // the most rows of a record
	next    int64 // the rows of the next record; 0: batch
	cur     arrow.RecordBatch
	err     error
	// ranges, when not nil, is the rows to read (ReadConfig.KeepPage), in
	// order; at is the row the column readers are at, counted as ranges
	// count, and seeked whether they are in the first range.
	ranges []rowRange
	at     int64
	seeked bool
	// What the column readers of a row group are made of, when ranges
	// are read: each row group by readers of its own, group the one
	// they read (-1 before the first).
	ctx    context.Context
	fr     *pqarrow.FileReader
	leaves []int
	group  int
	first  int64 // the first row of the listing of group read
	// lists is, for each column reader, whether it reads lists (a leaf in
	// a list or a map, at any depth), and leafOf its one leaf column, -1
	// when it reads several: a list reader is sought only to the first
	// row of a page of its one leaf, and reads on from there (see seek).
	lists  []bool
	leafOf []int
	// pageStart is the first row of the page of leaf, in row group group,
	// that holds its row row, -1 when the chunk has no offset index.
	pageStart func(group, leaf int, row int64) int64
	// rows is the rows of the records read before, for errors: the rows
	// read, as fileRecords counts them.
	rows int64
}

// newSizedRecords is the sizedRecords of leaves of the row groups, in
// records of at most batch rows (0 or less: every row in one, as pqarrow
// reads with no BatchSize).
func newSizedRecords(ctx context.Context, fr *pqarrow.FileReader, leaves, rowGroups []int, batch int64, mem memory.Allocator) (*sizedRecords, error) {
	readers, sc, err := fr.GetFieldReaders(ctx, leaves, rowGroups)
	if err != nil {
		return nil, err
	}
	if len(readers) == 0 {
		return nil, fmt.Errorf("no leaf column readers for the columns %v", leaves)
	}
	if batch <= 0 {
		md := fr.ParquetReader().MetaData()
		for _, g := range rowGroups {
			batch += md.RowGroup(g).NumRows()
		}
		batch = max(batch, 1)
	}
	r := &sizedRecords{sc: sc, readers: readers, mem: mem, batch: batch, ctx: ctx, fr: fr, leaves: leaves, group: -1,
		lists: make([]bool, len(readers)), leafOf: make([]int, len(readers))}
	for i := range readers {
		r.lists[i] = holdsLists(sc.Field(i).Type)
	}
	// pqarrow's readers are of the roots of leaves, in the order leaves
	// first reach each.
	descr := fr.ParquetReader().MetaData().Schema
	reader := map[int]int{}
	for _, leaf := range leaves {
		root := descr.Root().FieldIndexByField(descr.ColumnRoot(leaf))
		if i, ok := reader[root]; ok {
			r.leafOf[i] = -1
			continue
		}
		i := len(reader)
		reader[root] = i
		if i < len(r.leafOf) {
			r.leafOf[i] = leaf
		}
	}
	return r, nil
}

// SizeNextRecord asks for the next record to hold about rows rows: at
// least minSizedRecordRows, at most the batch size.
func (r *sizedRecords) SizeNextRecord(rows int) {
	r.next = min(r.batch, int64(max(rows, minSizedRecordRows)))
}

func (r *sizedRecords) Schema() *arrow.Schema { return r.sc }

func (r *sizedRecords) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil {
		return false
	}
	n := r.batch
	if r.next > 0 {
		n, r.next = r.next, 0
	}
	if r.ranges != nil {
		var ok bool
		if n, ok = r.seek(n); !ok {
			return false
		}
	}
	cols := make([]arrow.Array, len(r.readers))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, cr := range r.readers {
		col, err := r.column(cr, n, r.sc.Field(i).Name)
		if err != nil {
			r.err = err
			return false
		}
		if col == nil {
			if i > 0 {
				r.err = fmt.Errorf("%w: column %q ended before the others", mapper.ErrInvalidData, r.sc.Field(i).Name)
			} else {
				r.err = io.EOF
			}
			return false
		}
		if i > 0 && col.Len() != cols[0].Len() {
			col.Release()
			r.err = fmt.Errorf("%w: column %q holds %d rows where %q holds %d", mapper.ErrInvalidData, r.sc.Field(i).Name, col.Len(), r.sc.Field(0).Name, cols[0].Len())
			return false
		}
		cols[i] = col
	}
	r.cur = array.NewRecordBatch(r.sc, cols, int64(cols[0].Len()))
	r.at += int64(cols[0].Len())
	r.rows += int64(cols[0].Len())
	return true
}

// seek moves the column readers to the next row of the ranges when they
// are not on one, and returns how many of the n rows asked for the range
// has from there; false, with r.err io.EOF or the error, past the last.
func (r *sizedRecords) seek(n int64) (int64, bool) {
	for len(r.ranges) > 0 && r.at >= r.ranges[0].to {
		r.ranges, r.seeked = r.ranges[1:], false
	}
	if len(r.ranges) == 0 {
		r.err = io.EOF
		return 0, false
	}
	next := r.ranges[0]
	if !r.seeked {
		// Each row group is read by column readers of its own, sought
		// within it only: pqarrow's list readers, once sought, read the
		// lists of the next row group wrong when they go on into it, or
		// are sought to its first row after reading to the end of one
		// (arrow-go v18.8.0: list offsets past the end of the child). A
		// row group listed twice in ReadConfig.RowGroups is read twice, by
		// readers of each listing.
		if next.group != r.group || next.first != r.first {
			readers, _, err := r.fr.GetFieldReaders(r.ctx, r.leaves, []int{next.group})
			if err != nil {
				r.err = err
				return 0, false
			}
			r.releaseReaders()
			r.readers, r.group, r.first, r.at = readers, next.group, next.first, next.first
		}
		if r.at != next.from {
			for i, cr := range r.readers {
				if r.lists[i] {
					// Nor is a list reader sought into a page of its lists:
					// it reads them wrong (v18.8.0: "offset past the end of
					// the child", or "number of decoded rep/def levels did
					// not match"). It is sought to the first row of the page
					// of the range's first row, when it has one leaf and
					// that page is ahead, and reads on to the range from
					// there, dropping what it reads.
					at := r.at
					if leaf := r.leafOf[i]; leaf >= 0 && r.pageStart != nil {
						if start := next.first + r.pageStart(next.group, leaf, next.from-next.first); start > at {
							if err := cr.SeekToRow(start - next.first); err != nil {
								r.err = fmt.Errorf("row group %d: seeking to its row %d: %w", next.group, start-next.first, err)
								return 0, false
							}
							at = start
						}
					}
					if err := r.skip(cr, next.from-at); err != nil {
						r.err = fmt.Errorf("row group %d: reading on to its row %d: %w", next.group, next.from-next.first, err)
						return 0, false
					}
					continue
				}
				if err := cr.SeekToRow(next.from - next.first); err != nil {
					r.err = fmt.Errorf("row group %d: seeking to its row %d: %w", next.group, next.from-next.first, err)
					return 0, false
				}
			}
		}
		r.at, r.seeked = next.from, true
	}
	return min(n, next.to-r.at), true
}

// skip reads n rows of cr and drops them, a batch at a time.
func (r *sizedRecords) skip(cr *pqarrow.ColumnReader, n int64) error {
	for n > 0 {
		chunked, err := cr.NextBatch(min(n, max(r.batch, 1)))
		if err != nil {
			return err
		}
		read := int64(chunked.Len())
		chunked.Release()
		if read == 0 {
			return fmt.Errorf("%w: the column ended %d rows short", mapper.ErrInvalidData, n)
		}
		n -= read
	}
	return nil
}

// holdsLists reports whether dt is, or holds at any depth, a list or a
// map: a column whose values Parquet repeats.
func holdsLists(dt arrow.DataType) bool {
	if arrowtype.OfType(dt).AnyList() {
		return true
	}
	for _, f := range arrowtype.Children(arrowtype.Storage(dt)) {
		if holdsLists(f.Type) {
			return true
		}
	}
	return false
}

func (r *sizedRecords) releaseReaders() {
	for _, cr := range r.readers {
		cr.Release()
	}
	r.readers = nil
}

// column is the next n rows of cr, the column name, as one array, nil at
// the end.
func (r *sizedRecords) column(cr *pqarrow.ColumnReader, n int64, name string) (arrow.Array, error) {
	chunked, err := cr.NextBatch(n)
	if err != nil {
		return nil, err
	}
	defer chunked.Release()
	row := r.rows
	for _, c := range chunked.Chunks() {
		if err := checkDictionaries(c.Data(), name, row); err != nil {
			return nil, err
		}
		if err := checkOffsets(c.Data(), name); err != nil {
			return nil, err
		}
		row += int64(c.Len())
	}
	switch chunks := chunked.Chunks(); {
	case chunked.Len() == 0:
		return nil, nil
	case len(chunks) == 1:
		chunks[0].Retain()
		return chunks[0], nil
	default: // rows of two row groups
		row := r.rows
		for _, c := range chunks {
			if err := checkLayout(c, name, row); err != nil {
				return nil, err
			}
			row += int64(c.Len())
		}
		return array.Concatenate(chunks, r.mem)
	}
}

func (r *sizedRecords) RecordBatch() arrow.RecordBatch { return r.cur }

func (r *sizedRecords) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// Release releases the record and the column readers. fileRecords holds
// the only reference.
func (r *sizedRecords) Release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.releaseReaders()
}
