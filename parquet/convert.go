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
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
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
	// What a is encoded as, decoded first.
	switch f := from.(type) {
	case *arrow.DictionaryType:
		if t, ok := to.(*arrow.DictionaryType); ok {
			return convertDictionary(a.(*array.Dictionary), t, mem)
		}
		d := a.(*array.Dictionary)
		values, err := convertArray(d.Dictionary(), to, mem)
		if err != nil {
			return nil, err
		}
		defer values.Release()
		return take(values, d.Indices(), mem)
	case *arrow.RunEndEncodedType:
		if t, ok := to.(*arrow.RunEndEncodedType); ok && arrow.TypeEqual(f, t) {
			a.Retain()
			return a, nil
		}
		if _, ok := to.(*arrow.RunEndEncodedType); !ok {
			return decodeRunEnds(a.(*array.RunEndEncoded), to, mem)
		}
	case arrow.ExtensionType:
		if arrow.TypeEqual(f, to) {
			a.Retain()
			return a, nil
		}
		return convertArray(a.(array.ExtensionArray).Storage(), to, mem)
	}
	switch t := to.(type) {
	case *arrow.DictionaryType:
		return encodeDictionary(a, t, mem)
	case *arrow.RunEndEncodedType:
		values, err := convertArray(a, t.Encoded(), mem)
		if err != nil {
			return nil, err
		}
		defer values.Release()
		return encodeRunEnds(values, t, mem)
	case arrow.ExtensionType:
		storage, err := convertArray(a, t.StorageType(), mem)
		if err != nil {
			return nil, err
		}
		defer storage.Release()
		return array.NewExtensionArrayWithStorage(t, storage), nil
	}
	switch fid, tid := from.ID(), to.ID(); {
	case fid == arrow.DATE64 && tid == arrow.DATE32:
		return rescale[int64, int32](a, to, mem, 1, arrowcheck.MsPerDay, "date64 %d ms is not a whole day")
	case fid == arrow.DATE32 && tid == arrow.DATE64:
		return rescale[int32, int64](a, to, mem, arrowcheck.MsPerDay, 1, "")
	case fid == arrow.TIME32 && tid == arrow.TIME32, fid == arrow.TIMESTAMP && tid == arrow.TIMESTAMP:
		fu, tu := unitOf(from), unitOf(to)
		switch {
		case fu == tu:
			return retyped(a, to), nil
		case fid == arrow.TIME32 && fu == arrow.Second && tu == arrow.Millisecond:
			return rescale[int32, int32](a, to, mem, 1000, 1, "")
		case fid == arrow.TIME32 && fu == arrow.Millisecond && tu == arrow.Second:
			return rescale[int32, int32](a, to, mem, 1, 1000, "time32 %d ms is not a whole second")
		case fu == arrow.Second && tu == arrow.Millisecond:
			return rescale[int64, int64](a, to, mem, 1000, 1, "")
		case fu == arrow.Millisecond && tu == arrow.Second:
			return rescale[int64, int64](a, to, mem, 1, 1000, "timestamp %d ms is not a whole second")
		}
	case fid == arrow.INT64 && tid == arrow.DURATION, fid == arrow.DURATION && tid == arrow.INT64,
		fid == arrow.INT32 && tid == arrow.INTERVAL_MONTHS, fid == arrow.INTERVAL_MONTHS && tid == arrow.INT32:
		return retyped(a, to), nil
	case fid == arrow.DECIMAL32 || fid == arrow.DECIMAL64 || tid == arrow.DECIMAL32 || tid == arrow.DECIMAL64:
		if fid != tid && isDecimal(fid) && isDecimal(tid) {
			return convertDecimal(a, to, mem)
		}
	case isBinaryLike(fid) && isBinaryLike(tid) && fid != tid:
		return convertBinary(a, to, mem)
	case fid == arrow.FIXED_SIZE_LIST && (tid == arrow.LIST || tid == arrow.LARGE_LIST):
		return fixedAsList(a.(*array.FixedSizeList), to, mem)
	case isListLike(fid) && isListLike(tid):
		return convertList(a, to, mem)
	case fid == arrow.STRUCT && tid == arrow.STRUCT, fid == arrow.FIXED_SIZE_LIST && tid == arrow.FIXED_SIZE_LIST:
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

func unitOf(dt arrow.DataType) arrow.TimeUnit {
	if t, ok := dt.(arrow.TemporalWithUnit); ok {
		return t.TimeUnit()
	}
	return arrow.Nanosecond
}

func isDecimal(id arrow.Type) bool {
	return id == arrow.DECIMAL32 || id == arrow.DECIMAL64 || id == arrow.DECIMAL128 || id == arrow.DECIMAL256
}

func isBinaryLike(id arrow.Type) bool {
	switch id {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW, arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		return true
	}
	return false
}

func isListLike(id arrow.Type) bool {
	switch id {
	case arrow.LIST, arrow.LARGE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW, arrow.MAP:
		return true
	}
	return false
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
	b := array.NewBuilder(mem, to)
	defer b.Release()
	b.Reserve(a.Len())
	prec := to.(arrow.DecimalType).GetPrecision()
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		var v decimal.Decimal128
		switch s := a.(type) {
		case *array.Decimal32:
			v = decimal128.FromI64(int64(s.Value(i)))
		case *array.Decimal64:
			v = decimal128.FromI64(int64(s.Value(i)))
		case *array.Decimal128:
			v = s.Value(i)
		default:
			return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
		}
		if !v.FitsInPrecision(prec) {
			return nil, &rowError{i, fmt.Errorf("%w: %s does not fit %s", mapper.ErrInvalidData, v.ToString(to.(arrow.DecimalType).GetScale()), to)}
		}
		switch b := b.(type) {
		case *array.Decimal32Builder:
			b.Append(decimal.Decimal32(int32(int64(v.LowBits()))))
		case *array.Decimal64Builder:
			b.Append(decimal.Decimal64(int64(v.LowBits())))
		case *array.Decimal128Builder:
			b.Append(v)
		default:
			return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
		}
	}
	return b.NewArray(), nil
}

// convertBinary is a, of text or binary, as to: views to offsets and back.
func convertBinary(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	var value func(int) string
	switch s := a.(type) {
	case *array.String:
		value = s.Value
	case *array.LargeString:
		value = s.Value
	case *array.StringView:
		value = s.Value
	case *array.Binary:
		value = s.ValueString
	case *array.LargeBinary:
		value = s.ValueString
	case *array.BinaryView:
		value = s.ValueString
	default:
		return nil, fmt.Errorf("%w: cannot convert %s to %s", mapper.ErrInvalidData, a.DataType(), to)
	}
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
		if (to.ID() == arrow.STRING || to.ID() == arrow.BINARY) && total > math.MaxInt32 {
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
	fromView := a.DataType().ID() == arrow.LIST_VIEW || a.DataType().ID() == arrow.LARGE_LIST_VIEW
	toView := to.ID() == arrow.LIST_VIEW || to.ID() == arrow.LARGE_LIST_VIEW
	elemType := to.(arrow.ListLikeType).ElemField().Type
	if _, ok := to.(*arrow.MapType); ok {
		elemType = to.(*arrow.MapType).Elem()
	}
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
		if err != nil {
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
	large := to.ID() == arrow.LARGE_LIST
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
	offBuf := memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	if large {
		offBuf.Resize((n + 1) * 8)
		copy(arrow.Int64Traits.CastFromBytes(offBuf.Bytes()), offsets)
	} else {
		offBuf.Resize((n + 1) * 4)
		dst := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
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
func fixedAsList(a *array.FixedSizeList, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	n, size := a.Len(), int64(a.DataType().(*arrow.FixedSizeListType).Len())
	start := int64(a.Data().Offset()) * size // a's rows are child rows [start, start+n*size)
	large := to.ID() == arrow.LARGE_LIST
	if !large && start+int64(n)*size > math.MaxInt32 {
		return nil, fmt.Errorf("%w: a fixed-size list of more than 2^31 elements", mapper.ErrUnsupported)
	}
	// The same rows as a list whose null rows hold their elements, which
	// convertList drops.
	elem := a.DataType().(*arrow.FixedSizeListType).ElemField()
	var through arrow.DataType = arrow.ListOfField(elem)
	offBuf := memory.NewResizableBuffer(mem)
	defer offBuf.Release()
	if large {
		through = arrow.LargeListOfField(elem)
		offBuf.Resize((n + 1) * 8)
		offs := arrow.Int64Traits.CastFromBytes(offBuf.Bytes())
		for i := range offs {
			offs[i] = start + int64(i)*size
		}
	} else {
		offBuf.Resize((n + 1) * 4)
		offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
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
	if to.ID() == arrow.LARGE_LIST_VIEW {
		offBuf.Resize(n * 8)
		sizeBuf.Resize(n * 8)
		offs, sizes := arrow.Int64Traits.CastFromBytes(offBuf.Bytes()), arrow.Int64Traits.CastFromBytes(sizeBuf.Bytes())
		for i := range n {
			s, e := l.ValueOffsets(i)
			offs[i], sizes[i] = s, e-s
		}
	} else {
		offBuf.Resize(n * 4)
		sizeBuf.Resize(n * 4)
		offs, sizes := arrow.Int32Traits.CastFromBytes(offBuf.Bytes()), arrow.Int32Traits.CastFromBytes(sizeBuf.Bytes())
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
// holds the element it names.
func nestedRow(err error, l array.ListLike) error {
	var re *rowError
	if !errors.As(err, &re) {
		return err
	}
	for i := range l.Len() {
		if s, e := l.ValueOffsets(i); int64(re.row) >= s && int64(re.row) < e {
			return &rowError{i, re.err}
		}
	}
	return err
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
	masks := to.ID() == arrow.STRUCT && a.NullN() > 0
	for i, c := range d.Children() {
		if masks {
			if m := underNulls(a, c, mem); m != nil {
				defer m.Release()
				c = m
			}
		}
		ca := array.MakeFromData(c)
		keep = append(keep, ca)
		cc, err := convertArray(ca, fields[i].Type, mem)
		if err != nil {
			var re *rowError
			if errors.As(err, &re) {
				row := re.row - d.Offset()
				if ft, ok := to.(*arrow.FixedSizeListType); ok {
					row = re.row/int(ft.Len()) - d.Offset()
				}
				return nil, &rowError{row, re.err}
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

// underNulls is c, a child of the struct a of a nested type, null too in
// the rows where a is null, nil when c is not nested: a list (or a
// fixed-size list, a map) under a null struct row may hold elements,
// which pqarrow refuses (it visits none of them); null, they are dropped
// like a null list row's (convertList).
func underNulls(a arrow.Array, c arrow.ArrayData, mem memory.Allocator) arrow.ArrayData {
	if _, nested := c.DataType().(arrow.NestedType); !nested || a.Data().Offset()+a.Len() > c.Len() {
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
func decodeRunEnds(a *array.RunEndEncoded, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	values, err := convertArray(a.Values(), to, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	idx := array.NewInt64Builder(mem)
	defer idx.Release()
	idx.Reserve(a.Len())
	off, n := int64(a.Data().Offset()), int64(a.Len())
	ends := a.RunEndsArr()
	for p := a.GetPhysicalOffset(); p < ends.Len() && off < int64(a.Data().Offset())+n; p++ {
		var end int64
		switch e := ends.(type) {
		case *array.Int16:
			end = int64(e.Value(p))
		case *array.Int32:
			end = int64(e.Value(p))
		case *array.Int64:
			end = e.Value(p)
		}
		end = min(end, int64(a.Data().Offset())+n)
		for ; off < end; off++ {
			idx.UnsafeAppend(int64(p))
		}
	}
	if idx.Len() != a.Len() {
		return nil, fmt.Errorf("%w: run ends cover %d of %d rows", mapper.ErrInvalidData, idx.Len(), a.Len())
	}
	indices := idx.NewArray()
	defer indices.Release()
	return take(values, indices, mem)
}

// encodeRunEnds is values as the run-end encoded to: equal neighbours one
// run.
func encodeRunEnds(values arrow.Array, to *arrow.RunEndEncodedType, mem memory.Allocator) (arrow.Array, error) {
	n := values.Len()
	starts := array.NewInt64Builder(mem)
	defer starts.Release()
	var ends []int64
	for i := 0; i < n; {
		j := i + 1
		for j < n && array.SliceEqual(values, int64(i), int64(i+1), values, int64(j), int64(j+1)) {
			j++
		}
		starts.Append(int64(i))
		ends = append(ends, int64(j))
		i = j
	}
	limit := map[arrow.Type]int64{arrow.INT16: math.MaxInt16, arrow.INT32: math.MaxInt32, arrow.INT64: math.MaxInt64}[to.RunEnds().ID()]
	if int64(n) > limit {
		return nil, fmt.Errorf("%w: %d rows overflow run ends of %s", mapper.ErrInvalidData, n, to.RunEnds())
	}
	eb := array.NewBuilder(mem, to.RunEnds())
	defer eb.Release()
	for _, e := range ends {
		switch b := eb.(type) {
		case *array.Int16Builder:
			b.Append(int16(e))
		case *array.Int32Builder:
			b.Append(int32(e))
		case *array.Int64Builder:
			b.Append(e)
		}
	}
	runEnds := eb.NewArray()
	defer runEnds.Release()
	si := starts.NewArray()
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

// convertDictionary is the dictionary a as the dictionary to: its values
// converted, its indices of to's index type, and null where the entry they
// point to is null, so that the dictionary holds no null (which pqarrow
// does not write, and Parquet's dictionary pages have no place for).
func convertDictionary(a *array.Dictionary, to *arrow.DictionaryType, mem memory.Allocator) (arrow.Array, error) {
	dict := a.Dictionary()
	values, err := convertArray(dict, to.ValueType, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	if dict.NullN() == 0 && arrow.TypeEqual(a.DataType().(*arrow.DictionaryType).IndexType, to.IndexType) {
		return array.NewDictionaryArray(to, a.Indices(), values), nil
	}
	if values.NullN() > 0 {
		vd := values.Data()
		bufs := append([]*memory.Buffer{nil}, vd.Buffers()[1:]...)
		nd := array.NewData(vd.DataType(), vd.Len(), bufs, vd.Children(), 0, vd.Offset())
		defer nd.Release()
		values.Release()
		values = array.MakeFromData(nd)
	}
	indices, err := indexArray(to.IndexType, a.Len(), func(i int) (int, bool) {
		if a.IsNull(i) || dict.IsNull(a.GetValueIndex(i)) {
			return 0, false
		}
		return a.GetValueIndex(i), true
	}, mem)
	if err != nil {
		return nil, err
	}
	defer indices.Release()
	return array.NewDictionaryArray(to, indices, values), nil
}

// encodeDictionary is a as the dictionary to: its values looked up, for
// values arrow-go's dictionary builder takes, else each value its own
// entry.
func encodeDictionary(a arrow.Array, to *arrow.DictionaryType, mem memory.Allocator) (arrow.Array, error) {
	values, err := convertArray(a, to.ValueType, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	if flatDictionary(to.ValueType) {
		b := array.NewDictionaryBuilder(mem, to)
		defer b.Release()
		if err := b.AppendArray(values); err != nil {
			return nil, err
		}
		return b.NewArray(), nil
	}
	indices, err := indexArray(to.IndexType, a.Len(), func(i int) (int, bool) { return i, values.IsValid(i) }, mem)
	if err != nil {
		return nil, err
	}
	defer indices.Release()
	return array.NewDictionaryArray(to, indices, values), nil
}

// indexArray is n indices of dt, index(i) for each (null when not ok).
func indexArray(dt arrow.DataType, n int, index func(int) (int, bool), mem memory.Allocator) (arrow.Array, error) {
	limit := dictindex.Max(dt)
	indices := make([]int, n)
	for i := range indices {
		v, ok := index(i)
		switch {
		case !ok:
			v = -1
		case uint64(v) > limit:
			return nil, &rowError{i, fmt.Errorf("%w: dictionary index %d overflows %s", mapper.ErrInvalidData, v, dt)}
		}
		indices[i] = v
	}
	return dictindex.Array(mem, dt, indices), nil
}
