package mapper_test

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

func TestColumnsReaderBindsEachBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	sizes := []int{5, 0, 11, 3}
	stream, _ := productStream(t, mem, sizes...)
	rr, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewColumnsReader[productColumns](rr)
	require.NoError(t, err)
	defer r.Release()

	var got []int
	units := 0
	for r.Next() {
		cols := r.Columns()
		got = append(got, cols.Price.Len())
		for i, p := range cols.Price.All() {
			assert.Equal(t, int64(units+i), cols.Units.(*array.Int64).Value(i))
			assert.Equal(t, float64(units+i)+0.25, p)
			assert.Equal(t, (units+i)%3, cols.Tags.ValueLen(i))
		}
		units += cols.Price.Len()
	}
	require.NoError(t, r.Err())
	assert.Equal(t, sizes, got)
	assert.False(t, r.Next())
}

// rawColumns reads a column as it is, unvalidated, beside a typed one.
type rawColumns struct {
	Price views.PrimitiveColumn[float64] `arrow:"price"`
	Raw   arrow.Array                    `arrow:"raw"`
}

func TestColumnsReaderErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	good := columnsBatch(t, mem, 0, 4, 0)
	defer good.Release()
	bad := columnsBatch(t, mem, 1, 4, 2) // a null price at its row 1
	defer bad.Release()

	t.Run("a schema without the column fails before any batch is read", func(t *testing.T) {
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{good})
		require.NoError(t, err)
		defer rr.Release()
		_, err = mapper.NewColumnsReader[struct {
			Qty views.PrimitiveColumn[int64] `arrow:"qty"`
		}](rr)
		assert.ErrorIs(t, err, mapper.ErrMissingColumn)
	})
	t.Run("a batch with a null where none is allowed ends the reader with ErrNull, after its rows before the null", func(t *testing.T) {
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{good, bad, good})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		require.True(t, r.Next())
		require.True(t, r.Next(), "the row of the bad batch before its null")
		assert.Equal(t, 1, r.Columns().Price.Len())
		assert.Equal(t, 1, r.Columns().Units.Len(), "an arrow.Array field cut to that row too")
		assert.NoError(t, r.Err(), "no error while rows remain")
		assert.False(t, r.Next())
		var me *mapper.Error
		require.ErrorAs(t, r.Err(), &me)
		assert.ErrorIs(t, me, mapper.ErrNull)
		assert.Equal(t, "Price", me.Path)
		assert.Equal(t, 5, me.Row, "row 1 of the second record of 4 rows: row 5 of the stream")
		assert.Equal(t, 1, me.Record)
		assert.False(t, r.Next())
		assert.Zero(t, r.Columns().Price.Len())
		assert.Nil(t, r.Columns().Units)
	})
	// rawReader reads a record whose arrow.Array field raw has offsets out
	// of bounds at its row 2, which arrow-go checks only for the last row
	// of an array or a slice, and prices of JSON prices.
	rawReader := func(t *testing.T, prices string) *mapper.ColumnsReader[rawColumns] {
		raw := array.NewData(arrow.BinaryTypes.String, 4, []*memory.Buffer{nil,
			memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 99, 3, 4})), memory.NewBufferBytes([]byte("abcd"))}, nil, 0, 0)
		defer raw.Release()
		rawArr := array.MakeFromData(raw)
		defer rawArr.Release()
		priceArr := fxJSON(t, mem, arrow.PrimitiveTypes.Float64, prices)
		defer priceArr.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, {Name: "raw", Type: arrow.BinaryTypes.String}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{priceArr, rawArr}, 4)
		defer rec.Release()
		rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
		require.NoError(t, err)
		t.Cleanup(rr.Release)
		r, err := mapper.NewColumnsReader[rawColumns](rr)
		require.NoError(t, err)
		t.Cleanup(r.Release)
		return r
	}
	requireRawError := func(t *testing.T, err error) {
		t.Helper()
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.ErrorIs(t, me, mapper.ErrInvalidData)
		assert.Equal(t, "raw", me.Column)
		assert.Equal(t, -1, me.Row, "a fault of the record")
	}
	t.Run("an arrow.Array field that cannot be cut before the row of a null ends the reader with an error, not a panic", func(t *testing.T) {
		r := rawReader(t, `[1, 2, null, 4]`)
		require.NotPanics(t, func() { assert.False(t, r.Next()) })
		requireRawError(t, r.Err())
	})
	t.Run("an arrow.Array field a window cannot be cut from ends Windows with an error, not a panic", func(t *testing.T) {
		r := rawReader(t, `[1, 2, 3, 4]`)
		var errs []error
		require.NotPanics(t, func() {
			for cols, err := range r.Windows(2) {
				require.Error(t, err, "no window: the first cannot be cut")
				assert.Nil(t, cols.Raw)
				errs = append(errs, err)
			}
		})
		require.Len(t, errs, 1)
		requireRawError(t, errs[0])
		assert.Equal(t, errs[0], r.Err())
		assert.False(t, r.Next())
	})
	t.Run("Next after Release reports false and Err is ErrClosed", func(t *testing.T) {
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{good})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		r.Release()
		r.Release()
		assert.False(t, r.Next())
		assert.ErrorIs(t, r.Err(), mapper.ErrClosed)
	})
}

func TestColumnsReaderWindows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sizes := []int{30, 0, 17, 5, 1}
	stream, rows := encodedStream(t, mem, sizes...)

	for _, tc := range []struct {
		size  int
		pages []int
	}{
		{7, []int{7, 7, 7, 7, 2, 7, 7, 3, 5, 1}},
		{1, slices.Repeat([]int{1}, 53)},
		{17, []int{17, 13, 17, 5, 1}},
		{64, []int{30, 17, 5, 1}},
	} {
		t.Run(fmt.Sprintf("pages of %d rows are windows of one record each, read as Decode reads them", tc.size), func(t *testing.T) {
			rr, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewColumnsReader[encodedColumns](rr)
			require.NoError(t, err)
			defer r.Release()
			var got []int
			at := 0
			for page, err := range r.Windows(tc.size) {
				require.NoError(t, err)
				n := page.Flag.Len()
				requireEncodedColumns(t, page, rows[at:at+n])
				got = append(got, n)
				at += n
			}
			assert.Equal(t, tc.pages, got)
			assert.Equal(t, len(rows), at)
			require.NoError(t, r.Err())
		})
	}

	t.Run("an arrow.Array field of a page is that window of the record's array, released with the page", func(t *testing.T) {
		stream, want := productStream(t, mem, 9, 4)
		rr, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		var units []int64
		var got []productRow
		for page, err := range r.Windows(4) {
			require.NoError(t, err)
			arr := page.Units.(*array.Int64)
			require.Equal(t, page.SKU.Len(), arr.Len())
			units = append(units, arr.Int64Values()...)
			for i := range page.SKU.Len() {
				p := page.Price.Value(i)
				tags := []string{}
				for _, tag := range page.Tags.Value(i).All() {
					tags = append(tags, tag)
				}
				got = append(got, productRow{SKU: page.SKU.Value(i), Price: &p, Tags: tags, Units: arr.Value(i)})
			}
		}
		require.NoError(t, r.Err())
		for i := range want {
			want[i].Tags = append([]string{}, want[i].Tags...)
		}
		assert.Equal(t, want, got)
		assert.Len(t, units, 13)
	})

	t.Run("breaking out of the pages and releasing the reader leaks nothing", func(t *testing.T) {
		rec := columnsBatch(t, mem, 0, 10, 0)
		defer rec.Release()
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{rec, rec})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		pages := 0
		for _, err := range r.Windows(3) {
			require.NoError(t, err)
			if pages++; pages == 2 {
				break
			}
		}
		r.Release()
		assert.Equal(t, 2, pages)
	})

	t.Run("a batch that fails validation ends the pages with its error, after the pages before it", func(t *testing.T) {
		good := columnsBatch(t, mem, 0, 4, 0)
		defer good.Release()
		bad := columnsBatch(t, mem, 0, 4, 2)
		defer bad.Release()
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{good, bad, good})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		var got []int
		var last error
		for page, err := range r.Windows(3) {
			if err != nil {
				last = err
				continue
			}
			got = append(got, page.SKU.Len())
		}
		assert.Equal(t, []int{3, 1}, got)
		assert.ErrorIs(t, last, mapper.ErrNull)
		assert.Equal(t, last, r.Err())
	})

	t.Run("a page size that is not positive is an error", func(t *testing.T) {
		rr, err := array.NewRecordReader(columnsSchema, nil)
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		for _, size := range []int{0, -3} {
			n := 0
			for _, err := range r.Windows(size) {
				assert.ErrorContains(t, err, "not positive")
				n++
			}
			assert.Equal(t, 1, n)
		}
	})
}

// onlyOne is an error unless n, how many values a sequence yielded, is 1.
func onlyOne(n int) error {
	if n != 1 {
		return fmt.Errorf("%d values yielded, not 1", n)
	}
	return nil
}

func TestColumnsReaderAllYieldsOneColumnsPerRecord(t *testing.T) {
	mem := checkedAllocator(t)
	recs := readerBatches(mem, -1, 3, 0, 5, 2)
	rr := newFakeRecords(readerSchema, recs, nil)
	defer rr.Release()
	r := newTestColumnsReader(t, rr)
	require.True(t, r.Schema().Equal(readerSchema))

	var sizes []int
	var ids []int64
	for cols, err := range r.All() {
		require.NoError(t, err)
		sizes = append(sizes, cols.ID.Len())
		require.Equal(t, cols.ID.Len(), cols.Name.Len())
		ids = append(ids, cols.ID.Values()...)
	}
	require.Equal(t, []int{3, 0, 5, 2}, sizes, "one C per record, an empty one too")
	want := make([]int64, 10)
	for i := range want {
		want[i] = int64(i)
	}
	require.Equal(t, want, ids)
	require.NoError(t, r.Err())
	n, err := columnsRows(r.All())
	require.NoError(t, err)
	require.Zero(t, n, "a second All after the end yields nothing")
	require.False(t, r.Next())
}

func TestColumnsReaderWindowsStayInOneRecord(t *testing.T) {
	mem := checkedAllocator(t)
	windowsOf := func(seq func(r *mapper.ColumnsReader[idColumns]) iter.Seq2[idColumns, error]) ([][]int64, error) {
		rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 7, 0, 2), errSource)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[idColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		var got [][]int64
		for cols, err := range seq(r) {
			if err != nil {
				return got, err
			}
			got = append(got, slices.Clone(cols.ID.Values()))
		}
		return got, nil
	}
	windows, werr := windowsOf(func(r *mapper.ColumnsReader[idColumns]) iter.Seq2[idColumns, error] { return r.Windows(3) })
	require.Equal(t, [][]int64{{0, 1, 2}, {3, 4, 5}, {6}, {7, 8}}, windows, "windows of one record each, then the error")
	require.ErrorIs(t, werr, errSource)
}

func TestColumnsReaderErrorsCountRowsFromTheStartOfTheStream(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// Prices are null at rows 1,001, 1,003, … of the third record, whose
	// rows are 2,000 to 2,999 of the stream.
	recs := []arrow.RecordBatch{
		columnsBatch(t, mem, 0, 1000, 0),
		columnsBatch(t, mem, 1000, 1000, 0),
		columnsBatch(t, mem, 1001, 1000, 2),
	}
	rr, err := array.NewRecordReader(columnsSchema, recs)
	require.NoError(t, err)
	releaseAll(recs)
	defer rr.Release()
	r, err := mapper.NewColumnsReader[productColumns](rr)
	require.NoError(t, err)
	defer r.Release()

	windows := 0
	var last error
	for cols, err := range r.Windows(300) {
		if err != nil {
			last = err
			break
		}
		windows += cols.Price.Len()
	}
	assert.Equal(t, 2001, windows, "every row before the null, row 0 of its record too")
	var me *mapper.Error
	require.ErrorAs(t, last, &me)
	assert.ErrorIs(t, me, mapper.ErrNull)
	assert.Equal(t, 2001, me.Row, "row 1 of the third record")
	assert.Equal(t, 2, me.Record)
}
