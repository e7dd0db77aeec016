package views

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/slice"
)

// Node is one validated array in a view tree. Row indexes are the array's
// own: 0 is its first row, whatever its offset in its buffers.
type Node interface {
	// Len is the number of rows of the array.
	Len() int
	// IsNull reports whether row i is null.
	IsNull(i int) bool
	// Value is row i as a plain Go value (nil for a null), for tools and
	// tests; decoders read the typed accessors of each node instead.
	Value(i int) any
}

// builtin is what every node of this package is beyond a Node: the parts of
// it that reachable-null validation walks.
type builtin interface {
	Node
	lvl() *level
	// firstNull is the first null row among rows, or -1.
	firstNull(rows slice.Ranges) int
	// checkChildren validates the non-nullable levels below this node over
	// the rows of it that rows reach.
	checkChildren(rows slice.Ranges) *Error
}

// View is a window of rows over a validated node. It is a small value:
// copying and slicing it allocate nothing.
type View struct {
	node Node
	t    *Type
	w    slice.Window
}

// New validates arr against t and returns the view of all its rows.
//
// Datatype errors are reported before anything else, then malformed
// buffers, then nulls. A null counts only where a row of arr can reach it:
// nulls under a null parent row, outside a list's reach or in a dictionary
// entry no index refers to do not.
func New(arr arrow.Array, t Type) (View, error) {
	return Of(arr, &t)
}

// Of is [New] for a Type the caller keeps, such as a compiled plan: the view
// and its nodes refer to *t, which must not change afterwards. It saves
// copying t for every array.
func Of(arr arrow.Array, t *Type) (View, error) {
	if arr == nil {
		return View{}, (&path{t: t}).fail(ErrInvalidData, -1, "nil array")
	}
	root := path{t: t}
	d := arr.Data()
	if err := checkType(d.DataType(), t, &root, true); err != nil {
		return View{}, err
	}
	n, err := build(d, t, root)
	if err != nil {
		return View{}, err
	}
	if err := checkReachable(n); err != nil {
		return View{}, err
	}
	return View{node: n, t: t, w: slice.Whole(n.Len())}, nil
}

// OfPrefix is [Of] for rows [0, rows) of arr alone, as if arr were sliced
// to them: only what those rows reach below them is validated (a struct's
// fields and a sparse union's children over the same rows, a list's
// elements up to the last row's end, a dense union's children up to the
// last offset its rows select), but for dictionaries and run-end values,
// which are validated whole. So the rows that validate are a prefix: when
// rows [0, k) do, every shorter prefix does, and an error that no prefix
// of rows reaches is no row's. It is how a reader finds the first row an
// error is about, and the rows before it, once Of has failed.
func OfPrefix(arr arrow.Array, t *Type, rows int) (View, error) {
	if arr == nil {
		return View{}, (&path{t: t}).fail(ErrInvalidData, -1, "nil array")
	}
	root := path{t: t, prefix: true}
	d := arr.Data()
	if rows < 0 || rows > d.Len() {
		return View{}, root.fail(ErrInvalidData, -1, "a prefix of %d rows of an array of %d", rows, d.Len())
	}
	if err := checkType(d.DataType(), t, &root, true); err != nil {
		return View{}, err
	}
	n, err := build(within(d, rows), t, root)
	if err != nil {
		return View{}, err
	}
	if err := checkReachable(n); err != nil {
		return View{}, err
	}
	return View{node: n, t: t, w: slice.Whole(n.Len())}, nil
}

// Len is the number of rows in the view.
func (v View) Len() int { return v.w.Len }

// Window is the rows of the node the view covers.
func (v View) Window() slice.Window { return v.w }

// Node is the validated node the view windows.
func (v View) Node() Node { return v.node }

// Type is the logical type the view was validated against.
func (v View) Type() *Type { return v.t }

// IsNull reports whether row i of the view is null.
func (v View) IsNull(i int) bool { return v.node.IsNull(v.at(i)) }

// Value is row i of the view as a plain Go value; see [Node.Value].
func (v View) Value(i int) any { return v.node.Value(v.at(i)) }

func (v View) at(i int) int {
	checkRow(i, v.w.Len)
	return v.w.Offset + i
}

// checkRow panics unless 0 <= i < n, as an index expression does: views
// and columns read bitmaps and buffers that go on past their rows, where a
// row out of range would read another's. It panics with a value, not a
// call, so that the row accessors that call it stay cheap enough to inline.
func checkRow(i, n int) {
	if uint(i) >= uint(n) {
		panic(outOfRange{"row", i, n})
	}
}

// outOfRange is the panic of an index out of range.
type outOfRange struct {
	what string
	i, n int
}

func (e outOfRange) Error() string {
	return fmt.Sprintf("arrowmap: %s %d out of range for %d %ss", e.what, e.i, e.n, e.what)
}

// Slice is the view of rows [i, j). It panics when the bounds are out of
// range, like a Go slice expression. The node is not validated again:
// slicing only moves the window, in O(1) and without allocating.
func (v View) Slice(i, j int) View {
	return View{node: v.node, t: v.t, w: v.w.Slice(i, j)}
}

// level is what every built-in node has: its rows, validity and type.
type level struct {
	n        int
	validity slice.Bitmap
	nulls    int // nulls in the whole array
	dt       arrow.DataType
	p        path
	// clean: no level at or below this one that is not nullable holds a
	// null anywhere, so there is nothing to check.
	clean bool
}

func (l *level) lvl() *level { return l }

// Len is the number of rows of the array.
func (l *level) Len() int { return l.n }

// DataType is the array's datatype (the storage type of an extension).
func (l *level) DataType() arrow.DataType { return l.dt }

// Validity is the array's validity bitmap, indexed by row.
func (l *level) Validity() slice.Bitmap { return l.validity }

// NullN is the number of null rows in the whole array.
func (l *level) NullN() int { return l.nulls }

// IsNull reports whether row i is null.
func (l *level) IsNull(i int) bool { return l.validity.IsNull(i) }

func (l *level) firstNull(rows slice.Ranges) int { return l.validity.FirstNullIn(rows) }

func (l *level) checkChildren(slice.Ranges) *Error { return nil }
