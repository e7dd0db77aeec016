package pagewriter

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
)

// The leaves of a file that the direct writer does not encode itself
// (viaArrow: decimals, int8 and int16, float16, fixed-size binary, Arrow
// dictionaries of numbers, values Parquet stores converted) are written by
// arrow-go's column writer of their chunk, in the same row group as the
// direct writer's leaves, under the same writer properties, page writer,
// page index and statistics: one writer per leaf, not per file. The
// direct writer makes their definition and repetition levels as it makes
// its own (leafWriter.emit), and hands them with the leaf array's slots
// under the record's rows to pqarrow.WriteArrowToColumn, what pqarrow's
// FileWriter calls for every leaf once it has made the levels (arrow-go
// exports no way to give its own level builder another row group writer).

// writeArrow adds the n rows of the bound arrays to the chunk of a viaArrow
// leaf, through arrow-go's column writer.
func (lw *leafWriter) writeArrow(n int) error {
	defer func() { lw.leafArr = nil }() // the record is the caller's
	if n == 0 {
		return nil
	}
	lw.defs, lw.reps, lw.idx, lw.nlevels = lw.defs[:0], lw.reps[:0], lw.idx[:0], 0
	switch {
	case len(lw.steps) > 0:
		for i := range n {
			lw.emit(0, i, 0, 0)
		}
	case lw.nullable:
		for i := range n {
			def := int16(1)
			if lw.allNull || (lw.valid != nil && !bitSet(lw.valid, lw.off+i)) {
				def = 0
			}
			lw.defs = append(lw.defs, def)
		}
	}
	// The leaf slots under the rows, null or not, are arrow-go's "spaced"
	// values: one for each level at or above the leaf's nearest list.
	s, e := lw.slots(0, n)
	values := lw.leafArr
	if s != 0 || e != values.Len() {
		values = array.NewSlice(values, int64(s), int64(e))
		defer values.Release()
	}
	var defs, reps []int16
	if lw.maxDef > 0 {
		defs = lw.defs
	}
	if lw.maxRep > 0 {
		reps = lw.reps
	}
	err := pqarrow.WriteArrowToColumn(lw.arrowCtx, lw.column, values, defs, reps, lw.nullable)
	lw.defs, lw.reps, lw.idx, lw.nlevels = lw.defs[:0], lw.reps[:0], lw.idx[:0], 0
	if err != nil {
		kind := mapper.ErrUnsupported
		if errors.Is(err, arrow.ErrInvalid) {
			kind = mapper.ErrInvalidData
		}
		return &mapper.Error{Column: lw.name, Row: -1, Err: fmt.Errorf("%w: Parquet cannot store the values of %s: %w", kind, lw.descr.Path(), err)}
	}
	return nil
}

// closeColumn closes the chunk of a viaArrow leaf, in a row group of rows
// rows: arrow-go's column writer writes its dictionary page and the data
// pages it holds, and the chunk's statistics, to the page writer, which
// writes them to the file.
func (lw *leafWriter) closeColumn(rows int64) error {
	cw := lw.column
	lw.column, lw.cc = nil, nil
	if err := cw.Close(); err != nil {
		return fmt.Errorf("closing column %s: %w", lw.descr.Path(), err)
	}
	if got := int64(cw.RowsWritten()); got != rows {
		return fmt.Errorf("column %s: %d rows written in a row group of %d", lw.descr.Path(), got, rows)
	}
	return nil
}
