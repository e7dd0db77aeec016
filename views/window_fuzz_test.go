package views_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/views"
)

// FuzzSliceWindows builds a random nested array with arrow-go's builders
// (lists of lists, lists of structs, fixed-size lists, list views, maps,
// dictionaries, run-end encoding, at any array offset) and checks the slice
// fast path against re-validation:
//
//   - views.New accepts every array a builder makes, unless a level that is
//     not nullable reaches a null; then the row it names is the first one
//     that does: the rows before it view cleanly, and it alone does not;
//   - View.Slice(i, j) reads, through the windowed accessors the decoders
//     use (Child, Field, Keys, Values, Gather, Nulls), exactly what a fresh
//     views.New(array.NewSlice(arr, i, j)) reads, and what Value reads;
//   - a slice of a slice is the one slice of the composed window.
func FuzzSliceWindows(f *testing.F) {
	// The first byte picks the top level's kind, the second its nulls;
	// then random choices, seeded.
	f.Add([]byte{})
	for kind := range byte(windowKinds) {
		for flags := range byte(4) {
			r := rand.New(rand.NewPCG(uint64(kind), uint64(flags)))
			seed := []byte{kind, flags}
			for range 200 {
				seed = append(seed, byte(r.Uint32()))
			}
			f.Add(seed)
		}
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		src := &windowSource{b: input}
		shape := src.shape(0)
		arr := shape.build(mem, src, 12-src.intn(12))
		defer arr.Release()
		// An array offset of its own, as any sliced column has.
		lo, hi := src.window(arr.Len())
		base := array.NewSlice(arr, int64(lo), int64(hi))
		defer base.Release()
		typ := shape.viewType()

		whole, err := newViewNoPanic(t, base, typ)
		if err != nil {
			requireFirstNullRow(t, base, typ, err)
			return
		}
		requireSameWindowRows(t, base, whole, whole, "the whole array")
		for range 4 {
			i, j := src.window(whole.Len())
			fast := whole.Slice(i, j)
			sliced := array.NewSlice(base, int64(i), int64(j))
			fresh, err := newViewNoPanic(t, sliced, typ)
			require.NoError(t, err, "a slice of a valid array is valid: rows [%d, %d) of %s", i, j, base)
			requireSameWindowRows(t, sliced, fresh, fast, "rows [%d, %d)", i, j)

			c, d := src.window(fast.Len())
			twice := fast.Slice(c, d)
			once := whole.Slice(i+c, i+d)
			require.Equal(t, once.Window(), twice.Window(), "rows [%d, %d) of rows [%d, %d)", c, d, i, j)
			resliced := array.NewSlice(sliced, int64(c), int64(d))
			requireSameWindowRows(t, resliced, once, twice, "rows [%d, %d) of rows [%d, %d)", c, d, i, j)
			freshTwice, err := newViewNoPanic(t, resliced, typ)
			require.NoError(t, err)
			requireSameWindowRows(t, resliced, freshTwice, twice, "rows [%d, %d) of rows [%d, %d), sliced by arrow-go", c, d, i, j)
			resliced.Release()
			sliced.Release()
		}
	})
}

// requireFirstNullRow checks the only way views.New may reject an array a
// builder made: a null reached at a level that is not nullable, in the row
// the error names and in no row before it.
func requireFirstNullRow(t *testing.T, arr arrow.Array, typ views.Type, err error) {
	t.Helper()
	require.ErrorIs(t, err, views.ErrNull, "views.New rejected an array that arrow-go's builders made")
	var verr *views.Error
	require.ErrorAs(t, err, &verr)
	row := verr.Row
	require.True(t, row >= 0 && row < arr.Len(), "the null's row %d is out of range for %d rows", row, arr.Len())
	before := array.NewSlice(arr, 0, int64(row))
	defer before.Release()
	_, err = newViewNoPanic(t, before, typ)
	require.NoError(t, err, "rows before the first row reaching a null (%d) reach none", row)
	at := array.NewSlice(arr, int64(row), int64(row+1))
	defer at.Release()
	_, err = newViewNoPanic(t, at, typ)
	require.ErrorIs(t, err, views.ErrNull, "row %d alone reaches the null it was blamed for", row)
}

// requireSameWindowRows checks that got reads what want reads, row by row,
// through both Value and the windowed accessors, that each view's
// accessors agree with its own Value, and that Value reads what arrow-go
// reads from arr, the array of those rows.
func requireSameWindowRows(t *testing.T, arr arrow.Array, want, got views.View, format string, args ...any) {
	t.Helper()
	what := fmt.Sprintf(format, args...)
	require.Equal(t, windowArrowRows(arr), valueRows(want), "%s: the view and arrow-go disagree", what)
	require.Equal(t, want.Len(), got.Len(), what)
	wantRows, gotRows := windowRows(want), windowRows(got)
	require.Equal(t, wantRows, gotRows, what)
	require.Equal(t, valueRows(want), wantRows, "the windowed accessors and Value disagree (the fresh view)")
	require.Equal(t, valueRows(got), gotRows, "the windowed accessors and Value disagree (the sliced view)")
	for _, v := range []views.View{want, got} {
		nulls := v.Nulls()
		for i := range v.Len() {
			require.Equal(t, v.IsNull(i), nulls.IsNull(i), "row %d: IsNull and Nulls disagree; %s", i, what)
		}
	}
}

// valueRows is every row of v through View.Value.
func valueRows(v views.View) []any {
	out := make([]any, v.Len())
	for i := range out {
		out[i] = v.Value(i)
	}
	return out
}

// windowRows is every row of v read as the mapper's decoders read it: a
// whole window at a time, through the child windows each node hands out and
// the view's Nulls. It has the same shape as valueRows.
func windowRows(v views.View) []any {
	w := v.Window()
	nulls := v.Nulls()
	out := make([]any, w.Len)
	row := func(i int, value func() any) {
		if nulls.IsValid(i) {
			out[i] = value()
		}
	}
	switch n := v.Node().(type) {
	case *views.Primitive[int64]:
		values := n.Values()[w.Offset:w.End()]
		for i := range out {
			row(i, func() any { return values[i] })
		}
	case *views.Binary[int32]:
		for i := range out {
			row(i, func() any { return string(n.At(w.Offset + i)) })
		}
	case *views.BinaryView:
		for i := range out {
			row(i, func() any { return string(n.At(w.Offset + i)) })
		}
	case *views.List[int32]:
		windowListRows(out, row, n.Offsets()[w.Offset:w.End()+1], windowRows(n.Child(w)))
	case *views.List[int64]:
		windowListRows(out, row, n.Offsets()[w.Offset:w.End()+1], windowRows(n.Child(w)))
	case *views.ListView[int32]:
		for i := range out {
			row(i, func() any { return windowRows(n.Child(w.Offset + i)) })
		}
	case *views.FixedSizeList:
		elems, size := windowRows(n.Child(w)), n.Size()
		for i := range out {
			row(i, func() any { return elems[i*size : (i+1)*size] })
		}
	case *views.Struct:
		fields := make([][]any, n.NumField())
		for k := range fields {
			fields[k] = windowRows(n.Field(k, w))
		}
		names := v.Type().Fields
		for i := range out {
			row(i, func() any {
				m := make(map[string]any, len(fields))
				for k := range fields {
					m[names[k].Name] = fields[k][i]
				}
				return m
			})
		}
	case *views.Map:
		keys, values := windowRows(n.Keys(w)), windowRows(n.Values(w))
		offsets := n.Offsets()[w.Offset : w.End()+1]
		for i := range out {
			row(i, func() any {
				entries := make([][2]any, offsets[i+1]-offsets[i])
				for e := range entries {
					at := int(offsets[i]-offsets[0]) + e
					entries[e] = [2]any{keys[at], values[at]}
				}
				return entries
			})
		}
	case views.Encoded:
		values, idx := n.Gather(w, nil)
		decoded := windowRows(values)
		for i := range out {
			row(i, func() any {
				if idx[i] < 0 {
					return nil
				}
				return decoded[idx[i]]
			})
		}
	default:
		panic("windowRows: no case for " + v.Type().Accept.String())
	}
	return out
}

// windowArrowRows is every row of arr through arrow-go's own accessors, in
// the shape of View.Value: the truth the views are checked against, so that
// a mistake both views share (an array offset ignored, say) shows too.
func windowArrowRows(arr arrow.Array) []any {
	out := make([]any, arr.Len())
	for i := range out {
		out[i] = windowArrowValue(arr, i)
	}
	return out
}

func windowArrowValue(arr arrow.Array, i int) any {
	switch a := arr.(type) {
	case *array.Dictionary:
		if a.IsNull(i) {
			return nil
		}
		return windowArrowValue(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return windowArrowValue(a.Values(), a.GetPhysicalIndex(i))
	}
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Int64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.StringView:
		return a.Value(i)
	case *array.Map: // before ListLike, which a map is too
		start, end := a.ValueOffsets(i)
		entries := a.ListValues().(*array.Struct)
		out := make([][2]any, end-start)
		for e := range out {
			at := int(start) + e
			out[e] = [2]any{windowArrowValue(entries.Field(0), at), windowArrowValue(entries.Field(1), at)}
		}
		return out
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		out := make([]any, end-start)
		for e := range out {
			out[e] = windowArrowValue(a.ListValues(), int(start)+e)
		}
		return out
	case *array.Struct:
		return map[string]any{"a": windowArrowValue(a.Field(0), i), "b": windowArrowValue(a.Field(1), i)}
	}
	panic("windowArrowValue: no case for " + arr.DataType().String())
}

// windowListRows is the rows of a list whose offsets (rebased to the first)
// delimit elems.
func windowListRows[O slice.Offset](out []any, row func(int, func() any), offsets []O, elems []any) {
	for i := range out {
		row(i, func() any { return elems[offsets[i]-offsets[0] : offsets[i+1]-offsets[0]] })
	}
}

// windowKind is a kind of level of the arrays FuzzSliceWindows builds.
type windowKind byte

const (
	windowInt64 windowKind = iota
	windowUtf8
	windowUtf8View
	windowDictionary    // dictionary<int16, utf8>
	windowRunEnds       // run_end_encoded<int32, int64>
	windowList          // list<elem>
	windowLargeList     // large_list<elem>
	windowListView      // list_view<elem>, rows overlapping earlier ones
	windowFixedSizeList // fixed_size_list<elem, 1..3>
	windowStruct        // struct<a: elem, b: elem>
	windowMap           // map<utf8, elem>
	windowKinds
	windowLeaves = windowRunEnds + 1
)

// windowShape is the shape of one level: its kind, its children, and
// whether its view type is nullable and its builder appends nulls.
type windowShape struct {
	kind     windowKind
	elem     *windowShape    // list-likes, map values
	fields   [2]*windowShape // struct fields a and b
	size     int             // fixed_size_list
	nullable bool
	nulls    bool
}

// windowSource reads the fuzz input as small choices; every choice is 0
// once the input runs out.
type windowSource struct{ b []byte }

func (s *windowSource) next() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *windowSource) intn(n int) int { return int(s.next()) % n }

// window is rows [i, j) of n; all of them once the input runs out.
func (s *windowSource) window(n int) (int, int) {
	i := s.intn(n + 1)
	return i, n - s.intn(n-i+1)
}

// shape is a random shape, leaves only from depth 3 down. Nulls are
// allowed at most levels, and usually where they are appended.
func (s *windowSource) shape(depth int) *windowShape {
	kinds := int(windowKinds)
	if depth >= 3 {
		kinds = int(windowLeaves)
	}
	sh := &windowShape{kind: windowKind(s.intn(kinds))}
	flags := s.next()
	sh.nulls = flags&1 != 0
	sh.nullable = flags&6 != 0
	switch sh.kind {
	case windowList, windowLargeList, windowListView, windowMap:
		sh.elem = s.shape(depth + 1)
	case windowFixedSizeList:
		sh.size = 1 + s.intn(3)
		sh.elem = s.shape(depth + 1)
	case windowStruct:
		sh.fields = [2]*windowShape{s.shape(depth + 1), s.shape(depth + 1)}
	}
	return sh
}

func (sh *windowShape) dataType() arrow.DataType {
	switch sh.kind {
	case windowInt64:
		return arrow.PrimitiveTypes.Int64
	case windowUtf8:
		return arrow.BinaryTypes.String
	case windowUtf8View:
		return arrow.BinaryTypes.StringView
	case windowDictionary:
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	case windowRunEnds:
		return arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)
	case windowList:
		return arrow.ListOf(sh.elem.dataType())
	case windowLargeList:
		return arrow.LargeListOf(sh.elem.dataType())
	case windowListView:
		return arrow.ListViewOf(sh.elem.dataType())
	case windowFixedSizeList:
		return arrow.FixedSizeListOf(int32(sh.size), sh.elem.dataType())
	case windowStruct:
		return arrow.StructOf(
			arrow.Field{Name: "a", Type: sh.fields[0].dataType(), Nullable: true},
			arrow.Field{Name: "b", Type: sh.fields[1].dataType(), Nullable: true})
	default:
		return arrow.MapOf(arrow.BinaryTypes.String, sh.elem.dataType())
	}
}

// viewType is the views.Type that accepts the shape's arrays.
func (sh *windowShape) viewType() views.Type {
	t := views.Type{Nullable: sh.nullable}
	switch sh.kind {
	case windowInt64:
		t.Accept = views.AcceptOf(arrow.INT64)
	case windowUtf8, windowUtf8View:
		t.Accept = views.Strings
	case windowDictionary:
		t.Accept = views.Strings | views.Encodings
	case windowRunEnds:
		t.Accept = views.AcceptOf(arrow.INT64) | views.Encodings
	case windowList, windowLargeList, windowListView, windowFixedSizeList:
		t.Accept = views.Lists | views.AcceptOf(arrow.FIXED_SIZE_LIST)
		elem := sh.elem.viewType()
		t.Elem = &elem
	case windowStruct:
		t.Accept = views.AcceptOf(arrow.STRUCT)
		t.Fields = []views.Field{{Name: "a", Type: sh.fields[0].viewType()}, {Name: "b", Type: sh.fields[1].viewType()}}
	case windowMap:
		t.Accept = views.AcceptOf(arrow.MAP)
		key, value := views.Type{Accept: views.Strings}, sh.elem.viewType()
		t.Key, t.Value = &key, &value
	}
	return t
}

// build is an array of n rows of the shape.
func (sh *windowShape) build(mem memory.Allocator, s *windowSource, n int) arrow.Array {
	b := array.NewBuilder(mem, sh.dataType())
	defer b.Release()
	for range n {
		sh.appendRow(b, s)
	}
	return b.NewArray()
}

var windowWords = []string{"", "a", "bc", "a string past the twelve bytes a view inlines", "é漢🙂"}

func (sh *windowShape) appendRow(b array.Builder, s *windowSource) {
	if sh.nulls && s.intn(4) == 0 {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.Int64Builder:
		b.Append(int64(int8(s.next())))
	case *array.StringBuilder:
		b.Append(windowWords[s.intn(len(windowWords))])
	case *array.StringViewBuilder:
		b.Append(windowWords[s.intn(len(windowWords))])
	case *array.BinaryDictionaryBuilder:
		if err := b.AppendString(windowWords[s.intn(len(windowWords))]); err != nil {
			panic(err)
		}
	case *array.RunEndEncodedBuilder:
		// One row, as every parent counts on: a new run, or one more row
		// of the last run.
		if b.Len() > 0 && s.intn(2) == 0 {
			b.ContinueRun(1)
			return
		}
		b.Append(1)
		b.ValueBuilder().(*array.Int64Builder).Append(int64(int8(s.next())))
	case *array.ListBuilder:
		b.Append(true)
		sh.appendElems(b.ValueBuilder(), s, s.intn(4))
	case *array.LargeListBuilder:
		b.Append(true)
		sh.appendElems(b.ValueBuilder(), s, s.intn(4))
	case *array.ListViewBuilder:
		if have := b.ValueBuilder().Len(); have > 0 && s.intn(3) == 0 {
			// A row over elements of earlier rows: list views overlap.
			off := s.intn(have)
			b.AppendDimensions(off, s.intn(have-off+1))
			return
		}
		n := s.intn(4)
		b.AppendWithSize(true, n)
		sh.appendElems(b.ValueBuilder(), s, n)
	case *array.FixedSizeListBuilder:
		b.Append(true)
		sh.appendElems(b.ValueBuilder(), s, sh.size)
	case *array.StructBuilder:
		b.Append(true)
		for k, f := range sh.fields {
			f.appendRow(b.FieldBuilder(k), s)
		}
	case *array.MapBuilder:
		b.Append(true)
		for range s.intn(3) {
			b.KeyBuilder().(*array.StringBuilder).Append(windowWords[s.intn(len(windowWords))])
			sh.elem.appendRow(b.ItemBuilder(), s)
		}
	default:
		panic("appendRow: no case for " + b.Type().String())
	}
}

func (sh *windowShape) appendElems(b array.Builder, s *windowSource, n int) {
	for range n {
		sh.elem.appendRow(b, s)
	}
}
