package bench

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// priceColumns and basketColumns are the structs of columns the Columns
// benchmarks bind.
type priceColumns struct {
	Price views.PrimitiveColumn[float64] `arrow:"price"`
}

type basketColumns struct {
	Items itemColumn `arrow:"items"`
}

type itemColumn = views.ListColumn[views.PrimitiveColumn[int64]]

func priceRecord(n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "price", Type: arrow.PrimitiveTypes.Float64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	prices := b.Field(0).(*array.Float64Builder)
	prices.Reserve(n)
	for i := range n {
		prices.UnsafeAppend(float64(i%1000) * 0.01)
	}
	return b.NewRecordBatch()
}

func basketRecord(n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "items", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	items := b.Field(0).(*array.ListBuilder)
	elems := items.ValueBuilder().(*array.Int64Builder)
	for i := range n {
		items.Append(true)
		for k := range i % 7 {
			elems.Append(int64(k))
		}
	}
	return b.NewRecordBatch()
}

// nullableBasketColumns reads basketsWithNulls.
type nullableBasketColumns struct {
	Items itemColumn `arrow:"items,nullable"`
}

// basketsWithNulls is basketRecord(n) with about one row in eight null, at
// rows a fixed-seed generator picks. A null row keeps its elements in the
// child, as the Arrow format allows: a count that ignores validity counts
// them, and disagrees with the hand loop.
func basketsWithNulls(n int) arrow.RecordBatch {
	rec := basketRecord(n)
	defer rec.Release()
	lists := rec.Column(0).Data()
	valid := memory.NewResizableBuffer(memory.DefaultAllocator)
	defer valid.Release()
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := valid.Bytes()
	rng := rand.New(rand.NewPCG(9, 9))
	nulls := 0
	for i := range n {
		if rng.IntN(8) == 0 {
			nulls++
			continue
		}
		bitutil.SetBit(bits, i)
	}
	data := array.NewData(lists.DataType(), n, []*memory.Buffer{valid, lists.Buffers()[1]}, lists.Children(), nulls, 0)
	defer data.Release()
	col := array.MakeFromData(data)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "items", Type: lists.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
}

// countElements is the hand-written count of the elements of the non-null
// rows of a list array, as an arrow-go user writes it: the offsets alone
// when the array has no nulls, each row's validity and offsets otherwise.
func countElements(l *array.List) int {
	count := 0
	if l.NullN() == 0 {
		offsets := l.Offsets()
		for i := range len(offsets) - 1 {
			count += int(offsets[i+1] - offsets[i])
		}
		return count
	}
	for i := range l.Len() {
		if l.IsValid(i) {
			start, end := l.ValueOffsets(i)
			count += int(end - start)
		}
	}
	return count
}

func BenchmarkColumns(b *testing.B) {
	b.Run("sum_float64_1M", func(b *testing.B) {
		rec := priceRecord(1 << 20)
		defer rec.Release()
		variants := map[string]func() float64{
			"hand": func() float64 {
				sum := 0.0
				for _, p := range rec.Column(0).(*array.Float64).Float64Values() {
					sum += p
				}
				return sum
			},
			"columns": func() float64 {
				cols, err := mapper.Columns[priceColumns](rec)
				if err != nil {
					b.Fatal(err)
				}
				sum := 0.0
				for _, p := range cols.Price.Values() {
					sum += p
				}
				return sum
			},
		}
		runColumns(b, variants)
	})
	b.Run("count_list_elements_100k", func(b *testing.B) {
		rec := basketRecord(100_000)
		defer rec.Release()
		variants := map[string]func() int{
			"hand": func() int { return countElements(rec.Column(0).(*array.List)) },
			"columns": func() int {
				return countByValueLen(b, rec, func(c basketColumns) itemColumn { return c.Items })
			},
			// The hand loop's own loop, over the offsets Columns validated.
			"columns_offsets": func() int {
				cols, err := mapper.Columns[basketColumns](rec)
				if err != nil {
					b.Fatal(err)
				}
				offsets := cols.Items.Offsets()
				count := 0
				for i := range len(offsets) - 1 {
					count += int(offsets[i+1] - offsets[i])
				}
				return count
			},
		}
		runColumns(b, variants)
	})
	b.Run("count_list_elements_100k_nulls", func(b *testing.B) {
		rec := basketsWithNulls(100_000)
		defer rec.Release()
		variants := map[string]func() int{
			"hand": func() int { return countElements(rec.Column(0).(*array.List)) },
			// ValueLen is 0 for a null row, without a branch.
			"columns": func() int {
				return countByValueLen(b, rec, func(c nullableBasketColumns) itemColumn { return c.Items })
			},
		}
		runColumns(b, variants)
	})
}

// primColumns is the columns of primRecord.
type primColumns struct {
	ID    views.PrimitiveColumn[int64]   `arrow:"id"`
	Price views.PrimitiveColumn[float64] `arrow:"price"`
	Qty   views.PrimitiveColumn[int32]   `arrow:"qty"`
	OK    views.BoolColumn               `arrow:"ok"`
}

// sumOf is the work of a page: the sum of its prices.
func sumOf(prices []float64) float64 {
	sum := 0.0
	for _, p := range prices {
		sum += p
	}
	return sum
}

// BenchmarkColumnsPages sums a column of 1M rows, in 16 records, page by
// page: what a ColumnsReader's pages cost over the sum itself. The hand
// loop sums each record's window of a page at a time, in the same order.
func BenchmarkColumnsPages(b *testing.B) {
	const records, size = 16, 1024
	recs := make([]arrow.RecordBatch, records)
	for k := range recs {
		recs[k] = primRecord(memory.DefaultAllocator, 1<<20/records)
		defer recs[k].Release()
	}
	variants := map[string]func() float64{
		// The sum over each record's values, a page's window at a time.
		"hand": func() float64 {
			sum := 0.0
			for _, rec := range recs {
				prices := rec.Column(1).(*array.Float64).Float64Values()
				for lo := 0; lo < len(prices); lo += size {
					sum += sumOf(prices[lo:min(lo+size, len(prices))])
				}
			}
			return sum
		},
		"pages": func() float64 {
			rr, err := array.NewRecordReader(primSchema, recs)
			if err != nil {
				b.Fatal(err)
			}
			defer rr.Release()
			r, err := mapper.NewColumnsReader[primColumns](rr)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Release()
			sum := 0.0
			for page, err := range r.Windows(size) {
				if err != nil {
					b.Fatal(err)
				}
				sum += sumOf(page.Price.Values())
			}
			return sum
		},
	}
	b.Run("sum_pages_of_1024_1M", func(b *testing.B) { runColumns(b, variants) })
}

// countByValueLen binds C to rec and sums ValueLen over the rows of the
// list column items picks.
func countByValueLen[C any](b *testing.B, rec arrow.RecordBatch, items func(C) itemColumn) int {
	cols, err := mapper.Columns[C](rec)
	if err != nil {
		b.Fatal(err)
	}
	list := items(cols)
	count := 0
	for i := range list.Len() {
		count += list.ValueLen(i)
	}
	return count
}

// runColumns checks once that every variant agrees with hand, then times
// each.
func runColumns[R comparable](b *testing.B, variants map[string]func() R) {
	want := variants["hand"]()
	for name := range variants {
		if got := variants[name](); got != want {
			b.Fatalf("%s: got %v, want %v", name, got, want)
		}
	}
	// hand first, then the others by name.
	names := slices.DeleteFunc(slices.Sorted(maps.Keys(variants)), func(name string) bool { return name == "hand" })
	names = append([]string{"hand"}, names...)
	for _, name := range names {
		f := variants[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var r R
			for b.Loop() {
				r = f()
			}
			sink = r
		})
	}
}
