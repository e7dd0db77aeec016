package parquet

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/mapper"
)

// rowError is a value convert refuses, at row (of the array converted).
type rowError struct {
	row int
	err error
}

func (e *rowError) Error() string { return fmt.Sprintf("row %d: %v", e.row, e.err) }
func (e *rowError) Unwrap() error { return e.err }

// columnError is err of converting column (of rows from row 0 of the
// file), an *mapper.Error naming the column, and the row of a value.
func columnError(column string, base int64, err error) error {
	row := -1
	var re *rowError
	if errors.As(err, &re) {
		row, err = int(base)+re.row, re.err
	}
	return &mapper.Error{Column: column, Row: row, Err: err}
}

// convert is a as an array of type to, holding the same values: a column
// in its storage type for the file (toStorage) and back (fromStorage). It
// returns a itself, retained, when nothing differs, and shares a's buffers
// where the layouts are the same. A value to cannot hold is a *rowError
// wrapping mapper.ErrInvalidData. The caller releases the result.
func convert(a arrow.Array, to arrow.DataType, mem memory.Allocator) (_ arrow.Array, err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go's builders and kernels panic on what they refuse
			err = fmt.Errorf("%w: converting %s to %s: %v", mapper.ErrInvalidData, a.DataType(), to, p)
		}
	}()
	return convertArray(a, to, mem)
}

func convertArray(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	from := a.DataType()
	fr, tr := arrowtype.OfType(from), arrowtype.OfType(to)
	// What a is encoded as, decoded first.
	switch fr.Layout {
	case arrowtype.Dictionary:
		d := a.(arrowtype.DictionaryArray)
		if tr.Layout == arrowtype.Dictionary {
			return convertDictionary(d, to, mem)
		}
		values, err := convertArray(d.Dictionary(), to, mem)
		if err != nil {
			return nil, err
		}
		defer values.Release()
		return take(values, d.Indices(), mem)
	case arrowtype.RunEnd:
		if tr.Layout == arrowtype.RunEnd && arrow.TypeEqual(from, to) {
			a.Retain()
			return a, nil
		}
		if tr.Layout != arrowtype.RunEnd {
			return decodeRunEnds(a.(arrowtype.RunEndArray), to, mem)
		}
	case arrowtype.Extension:
		if arrow.TypeEqual(from, to) {
			a.Retain()
			return a, nil
		}
		return convertArray(a.(array.ExtensionArray).Storage(), to, mem)
	}
	switch tr.Layout {
	case arrowtype.Dictionary:
		return encodeDictionary(a, to, mem)
	case arrowtype.RunEnd:
		encoded, _ := arrowtype.Encoded(to)
		values, err := convertArray(a, encoded, mem)
		if err != nil {
			return nil, err
		}
		defer values.Release()
		return encodeRunEnds(values, to, mem)
	case arrowtype.Extension:
		storage, err := convertArray(a, arrowtype.Storage(to), mem)
		if err != nil {
			return nil, err
		}
		defer storage.Release()
		ext, _ := arrowtype.WithStorage(to, storage)
		return ext, nil
	}
	switch {
	case fr.Times() && fr.Temporal == tr.Temporal: // another unit, or width, of the same kind
		return rescaleTicks(a, to, fr.Bytes == 8, tr.Bytes == 8, mem)
	case integerStorage(fr) == tr || integerStorage(tr) == fr: // a duration or month interval and its storage integers
		return retyped(a, to), nil
	case (fr.Decimal && fr.Bytes <= 8) || (tr.Decimal && tr.Bytes <= 8): // decimal32, decimal64
		if fr != tr && fr.Decimal && tr.Decimal {
			return convertDecimal(a, to, mem)
		}
	case fr.Layout == arrowtype.Struct && isListLike(tr) && len(from.(arrow.NestedType).Fields()) == 1:
		return unwrapStruct(a.(arrowtype.StructArray), to, mem)
	case fr.Layout == arrowtype.FixedBinary && tr.Instant() && arrowtype.ByteWidth(from) == int96Bytes:
		return int96Timestamps(a, to, mem)
	case fr.VarBinary() && tr.VarBinary() && fr != tr:
		return convertBinary(a, to, mem)
	case fr.Layout == arrowtype.FixedList && tr.Layout == arrowtype.List && !tr.Map:
		return fixedAsList(a.(array.ListLike), to, mem)
	case isListLike(fr) && isListLike(tr):
		return convertList(a, to, mem)
	case fr == tr && (fr.Layout == arrowtype.Struct || fr.Layout == arrowtype.FixedList):
		return convertChildren(a, to, mem)
	}
	if !sameLayout(from, to) {
		return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, from, to)
	}
	return retyped(a, to), nil
}

// retyped is a's data as an array of to, of the same layout: a itself,
// retained, when the types are the same.
func retyped(a arrow.Array, to arrow.DataType) arrow.Array {
	if arrow.TypeEqual(a.DataType(), to, arrow.CheckMetadata()) {
		a.Retain()
		return a
	}
	d := retype(a.Data(), to)
	defer d.Release()
	return array.MakeFromData(d)
}

// isListLike reports whether r is a list, large list, list view or map.
func isListLike(r *arrowtype.Row) bool {
	return r.Layout == arrowtype.List || r.Layout == arrowtype.ListView
}

// copyValidity is a copy of a's validity bitmap from its offset, nil when a
// has no nulls.
func copyValidity(a arrow.Array, mem memory.Allocator) *memory.Buffer {
	if a.NullN() == 0 || a.Data().Buffers()[0] == nil {
		return nil
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(a.Len()))))
	bitutil.CopyBitmap(a.Data().Buffers()[0].Bytes(), a.Data().Offset(), a.Len(), buf.Bytes(), 0)
	return buf
}

// rescaleTicks is a, of a date, time of day or timestamp type, as to, a
// type of the same kind in another tick (date32's day, date64's
// millisecond, a unit): a value that is not a whole number of to's ticks
// is ErrInvalidData, as is one that overflows to. wide and toWide say
// whether each counts in an int64 (else an int32).
func rescaleTicks(a arrow.Array, to arrow.DataType, wide, toWide bool, mem memory.Allocator) (arrow.Array, error) {
	ft, _ := arrowtype.TickOf(a.DataType())
	tt, _ := arrowtype.TickOf(to)
	f, t := ft.Nanoseconds(), tt.Nanoseconds()
	mul, div := max(f/t, 1), max(t/f, 1)
	if f == t && wide == toWide {
		return retyped(a, to), nil
	}
	inexact := fmt.Sprintf("%s %%d %s is not a whole number of %s", a.DataType(), ft, tt)
	switch {
	case !wide && !toWide:
		return rescale[int32, int32](a, to, mem, mul, div, inexact)
	case !wide:
		return rescale[int32, int64](a, to, mem, mul, div, inexact)
	case !toWide:
		return rescale[int64, int32](a, to, mem, mul, div, inexact)
	}
	return rescale[int64, int64](a, to, mem, mul, div, inexact)
}

// rescale is a's values times mul, divided by div, as an array of to. A
// value that does not divide exactly, or overflows To, is refused: inexact
// (a format with the value) says why.
func rescale[From, To int32 | int64](a arrow.Array, to arrow.DataType, mem memory.Allocator, mul, div int64, inexact string) (arrow.Array, error) {
	n := a.Len()
	src := arrow.GetData[From](a.Data().Buffers()[1].Bytes())[a.Data().Offset():][:n]
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * int(unsafeSize[To]()))
	dst := arrow.GetData[To](buf.Bytes())[:n]
	for i, v := range src {
		if a.IsNull(i) {
			dst[i] = 0
			continue
		}
		w := int64(v)
		if div != 1 {
			if w%div != 0 {
				buf.Release()
				return nil, &rowError{i, fmt.Errorf("%w: "+inexact, mapper.ErrInvalidData, w)}
			}
			w /= div
		}
		if mul != 1 {
			if w > math.MaxInt64/mul || w < math.MinInt64/mul {
				buf.Release()
				return nil, &rowError{i, fmt.Errorf("%w: %s %d overflows %s", mapper.ErrInvalidData, a.DataType(), v, to)}
			}
			w *= mul
		}
		if int64(To(w)) != w {
			buf.Release()
			return nil, &rowError{i, fmt.Errorf("%w: %s %d overflows %s", mapper.ErrInvalidData, a.DataType(), v, to)}
		}
		dst[i] = To(w)
	}
	valid := copyValidity(a, mem)
	d := array.NewData(to, n, []*memory.Buffer{valid, buf}, nil, a.NullN(), 0)
	buf.Release()
	if valid != nil {
		valid.Release()
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

func unsafeSize[T int32 | int64]() int64 {
	var v T
	switch any(v).(type) {
	case int32:
		return 4
	}
	return 8
}

// convertDecimal is a, of decimals, as decimals of to: each value checked
// against to's precision.
func convertDecimal(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	convert := decimalConverterOf(arrowtype.OfType(a.DataType()).Value, arrowtype.OfType(to).Value)
	if convert == nil {
		return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
	}
	b := array.NewBuilder(mem, to)
	defer b.Release()
	b.Reserve(a.Len())
	return convert(a, b, to)
}

// convertDecimals is convertDecimal from decimals of S to those of D.
func convertDecimals[S arrowtype.DecimalNum[S], D decimal.DecimalTypes](a arrow.Array, b array.Builder, to arrow.DataType) (arrow.Array, error) {
	add, ok := b.(interface{ Append(D) })
	if !ok {
		return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
	}
	prec, scale, _ := arrowtype.Precision(to)
	values := arrowtype.Values[S](a.Data())
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := values[i]
		if !v.FitsInPrecision(prec) {
			return nil, &rowError{i, fmt.Errorf("%w: %s does not fit %s", mapper.ErrInvalidData, v.ToString(scale), to)}
		}
		add.Append(arrowtype.ConvertDecimal[S, D](v))
	}
	return b.NewArray(), nil
}

// convertBinary is a, of text or binary, as to: views to offsets and back.
func convertBinary(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	var value func(int) string
	switch fr := arrowtype.OfType(a.DataType()); {
	case fr.Text:
		value = a.(arrowtype.TextArray).Value
	case fr.VarBinary():
		value = a.(arrowtype.BinaryArray).ValueString
	default:
		return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
	}
	tr := arrowtype.OfType(to)
	narrow := tr.Layout == arrowtype.Binary && !tr.Large // 32-bit offsets
	b := array.NewBuilder(mem, to)
	defer b.Release()
	app, ok := b.(interface{ AppendString(string) })
	if !ok {
		return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
	}
	b.Reserve(a.Len())
	total := 0
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := value(i)
		total += len(v)
		if narrow && total > math.MaxInt32 {
			return nil, &rowError{i, fmt.Errorf("%w: more than 2 GiB of %s in one record", mapper.ErrUnsupported, a.DataType())}
		}
		app.AppendString(v)
	}
	return b.NewArray(), nil
}

// convertList is a, a list, list view or map, as the list, list view or
// map to: a null row's elements, which Parquet has no place for, dropped,
// and its elements converted to to's.
func convertList(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	l := a.(array.ListLike)
	n := a.Len()
	tr := arrowtype.OfType(to)
	fromView := arrowtype.OfType(a.DataType()).Layout == arrowtype.ListView
	toView := tr.Layout == arrowtype.ListView
	elemType := to.(arrow.ListLikeType).Elem() // a map's entries struct
	// The ranges of child rows the rows hold, in order: a list's are
	// contiguous unless a null row holds some.
	contiguous := !fromView
	if contiguous && a.NullN() > 0 {
		for i := range n {
			if s, e := l.ValueOffsets(i); a.IsNull(i) && s != e {
				contiguous = false
				break
			}
		}
	}
	if contiguous && !toView {
		child, err := convertArray(l.ListValues(), elemType, mem)
		if err == nil && tr.Map {
			err = nullKey(child)
		}
		if err != nil {
			if child != nil {
				child.Release()
			}
			return nil, nestedRow(err, l)
		}
		defer child.Release()
		if child == l.ListValues() && arrow.TypeEqual(a.DataType(), to, arrow.CheckMetadata()) {
			a.Retain()
			return a, nil
		}
		return rebuild(a, to, []arrow.ArrayData{child.Data()}), nil
	}
	if toView {
		// A list (contiguous, after any null rows' elements) as a view:
		// offsets and sizes of the same child rows.
		return listToView(a, to, elemType, mem)
	}
	// A view, or a list with elements under null rows: the rows' elements
	// gathered in order.
	var slices []arrow.Array
	defer func() {
		for _, s := range slices {
			s.Release()
		}
	}()
	large := tr.Large
	offsets := make([]int64, n+1)
	runStart, runEnd := int64(-1), int64(-1)
	flush := func() {
		if runEnd > runStart && runStart >= 0 {
			slices = append(slices, array.NewSlice(l.ListValues(), runStart, runEnd))
		}
	}
	for i := range n {
		offsets[i+1] = offsets[i]
		if a.IsNull(i) {
			continue
		}
		s, e := l.ValueOffsets(i)
		offsets[i+1] += e - s
		if s == runEnd {
			runEnd = e
			continue
		}
		flush()
		runStart, runEnd = s, e
	}
	flush()
	if !large && offsets[n] > math.MaxInt32 {
		return nil, fmt.Errorf("%w: a list of more than 2^31 elements", mapper.ErrUnsupported)
	}
	var values arrow.Array
	if len(slices) == 0 {
		values = array.NewSlice(l.ListValues(), 0, 0)
	} else {
		var err error
		if values, err = array.Concatenate(slices, mem); err != nil {
			return nil, err
		}
	}
	defer values.Release()
	child, err := convertArray(values, elemType, mem)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	if tr.Map {
		if err := nullKey(child); err != nil {
			var re *rowError
			errors.As(err, &re)
			for i := range n { // the row holding entry re.row
				if offsets[i] <= int64(re.row) && int64(re.row) < offsets[i+1] {
					return nil, &rowError{i, re.err}
				}
			}
			return nil, err
		}
	}
	offBuf := memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	if large {
		offBuf.Resize((n + 1) * 8)
		copy(arrow.GetData[int64](offBuf.Bytes()), offsets)
	} else {
		offBuf.Resize((n + 1) * 4)
		dst := arrow.GetData[int32](offBuf.Bytes())
		for i, o := range offsets {
			dst[i] = int32(o)
		}
	}
	valid := copyValidity(a, mem)
	if valid != nil {
		defer valid.Release()
	}
	d := array.NewData(to, n, []*memory.Buffer{valid, offBuf}, []arrow.ArrayData{child.Data()}, a.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// fixedAsList is the fixed-size list a as the list (or large list) to:
// each row's elements the same, a null row's dropped (convertList).
func fixedAsList(a array.ListLike, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	fixed, _ := arrowtype.ListSize(a.DataType())
	n, size := a.Len(), int64(fixed)
	start := int64(a.Data().Offset()) * size // a's rows are child rows [start, start+n*size)
	large := arrowtype.OfType(to).Large
	if !large && start+int64(n)*size > math.MaxInt32 {
		return nil, fmt.Errorf("%w: a fixed-size list of more than 2^31 elements", mapper.ErrUnsupported)
	}
	// The same rows as a list whose null rows hold their elements, which
	// convertList drops.
	elem := a.DataType().(arrow.ListLikeType).ElemField()
	var through arrow.DataType = arrow.ListOfField(elem)
	offBuf := memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	if large {
		through = arrow.LargeListOfField(elem)
		offBuf.Resize((n + 1) * 8)
		offs := arrow.GetData[int64](offBuf.Bytes())
		for i := range offs {
			offs[i] = start + int64(i)*size
		}
	} else {
		offBuf.Resize((n + 1) * 4)
		offs := arrow.GetData[int32](offBuf.Bytes())
		for i := range offs {
			offs[i] = int32(start + int64(i)*size)
		}
	}
	valid := copyValidity(a, mem)
	if valid != nil {
		defer valid.Release()
	}
	d := array.NewData(through, n, []*memory.Buffer{valid, offBuf}, []arrow.ArrayData{a.ListValues().Data()}, a.NullN(), 0)
	defer d.Release()
	list := array.MakeFromData(d)
	defer list.Release()
	return convertList(list, to, mem)
}

// listToView is the list a as the list view to, its elements converted
// to elemType.
func listToView(a arrow.Array, to arrow.DataType, elemType arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	l := a.(array.ListLike)
	n := a.Len()
	child, err := convertArray(l.ListValues(), elemType, mem)
	if err != nil {
		return nil, nestedRow(err, l)
	}
	defer child.Release()
	offBuf, sizeBuf := memory.NewResizableBuffer(mem), memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	defer sizeBuf.Release()
	if arrowtype.OfType(to).Large {
		offBuf.Resize(n * 8)
		sizeBuf.Resize(n * 8)
		offs, sizes := arrow.GetData[int64](offBuf.Bytes()), arrow.GetData[int64](sizeBuf.Bytes())
		for i := range n {
			s, e := l.ValueOffsets(i)
			offs[i], sizes[i] = s, e-s
		}
	} else {
		offBuf.Resize(n * 4)
		sizeBuf.Resize(n * 4)
		offs, sizes := arrow.GetData[int32](offBuf.Bytes()), arrow.GetData[int32](sizeBuf.Bytes())
		for i := range n {
			s, e := l.ValueOffsets(i)
			offs[i], sizes[i] = int32(s), int32(e-s)
		}
	}
	valid := copyValidity(a, mem)
	if valid != nil {
		defer valid.Release()
	}
	d := array.NewData(to, n, []*memory.Buffer{valid, offBuf, sizeBuf}, []arrow.ArrayData{child.Data()}, a.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// nestedRow is err of a list's elements with the row of the list that
// holds the element it names (arrowtype.ParentRow).
func nestedRow(err error, l array.ListLike) error {
	var re *rowError
	if !errors.As(err, &re) {
		return err
	}
	if row := arrowtype.ParentRow(l.Data(), 0, re.row); row >= 0 {
		return &rowError{row, re.err}
	}
	return re.err // an element no row reaches: the error is about no row
}

// convertChildren is the struct or fixed-size list a as to, its children
// converted to to's.
func convertChildren(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	fields := to.(arrow.NestedType).Fields()
	d := a.Data()
	children := make([]arrow.ArrayData, len(d.Children()))
	var keep []arrow.Array
	same := arrow.TypeEqual(a.DataType(), to, arrow.CheckMetadata())
	defer func() {
		for _, c := range keep {
			c.Release()
		}
	}()
	masks := arrowtype.OfType(to).Layout == arrowtype.Struct && a.NullN() > 0
	for i, c := range d.Children() {
		if masks {
			if m := underNulls(a, c, mem); m != nil {
				defer m.Release()
				c, same = m, false
			}
		}
		ca := array.MakeFromData(c)
		keep = append(keep, ca)
		cc, err := convertArray(ca, fields[i].Type, mem)
		if err != nil {
			var re *rowError
			if errors.As(err, &re) {
				if row := arrowtype.ParentRow(d, i, re.row); row >= 0 {
					return nil, &rowError{row, re.err}
				}
				return nil, re.err
			}
			return nil, err
		}
		keep = append(keep, cc)
		children[i] = cc.Data()
		same = same && cc.Data() == c
	}
	if same {
		a.Retain()
		return a, nil
	}
	return rebuild(a, to, children), nil
}

// underNulls is c, a child of the struct a of a nested type or of
// decimals, null too in the rows where a is null, nil when c is neither:
// a list (or a fixed-size list, a map) under a null struct row may hold
// elements, which pqarrow refuses (it visits none of them); null, they are
// dropped like a null list row's (convertList). And arrow-go's column
// writer (v18.8.0) writes decimals with no nulls of their own as if every
// level held a value, a null struct row's too, which shifts the values
// after it: null there, they are written as the nulls they are.
func underNulls(a arrow.Array, c arrow.ArrayData, mem memory.Allocator) arrow.ArrayData {
	_, nested := c.DataType().(arrow.NestedType)
	if (!nested && !arrowtype.OfType(c.DataType()).Decimal) || a.Data().Offset()+a.Len() > c.Len() {
		return nil
	}
	// Bits in c's coordinates: bit c.Offset()+j is c's row j, which is
	// a's row j-a.Offset().
	bits := c.Offset() + c.Len()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(bits))))
	if b := c.Buffers()[0]; b != nil {
		copy(valid.Bytes(), b.Bytes())
	} else {
		bitutil.SetBitsTo(valid.Bytes(), 0, int64(bits), true)
	}
	for i := range a.Len() {
		if a.IsNull(i) {
			bitutil.ClearBit(valid.Bytes(), c.Offset()+a.Data().Offset()+i)
		}
	}
	nulls := c.Len() - bitutil.CountSetBits(valid.Bytes(), c.Offset(), c.Len())
	bufs := append([]*memory.Buffer{valid}, c.Buffers()[1:]...)
	defer valid.Release()
	return array.NewData(c.DataType(), c.Len(), bufs, c.Children(), nulls, c.Offset())
}

// rebuild is a's buffers, as an array of to with children.
func rebuild(a arrow.Array, to arrow.DataType, children []arrow.ArrayData) arrow.Array {
	d := a.Data()
	out := array.NewData(to, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out)
}

// take is values at indices (null where an index is null).
func take(values, indices arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	ctx := compute.WithAllocator(context.Background(), mem)
	return compute.TakeArray(ctx, values, indices)
}

// decodeRunEnds is the values of the run-end encoded a, one a row, as to.
func decodeRunEnds(a arrowtype.RunEndArray, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	values, err := convertArray(a.Values(), to, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	idx := make([]int, 0, a.Len())
	off, n := int64(a.Data().Offset()), int64(a.Len())
	ends := runEnds(a.RunEndsArr())
	for p := a.GetPhysicalOffset(); p < len(ends) && off < int64(a.Data().Offset())+n; p++ {
		end := min(ends[p], int64(a.Data().Offset())+n)
		for ; off < end; off++ {
			idx = append(idx, p)
		}
	}
	if len(idx) != a.Len() {
		return nil, fmt.Errorf("%w: run ends cover %d of %d rows", mapper.ErrInvalidData, len(idx), a.Len())
	}
	// Each index is of a run, below the count of run ends: of their type.
	indices := dictindex.Array(mem, a.RunEndsArr().DataType(), idx)
	defer indices.Release()
	return take(values, indices, mem)
}

// runEnds is the run ends of an array of run-end encoded rows (int16,
// int32 or int64) as int64s.
func runEnds(ends arrow.Array) []int64 {
	if of := runEndsOf(arrowtype.OfType(ends.DataType()).Value); of != nil {
		return of(ends.Data())
	}
	return nil
}

// runEndsAs is runEnds of run ends of Go type T.
func runEndsAs[T int16 | int32 | int64](d arrow.ArrayData) []int64 {
	values := arrowtype.Values[T](d)
	if v, ok := any(values).([]int64); ok {
		return v
	}
	return widen(values)
}

func widen[T int16 | int32 | int64](vals []T) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v)
	}
	return out
}

// encodeRunEnds is values as the run-end encoded to: equal neighbours one
// run.
func encodeRunEnds(values arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	n := values.Len()
	var starts, ends []int
	for i := 0; i < n; {
		j := i + 1
		for j < n && array.SliceEqual(values, int64(i), int64(i+1), values, int64(j), int64(j+1)) {
			j++
		}
		starts = append(starts, i)
		ends = append(ends, j)
		i = j
	}
	endsType, _ := arrowtype.RunEnds(to)
	if r := arrowtype.OfType(endsType); !r.Integer || !r.Signed || uint64(n) > dictindex.Max(endsType) {
		return nil, fmt.Errorf("%w: %d rows overflow run ends of %s", mapper.ErrInvalidData, n, endsType)
	}
	runEnds := dictindex.Array(mem, endsType, ends)
	defer runEnds.Release()
	si := dictindex.Array(mem, endsType, starts) // each start below n, as its end
	defer si.Release()
	runValues, err := take(values, si, mem)
	if err != nil {
		return nil, err
	}
	defer runValues.Release()
	d := array.NewData(to, n, []*memory.Buffer{nil}, []arrow.ArrayData{runEnds.Data(), runValues.Data()}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
