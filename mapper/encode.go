package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
)

// Encode writes rows into a new record batch whose schema is SchemaOf[T]:
// one column per field, through a plan compiled once per (T, plan options)
// and cached, as Decode's are; plans built with As are not cached. The
// record must be released by the caller.
//
// A value that does not fit its column (a time.Time out of range for the
// unit, a decimal over its precision, decimal text that is not a number) is
// an *Error naming the field and the row, and no record is built.
//
// Decode gives back the rows Encode wrote, up to what Arrow does not keep: a
// time.Time is floored to its column's unit and comes back in the column's
// zone, a time.Duration is truncated to its unit, decimal text comes back
// in its plain form ("1.5" as "1.50" at scale 2), a pointer to a nil
// pointer, slice or map is null (so nil), and the fields promoted from a
// nil embedded pointer are written as zero values. Map entries are written
// in key order, so equal maps encode equally. Strings go to utf8 as they
// are: Arrow wants UTF-8 there, and Encode does not check it.
func Encode[T any](rows []T, opts ...WriteOption) (arrow.RecordBatch, error) {
	o, err := optionsFor("Encode", encodeOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(reflect.TypeFor[T](), o)
	if err != nil {
		return nil, err
	}
	w := p.writerFor(o.mem)
	defer p.done(w)
	if err := w.append(unsafe.Pointer(unsafe.SliceData(rows)), len(rows)); err != nil {
		return nil, err
	}
	return w.newRecordBatch(), nil
}

// Encoding runs in two passes over the rows of an Append, level by level:
// prepare finds the values of each level and converts those whose
// conversion can fail, straight into the builder's memory past what it
// holds (everything that can fail fails there, before anything is
// appended, so a failed Append leaves the Builder as it was), then write
// appends them, a level at a time. Each level is visited once per Append,
// whatever the nesting: a list level hands the elements of all its rows to
// its element level at once, as runs of consecutive values. Every level
// writes through columnBuilder, whether our builders or arrow-go's build
// it.

// encoder is the plan of one level: what a Go type becomes in Arrow. It is
// immutable and shared by every Builder of the plan.
type encoder interface {
	// newWriter binds the level to the builder of its values.
	newWriter(b columnBuilder) writer
}

// writer is an encoder bound to the builders of one Builder, with the
// scratch memory it reuses from one Append to the next.
type writer interface {
	// prepare takes the values of s, converting now those whose
	// conversion can fail: a value that cannot be encoded is an *Error
	// naming its field and row. s and the values stay put until write.
	prepare(s *goValues) error
	// write appends the values prepare took. It cannot fail.
	write()
}

// encLevel is what every encoder knows of its level: where it is, for
// errors, and whether the Arrow field may hold nulls.
type encLevel struct {
	at       where
	nullable bool
}

// fail is the error for value k of s.
func (l *encLevel) fail(s *goValues, k int, err error) *Error {
	return &Error{Path: l.at.path, Column: l.at.column, Row: s.rowOf(k), Err: err}
}

// validity is what to tell a builder of present: which values are valid,
// nil for all. An absent value is null only where the field is
// nullable; elsewhere it is written as the empty value.
func (l *encLevel) validity(present []bool) []bool {
	if l.nullable {
		return present
	}
	return nil
}

// goValues is where the Go values of one level are, for one Append: in runs
// of consecutive values, or, below a pointer, at addresses. A value can be
// absent: below a nil pointer, in a null row of a list of arrays, … An
// absent value is written as null where the field is nullable, as Arrow's
// empty value (zero, "", an empty list) elsewhere.
type goValues struct {
	runs   []valueRun
	ptrs   []unsafe.Pointer // instead of runs: value k is at ptrs[k]+off, absent when nil
	stride uintptr          // from one value of a run to the next
	off    uintptr          // added to every address: the field being read
	n      int              // values in all
	parent *goValues        // the values these were reached from, for rows
	row    int              // without a parent: the record row of value 0
}

// valueRun is n consecutive values at base, or n absent values when base
// is nil, all reached from value from of the parent.
type valueRun struct {
	base unsafe.Pointer
	n    int
	from int
}

// topValues is the top level: n rows of size bytes at base, the first
// being row first of the record.
func topValues(runs []valueRun, base unsafe.Pointer, n int, size uintptr, first int) goValues {
	runs[0] = valueRun{base: base, n: n}
	return goValues{runs: runs[:1], stride: size, n: n, row: first}
}

// field is the values of the field at offset off of each value.
func (s *goValues) field(off uintptr) goValues {
	f := *s
	f.off += off
	return f
}

// deref is the values the pointers of s point to, a nil pointer's being
// absent. ptrs is scratch memory for the pointers.
func (s *goValues) deref(ptrs []unsafe.Pointer) goValues {
	return goValues{ptrs: gather(s, ptrs), n: s.n, parent: s}
}

// rowOf is the record row value k comes from. It walks runs, so it is for
// errors, not for every value.
func (s *goValues) rowOf(k int) int {
	for s.parent != nil {
		if s.ptrs == nil {
			for _, r := range s.runs {
				if k < r.n {
					k = r.from
					break
				}
				k -= r.n
			}
		}
		s = s.parent
	}
	return s.row + k
}

// span is n consecutive values from p on, s.stride bytes apart, or n
// absent values when p is nil.
type span struct {
	p unsafe.Pointer
	n int
}

// Every walk over the values of a level goes span by span, and does its
// work per value in a loop of its own:
//
//	k := 0 // the index of the span's first value
//	for i := range s.numSpans() {
//		sp := s.span(i)
//		…
//		k += sp.n
//	}
//
// A callback or an iterator per span was slower: the loop bodies are too
// big to inline, and what they share is then reached through pointers.

// numSpans is how many spans s has: one per address, or per run.
func (s *goValues) numSpans() int {
	if s.ptrs != nil {
		return len(s.ptrs)
	}
	return len(s.runs)
}

// span is span i of s.
func (s *goValues) span(i int) span {
	var sp span
	if s.ptrs != nil {
		sp = span{s.ptrs[i], 1}
	} else {
		sp = span{s.runs[i].base, s.runs[i].n}
	}
	if sp.p != nil {
		sp.p = unsafe.Add(sp.p, s.off)
	}
	return sp
}

// at is the address of value j of a span that starts at p. Loops index
// from p rather than step: a pointer stepped past the last value points
// outside its allocation, which checkptr (under -race) and the garbage
// collector reject.
func (s *goValues) at(p unsafe.Pointer, j int) unsafe.Pointer {
	return unsafe.Add(p, uintptr(j)*s.stride)
}

// gather copies the values of s into dst, grown to s.n; an absent value is
// the zero V. Reading V from a value's memory reads named types by their
// layout, and time.Duration as arrow.Duration.
func gather[V any](s *goValues, dst []V) []V {
	dst = resize(dst, s.n)
	size := unsafe.Sizeof(*new(V))
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		out := dst[k : k+sp.n]
		switch {
		case sp.p == nil:
			clear(out)
		case s.stride == size && sp.n >= 16: // then off is 0: the values are back to back
			copy(out, unsafe.Slice((*V)(sp.p), sp.n))
		default:
			for j := range out {
				out[j] = *(*V)(s.at(sp.p, j))
			}
		}
		k += sp.n
	}
	return dst
}

// addresses is where each value of s is, nil for an absent one.
func (s *goValues) addresses(dst []unsafe.Pointer) []unsafe.Pointer {
	dst = resize(dst, s.n)
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		for j := range sp.n {
			dst[k+j] = nil
			if sp.p != nil {
				dst[k+j] = s.at(sp.p, j)
			}
		}
		k += sp.n
	}
	return dst
}

// presence says which values of s are present, nil when all are. buf is
// scratch memory for the answer.
func (s *goValues) presence(buf *[]bool) []bool {
	var present []bool
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		if sp.p == nil && present == nil {
			present = allValid(*buf, s.n)
			*buf = present
		}
		if present != nil {
			for j := range sp.n {
				present[k+j] = sp.p != nil
			}
		}
		k += sp.n
	}
	return present
}

// resize is s with length n, reallocated only when its capacity is short.
func resize[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// allValid is n trues, for the builders whose AppendValues wants a
// validity slice as long as the values.
func allValid(dst []bool, n int) []bool {
	dst = resize(dst, n)
	for i := range dst {
		dst[i] = true
	}
	return dst
}
