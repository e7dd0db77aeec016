package mapper_test

import (
	"bytes"
	"fmt"
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

var columnsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "sku", Type: arrow.BinaryTypes.String},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "unit_count", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// columnsBatch is rows [from, from+n) of a record of columnsSchema, with
// a null price and a null tag list at every row divisible by nullEvery
// (never when nullEvery is 0).
func columnsBatch(t *testing.T, mem memory.Allocator, from, n, nullEvery int) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, columnsSchema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.StringBuilder).Append("sku-" + string(rune('a'+i%26)))
		tags := b.Field(2).(*array.ListBuilder)
		if nullEvery > 0 && i%nullEvery == 0 {
			b.Field(1).(*array.Float64Builder).AppendNull()
			tags.AppendNull()
		} else {
			b.Field(1).(*array.Float64Builder).Append(float64(i) + 0.25)
			tags.Append(true)
			for k := range i % 3 {
				tags.ValueBuilder().(*array.StringBuilder).Append(string(rune('x' + k)))
			}
		}
		b.Field(3).(*array.Int64Builder).Append(int64(i))
	}
	return b.NewRecordBatch()
}

type productColumns struct {
	SKU   views.StringColumn                            `arrow:"sku"`
	Price views.PrimitiveColumn[float64]                `arrow:"price"`
	Tags  views.ListColumn[views.StringColumn]          `arrow:"tags"`
	Units arrow.Array                                   `arrow:"unit_count"`
	Skip  views.ListColumn[views.PrimitiveColumn[int8]] `arrow:"-"`
}

type productRow struct {
	SKU   string   `arrow:"sku"`
	Price *float64 `arrow:"price"`
	Tags  []string `arrow:"tags"`
	Units int64    `arrow:"unit_count"`
}

func TestColumnsBindsTheRecordsColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := columnsBatch(t, mem, 0, 20, 0)
	defer whole.Release()
	rec := whole.NewSlice(3, 17) // every column at an offset
	defer rec.Release()

	cols, err := mapper.Columns[productColumns](rec)
	require.NoError(t, err)
	rows, err := mapper.Decode[productRow](rec)
	require.NoError(t, err)

	require.Equal(t, len(rows), cols.Price.Len())
	assert.Same(t, rec.Column(3), cols.Units)
	sum, tags := 0.0, 0
	for i, r := range rows {
		assert.Equal(t, r.SKU, cols.SKU.Value(i))
		assert.Equal(t, *r.Price, cols.Price.Values()[i])
		assert.Equal(t, r.Units, cols.Units.(*array.Int64).Value(i))
		assert.Equal(t, len(r.Tags), cols.Tags.ValueLen(i))
		for k, tag := range cols.Tags.Value(i).All() {
			assert.Equal(t, r.Tags[k], tag)
		}
		sum += *r.Price
		tags += len(r.Tags)
	}
	got := 0.0
	for _, p := range cols.Price.Values() {
		got += p
	}
	assert.Equal(t, sum, got)
	assert.Equal(t, tags, cols.Tags.Elements().Len())

	page := cols.Price.Slice(4, 9)
	assert.Equal(t, *rows[4].Price, page.Value(0))
}

func TestColumnsOptions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsBatch(t, mem, 0, 5, 0)
	defer rec.Release()

	t.Run("SnakeCase matches an untagged field to its snake_case column", func(t *testing.T) {
		type cols struct{ UnitCount views.PrimitiveColumn[int64] }
		c, err := mapper.Columns[cols](rec, mapper.SnakeCase())
		require.NoError(t, err)
		assert.Equal(t, []int64{0, 1, 2, 3, 4}, c.UnitCount.Values())
	})
	t.Run("an untagged field matches its column case-insensitively", func(t *testing.T) {
		type cols struct {
			Price views.PrimitiveColumn[float64]
		}
		c, err := mapper.Columns[cols](rec)
		require.NoError(t, err)
		assert.Equal(t, 5, c.Price.Len())
	})
	t.Run("AllowMissing leaves a field without a column empty", func(t *testing.T) {
		type cols struct {
			Gone views.StringColumn `arrow:"gone"`
		}
		c, err := mapper.Columns[cols](rec, mapper.AllowMissing())
		require.NoError(t, err)
		assert.Zero(t, c.Gone.Len())
	})
	t.Run("a nullable field takes a column with nulls", func(t *testing.T) {
		nulls := columnsBatch(t, mem, 0, 5, 2)
		defer nulls.Release()
		type cols struct {
			Price views.PrimitiveColumn[float64]       `arrow:"price,nullable"`
			Tags  views.ListColumn[views.StringColumn] `arrow:"tags,nullable"`
		}
		c, err := mapper.Columns[cols](nulls)
		require.NoError(t, err)
		assert.True(t, c.Price.IsNull(0))
		assert.False(t, c.Price.IsNull(1))
		assert.True(t, c.Tags.IsNull(2))
	})
}

func TestColumnsErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsBatch(t, mem, 0, 7, 3)
	defer rec.Release()

	for _, tc := range []struct {
		name   string
		bind   func() error
		kind   error
		path   string
		column string
		row    int
	}{{
		name: "a field without a column is a missing column",
		bind: func() error {
			_, err := mapper.Columns[struct {
				Qty views.PrimitiveColumn[int64] `arrow:"qty"`
			}](rec)
			return err
		},
		kind: mapper.ErrMissingColumn, path: "Qty", column: "qty", row: -1,
	}, {
		name: "a column of another type is a type mismatch",
		bind: func() error {
			_, err := mapper.Columns[struct {
				SKU views.PrimitiveColumn[int64] `arrow:"sku"`
			}](rec)
			return err
		},
		kind: mapper.ErrTypeMismatch, path: "SKU", column: "sku", row: -1,
	}, {
		name: "list elements of another type are a type mismatch",
		bind: func() error {
			_, err := mapper.Columns[struct {
				Tags views.ListColumn[views.BinaryColumn] `arrow:"tags,nullable"`
			}](rec)
			return err
		},
		kind: mapper.ErrTypeMismatch, path: "Tags", column: "tags.item", row: -1,
	}, {
		name: "a pinned encoding the column does not have is a type mismatch",
		bind: func() error {
			_, err := mapper.Columns[struct {
				SKU views.StringColumn `arrow:"sku,large_utf8"`
			}](rec)
			return err
		},
		kind: mapper.ErrTypeMismatch, path: "SKU", column: "sku", row: -1,
	}, {
		name: "a null in a field not tagged nullable is an unexpected null at its row",
		bind: func() error {
			_, err := mapper.Columns[struct {
				Price views.PrimitiveColumn[float64] `arrow:"price"`
			}](rec)
			return err
		},
		kind: mapper.ErrNull, path: "Price", column: "price", row: 0,
	}, {
		name: "a null list in a field not tagged nullable is an unexpected null",
		bind: func() error {
			_, err := mapper.Columns[struct {
				Tags views.ListColumn[views.StringColumn] `arrow:"tags"`
			}](rec)
			return err
		},
		kind: mapper.ErrNull, path: "Tags", column: "tags", row: 0,
	}, {
		name: "a field of another Go type is unsupported",
		bind: func() error {
			_, err := mapper.Columns[struct {
				SKU []string `arrow:"sku"`
			}](rec)
			return err
		},
		kind: mapper.ErrUnsupported, path: "SKU", column: "sku", row: -1,
	}, {
		name: "a bad tag is a tag error",
		bind: func() error {
			_, err := mapper.Columns[struct {
				SKU views.StringColumn `arrow:"sku,bogus"`
			}](rec)
			return err
		},
		kind: mapper.ErrTag, path: "SKU", row: -1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.bind()
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.kind)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tc.path, me.Path)
			if tc.column != "" {
				assert.Equal(t, tc.column, me.Column)
			}
			assert.Equal(t, tc.row, me.Row)
		})
	}
	t.Run("a nil record is invalid data", func(t *testing.T) {
		_, err := mapper.Columns[productColumns](nil)
		assert.ErrorIs(t, err, mapper.ErrInvalidData)
	})
}

func TestColumnsReaderBindsEachBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(columnsSchema), ipc.WithAllocator(mem))
	sizes := []int{5, 0, 11, 3}
	from := 0
	for _, n := range sizes {
		rec := columnsBatch(t, mem, from, n, 0)
		require.NoError(t, w.Write(rec))
		rec.Release()
		from += n
	}
	require.NoError(t, w.Close())

	rr, err := ipc.NewReader(bytes.NewReader(buf.Bytes()), ipc.WithAllocator(mem))
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

func TestColumnsReaderErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	good := columnsBatch(t, mem, 0, 4, 0)
	defer good.Release()
	bad := columnsBatch(t, mem, 0, 4, 2)
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
	t.Run("a batch with a null where none is allowed ends the reader with ErrNull", func(t *testing.T) {
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{good, bad, good})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		require.True(t, r.Next())
		assert.False(t, r.Next())
		var me *mapper.Error
		require.ErrorAs(t, r.Err(), &me)
		assert.ErrorIs(t, me, mapper.ErrNull)
		assert.Equal(t, "Price", me.Path)
		assert.Equal(t, 0, me.Row)
		assert.False(t, r.Next())
		assert.Zero(t, r.Columns().Price.Len())
		assert.Nil(t, r.Columns().Units)
	})
	t.Run("Next after Release reports false", func(t *testing.T) {
		rr, err := array.NewRecordReader(columnsSchema, []arrow.RecordBatch{good})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[productColumns](rr)
		require.NoError(t, err)
		r.Release()
		r.Release()
		assert.False(t, r.Next())
		assert.NoError(t, r.Err())
	})
}

func ExampleColumns() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "items", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{1.5, 2.25, 4}, nil)
	items := b.Field(1).(*array.ListBuilder)
	for _, n := range []int{2, 0, 3} {
		items.Append(true)
		for k := range n {
			items.ValueBuilder().(*array.Int64Builder).Append(int64(k))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	type orders struct {
		Price views.PrimitiveColumn[float64]                 `arrow:"price"`
		Items views.ListColumn[views.PrimitiveColumn[int64]] `arrow:"items"`
	}
	cols, err := mapper.Columns[orders](rec)
	if err != nil {
		panic(err)
	}
	sum := 0.0
	for _, p := range cols.Price.Values() {
		sum += p
	}
	count := 0
	for i := range cols.Items.Len() {
		count += cols.Items.ValueLen(i)
	}
	fmt.Println(sum, count)
	// Output: 7.75 5
}
