package views

import "github.com/arrowmap/arrowmap/slice"

// checkNulls checks that no row of rows reaches a null at a level of n that
// is not nullable. The error's Row is the node's own row.
func checkNulls(n builtin, rows slice.Ranges) *Error {
	l := n.lvl()
	if l.clean || len(rows) == 0 {
		return nil
	}
	if !l.p.t.Nullable {
		if i := n.firstNull(rows); i >= 0 {
			return l.p.fail(ErrNull, i, "a null where the type is not nullable")
		}
	}
	return n.checkChildren(rows)
}

// checkReachable checks the nulls every row of root reaches and reports the
// first row that reaches one. Reachability is monotone in a prefix of rows,
// so the first bad row is found by bisection over prefixes: no mapping back
// up through offsets, list views or dictionaries, which need not be ordered.
func checkReachable(root builtin) error {
	n := root.Len()
	prefix := func(m int) *Error { return checkNulls(root, slice.Ranges{slice.Whole(m)}) }
	if root.lvl().clean || prefix(n) == nil {
		return nil
	}
	lo, hi := 1, n // prefix(hi) fails, prefix(lo-1) does not
	for lo < hi {
		if mid := lo + (hi-lo)/2; prefix(mid) != nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	err := prefix(lo)
	err.Row = lo - 1
	return err
}
