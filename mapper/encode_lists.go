package mapper

import (
	"cmp"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// Go slices and arrays encoded to Arrow's list layouts and
// fixed_size_list; decode_lists.go reads them.

// listEncoderOf maps []T to a list layout of T and [N]T to
// fixed_size_list<T>(N).
func (c *encodeCompiler) listEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partLayout|partElem); err != nil {
		return nil, nil, err
	}
	var etag tags.Tag
	if tag.Elem != nil {
		etag = *tag.Elem
	}
	name := cmp.Or(etag.Name, "item")
	r, ok := listLayouts.layoutRow(tag)
	if t.Kind() == reflect.Array || ok && r.Layout != arrowtype.List {
		c.belowArrowGo++ // arrow-go builds fixed-size lists and list views
		defer func() { c.belowArrowGo-- }()
	}
	ef, elem, err := c.encoderOf(t.Elem(), etag, false, lv.at.elem(name))
	if err != nil {
		return nil, nil, err
	}
	ef.Name, ef.Metadata = name, metadataOf(etag)
	size := t.Elem().Size()
	if t.Kind() == reflect.Array {
		if (tag.Encoding != tags.EncodingDefault && tag.Encoding != tags.FixedSizeList) || tag.Large || tag.View {
			return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout: it is a fixed_size_list", t, tagLayoutName(tag))
		}
		if t.Len() == 0 {
			return nil, nil, newError(ErrUnsupported, lv.at.path, lv.at.column, -1, "%s has no elements", t)
		}
		return arrow.FixedSizeListOfField(int32(t.Len()), ef), &arrayEncoder{encLevel: lv, n: t.Len(), size: size, elem: elem}, nil
	}
	if !ok {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout (a fixed_size_list needs an array [N]T)", t, tagLayoutName(tag))
	}
	switch {
	case r.Layout == arrowtype.ListView && r.Large:
		return arrow.LargeListViewOfField(ef), &listEncoder[int64]{encLevel: lv, size: size, elem: elem}, nil
	case r.Layout == arrowtype.ListView:
		return arrow.ListViewOfField(ef), &listEncoder[int32]{encLevel: lv, size: size, elem: elem}, nil
	case r.Large:
		return arrow.LargeListOfField(ef), &listEncoder[int64]{encLevel: lv, size: size, elem: elem}, nil
	}
	return arrow.ListOfField(ef), &listEncoder[int32]{encLevel: lv, size: size, elem: elem}, nil
}

// listEncoder writes []T as a list, large_list, list_view or
// large_list_view: the elements of every row go to the element level in
// one batch, and the sizes of the lists to the list builder in another.
type listEncoder[O int32 | int64] struct {
	encLevel
	size uintptr // of an element
	elem encoder
	// Lists and list views alike: the builder made from the schema writes
	// what its layout wants of the sizes.
}

type listWriter[O int32 | int64] struct {
	*listEncoder[O]
	b    columnBuilder
	elem writer
	sliceRows
}

// sliceRows is what a writer of Go slices (lists, a map's entries) reads
// of them: each row's length and validity, and its elements.
type sliceRows struct {
	sizes  []int
	valid  []bool
	nulls  bool
	runs   []valueRun
	values goValues // the elements, stride apart
}

// readSlices reads the slices s holds into r, their elements stride apart,
// failing when they would take a child of base elements past offsets of
// type O.
func readSlices[O int32 | int64](r *sliceRows, s *goValues, stride uintptr, base int) error {
	r.sizes = resize(r.sizes, s.n)
	r.valid = resize(r.valid, s.n)
	var total int
	r.runs, total, r.nulls = sliceRuns(s, r.sizes, r.valid, resize(r.runs, s.n)[:0])
	if err := checkOffsets[O](base, total); err != nil {
		return err
	}
	r.values = goValues{runs: r.runs, stride: stride, n: total, parent: s}
	return nil
}

func (e *listEncoder[O]) newWriter(b columnBuilder) writer {
	return &listWriter[O]{listEncoder: e, b: b, elem: e.elem.newWriter(b.child(0))}
}

func (w *listWriter[O]) prepare(s *goValues) error {
	if err := readSlices[O](&w.sliceRows, s, w.size, w.b.child(0).Len()); err != nil {
		return w.fail(s, s.n-1, err)
	}
	return w.elem.prepare(&w.values)
}

// sliceRuns reads the slices s holds: each one's length into sizes and
// whether it is non-nil into valid, its elements appended to runs as a
// run. It returns the runs, how many elements they hold and whether a
// slice was nil.
func sliceRuns(s *goValues, sizes []int, valid []bool, runs []valueRun) (_ []valueRun, total int, nulls bool) {
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		for j := k; j < k+sp.n; j++ {
			var h sliceHeader // an absent list is a nil slice: null, as slices are nullable
			if sp.p != nil {
				h = *(*sliceHeader)(s.at(sp.p, j-k))
			}
			sizes[j] = h.len
			valid[j] = h.data != nil
			nulls = nulls || h.data == nil
			if h.len > 0 {
				runs = append(runs, valueRun{base: h.data, n: h.len, from: j})
				total += h.len
			}
		}
		k += sp.n
	}
	return runs, total, nulls
}

func (w *listWriter[O]) write() {
	w.b.appendLists(w.sizes, nullsOnly(w.valid, w.nulls))
	w.elem.write()
}

// checkOffsets fails when base+total elements do not fit offsets of type O.
func checkOffsets[O int32 | int64](base, total int) error {
	if unsafe.Sizeof(O(0)) == 4 && base+total > maxOffset32 {
		return overflow("%d elements do not fit 32-bit offsets: use large_list", base+total)
	}
	return nil
}

// arrayEncoder writes [N]T as fixed_size_list<T>(N).
type arrayEncoder struct {
	encLevel
	n    int
	size uintptr // of an element
	elem encoder
}

type arrayWriter struct {
	*arrayEncoder
	b      columnBuilder
	elem   writer
	addrs  []unsafe.Pointer
	valid  []bool
	runs   []valueRun
	values goValues
}

func (e *arrayEncoder) newWriter(b columnBuilder) writer {
	return &arrayWriter{arrayEncoder: e, b: b, elem: e.elem.newWriter(b.child(0))}
}

func (w *arrayWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	w.valid = resize(w.valid, s.n)
	w.runs = resize(w.runs, s.n)
	for k, p := range w.addrs {
		// An absent array is N absent elements: a fixed-size list has them
		// even in a null row.
		w.runs[k] = valueRun{base: p, n: w.n, from: k}
		w.valid[k] = p != nil || !w.nullable
	}
	w.values = goValues{runs: w.runs, stride: w.size, n: s.n * w.n, parent: s}
	return w.elem.prepare(&w.values)
}

func (w *arrayWriter) write() {
	w.b.appendSlots(len(w.valid), w.valid)
	w.elem.write()
}
