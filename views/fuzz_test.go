package views_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/views"
)

// FuzzNew views small arrays whose buffers, lengths, offsets and null counts
// come from the fuzz input: views.New must never panic, and when it accepts
// an array, no read of the view or of any slice of it may panic either.
func FuzzNew(f *testing.F) {
	// Inputs that make valid arrays of each kind, found by a seeded search;
	// the first byte picks the kind.
	f.Add([]byte{})
	f.Add([]byte{0x0, 0x40, 0x3, 0x0, 0x2, 0x0, 0x2, 0x2, 0xcd, 0x2b, 0x55, 0x3, 0x1, 0x3, 0x1, 0xdd, 0x2, 0x0, 0x0, 0xd7, 0xf8, 0x71, 0x0, 0x32, 0x0, 0x2, 0x3, 0x3, 0x2, 0x3, 0x3, 0x2, 0xe5, 0x2, 0x0, 0x2, 0xbf})          // an int64 column
	f.Add([]byte{0x0, 0x5f, 0x2, 0x1, 0x1, 0x2, 0x17, 0x1, 0x3, 0xd2, 0x0, 0x2, 0x2, 0x2, 0x2, 0x3, 0x5c, 0x0, 0x3})                                                                                                           // an int64 column with nulls
	f.Add([]byte{0x1, 0x3, 0x1, 0x1, 0x3, 0x2, 0x1, 0x2, 0x36, 0x0, 0x1, 0x0, 0x0, 0x0, 0x2f, 0x0, 0x53, 0x72, 0x3e, 0xdb, 0x81, 0x1, 0x88, 0x86, 0xfd, 0xec})                                                                 // a utf8 column with nulls
	f.Add([]byte{0x2, 0x80, 0x9c, 0x0, 0x3, 0x0, 0x0, 0x0, 0x2, 0xd0, 0xcc, 0x2})                                                                                                                                              // a list column
	f.Add([]byte{0x2, 0x3, 0x3, 0x2, 0x2, 0x0, 0x3, 0x1, 0x3, 0x1, 0x1, 0x1, 0x1, 0x0, 0x0, 0x3})                                                                                                                              // a list column with nulls
	f.Add([]byte{0x3, 0x2, 0x0, 0x0, 0x2d, 0x2, 0x31, 0x0, 0x0, 0x3, 0x2, 0x2, 0xe1, 0x3, 0x1, 0x66, 0x0, 0x2, 0x1, 0x2, 0x3, 0x3, 0x0, 0xd0, 0x0, 0xdc, 0x26, 0x3, 0xb1, 0x3, 0x2, 0xf6, 0xc})                                // a dictionary column
	f.Add([]byte{0x3, 0x26, 0x2, 0x52, 0x3, 0x2, 0x36, 0xb, 0x1, 0x2, 0xca, 0x0, 0xcd, 0x2, 0x85, 0x61, 0x3d, 0x3, 0x1, 0x6, 0x3, 0x1c, 0x0, 0x1, 0xee, 0x1, 0x1, 0x3, 0x2, 0x0, 0x3, 0x2})                                    // a dictionary column with nulls
	f.Add([]byte{0x4, 0x2, 0x3, 0x7f, 0x2, 0x1, 0x3, 0x0, 0x2, 0x2, 0x3, 0x0, 0x3, 0x1, 0x2, 0x2, 0x81})                                                                                                                       // a run-end column with a null run
	f.Add([]byte{0x5, 0x2, 0x3, 0x1, 0x74, 0x3f, 0x1, 0x75, 0x0, 0x86, 0x0, 0x1, 0x0, 0x3, 0x69, 0x1, 0xfb, 0x4d, 0x2a, 0x0, 0x42, 0x2, 0xff, 0xa1, 0x1, 0x1, 0xd8, 0x74, 0x2, 0x3a, 0x3, 0x2, 0x2, 0x2c})                     // a struct column
	f.Add([]byte{0x5, 0xaa, 0x3, 0x1, 0x3, 0x2, 0x97, 0x0, 0x2, 0x3, 0x33, 0x0, 0x1, 0x1, 0x2, 0x2, 0x1, 0x0, 0x34, 0x2, 0xb2, 0xd7, 0x0, 0x2, 0x3, 0x2, 0x0, 0x1, 0x3, 0x0, 0x1, 0x3, 0x2, 0xeb, 0x0})                        // a struct column with nulls
	f.Add([]byte{0x6, 0x2, 0x0, 0x5, 0x7, 0x2, 0x2, 0x2, 0x5, 0x7, 0x2, 0x0, 0x5, 0x6, 0x3, 0x5, 0x3, 0x1, 0x1, 0x2, 0x7, 0x4, 0x5, 0x6, 0x3, 0x7, 0x2, 0x3, 0x2, 0x4, 0x0, 0x4, 0x0, 0x2, 0x1, 0x7, 0x4, 0x6, 0x4, 0x2, 0x4}) // a sparse union of two children
	f.Add([]byte{0x6, 0x3, 0x4, 0x3, 0x5, 0x0, 0x1, 0x2, 0x7, 0x0, 0x5, 0x2, 0x7})                                                                                                                                             // a dense union of two children
	f.Fuzz(func(t *testing.T, input []byte) {
		src := &fuzzSource{b: input}
		data, typ := src.array(0)
		defer data.Release()
		v, err := newViewNoPanic(t, craftedArray{data: data}, typ)
		if err != nil {
			return
		}
		readEveryRow(t, v)
		readAsColumns(t, v)
	})
}

// readAsColumns binds every typed column that reads v's encoding and reads
// every row of it and of every slice of it through the row accessors.
func readAsColumns(t *testing.T, v views.View) {
	t.Helper()
	readColumn(t, v, func(c *views.PrimitiveColumn[int64], i int) { c.IsNull(i); c.Value(i) })
	readColumn(t, v, func(c *views.StringColumn, i int) { c.IsNull(i); c.Value(i) })
	readColumn(t, v, func(c *views.ListColumn[views.PrimitiveColumn[int64]], i int) {
		c.IsNull(i)
		c.ValueLen(i)
		e := c.Value(i)
		for k := range e.Len() {
			e.Value(k)
		}
	})
	readColumn(t, v, func(c *views.ListColumn[views.StringColumn], i int) {
		e := c.Value(i)
		for k := range e.Len() {
			e.Value(k)
		}
	})
	readColumn(t, v, readDictionary[int8])
	readColumn(t, v, readDictionary[int32])
	readColumn(t, v, func(c *views.RunEndColumn[int32, views.PrimitiveColumn[int64]], i int) {
		values := c.Values()
		c.IsNull(i)
		values.Value(c.Run(i))
		for k := range c.NumRuns() {
			c.RunEnd(k)
		}
	})
	readColumn(t, v, func(c *views.UnionColumn, i int) {
		c.IsNull(i)
		c.Value(i)
		child := c.Child(c.ChildIndex(i))
		child.IsNull(c.ChildRow(i))
		c.TypeCode(i)
	})
	readColumn(t, v, func(c *views.StructColumn, i int) {
		c.IsNull(i)
		row := c.Value(i)
		for k := range c.NumField() {
			f := c.Field(k)
			f.IsNull(i)
			row.Field(k).IsNull(0)
			row.Value(k)
		}
	})
}

func readDictionary[I views.DictionaryIndex](c *views.DictionaryColumn[I, views.StringColumn], i int) {
	d := c.Dictionary()
	if k := c.Index(i); k >= 0 {
		d.Value(k)
	}
}

// readColumn binds a column of kind C to v, when C reads v's encoding, and
// calls read with every row of it and of every slice of it.
func readColumn[C views.Column[C]](t *testing.T, v views.View, read func(c *C, i int)) {
	t.Helper()
	var zero C
	c, err := zero.From(v)
	if err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("reading a %T bound to a view views.New accepted panicked: %v", c, r)
		}
	}()
	for i := 0; i <= c.Len(); i++ {
		for j := i; j <= c.Len(); j++ {
			s := c.Slice(i, j)
			for k := range s.Len() {
				read(&s, k)
			}
		}
	}
}

// readEveryRow reads every row of v and of every slice of v, and of
// every slice of those slices.
func readEveryRow(t *testing.T, v views.View) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("reading a view that views.New accepted panicked: %v", r)
		}
	}()
	for i := range v.Len() {
		v.IsNull(i)
		v.Value(i)
	}
	for i := 0; i <= v.Len(); i++ {
		for j := i; j <= v.Len(); j++ {
			s := v.Slice(i, j)
			for k := range s.Len() {
				s.IsNull(k)
				s.Value(k)
			}
			if s.Len() > 1 {
				ss := s.Slice(1, s.Len())
				for k := range ss.Len() {
					ss.Value(k)
				}
			}
		}
	}
}

// fuzzSource reads the fuzz input as a stream of small choices. Once the
// input runs out every choice is 0, so every input makes a whole array.
type fuzzSource struct{ b []byte }

func (s *fuzzSource) next() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

// intn is a choice in [0, n).
func (s *fuzzSource) intn(n int) int { return int(s.next()) % n }

// delta is a small signed number, mostly 0: how far a buffer or child is
// off the size it should have.
func (s *fuzzSource) delta() int { return []int{0, 0, 0, 0, 1, -1, 2, -2}[s.intn(8)] }

// step is the difference between two offsets: mostly small and forward,
// sometimes backwards.
func (s *fuzzSource) step() int { return int(int8(s.next())) % 5 }

func (s *fuzzSource) bytes(n int) []byte {
	out := make([]byte, max(n, 0))
	for i := range out {
		out[i] = s.next()
	}
	return out
}

// offsets is a buffer of n int32 offsets from a small start, by steps.
func (s *fuzzSource) offsets(n int) *memory.Buffer {
	out := make([]int32, max(n, 0))
	at := int32(s.step())
	if at > 0 {
		at = 0 // a first offset is mostly 0, sometimes negative
	}
	for i := range out {
		out[i] = at
		at += int32(s.step())
	}
	return rawInt32s(out...)
}

// level is the length, offset, validity and null count of one array.
type fuzzLevel struct {
	n, offset, nulls int
	validity         *memory.Buffer
}

func (s *fuzzSource) level() fuzzLevel {
	l := fuzzLevel{n: s.intn(6), offset: s.intn(3)}
	switch s.intn(4) {
	case 0: // no nulls
	case 1:
		l.validity = rawBytes(s.bytes(fuzzBitmapBytes(l.n+l.offset) + s.delta()))
		l.nulls = array.UnknownNullCount
	case 2:
		l.validity = rawBytes(s.bytes(fuzzBitmapBytes(l.n+l.offset) + s.delta()))
		l.nulls = s.intn(4)
	case 3:
		l.nulls = s.intn(3)
	}
	return l
}

// fuzzBitmapBytes is the size of a bitmap of the given number of bits.
func fuzzBitmapBytes(bits int) int { return (bits + 7) / 8 }

// array is a random array and a type that accepts its encodings. Below
// depth 2, only leaves.
func (s *fuzzSource) array(depth int) (*array.Data, views.Type) {
	kinds := 7
	if depth >= 2 {
		kinds = 2
	}
	kind := s.intn(kinds)
	l := s.level()
	typ := views.Type{Nullable: s.intn(2) == 1}
	encodings := views.AcceptOf(arrow.DICTIONARY, arrow.RUN_END_ENCODED)
	rows := l.n + l.offset
	switch kind {
	case 0: // int64
		typ.Accept = views.AcceptOf(arrow.INT64) | encodings
		values := rawInt64s(make([]int64, max(rows+s.delta(), 0))...)
		copy(values.Bytes(), s.bytes(values.Len()))
		return array.NewData(arrow.PrimitiveTypes.Int64, l.n, rawBuffers(l.validity, values), nil, l.nulls, l.offset), typ
	case 1: // utf8
		typ.Accept = views.Strings | encodings
		offsets := s.offsets(rows + 1 + s.delta())
		data := rawBytes(s.bytes(s.intn(16)))
		return array.NewData(arrow.BinaryTypes.String, l.n, rawBuffers(l.validity, offsets, data), nil, l.nulls, l.offset), typ
	case 2: // list<elem>, mostly of int64
		offsets := s.offsets(rows + 1 + s.delta())
		child, elem := s.array(depth + 1)
		defer child.Release()
		typ.Accept = views.Lists | encodings
		typ.Elem = &elem
		dt := arrow.ListOf(child.DataType())
		if s.intn(8) == 0 {
			// A declared element type that may contradict the child's
			// datatype, and a type that follows the declaration.
			dt, typ.Elem = dtListOfInt64, &fuzzAnyLeaf
		}
		return array.NewData(dt, l.n, rawBuffers(l.validity, offsets), []arrow.ArrayData{child}, l.nulls, l.offset), typ
	case 3: // dictionary<int8 or int32, utf8>
		typ.Accept = views.Strings | encodings
		dt, width := dtDictInt8Strings, 1
		if s.intn(2) == 1 {
			dt, width = dtDictOfStrings, 4
		}
		indices := rawBytes(s.bytes((rows + s.delta()) * width))
		d := array.NewData(dt, l.n, rawBuffers(l.validity, indices), nil, l.nulls, l.offset)
		if s.intn(8) != 0 {
			dict := s.leaf(arrow.BinaryTypes.String)
			d.SetDictionary(dict)
			dict.Release()
		}
		return d, typ
	case 4: // run_end_encoded<int32, int64>
		typ.Accept = views.AcceptOf(arrow.INT64) | encodings
		craftRuns := s.intn(4)
		ends := make([]int32, craftRuns)
		end := int32(0)
		for k := range ends {
			end += int32(s.step() + 1)
			ends[k] = end
		}
		endsData := array.NewData(arrow.PrimitiveTypes.Int32, craftRuns, rawBuffers(nil, rawInt32s(ends...)), nil, 0, 0)
		defer endsData.Release()
		values := s.leaf(arrow.PrimitiveTypes.Int64)
		defer values.Release()
		return array.NewData(dtRunsOfInt64, l.n, rawBuffers(nil), []arrow.ArrayData{endsData, values}, 0, l.offset), typ
	case 6: // sparse or dense union of a and b, type ids mostly declared
		return s.union(depth, l)
	default: // struct{a, b}
		a, at := s.array(depth + 1)
		defer a.Release()
		b, bt := s.array(depth + 1)
		defer b.Release()
		typ.Accept = views.AcceptOf(arrow.STRUCT)
		typ.Fields = []views.Field{{Name: "a", Type: at}, {Name: "b", Type: bt}}
		declared := a.DataType()
		if s.intn(8) == 0 {
			// As for a list: a field declared int64 whatever child it has.
			declared, typ.Fields[0].Type = arrow.PrimitiveTypes.Int64, fuzzAnyLeaf
		}
		dt := arrow.StructOf(arrow.Field{Name: "a", Type: declared, Nullable: true}, arrow.Field{Name: "b", Type: b.DataType(), Nullable: true})
		return array.NewData(dt, l.n, rawBuffers(l.validity), []arrow.ArrayData{a, b}, l.nulls, l.offset), typ
	}
}

// fuzzAnyLeaf accepts the datatype of any array the fuzzer makes, but as a
// leaf: no element or field types below it.
var fuzzAnyLeaf = views.Type{
	Accept:   views.AcceptOf(arrow.INT64, arrow.STRUCT, arrow.DICTIONARY, arrow.RUN_END_ENCODED) | views.Strings | views.Lists,
	Nullable: true,
}

// leaf is a random int64 or utf8 array, for the values of a dictionary or
// run-end array.
func (s *fuzzSource) leaf(dt arrow.DataType) *array.Data {
	n, offset := s.intn(5), s.intn(2)
	var validity *memory.Buffer
	if s.intn(3) == 0 {
		validity = rawBytes(s.bytes(fuzzBitmapBytes(n + offset)))
	}
	if dt.ID() == arrow.INT64 {
		values := rawInt64s(make([]int64, max(n+offset+s.delta(), 0))...)
		copy(values.Bytes(), s.bytes(values.Len()))
		return array.NewData(dt, n, rawBuffers(validity, values), nil, array.UnknownNullCount, offset)
	}
	offsets := s.offsets(n + offset + 1 + s.delta())
	return array.NewData(dt, n, rawBuffers(validity, offsets, rawBytes(s.bytes(s.intn(8)))), nil, array.UnknownNullCount, offset)
}

// union is a sparse or dense union of one or two children a and b, of
// codes 1 and 3: its type ids mostly those, its offsets mostly inside
// their child, and now and then a validity bitmap it must not have.
func (s *fuzzSource) union(depth int, l fuzzLevel) (*array.Data, views.Type) {
	dense := s.intn(2) == 1
	var children []arrow.ArrayData
	var fields []arrow.Field
	typ := views.Type{Accept: views.AcceptOf(arrow.SPARSE_UNION, arrow.DENSE_UNION), Nullable: s.intn(2) == 1}
	for _, name := range []string{"a", "b"}[:1+s.intn(2)] {
		child, ct := s.array(depth + 1)
		defer child.Release()
		children = append(children, child)
		fields = append(fields, arrow.Field{Name: name, Type: child.DataType(), Nullable: true})
		typ.Fields = append(typ.Fields, views.Field{Name: name, Type: ct})
	}
	codes := []arrow.UnionTypeCode{1, 3}[:len(fields)]
	rows := l.n + l.offset
	ids := make([]int8, max(rows+s.delta(), 0))
	for i := range ids {
		ids[i] = []int8{1, 1, 3, 3, 1, 3, 0, -1}[s.intn(8)]
	}
	var validity *memory.Buffer
	if s.intn(8) == 0 {
		validity = l.validity
	}
	if !dense {
		dt := arrow.SparseUnionOf(fields, codes)
		return array.NewData(dt, l.n, rawBuffers(validity, rawInt8s(ids...)), children, 0, l.offset), typ
	}
	dt := arrow.DenseUnionOf(fields, codes)
	return array.NewData(dt, l.n, rawBuffers(validity, rawInt8s(ids...), s.offsets(rows+s.delta())), children, 0, l.offset), typ
}
