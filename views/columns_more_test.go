package views_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// moreRow is how mapper.Decode reads moreColumnsRecord.
type moreRow struct {
	Flag  *bool     `arrow:"flag"`
	Hash  []byte    `arrow:"hash"`
	Trio  *[3]int32 `arrow:"trio"`
	Views []float64 `arrow:"views"`
	Dict  *string   `arrow:"dict"`
	Runs  *string   `arrow:"runs"`
}

const moreRows = 10

// moreColumnsRecord has a column of each kind TestColumnsAgreeWithDecode
// does not cover: bool, fixed_size_binary, fixed_size_list, a list_view
// whose rows overlap and come out of order, a dictionary with null indices
// and a null entry, and run-end encoded strings with a null run. Every
// column is sliced to rows [1, moreRows).
func moreColumnsRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	n := moreRows
	release := func(xs ...interface{ Release() }) {
		for _, x := range xs {
			x.Release()
		}
	}

	flags := array.NewBooleanBuilder(mem)
	hashes := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 3})
	trios := array.NewFixedSizeListBuilder(mem, 3, arrow.PrimitiveTypes.Int32)
	for i := range n {
		if i%4 == 3 {
			flags.AppendNull()
			hashes.AppendNull()
			trios.AppendNull() // appends its three elements, null
		} else {
			flags.Append(i%3 == 0)
			hashes.Append([]byte{byte(i), byte(i * 2), byte(i * 3)})
			trios.Append(true)
		}
		if i%4 != 3 {
			for k := range 3 {
				trios.ValueBuilder().(*array.Int32Builder).Append(int32(i*10 + k))
			}
		}
	}
	flag, hash, trio := flags.NewArray(), hashes.NewArray(), trios.NewArray()
	release(flags, hashes, trios)
	defer release(flag, hash, trio)

	// list_view rows, back to front, sharing elements; every fifth null
	// with an offset and size out of the child's range.
	childB := array.NewFloat64Builder(mem)
	for k := range 12 {
		childB.Append(float64(k) + 0.25)
	}
	child := childB.NewArray()
	childB.Release()
	defer child.Release()
	offsets, sizes := make([]int32, n), make([]int32, n)
	validity := make([]byte, 2)
	nulls := 0
	for i := range n {
		if i%5 == 4 {
			offsets[i], sizes[i] = 1000, 7
			nulls++
			continue
		}
		validity[i/8] |= 1 << (i % 8)
		offsets[i], sizes[i] = int32(9-i), int32(i%4)
	}
	lvData := array.NewData(arrow.ListViewOf(arrow.PrimitiveTypes.Float64), n,
		[]*memory.Buffer{memory.NewBufferBytes(validity), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(sizes))},
		[]arrow.ArrayData{child.Data()}, nulls, 0)
	lv := array.NewListViewData(lvData)
	lvData.Release()
	defer lv.Release()

	// A dictionary of int16 indices over entries with a null.
	entriesB := array.NewStringBuilder(mem)
	entriesB.AppendValues([]string{"x", "", "zz", "w"}, []bool{true, false, true, true})
	entries := entriesB.NewArray()
	entriesB.Release()
	defer entries.Release()
	idxB := array.NewInt16Builder(mem)
	for i := range n {
		if i%6 == 5 {
			idxB.AppendNull()
		} else {
			idxB.Append(int16((i * 3) % 4))
		}
	}
	idx := idxB.NewArray()
	idxB.Release()
	defer idx.Release()
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	dict := array.NewDictionaryArray(dictType, idx, entries)
	defer dict.Release()

	// Runs of lengths 1, 3, 2, 4 with the third null.
	endsB := array.NewInt32Builder(mem)
	endsB.AppendValues([]int32{1, 4, 6, 10}, nil)
	ends := endsB.NewArray()
	endsB.Release()
	defer ends.Release()
	runValsB := array.NewStringBuilder(mem)
	runValsB.AppendValues([]string{"one", "three", "", "four"}, []bool{true, true, false, true})
	runVals := runValsB.NewArray()
	runValsB.Release()
	defer runVals.Release()
	ree := array.NewRunEndEncodedArray(ends, runVals, n, 0)
	defer ree.Release()

	whole := []arrow.Array{flag, hash, trio, lv, dict, ree}
	fields := []arrow.Field{
		{Name: "flag", Type: flag.DataType(), Nullable: true},
		{Name: "hash", Type: hash.DataType(), Nullable: true},
		{Name: "trio", Type: trio.DataType(), Nullable: true},
		{Name: "views", Type: lv.DataType(), Nullable: true},
		{Name: "dict", Type: dict.DataType(), Nullable: true},
		{Name: "runs", Type: ree.DataType(), Nullable: true},
	}
	cols := make([]arrow.Array, len(whole))
	for k, a := range whole {
		cols[k] = array.NewSlice(a, 1, int64(n))
		defer cols[k].Release()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n-1))
}

func TestMoreColumnsAgreeWithDecode(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := moreColumnsRecord(t, mem)
	defer rec.Release()
	rows, err := mapper.Decode[moreRow](rec)
	require.NoError(t, err)
	require.Len(t, rows, moreRows-1)

	t.Run("bools read the decoded values", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.BoolColumn](t, rec.Column(0))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				trues := 0
				for i, x := range c.All() {
					want := rows[w.lo+i].Flag
					require.Equal(t, want == nil, c.IsNull(i), "row %d", i)
					assert.Equal(t, want != nil && *want, x, "row %d", i)
					if !c.IsNull(i) && c.Bits().IsValid(i) {
						trues++
					}
				}
				n := 0
				for _, r := range rows[w.lo : w.lo+c.Len()] {
					if r.Flag != nil && *r.Flag {
						n++
					}
				}
				assert.Equal(t, n, trues)
			})
		}
	})
	t.Run("fixed_size_binary reads as binary", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.BinaryColumn](t, rec.Column(1))) {
			t.Run(name, func(t *testing.T) {
				for i, b := range w.col.All() {
					assert.Equal(t, rows[w.lo+i].Hash, b, "row %d", i)
					assert.Equal(t, b == nil, w.col.IsNull(i))
					assert.Equal(t, len(b), cap(b), "a row's bytes are capped")
				}
			})
		}
	})
	t.Run("fixed-size lists read each row as the column of its elements", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.FixedSizeListColumn[views.PrimitiveColumn[int32]]](t, rec.Column(2))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				assert.Equal(t, 3, c.Size())
				assert.Equal(t, 3*c.Len(), c.Elements().Len())
				for i, elems := range c.All() {
					want := rows[w.lo+i].Trio
					require.Equal(t, want == nil, c.IsNull(i), "row %d", i)
					require.Equal(t, 3, elems.Len())
					if want != nil {
						assert.Equal(t, want[:], elems.Values(), "row %d", i)
					}
				}
			})
		}
	})
	t.Run("list views read each row as the column of its elements", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.ListViewColumn[views.PrimitiveColumn[float64]]](t, rec.Column(3))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				for i, elems := range c.All() {
					want := rows[w.lo+i].Views
					require.Equal(t, want == nil, c.IsNull(i), "row %d", i)
					assert.Equal(t, len(want), c.ValueLen(i))
					got := []float64{}
					for _, x := range elems.All() {
						got = append(got, x)
					}
					if want != nil {
						assert.Equal(t, want, got, "row %d", i)
					} else {
						assert.Empty(t, got, "a null row has no elements, whatever its offset says")
					}
				}
				assert.Equal(t, 12, c.Elements().Len(), "the whole child")
			})
		}
	})
	t.Run("dictionaries read each row's entry", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.DictionaryColumn[int16, views.StringColumn]](t, rec.Column(4))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				d := c.Dictionary()
				require.Equal(t, 4, d.Len())
				require.Len(t, c.Indices(), c.Len())
				for i, k := range c.All() {
					want := rows[w.lo+i].Dict
					require.Equal(t, want == nil, c.IsNull(i), "row %d", i)
					require.Equal(t, want == nil, k < 0, "row %d", i)
					if want != nil {
						assert.Equal(t, *want, d.Value(k), "row %d", i)
						assert.Equal(t, k, int(c.Indices()[i]))
					}
				}
			})
		}
	})
	t.Run("run-end encoded columns read each row's run", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.RunEndColumn[int32, views.StringColumn]](t, rec.Column(5))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				vals := c.Values()
				require.Equal(t, c.NumRuns(), vals.Len())
				seen := 0
				for i, k := range c.All() {
					assert.Equal(t, c.Run(i), k, "row %d", i)
					want := rows[w.lo+i].Runs
					require.Equal(t, want == nil, c.IsNull(i), "row %d", i)
					require.Equal(t, want == nil, vals.IsNull(k), "row %d", i)
					if want != nil {
						assert.Equal(t, *want, vals.Value(k), "row %d", i)
					}
					seen++
				}
				assert.Equal(t, c.Len(), seen)
				// The runs tile the rows: each starts where the last ended.
				start := 0
				for k := range c.NumRuns() {
					end := c.RunEnd(k)
					require.Greater(t, end, start, "run %d", k)
					for i := start; i < end; i++ {
						assert.Equal(t, k, c.Run(i))
					}
					start = end
				}
				assert.Equal(t, c.Len(), start)
			})
		}
	})
}

func TestMoreColumnsRejectOtherEncodings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := moreColumnsRecord(t, mem)
	defer rec.Release()
	for name, bind := range map[string]func() error{
		"bools of a binary column": func() error {
			_, err := views.BoolsOf(viewOf(t, rec.Column(1)))
			return err
		},
		"strings of a fixed_size_binary column": func() error {
			_, err := views.StringsOf(viewOf(t, rec.Column(1)))
			return err
		},
		"fixed-size lists of a list view": func() error {
			_, err := views.FixedSizeListsOf[views.PrimitiveColumn[float64]](viewOf(t, rec.Column(3)))
			return err
		},
		"list views of a fixed-size list": func() error {
			_, err := views.ListViewsOf[views.PrimitiveColumn[int32]](viewOf(t, rec.Column(2)))
			return err
		},
		"dictionary with other indices": func() error {
			_, err := views.DictionariesOf[int32, views.StringColumn](viewOf(t, rec.Column(4)))
			return err
		},
		"dictionary of other entries": func() error {
			_, err := views.DictionariesOf[int16, views.BinaryColumn](viewOf(t, rec.Column(4)))
			return err
		},
		"run ends of another type": func() error {
			_, err := views.RunEndsOf[int64, views.StringColumn](viewOf(t, rec.Column(5)))
			return err
		},
		"strings of a dictionary": func() error {
			_, err := views.StringsOf(viewOf(t, rec.Column(4)))
			return err
		},
	} {
		t.Run(name+" is a type mismatch", func(t *testing.T) {
			err := bind()
			require.Error(t, err)
			assert.ErrorIs(t, err, views.ErrTypeMismatch)
		})
	}
}

// viewOf is arr viewed in its own encoding, every level nullable.
func viewOf(t *testing.T, arr arrow.Array) views.View {
	t.Helper()
	v, err := views.New(arr, views.TypeOf(arr.DataType()))
	require.NoError(t, err)
	return v
}

// bindMoreColumns binds each column of moreColumnsRecord, every level
// nullable.
func bindMoreColumns(t *testing.T, rec arrow.RecordBatch) (
	views.BoolColumn, views.BinaryColumn, views.FixedSizeListColumn[views.PrimitiveColumn[int32]],
	views.ListViewColumn[views.PrimitiveColumn[float64]], views.DictionaryColumn[int16, views.StringColumn],
	views.RunEndColumn[int32, views.StringColumn],
) {
	t.Helper()
	return bindColumn[views.BoolColumn](t, rec.Column(0)),
		bindColumn[views.BinaryColumn](t, rec.Column(1)),
		bindColumn[views.FixedSizeListColumn[views.PrimitiveColumn[int32]]](t, rec.Column(2)),
		bindColumn[views.ListViewColumn[views.PrimitiveColumn[float64]]](t, rec.Column(3)),
		bindColumn[views.DictionaryColumn[int16, views.StringColumn]](t, rec.Column(4)),
		bindColumn[views.RunEndColumn[int32, views.StringColumn]](t, rec.Column(5))
}

func TestMoreColumnsReadWithoutAllocating(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := moreColumnsRecord(t, mem)
	defer rec.Release()
	flags, hashes, trios, lists, dict, runs := bindMoreColumns(t, rec)
	entries, runValues := dict.Dictionary(), runs.Values()
	sink := 0
	allocs := testing.AllocsPerRun(100, func() {
		for i := range flags.Len() {
			if flags.Value(i) {
				sink++
			}
			sink += len(hashes.Value(i))
			for _, x := range trios.Value(i).Values() {
				sink += int(x)
			}
			sink += lists.ValueLen(i) + lists.Value(i).Len()
			if k := dict.Index(i); k >= 0 {
				sink += len(entries.Value(k))
			}
			sink += len(runValues.Value(runs.Run(i)))
		}
		for i, k := range runs.All() {
			sink += i + k
		}
		sink += runs.Slice(1, 4).NumRuns() + dict.Slice(2, 3).Len() + lists.Slice(0, 2).Len() + trios.Slice(1, 2).Len()
	})
	assert.Zero(t, allocs)
	_ = sink
}

func TestMoreColumnsPanicOutOfRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := moreColumnsRecord(t, mem)
	defer rec.Release()
	flags, hashes, trios, lists, dict, runs := bindMoreColumns(t, rec)
	n := flags.Len()
	for name, f := range map[string]func(){
		"bool row n":              func() { flags.Value(n) },
		"bool row -1":             func() { flags.Value(-1) },
		"fixed binary row 2 of 2": func() { h := hashes.Slice(0, 2); h.Value(2) },
		"fixed-size list row n":   func() { trios.Value(n) },
		"list view row n":         func() { lists.Value(n) },
		"dictionary row n":        func() { dict.Index(n) },
		"run of row n":            func() { runs.Run(n) },
		"run end past the runs":   func() { runs.RunEnd(runs.NumRuns()) },
		"slice past the end":      func() { runs.Slice(0, n+1) },
		"slice backwards":         func() { trios.Slice(2, 1) },
	} {
		assert.Panics(t, f, name)
	}
}
