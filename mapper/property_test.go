package mapper_test

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/mapper"
)

// The property: for a random schema, random data and the Go type built for
// them at run time, mapper.DecodeTo decodes exactly what the reference
// decoder of reference_test.go does.
//
// Reproduce a failure with the seed and case it prints:
//
//	go test ./mapper -run TestDecodeAgreesWithAReferenceDecoder -arrowmap.seed=S -arrowmap.case=I
//
// or ARROWMAP_SEED=S in the environment. -arrowmap.cases=N runs more cases.
var (
	propertySeed  = flag.Int64("arrowmap.seed", 0, "seed of the property tests (0: $ARROWMAP_SEED, else a fixed default)")
	propertyCase  = flag.Int("arrowmap.case", -1, "run only this case of the property tests")
	propertyCases = flag.Int("arrowmap.cases", 0, "number of cases of the property tests (0: the default)")
)

const (
	defaultPropertySeed  = 20261130
	defaultPropertyCases = 500
)

// decodeRegressions are cases that once failed, run first whatever the seed.
var decodeRegressions = []struct {
	seed  int64
	index int
	what  string
}{}

func TestDecodeAgreesWithAReferenceDecoder(t *testing.T) {
	seed := propertySeedFor(t)
	cases := defaultPropertyCases
	if *propertyCases > 0 {
		cases = *propertyCases
	}
	t.Logf("seed %d, %d cases (-arrowmap.seed=%d or ARROWMAP_SEED=%d to reproduce)", seed, cases, seed, seed)
	for _, r := range decodeRegressions {
		if msg := runDecodeCase(r.seed, r.index); msg != "" {
			t.Fatalf("regression (seed %d, case %d: %s) fails again:\n%s", r.seed, r.index, r.what, msg)
		}
	}
	first, last := 0, cases
	if *propertyCase >= 0 {
		first, last = *propertyCase, *propertyCase+1
	}
	for i := first; i < last; i++ {
		if msg := runDecodeCase(seed, i); msg != "" {
			t.Logf("seed %d, case %d", seed, i)
			t.Fatalf("seed %d, case %d fails (rerun alone: -arrowmap.seed=%d -arrowmap.case=%d):\n%s", seed, i, seed, i, msg)
		}
	}
}

// propertySeedFor is the seed of this run: the flag, else $ARROWMAP_SEED,
// else the fixed default.
func propertySeedFor(t *testing.T) int64 {
	if *propertySeed != 0 {
		return *propertySeed
	}
	if s := os.Getenv("ARROWMAP_SEED"); s != "" {
		seed, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("ARROWMAP_SEED=%q: %v", s, err)
		}
		return seed
	}
	return defaultPropertySeed
}

// runDecodeCase generates case index of seed, decodes it with the mapper
// and the reference, and describes the first difference, or returns "".
func runDecodeCase(seed int64, index int, extra ...mapper.ReadOption) (failure string) {
	g := &generator{
		r:          rand.New(rand.NewPCG(uint64(seed), uint64(index))),
		listViews:  map[array.Builder][][2]int{},
		dictFilled: map[array.Builder]bool{},
	}
	var c decodeCase
	defer func() {
		if p := recover(); p != nil {
			failure = fmt.Sprintf("panic: %v\n%s\n%s", p, c.describe(), debug.Stack())
		}
	}()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	g.mem = mem
	c = g.decodeCase()
	rec := g.record(&c)
	opts := slices.Clone(extra)
	if c.zeroCopy {
		opts = append(opts, mapper.ZeroCopy())
	}
	if c.parallelism > 1 {
		opts = append(opts, mapper.Parallelism(c.parallelism))
	}
	got, err := mapper.DecodeTo(c.rowType, rec, opts...)
	if err != nil {
		rec.Release()
		return fmt.Sprintf("DecodeTo: %v\n%s", err, c.describe())
	}
	want := referenceRows(c.rowType, rec)
	// With ZeroCopy the rows alias the record: compare before releasing it.
	diff := refFirstDifference("rows", got, want)
	rec.Release()
	if diff != "" {
		return diff + "\n" + c.describe()
	}
	if n := mem.CurrentAlloc(); n != 0 {
		return fmt.Sprintf("%d bytes of Arrow memory still allocated\n%s", n, c.describe())
	}
	return ""
}

// decodeCase is one generated case.
type decodeCase struct {
	columns     []*node
	schema      *arrow.Schema
	rowType     reflect.Type
	n           int // rows built
	lo, hi      int // rows decoded: the record is sliced to [lo, hi) when sliced
	sliced      bool
	zeroCopy    bool
	parallelism int
}

func (c *decodeCase) describe() string {
	if c.schema == nil {
		return "(no schema yet)"
	}
	return fmt.Sprintf("schema: %s\nGo type: %s\nrows %d, decoded [%d, %d) sliced=%v zeroCopy=%v parallelism=%d",
		c.schema, c.rowType, c.n, c.lo, c.hi, c.sliced, c.zeroCopy, c.parallelism)
}

// kind is what a level of a generated schema is.
type kind uint8

const (
	kBool kind = iota
	kInt8
	kInt16
	kInt32
	kInt64
	kUint8
	kUint16
	kUint32
	kUint64
	kFloat32
	kFloat64
	kUtf8
	kLargeUtf8
	kUtf8View
	kBinary
	kLargeBinary
	kBinaryView
	kFixedSizeBinary
	kDate32
	kTimestamp
	kDuration
	kDecimal128
	kMonthInterval
	kDayTimeInterval
	kMonthDayNanoInterval
	kDictionary    // dictionary<int32, utf8>
	kRunEndEncoded // run_end_encoded<int32, int64 or utf8>
	kList
	kLargeList
	kListView
	kLargeListView
	kFixedSizeList
	kStruct
	kMap // map<utf8, elem>
	kSparseUnion
	kDenseUnion
	numKinds
)

// firstNested is the first kind with children.
const firstNested = kList

// maxNesting is how many nested levels a column may have above its leaves.
const maxNesting = 3

// parallelRows is the fewest rows the mapper decodes on a goroutine of
// their own (its minParallelRows).
const parallelRows = 4096

// node is one level of a generated schema.
type node struct {
	kind     kind
	dt       arrow.DataType
	name     string // in the schema or the parent struct
	nullable bool   // rows may reach a null here
	elem     *node  // list element, map value
	fields   []*node
	size     int // fixed_size_binary width, fixed_size_list length
	unit     arrow.TimeUnit
	tz       string
	prec     int32
	scale    int32
	reeUtf8  bool // run_end_encoded values are utf8, else int64
	codes    []arrow.UnionTypeCode
}

func (n *node) isUnion() bool { return n.kind == kSparseUnion || n.kind == kDenseUnion }

type generator struct {
	r          *rand.Rand
	mem        memory.Allocator
	maxNesting int
	// listViews holds, per list view builder, the child ranges of rows
	// that decoded rows reach: later reachable rows may share them, so the
	// children overlap and come out of order.
	listViews  map[array.Builder][][2]int
	dictFilled map[array.Builder]bool
}

func (g *generator) coin(p float64) bool { return g.r.Float64() < p }
func (g *generator) intn(n int) int      { return g.r.IntN(n) }

func (g *generator) decodeCase() decodeCase {
	var c decodeCase
	// Now and then a record long enough for Parallelism to split, over a
	// flatter schema to keep the reference decoder quick.
	c.parallelism = 1
	g.maxNesting = maxNesting
	columns := 1 + g.intn(5)
	if g.coin(0.005) {
		c.parallelism = 2 + g.intn(3)
		g.maxNesting = 1
		columns = 1 + g.intn(2)
	}
	fields := make([]arrow.Field, columns)
	for i := range fields {
		n := g.node(0)
		n.name = fmt.Sprintf("c%d", i)
		c.columns = append(c.columns, n)
		fields[i] = arrow.Field{Name: n.name, Type: n.dt, Nullable: n.nullable}
	}
	c.schema = arrow.NewSchema(fields, nil)
	c.rowType = g.structType(c.columns)
	c.n = g.intn(41)
	c.lo, c.hi = 0, c.n
	switch {
	case c.parallelism > 1:
		c.n = 2*parallelRows + 200 + g.intn(parallelRows/8)
		c.lo, c.hi = 0, c.n
		if g.coin(0.5) {
			c.sliced = true
			c.lo, c.hi = g.intn(100), c.n-g.intn(100)
		}
	case g.coin(0.4):
		c.sliced = true
		c.lo = g.intn(c.n + 1)
		c.hi = c.lo + g.intn(c.n-c.lo+1)
	}
	c.zeroCopy = g.coin(0.3)
	return c
}

func (g *generator) node(depth int) *node {
	n := &node{nullable: g.coin(0.5)}
	if depth < g.maxNesting && g.coin(0.4) {
		n.kind = firstNested + kind(g.intn(int(numKinds-firstNested)))
	} else {
		n.kind = kind(g.intn(int(firstNested)))
	}
	switch n.kind {
	case kList, kLargeList, kListView, kLargeListView, kMap:
		n.elem = g.elemNode(depth + 1)
	case kFixedSizeList:
		n.size = 1 + g.intn(3) // arrow-go has no fixed_size_list(0)
		n.elem = g.elemNode(depth + 1)
	case kSparseUnion, kDenseUnion:
		// A union has no validity of its own: its nulls are its children's.
		n.nullable = false
		for j := range 1 + g.intn(3) {
			f := g.node(depth + 1)
			f.name = fmt.Sprintf("u%d", j)
			n.fields = append(n.fields, f)
		}
		for _, c := range g.r.Perm(128)[:len(n.fields)] {
			n.codes = append(n.codes, arrow.UnionTypeCode(c))
		}
	case kStruct:
		for j := range 1 + g.intn(3) {
			f := g.node(depth + 1)
			f.name = fmt.Sprintf("f%d", j)
			n.fields = append(n.fields, f)
		}
	case kFixedSizeBinary:
		n.size = 1 + g.intn(5)
	case kTimestamp:
		n.unit = arrow.TimeUnit(g.intn(4))
		n.tz = []string{"", "", "UTC", "Asia/Tokyo", "America/New_York", "+05:30", "-08:00"}[g.intn(7)]
	case kDecimal128:
		n.prec = int32(1 + g.intn(38))
		n.scale = int32(g.intn(int(n.prec) + 1))
	case kRunEndEncoded:
		n.reeUtf8 = g.coin(0.5)
	}
	n.dt = n.dataType()
	return n
}

func (n *node) dataType() arrow.DataType {
	switch n.kind {
	case kMonthInterval:
		return arrow.FixedWidthTypes.MonthInterval
	case kDayTimeInterval:
		return arrow.FixedWidthTypes.DayTimeInterval
	case kMonthDayNanoInterval:
		return arrow.FixedWidthTypes.MonthDayNanoInterval
	case kBool:
		return arrow.FixedWidthTypes.Boolean
	case kInt8:
		return arrow.PrimitiveTypes.Int8
	case kInt16:
		return arrow.PrimitiveTypes.Int16
	case kInt32:
		return arrow.PrimitiveTypes.Int32
	case kInt64:
		return arrow.PrimitiveTypes.Int64
	case kUint8:
		return arrow.PrimitiveTypes.Uint8
	case kUint16:
		return arrow.PrimitiveTypes.Uint16
	case kUint32:
		return arrow.PrimitiveTypes.Uint32
	case kUint64:
		return arrow.PrimitiveTypes.Uint64
	case kFloat32:
		return arrow.PrimitiveTypes.Float32
	case kFloat64:
		return arrow.PrimitiveTypes.Float64
	case kUtf8:
		return arrow.BinaryTypes.String
	case kLargeUtf8:
		return arrow.BinaryTypes.LargeString
	case kUtf8View:
		return arrow.BinaryTypes.StringView
	case kBinary:
		return arrow.BinaryTypes.Binary
	case kLargeBinary:
		return arrow.BinaryTypes.LargeBinary
	case kBinaryView:
		return arrow.BinaryTypes.BinaryView
	case kFixedSizeBinary:
		return &arrow.FixedSizeBinaryType{ByteWidth: n.size}
	case kDate32:
		return arrow.FixedWidthTypes.Date32
	case kTimestamp:
		return &arrow.TimestampType{Unit: n.unit, TimeZone: n.tz}
	case kDuration:
		return arrow.FixedWidthTypes.Duration_ns
	case kDecimal128:
		return &arrow.Decimal128Type{Precision: n.prec, Scale: n.scale}
	case kDictionary:
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	case kRunEndEncoded:
		if n.reeUtf8 {
			return arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String)
		}
		return arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)
	case kSparseUnion, kDenseUnion:
		fields := make([]arrow.Field, len(n.fields))
		for i, f := range n.fields {
			fields[i] = arrow.Field{Name: f.name, Type: f.dt, Nullable: f.nullable}
		}
		if n.kind == kDenseUnion {
			return arrow.DenseUnionOf(fields, n.codes)
		}
		return arrow.SparseUnionOf(fields, n.codes)
	case kStruct:
		fields := make([]arrow.Field, len(n.fields))
		for i, f := range n.fields {
			fields[i] = arrow.Field{Name: f.name, Type: f.dt, Nullable: f.nullable}
		}
		return arrow.StructOf(fields...)
	case kMap:
		return arrow.MapOf(arrow.BinaryTypes.String, n.elem.dt)
	}
	elem := arrow.Field{Name: "item", Type: n.elem.dt, Nullable: n.elem.nullable}
	switch n.kind {
	case kList:
		return arrow.ListOfField(elem)
	case kLargeList:
		return arrow.LargeListOfField(elem)
	case kListView:
		return arrow.ListViewOfField(elem)
	case kLargeListView:
		return arrow.LargeListViewOfField(elem)
	default:
		return arrow.FixedSizeListOfField(int32(n.size), elem)
	}
}

// Named types decode by their underlying kind.
type (
	namedInt    int64
	namedUint   uint32
	namedString string
)

var (
	signedTypes = []reflect.Type{
		reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](),
		reflect.TypeFor[int64](), reflect.TypeFor[int](), reflect.TypeFor[namedInt](),
	}
	unsignedTypes = []reflect.Type{
		reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](),
		reflect.TypeFor[uint64](), reflect.TypeFor[uint](), reflect.TypeFor[namedUint](),
	}
	stringTypes = []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[namedString]()}
)

// structType is a struct type built with reflect.StructOf for the fields
// (or columns) nodes, in a random order, sometimes leaving some out: the
// mapper matches by name and ignores extra columns.
func (g *generator) structType(nodes []*node) reflect.Type {
	skip := 0
	if len(nodes) > 1 && g.coin(0.2) {
		skip = 1 + g.intn(len(nodes)-1)
	}
	var fields []reflect.StructField
	for j, k := range g.r.Perm(len(nodes))[skip:] {
		n := nodes[k]
		typ, nullTag, elemTag, valueTag := g.goType(n, true, true)
		tag := `arrow:"` + n.name + g.unionTag(n)
		if nullTag {
			tag += ",nullable"
		}
		tag += `"`
		if elemTag {
			tag += ` arrow-elem:"nullable"`
		}
		if valueTag {
			tag += ` arrow-value:"nullable"`
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", j), Type: typ, Tag: reflect.StructTag(tag)})
	}
	return reflect.StructOf(fields)
}

// goType is the Go type of level n. tagOK says whether a tag can make the
// level nullable — the field's own for a field, arrow-elem or arrow-value
// for the element or value of a field — and nullTag whether it must; deeper
// levels are made nullable with a pointer. elemTag and valueTag say whether
// the elements or values of n need their tag.
func (g *generator) goType(n *node, tagOK, field bool) (typ reflect.Type, nullTag, elemTag, valueTag bool) {
	var base reflect.Type
	switch n.kind {
	case kList, kLargeList, kListView, kLargeListView, kFixedSizeList:
		var et reflect.Type
		et, elemTag, _, _ = g.goType(n.elem, field, false)
		if n.kind == kFixedSizeList && g.coin(0.5) {
			base = reflect.ArrayOf(n.size, et)
		} else {
			if et.Kind() == reflect.Uint8 {
				et = reflect.TypeFor[uint16]() // a []uint8 is []byte, which reads binaries
			}
			base = reflect.SliceOf(et)
		}
	case kMap:
		var vt reflect.Type
		vt, valueTag, _, _ = g.goType(n.elem, field, false)
		base = reflect.MapOf(reflect.TypeFor[string](), vt)
	case kStruct:
		base = g.structType(n.fields)
	case kSparseUnion, kDenseUnion:
		base = g.unionType(n)
	default:
		base = g.leafType(n)
	}
	switch {
	case base.Kind() == reflect.Slice || base.Kind() == reflect.Map: // nullable by nature
		if g.coin(0.1) {
			return reflect.PointerTo(base), false, elemTag, valueTag
		}
		return base, false, elemTag, valueTag
	case n.nullable && tagOK && g.coin(0.5):
		return base, true, elemTag, valueTag
	case n.nullable || g.coin(0.15):
		return reflect.PointerTo(base), false, elemTag, valueTag
	}
	// A nullable tag where no null comes changes nothing.
	return base, tagOK && g.coin(0.1), elemTag, valueTag
}

// leafType is a Go type that reads leaf n: its own, or a lossless widening.
func (g *generator) leafType(n *node) reflect.Type {
	pick := func(ts []reflect.Type) reflect.Type { return ts[g.intn(len(ts))] }
	switch n.kind {
	case kBool:
		return reflect.TypeFor[bool]()
	case kInt8, kInt16, kInt32, kInt64:
		size := uintptr(1) << (n.kind - kInt8)
		var ok []reflect.Type
		for _, t := range signedTypes {
			if t.Size() >= size {
				ok = append(ok, t)
			}
		}
		return pick(ok)
	case kUint8, kUint16, kUint32, kUint64:
		size := uintptr(1) << (n.kind - kUint8)
		var ok []reflect.Type
		for _, t := range unsignedTypes {
			if t.Size() >= size {
				ok = append(ok, t)
			}
		}
		for _, t := range signedTypes {
			if t.Size() > size {
				ok = append(ok, t)
			}
		}
		return pick(ok)
	case kFloat32:
		return pick([]reflect.Type{reflect.TypeFor[float32](), reflect.TypeFor[float64]()})
	case kFloat64:
		return reflect.TypeFor[float64]()
	case kUtf8, kLargeUtf8, kUtf8View, kDictionary:
		return pick(stringTypes)
	case kRunEndEncoded:
		if n.reeUtf8 {
			return pick(stringTypes)
		}
		return pick([]reflect.Type{reflect.TypeFor[int64](), reflect.TypeFor[int](), reflect.TypeFor[namedInt]()})
	case kBinary, kLargeBinary, kBinaryView:
		return reflect.TypeFor[[]byte]()
	case kFixedSizeBinary:
		if g.coin(0.5) {
			return reflect.ArrayOf(n.size, reflect.TypeFor[byte]())
		}
		return reflect.TypeFor[[]byte]()
	case kDate32, kTimestamp:
		return reflect.TypeFor[time.Time]()
	case kDuration:
		return reflect.TypeFor[time.Duration]()
	case kDecimal128:
		return pick([]reflect.Type{reflect.TypeFor[decimal.Decimal128](), reflect.TypeFor[decimal.Decimal256](), reflect.TypeFor[string]()})
	case kMonthInterval:
		return reflect.TypeFor[arrow.MonthInterval]()
	case kDayTimeInterval:
		return reflect.TypeFor[arrow.DayTimeInterval]()
	case kMonthDayNanoInterval:
		return reflect.TypeFor[arrow.MonthDayNanoInterval]()
	}
	panic(fmt.Sprintf("no Go type for kind %d", n.kind))
}

// record builds the case's columns with arrow-go builders, n rows of which
// only [lo, hi) are reachable, and slices the record to them when the case
// says so.
func (g *generator) record(c *decodeCase) arrow.RecordBatch {
	reach := make([]bool, c.n)
	for i := c.lo; i < c.hi; i++ {
		reach[i] = true
	}
	cols := make([]arrow.Array, len(c.columns))
	for i, n := range c.columns {
		if n.kind == kDictionary {
			cols[i] = g.dictionaryColumn(n, reach)
			continue
		}
		b := array.NewBuilder(g.mem, n.dt)
		g.fill(b, n, reach)
		cols[i] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(c.schema, cols, int64(c.n))
	for _, col := range cols {
		col.Release()
	}
	if !c.sliced {
		return rec
	}
	sliced := rec.NewSlice(int64(c.lo), int64(c.hi))
	rec.Release()
	return sliced
}

// null decides whether the next value of n is null: only where n is
// nullable, unless no decoded row reaches the value.
func (g *generator) null(n *node, reached bool) bool {
	if reached {
		return n.nullable && g.coin(0.25)
	}
	return g.coin(0.3)
}

func repeat(reached bool, k int) []bool {
	out := make([]bool, k)
	for i := range out {
		out[i] = reached
	}
	return out
}

// fill appends len(reach) values of n to b, its builder; reach[i] says
// whether a decoded row reaches value i.
func (g *generator) fill(b array.Builder, n *node, reach []bool) {
	if n.kind == kRunEndEncoded {
		g.fillRuns(b.(*array.RunEndEncodedBuilder), n, reach)
		return
	}
	for _, reached := range reach {
		switch {
		case !g.null(n, reached):
			g.appendValue(b, n, true, reached)
		case n.kind >= firstNested && g.coin(0.5):
			// A null row with children of its own, which nothing reaches.
			g.appendValue(b, n, false, false)
		default:
			b.AppendNull()
		}
	}
}

// fillRuns appends runs of 1–4 rows, cut where reach changes, so that a
// null run is reached only when n is nullable.
func (g *generator) fillRuns(b *array.RunEndEncodedBuilder, n *node, reach []bool) {
	for i := 0; i < len(reach); {
		j := i + 1
		for limit := i + 1 + g.intn(4); j < len(reach) && j < limit && reach[j] == reach[i]; j++ {
		}
		if g.null(n, reach[i]) {
			b.AppendNulls(j - i)
		} else {
			b.Append(uint64(j - i))
			g.appendLeaf(b.ValueBuilder(), n)
		}
		i = j
	}
}

// appendValue appends a row of n to b, a null one when valid is false: the
// children of a nested row are appended either way. reached says whether a
// decoded row reaches it.
func (g *generator) appendValue(b array.Builder, n *node, valid, reached bool) {
	switch n.kind {
	case kList, kLargeList, kListView, kLargeListView:
		lb := b.(array.VarLenListLikeBuilder)
		ranges := g.listViews[b]
		if dims, ok := b.(interface{ AppendDimensions(offset, size int) }); ok && valid && reached && len(ranges) > 0 && g.coin(0.25) {
			r := ranges[g.intn(len(ranges))]
			dims.AppendDimensions(r[0], r[1])
			return
		}
		k := g.intn(4)
		start := lb.ValueBuilder().Len()
		lb.AppendWithSize(valid, k)
		g.fill(lb.ValueBuilder(), n.elem, repeat(reached, k))
		if reached && (n.kind == kListView || n.kind == kLargeListView) {
			g.listViews[b] = append(ranges, [2]int{start, k})
		}
	case kFixedSizeList:
		fb := b.(*array.FixedSizeListBuilder)
		fb.Append(valid)
		g.fill(fb.ValueBuilder(), n.elem, repeat(reached, n.size))
	case kStruct:
		sb := b.(*array.StructBuilder)
		if valid {
			sb.Append(true)
		} else {
			// Append(false) would append nulls to the fields.
			sb.Reserve(1)
			sb.UnsafeAppendBoolToBitmap(false)
		}
		for j, f := range n.fields {
			g.fill(sb.FieldBuilder(j), f, []bool{reached})
		}
	case kSparseUnion, kDenseUnion:
		// A row that is not valid is one no decoded row reaches.
		reached = reached && valid
		j := g.intn(len(n.fields))
		ub := b.(array.UnionBuilder)
		ub.Append(n.codes[j])
		for k, f := range n.fields {
			if k == j {
				g.fill(ub.Child(k), f, []bool{reached})
			} else if n.kind == kSparseUnion {
				g.fill(ub.Child(k), f, []bool{false}) // beside the row, never reached
			}
		}
	case kMap:
		mb := b.(*array.MapBuilder)
		mb.Append(valid)
		k := g.intn(4)
		for e := range k {
			mb.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("%s%d", g.str(), e))
		}
		g.fill(mb.ItemBuilder(), n.elem, repeat(reached, k))
	case kDictionary:
		db := b.(*array.BinaryDictionaryBuilder)
		if !g.dictFilled[b] && g.coin(0.5) {
			// Entries no row refers to.
			sb := array.NewStringBuilder(g.mem)
			for range 1 + g.intn(3) {
				sb.Append(g.str())
			}
			extra := sb.NewStringArray()
			if err := db.InsertStringDictValues(extra); err != nil {
				panic(err)
			}
			extra.Release()
			sb.Release()
		}
		g.dictFilled[b] = true
		if err := db.AppendString(dictionaryWords[g.intn(len(dictionaryWords))]); err != nil {
			panic(err)
		}
	default:
		g.appendLeaf(b, n)
	}
}

var dictionaryWords = []string{"", "red", "green", "blue", "a value longer than twelve bytes", "é漢🙂"}

// dictionaryColumn builds a top-level dictionary column by hand, which
// builders cannot: its dictionary holds null entries, and entries no row
// refers to. A null row has a null index or refers to a null entry.
func (g *generator) dictionaryColumn(n *node, reach []bool) arrow.Array {
	db := array.NewStringBuilder(g.mem)
	defer db.Release()
	var valid, null []int32
	for e := range 1 + g.intn(5) {
		if e > 0 && g.coin(0.3) {
			db.AppendNull()
			null = append(null, int32(e))
			continue
		}
		db.Append(dictionaryWords[g.intn(len(dictionaryWords))])
		valid = append(valid, int32(e))
	}
	ib := array.NewInt32Builder(g.mem)
	defer ib.Release()
	for _, reached := range reach {
		switch {
		case !g.null(n, reached):
			ib.Append(valid[g.intn(len(valid))])
		case len(null) > 0 && g.coin(0.5):
			ib.Append(null[g.intn(len(null))])
		default:
			ib.AppendNull()
		}
	}
	dict, indices := db.NewArray(), ib.NewArray()
	defer dict.Release()
	defer indices.Release()
	return array.NewDictionaryArray(n.dt, indices, dict)
}

// appendLeaf appends one random non-null value to the builder of a leaf.
func (g *generator) appendLeaf(b array.Builder, n *node) {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(g.coin(0.5))
	case *array.Int8Builder:
		b.Append(int8(g.integer()))
	case *array.Int16Builder:
		b.Append(int16(g.integer()))
	case *array.Int32Builder:
		b.Append(int32(g.integer()))
	case *array.Int64Builder:
		b.Append(int64(g.integer()))
	case *array.Uint8Builder:
		b.Append(uint8(g.integer()))
	case *array.Uint16Builder:
		b.Append(uint16(g.integer()))
	case *array.Uint32Builder:
		b.Append(uint32(g.integer()))
	case *array.Uint64Builder:
		b.Append(g.integer())
	case *array.Float32Builder:
		b.Append(float32(g.float()))
	case *array.Float64Builder:
		b.Append(g.float())
	case *array.StringBuilder:
		b.Append(g.str())
	case *array.LargeStringBuilder:
		b.Append(g.str())
	case *array.StringViewBuilder:
		b.Append(g.str())
	case *array.BinaryBuilder: // binary and large_binary
		b.Append(g.bytes(g.intn(21)))
	case *array.BinaryViewBuilder:
		b.Append(g.bytes(g.intn(21)))
	case *array.FixedSizeBinaryBuilder:
		b.Append(g.bytes(n.size))
	case *array.Date32Builder:
		days := int32(g.r.IntN(200_001) - 100_000)
		if g.coin(0.05) {
			days = []int32{math.MinInt32, math.MaxInt32, 0, -1}[g.intn(4)]
		}
		b.Append(arrow.Date32(days))
	case *array.TimestampBuilder:
		x := int64(g.r.Uint64())
		if n.unit == arrow.Second {
			x = g.r.Int64N(2e15) - 1e15 // time.Unix overflows past ±2.9e11 years
		}
		b.Append(arrow.Timestamp(x))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(int64(g.integer())))
	case *array.Decimal128Builder:
		b.Append(decimal128.FromBigInt(g.decimal(n.prec)))
	case *array.MonthIntervalBuilder:
		b.Append(arrow.MonthInterval(int32(g.integer())))
	case *array.DayTimeIntervalBuilder:
		b.Append(arrow.DayTimeInterval{Days: int32(g.integer()), Milliseconds: int32(g.integer())})
	case *array.MonthDayNanoIntervalBuilder:
		b.Append(arrow.MonthDayNanoInterval{Months: int32(g.integer()), Days: int32(g.integer()), Nanoseconds: int64(g.integer())})
	default:
		panic(fmt.Sprintf("no leaf values for %T", b))
	}
}

// integer is 64 random bits, often an edge value once truncated.
func (g *generator) integer() uint64 {
	if g.coin(0.2) {
		return []uint64{0, 1, math.MaxUint64, 1 << 7, 1<<7 - 1, 1 << 15, 1 << 31, 1 << 63, 1<<63 - 1}[g.intn(9)]
	}
	return g.r.Uint64()
}

func (g *generator) float() float64 {
	if g.coin(0.2) {
		return []float64{0, math.Copysign(0, -1), 1, -1.5, math.MaxFloat32, math.SmallestNonzeroFloat64,
			math.Inf(1), math.Inf(-1), math.NaN()}[g.intn(9)]
	}
	return g.r.NormFloat64() * 1e6
}

func (g *generator) str() string {
	const alphabet = "abcxyz09 -é漢🙂"
	runes := []rune(alphabet)
	var b strings.Builder
	for range g.intn(21) {
		b.WriteRune(runes[g.intn(len(runes))])
	}
	return b.String()
}

func (g *generator) bytes(n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(g.r.Uint32())
	}
	return out
}

// decimal is an unscaled value of at most prec digits, sometimes the
// largest or the smallest.
func (g *generator) decimal(prec int32) *big.Int {
	if g.coin(0.05) {
		largest := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil)
		largest.Sub(largest, big.NewInt(1))
		if g.coin(0.5) {
			largest.Neg(largest)
		}
		return largest
	}
	var s strings.Builder
	if g.coin(0.5) {
		s.WriteByte('-')
	}
	for range 1 + g.intn(int(prec)) {
		s.WriteByte(byte('0' + g.intn(10)))
	}
	x, _ := new(big.Int).SetString(s.String(), 10)
	return x
}

// elemNode is the node of a list's elements or a map's values: anything
// but a union, which no tag of an element can say (arrow-elem holds
// nullable only, here).
func (g *generator) elemNode(depth int) *node {
	for {
		if n := g.node(depth); !n.isUnion() {
			return n
		}
	}
}

// unionTag is the tag option that makes a field of n a union, "" when n is
// none: union, or the pin of its mode.
func (g *generator) unionTag(n *node) string {
	switch {
	case !n.isUnion():
		return ""
	case g.coin(0.5):
		return ",union"
	case n.kind == kDenseUnion:
		return ",dense_union"
	}
	return ",sparse_union"
}

// unionType is the struct of pointer variants of union n, in a random
// order, the codes sometimes in the tags, and sometimes a type_code field.
func (g *generator) unionType(n *node) reflect.Type {
	var fields []reflect.StructField
	for j, k := range g.r.Perm(len(n.fields)) {
		f := n.fields[k]
		typ, nullTag, elemTag, valueTag := g.goType(f, true, true)
		if typ.Kind() == reflect.Pointer {
			typ, nullTag = typ.Elem(), true
		}
		tag := `arrow:"` + f.name + g.unionTag(f)
		if g.coin(0.5) {
			tag += fmt.Sprintf(",code=%d", n.codes[k])
		}
		if nullTag || f.nullable {
			tag += ",nullable"
		}
		tag += `"`
		if elemTag {
			tag += ` arrow-elem:"nullable"`
		}
		if valueTag {
			tag += ` arrow-value:"nullable"`
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("V%d", j), Type: reflect.PointerTo(typ), Tag: reflect.StructTag(tag)})
	}
	if g.coin(0.6) {
		at := g.intn(len(fields) + 1)
		code := reflect.StructField{Name: "Code", Type: []reflect.Type{reflect.TypeFor[mapper.UnionCode](), reflect.TypeFor[int8]()}[g.intn(2)], Tag: `arrow:",type_code"`}
		fields = append(fields[:at], append([]reflect.StructField{code}, fields[at:]...)...)
	}
	return reflect.StructOf(fields)
}
