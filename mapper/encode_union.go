package mapper

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// unionEncoderOf maps a union struct to a sparse_union (dense_union when
// pinned) of its variants, with their codes. A variant's child is
// nullable when its tag says nullable, or its type is nullable by nature.
func (c *encodeCompiler) unionEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	shape, err := unionShapeOf(t, tag, lv.at, true)
	if err != nil {
		return nil, nil, err
	}
	e := &unionEncoder{encLevel: lv, dense: tag.Union == tags.DenseUnion, code: shape.code, hasCode: shape.hasCode}
	for k := range e.childOf {
		e.childOf[k] = -1
	}
	fields := make([]arrow.Field, len(shape.variants))
	codes := make([]arrow.UnionTypeCode, len(shape.variants))
	named := map[string]string{}
	for j, v := range shape.variants {
		name := v.name
		if c.opts.snakeCase && !v.tagged {
			name = snakeCase(name)
		}
		fat := lv.at.field(v.path, name)
		if other, ok := named[name]; ok {
			return nil, nil, newError(ErrTag, fat.path, fat.column, -1, "%s has child %q too", other, name)
		}
		named[name] = fat.path
		f, enc, err := c.encoderOf(v.typ.Elem(), variantTag(v.tag), false, fat)
		if err != nil {
			return nil, nil, err
		}
		f.Name = name
		fields[j], codes[j] = f, v.code
		e.childOf[v.code] = int8(j)
		e.variants = append(e.variants, unionVariantEncoder{
			at: fat, name: fat.path, offset: v.offset, code: v.code, nullable: f.Nullable, enc: enc,
		})
	}
	if e.dense {
		return arrow.DenseUnionOf(fields, codes), e, nil
	}
	return arrow.SparseUnionOf(fields, codes), e, nil
}

// unionEncoder writes a union struct: the one non-nil variant of each row,
// or, with none, a null in the variant its type_code field says, else in
// the first.
type unionEncoder struct {
	encLevel
	dense    bool
	variants []unionVariantEncoder // by child of the union
	childOf  [128]int8
	code     uintptr
	hasCode  bool
}

type unionVariantEncoder struct {
	at       where
	name     string // the Go field, for errors
	offset   uintptr
	code     int8
	nullable bool
	enc      encoder
}

type unionWriter struct {
	*unionEncoder
	b        columnBuilder
	children []writer
	addrs    []unsafe.Pointer
	codes    []int8
	ptrs     [][]unsafe.Pointer // sparse: the variant's value of every row, nil where it is not set
	runs     [][]valueRun       // dense: the rows that select each variant
	values   []goValues
}

func (e *unionEncoder) newWriter(b columnBuilder) writer {
	w := &unionWriter{unionEncoder: e, b: b, children: make([]writer, len(e.variants)),
		ptrs: make([][]unsafe.Pointer, len(e.variants)), runs: make([][]valueRun, len(e.variants)),
		values: make([]goValues, len(e.variants))}
	for j, v := range e.variants {
		w.children[j] = v.enc.newWriter(b.child(j))
	}
	return w
}

func (w *unionWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	w.codes = resize(w.codes, s.n)
	for j := range w.variants {
		if w.dense {
			w.runs[j] = w.runs[j][:0]
		} else {
			w.ptrs[j] = resize(w.ptrs[j], s.n)
		}
	}
	for k, p := range w.addrs {
		chosen := -1
		for j := range w.variants {
			var value unsafe.Pointer
			if p != nil {
				value = *(*unsafe.Pointer)(unsafe.Add(p, w.variants[j].offset))
			}
			if !w.dense {
				w.ptrs[j][k] = value
			}
			if value == nil {
				continue
			}
			if chosen >= 0 {
				return w.fail(s, k, &detail{kind: ErrInvalidData, msg: fmt.Sprintf("two variants set (%s and %s): a union row holds one",
					w.variants[chosen].name, w.variants[j].name)})
			}
			chosen = j
		}
		if chosen < 0 {
			var err error
			if chosen, err = w.nullVariant(p); err != nil {
				return w.fail(s, k, err)
			}
		}
		w.codes[k] = w.variants[chosen].code
		if w.dense {
			var value unsafe.Pointer
			if p != nil {
				value = *(*unsafe.Pointer)(unsafe.Add(p, w.variants[chosen].offset))
			}
			w.runs[chosen] = append(w.runs[chosen], valueRun{base: value, n: 1, from: k})
		}
	}
	for j := range w.variants {
		if w.dense {
			w.values[j] = goValues{runs: w.runs[j], n: len(w.runs[j]), parent: s}
		} else {
			w.values[j] = goValues{ptrs: w.ptrs[j], n: s.n, parent: s}
		}
		if err := w.children[j].prepare(&w.values[j]); err != nil {
			return err
		}
	}
	return nil
}

// nullVariant is the variant of a row with none set, at p (nil for an
// absent row): the one its type_code field names, else the first. A row
// set to none writes a null, so its child must take one; an absent row
// (below a null parent) writes the child's empty value, as every absent
// value is written.
func (w *unionWriter) nullVariant(p unsafe.Pointer) (int, error) {
	if p == nil {
		return 0, nil
	}
	j := 0
	if w.hasCode {
		code := *(*int8)(unsafe.Add(p, w.code))
		if code < 0 || w.childOf[code] < 0 {
			return 0, &detail{kind: ErrInvalidData, msg: fmt.Sprintf("no variant set, and type code %d is none of the union's codes %s", code, w.codeList())}
		}
		j = int(w.childOf[code])
	}
	if v := w.variants[j]; !v.nullable {
		return 0, &detail{kind: ErrInvalidData, msg: fmt.Sprintf("no variant set, and a null row goes to %s (code %d), which is not nullable", v.name, v.code)}
	}
	return j, nil
}

func (w *unionWriter) codeList() string {
	codes := make([]string, len(w.variants))
	for j, v := range w.variants {
		codes[j] = fmt.Sprint(v.code)
	}
	return "(" + strings.Join(codes, ", ") + ")"
}

func (w *unionWriter) write() {
	w.b.appendUnion(w.codes)
	for _, c := range w.children {
		c.write()
	}
}

// unionBuilder builds sparse and dense union arrays over builders of its
// children.
type unionBuilder struct {
	layout
	dense    bool
	children []columnBuilder
	childOf  [128]int8
	codes    growable
	offsets  growable
	n        int
	next     []int // dense: per child, the values appended before its child gets them
}

func newUnionBuilder(mem memory.Allocator, dt arrow.DataType, newChild func(memory.Allocator, arrow.DataType) columnBuilder) *unionBuilder {
	ut := dt.(arrow.UnionType)
	b := &unionBuilder{layout: layout{dt}, dense: ut.Mode() == arrow.DenseMode, codes: growable{mem: mem}, offsets: growable{mem: mem}}
	for k := range b.childOf {
		b.childOf[k] = -1
	}
	for j, f := range ut.Fields() {
		b.children = append(b.children, newChild(mem, f.Type))
		b.childOf[ut.TypeCodes()[j]] = int8(j)
	}
	b.next = make([]int, len(b.children))
	return b
}

func (b *unionBuilder) Len() int                  { return b.n }
func (b *unionBuilder) child(i int) columnBuilder { return b.children[i] }

// appendUnion appends rows of type codes codes; their values are the
// next the children are given: in a sparse union one of every child for
// each row, in a dense union one of the selected child.
func (b *unionBuilder) appendUnion(codes []int8) {
	buf := b.codes.grow(b.n + len(codes))
	copy(buf[b.n:], unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(codes))), len(codes)))
	if b.dense {
		raw := b.offsets.grow((b.n + len(codes)) * 4)
		offsets := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(raw))), b.n+len(codes))[b.n:]
		for j, c := range b.children {
			b.next[j] = c.Len()
		}
		for k, code := range codes {
			j := b.childOf[code]
			offsets[k] = int32(b.next[j])
			b.next[j]++
		}
	}
	b.n += len(codes)
}

func (b *unionBuilder) NewArray() arrow.Array {
	buffers := []*memory.Buffer{nil, b.codes.take(b.n)}
	if b.dense {
		buffers = append(buffers, b.offsets.take(b.n*4))
	}
	children := make([]arrow.ArrayData, len(b.children))
	for j, c := range b.children {
		arr := c.NewArray()
		defer arr.Release()
		children[j] = arr.Data()
	}
	n := b.n
	b.n = 0
	return arrayOf(b.dt, n, 0, buffers, children)
}

func (b *unionBuilder) Release() {
	b.codes.release()
	b.offsets.release()
	for _, c := range b.children {
		c.Release()
	}
}

// sparseUnionAdapter adapts arrow-go's sparse union builder, for a union
// below a level arrow-go builds: its children are arrow-go's, so the
// codes go to arrow-go's builder too.
type sparseUnionAdapter struct {
	arrowGoBuilder
	ub array.UnionBuilder
}

func (a *sparseUnionAdapter) appendUnion(codes []int8) {
	a.ub.Reserve(len(codes))
	for _, code := range codes {
		a.ub.Append(code)
	}
}

// adaptUnion puts a union builder of r behind columnBuilder. A union
// arrow-go builds below another of its builders must be sparse: arrow-go's
// dense union builder takes each row's offset from its child's length as
// the row is appended, but writers give a child its values a level at a
// time. The plan refuses the others (denseUnionBelowArrowGo).
func adaptUnion(mem memory.Allocator, b array.Builder, r *arrowtype.Row, base arrowGoBuilder, newValues func(memory.Allocator, arrow.DataType) columnBuilder, own bool) columnBuilder {
	if !r.Dense {
		ub := b.(array.UnionBuilder)
		for j := range b.Type().(arrow.UnionType).Fields() {
			base.children = append(base.children, adaptArrowGo(mem, ub.Child(j), newValues, false))
		}
		return &sparseUnionAdapter{arrowGoBuilder: base, ub: ub}
	}
	if !own {
		panic(fmt.Sprintf("arrowmap: a %s below a level arrow-go builds", b.Type()))
	}
	// Nothing reads arrow-go's builder of a top-level column: ours
	// builds it, over arrow-go's builders of its children.
	b.Release()
	return newUnionBuilder(mem, b.Type(), func(mem memory.Allocator, dt arrow.DataType) columnBuilder {
		return adaptArrowGo(mem, array.NewBuilder(mem, dt), newValues, true)
	})
}

// denseUnionBelowArrowGo is an ErrUnsupported when a dense union of dt is
// below a level that arrow-go's builders build (a map, fixed-size list,
// list view, dictionary or run-end encoding), which adaptUnion cannot
// write.
func denseUnionBelowArrowGo(dt arrow.DataType, below bool, at where) error {
	r := arrowtype.OfType(dt)
	if r.Dense && below {
		return newError(ErrUnsupported, at.path, at.column, -1, "a dense_union below a map, fixed-size list, list view, dictionary or run-end level: make it sparse_union")
	}
	below = below || !buildsChildren(r)
	for _, f := range arrowtype.Children(dt) {
		if err := denseUnionBelowArrowGo(f.Type, below, at); err != nil {
			return err
		}
	}
	return nil
}
