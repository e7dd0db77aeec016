package mapper

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/arrowmap/arrowmap/views"
)

// codec decodes one level of a view tree into one Go type: it knows the
// type's layout, and the decoder specialised for it.
type codec struct {
	typ   reflect.Type
	slice reflect.Type // []typ, to allocate backing arrays of typ
	size  uintptr
	move  mover
	// mutable: typ holds slices, maps or pointers, which rows decoded from
	// one dictionary entry or run must not share.
	mutable bool
	dec     decoder
	// prep, when set, runs over the whole view when the record is viewed:
	// conversions that can fail (As, encoding.TextUnmarshaler) and range
	// checks, so that decoding a batch afterwards cannot fail.
	prep      preparer
	slot      int  // where prep's result goes in a batch's state
	needsPrep bool // prep is set here or below
	path      string
	column    string
}

// decoder writes row i of a view to dst.at(i) for each row. The
// destinations are zeroed beforehand, and a decoder leaves null rows zero.
type decoder interface {
	decode(v views.View, dst strided, c *call)
}

// inPlace is a decoder that allocates nothing and writes each row from the
// same row of its view alone. The plan decodes the top-level columns of
// such decoders a block of rows at a time, every one of them per block, so
// that the block's Go rows are written while they are in cache, not once
// per column over the whole batch.
type inPlace interface {
	decoder
	inPlace()
}

// preparer checks or converts the whole view up front; the result is kept
// in the batch's state for decode.
type preparer interface {
	prepare(v views.View, c *call) (unsafe.Pointer, error)
}

// parent is a decoder with codecs below it, which preparation must reach.
type parent interface {
	prepareChildren(v views.View, c *call) error
}

// call is what one decode needs besides the views: the options that change
// how values are written and what View prepared.
type call struct {
	runOptions
	slots []unsafe.Pointer
	top   bool // preparing a top-level column, whose rows are the record's
}

func newCodec(t reflect.Type) *codec {
	return &codec{
		typ:     t,
		slice:   reflect.SliceOf(t),
		size:    t.Size(),
		move:    moverOf(t),
		mutable: holdsReferences(t),
	}
}

// decodeView decodes every row of v into dst. A dictionary or run-end view
// is decoded by decoding the values it refers to once, then gathering.
func (cd *codec) decodeView(v views.View, dst strided, c *call) {
	if v.Len() == 0 {
		return
	}
	if e, ok := v.Node().(views.Encoded); ok {
		w := v.Window()
		values, idx := e.Gather(w, make([]int, 0, w.Len))
		if cd.mutable {
			// Rows that refer to one entry must not share its slice, map or
			// pointer, or changing one row would change the others.
			for i, k := range idx {
				if k >= 0 {
					cd.decodeView(values.Slice(k, k+1), strided{dst.at(i), cd.size}, c)
				}
			}
			return
		}
		if values.Len() > 2*w.Len+sparseSlack {
			cd.decodeUsedEntries(values, idx, dst, c)
			return
		}
		scratch := cd.newBacking(values.Len())
		cd.decodeView(values, scratch, c)
		for i, k := range idx {
			if k >= 0 {
				cd.move(dst.at(i), scratch.at(k))
			}
		}
		return
	}
	cd.dec.decode(v, dst, c)
}

// sparseSlack is how many more entries than twice the rows a gathered
// window may span before only the entries the rows use are decoded.
const sparseSlack = 64

// decodeUsedEntries decodes rows whose entries idx (in values, -1 for a
// null) are few and far apart: a page of rows over a big dictionary. It
// decodes only the entries used, one run of consecutive ones at a time, so
// that reading a dictionary column page by page costs the rows, not pages
// times entries.
func (cd *codec) decodeUsedEntries(values views.View, idx []int, dst strided, c *call) {
	used := make([]int, 0, len(idx))
	for _, k := range idx {
		if k >= 0 {
			used = append(used, k)
		}
	}
	slices.Sort(used)
	used = slices.Compact(used)
	scratch := cd.newBacking(len(used)) // entry used[j] at j
	for at := 0; at < len(used); {
		end := at + 1
		for end < len(used) && used[end] == used[end-1]+1 {
			end++
		}
		cd.decodeView(values.Slice(used[at], used[end-1]+1), scratch.from(at), c)
		at = end
	}
	for i, k := range idx {
		if k >= 0 {
			j, _ := slices.BinarySearch(used, k)
			cd.move(dst.at(i), scratch.at(j))
		}
	}
}

// prepareView runs the preparers of cd and the codecs below it over v.
func (cd *codec) prepareView(v views.View, c *call) error {
	if !cd.needsPrep {
		return nil
	}
	if e, ok := v.Node().(views.Encoded); ok {
		// Preparation covers every entry, and the rows are no longer the record's.
		top := c.top
		c.top = false
		defer func() { c.top = top }()
		return cd.prepareView(e.Values(), c)
	}
	if cd.prep != nil {
		out, err := cd.prep.prepare(v, c)
		if err != nil {
			return err
		}
		c.slots[cd.slot] = out
	}
	if p, ok := cd.dec.(parent); ok {
		top := c.top
		c.top = top && keepsRows(cd.dec)
		defer func() { c.top = top }()
		return p.prepareChildren(v, c)
	}
	return nil
}

// keepsRows reports whether the children of d are prepared over d's own
// rows, so that a failure below it still names the record's row: a
// pointer's element and a struct's fields are; list elements and map
// entries are not.
func keepsRows(d decoder) bool {
	switch d.(type) {
	case *pointerDecoder, *structDecoder:
		return true
	}
	return false
}

// prepared is the result of cd's preparer for the view being decoded.
func (cd *codec) prepared(c *call) unsafe.Pointer { return c.slots[cd.slot] }

// rowError is a failure of a value in row i of a view during preparation.
func (cd *codec) rowError(kind error, c *call, i int, format string, args ...any) *Error {
	row := -1
	if c.top {
		row = i
	}
	return newError(kind, cd.path, cd.column, row, format, args...)
}
