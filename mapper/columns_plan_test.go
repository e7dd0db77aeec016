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

// encodedColumns reads every column of encodedBatch as a typed column.
type encodedColumns struct {
	Flag  views.BoolColumn                                        `arrow:"flag,nullable"`
	Hash  views.BinaryColumn                                      `arrow:"hash"`
	Trio  views.FixedSizeListColumn[views.PrimitiveColumn[int32]] `arrow:"trio"`
	Notes views.ListViewColumn[views.StringColumn]                `arrow:"notes,nullable"`
	City  views.DictionaryColumn[int32, views.StringColumn]       `arrow:"city"`
	Level views.RunEndColumn[int32, views.PrimitiveColumn[int64]] `arrow:"level,nullable"`
}

// encodedRow is how Decode reads encodedBatch.
type encodedRow struct {
	Flag  *bool    `arrow:"flag"`
	Hash  [4]byte  `arrow:"hash"`
	Trio  [3]int32 `arrow:"trio"`
	Notes []string `arrow:"notes"`
	City  string   `arrow:"city"`
	Level *int64   `arrow:"level"`
}

// encodedBatch is n rows in encodings arrow-go's builders write: bool,
// fixed_size_binary, fixed_size_list, list_view, dictionary and run-end
// encoded columns, from row from on.
func encodedBatch(t *testing.T, mem memory.Allocator, from, n int) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "hash", Type: &arrow.FixedSizeBinaryType{ByteWidth: 4}},
		{Name: "trio", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32)},
		{Name: "notes", Type: arrow.ListViewOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "city", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "level", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	cities := []string{"Lisbon", "Oslo", "Quito"}
	for i := from; i < from+n; i++ {
		if i%5 == 4 {
			b.Field(0).(*array.BooleanBuilder).AppendNull()
		} else {
			b.Field(0).(*array.BooleanBuilder).Append(i%2 == 0)
		}
		b.Field(1).(*array.FixedSizeBinaryBuilder).Append([]byte{byte(i), 1, 2, byte(i >> 8)})
		trio := b.Field(2).(*array.FixedSizeListBuilder)
		trio.Append(true)
		trio.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{int32(i), int32(-i), int32(i * i)}, nil)
		notes := b.Field(3).(*array.ListViewBuilder)
		if i%4 == 1 {
			notes.AppendNull()
		} else {
			notes.AppendWithSize(true, i%3)
			for k := range i % 3 {
				notes.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("note %d.%d", i, k))
			}
		}
		require.NoError(t, b.Field(4).(*array.BinaryDictionaryBuilder).AppendString(cities[i%3]))
		level := b.Field(5).(*array.RunEndEncodedBuilder)
		switch {
		case i%7 == 6:
			level.AppendNull()
		case i%7 > 0 && i > from && (i-1)%7 != 6:
			level.ContinueRun(1) // the run of the row before goes on
		default:
			level.Append(1)
			level.ValueBuilder().(*array.Int64Builder).Append(int64(i / 7))
		}
	}
	return b.NewRecordBatch()
}

// decodedStream is an IPC stream, written by arrow-go's writer, of the
// records batch makes of the given sizes (batch(from, n) is rows [from,
// from+n)), and the rows Decode reads from them as R.
func decodedStream[R any](t *testing.T, mem memory.Allocator, batch func(from, n int) arrow.RecordBatch, sizes ...int) ([]byte, []R) {
	t.Helper()
	var recs []arrow.RecordBatch
	var rows []R
	from := 0
	for _, n := range sizes {
		rec := batch(from, n)
		defer rec.Release()
		decoded, err := mapper.Decode[R](rec)
		require.NoError(t, err)
		recs, rows = append(recs, rec), append(rows, decoded...)
		from += n
	}
	return writeStream(t, mem, recs[0].Schema(), recs), rows
}

// encodedStream is an IPC stream of encodedBatch records of the given
// sizes, and the rows Decode reads from them.
func encodedStream(t *testing.T, mem memory.Allocator, sizes ...int) ([]byte, []encodedRow) {
	return decodedStream[encodedRow](t, mem, func(from, n int) arrow.RecordBatch { return encodedBatch(t, mem, from, n) }, sizes...)
}

// productStream is an IPC stream of columnsBatch records of the given
// sizes, without nulls, and the rows Decode reads from them.
func productStream(t *testing.T, mem memory.Allocator, sizes ...int) ([]byte, []productRow) {
	return decodedStream[productRow](t, mem, func(from, n int) arrow.RecordBatch { return columnsBatch(t, mem, from, n, 0) }, sizes...)
}

// TestColumnsOfEveryEncodingThroughIPC writes batches of every encoding
// with arrow-go's IPC writer, reads them back with its reader, and binds
// each batch and windows of it: the columns read what Decode reads.
func TestColumnsOfEveryEncodingThroughIPC(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	stream, _ := encodedStream(t, mem, 30, 0, 17)
	rr, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewColumnsReader[encodedColumns](rr)
	require.NoError(t, err)
	defer r.Release()
	batches := 0
	for r.Next() {
		batches++
		rec := rr.RecordBatch()
		rows, err := mapper.Decode[encodedRow](rec)
		require.NoError(t, err)
		for _, win := range [][2]int{{0, len(rows)}, {1, len(rows)}, {len(rows) / 3, len(rows) / 2}} {
			if win[0] > win[1] {
				continue
			}
			c := r.Columns()
			requireEncodedColumns(t, encodedColumns{
				Flag: c.Flag.Slice(win[0], win[1]), Hash: c.Hash.Slice(win[0], win[1]), Trio: c.Trio.Slice(win[0], win[1]),
				Notes: c.Notes.Slice(win[0], win[1]), City: c.City.Slice(win[0], win[1]), Level: c.Level.Slice(win[0], win[1]),
			}, rows[win[0]:win[1]])
		}
	}
	require.NoError(t, r.Err())
	assert.Equal(t, 3, batches)
}

// requireEncodedColumns checks that every column of c reads rows, as
// Decode reads them.
func requireEncodedColumns(t *testing.T, c encodedColumns, rows []encodedRow) {
	t.Helper()
	require.Equal(t, len(rows), c.Flag.Len())
	entries, levels := c.City.Dictionary(), c.Level.Values()
	for i, want := range rows {
		require.Equal(t, want.Flag == nil, c.Flag.IsNull(i), "row %d", i)
		assert.Equal(t, want.Flag != nil && *want.Flag, c.Flag.Value(i))
		assert.Equal(t, want.Hash[:], c.Hash.Value(i))
		assert.Equal(t, want.Trio[:], c.Trio.Value(i).Values())
		require.Equal(t, want.Notes == nil, c.Notes.IsNull(i), "row %d", i)
		got := []string{}
		for _, s := range c.Notes.Value(i).All() {
			got = append(got, s)
		}
		if want.Notes != nil {
			assert.Equal(t, want.Notes, got)
		}
		assert.Equal(t, want.City, entries.Value(c.City.Index(i)))
		require.Equal(t, want.Level == nil, c.Level.IsNull(i), "row %d", i)
		if want.Level != nil {
			assert.Equal(t, *want.Level, levels.Value(c.Level.Run(i)))
		}
	}
}

func TestColumnsStrict(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "plain", Type: arrow.BinaryTypes.String},
		{Name: "large", Type: arrow.BinaryTypes.LargeString},
		{Name: "view", Type: arrow.BinaryTypes.StringView},
		{Name: "fixed", Type: &arrow.FixedSizeBinaryType{ByteWidth: 2}},
		{Name: "lists", Type: arrow.ListOf(arrow.BinaryTypes.LargeString)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append("a")
	b.Field(1).(*array.LargeStringBuilder).Append("b")
	b.Field(2).(*array.StringViewBuilder).Append("c")
	b.Field(3).(*array.FixedSizeBinaryBuilder).Append([]byte("dd"))
	lists := b.Field(4).(*array.ListBuilder)
	lists.Append(true)
	lists.ValueBuilder().(*array.LargeStringBuilder).Append("e")
	built := b.NewRecordBatch()
	defer built.Release()
	// arrow-go builds no dictionary of large_utf8 entries: put one together.
	entries := array.NewLargeStringBuilder(mem)
	entries.Append("f")
	entryArr := entries.NewArray()
	entries.Release()
	defer entryArr.Release()
	indices := array.NewInt32Builder(mem)
	indices.Append(0)
	indexArr := indices.NewArray()
	indices.Release()
	defer indexArr.Release()
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.LargeString}
	dict := array.NewDictionaryArray(dictType, indexArr, entryArr)
	defer dict.Release()
	rec := array.NewRecordBatch(
		arrow.NewSchema(append(schema.Fields(), arrow.Field{Name: "dict", Type: dictType}), nil),
		append(built.Columns(), dict), 1)
	defer rec.Release()

	bind := func(t *testing.T, f func(...mapper.ReadOption) error) {
		t.Helper()
		require.NoError(t, f(), "without Strict")
		err := f(mapper.Strict())
		require.Error(t, err, "with Strict")
		assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
		assert.Contains(t, err.Error(), "Strict")
	}
	t.Run("a large or view encoding needs a pin", func(t *testing.T) {
		bind(t, func(o ...mapper.ReadOption) error {
			_, err := mapper.Columns[struct {
				S views.StringColumn `arrow:"large"`
			}](rec, o...)
			return err
		})
		bind(t, func(o ...mapper.ReadOption) error {
			_, err := mapper.Columns[struct {
				S views.StringColumn `arrow:"view"`
			}](rec, o...)
			return err
		})
	})
	t.Run("fixed_size_binary read as binary needs a pin", func(t *testing.T) {
		bind(t, func(o ...mapper.ReadOption) error {
			_, err := mapper.Columns[struct {
				B views.BinaryColumn `arrow:"fixed"`
			}](rec, o...)
			return err
		})
	})
	t.Run("list elements need their own pin", func(t *testing.T) {
		bind(t, func(o ...mapper.ReadOption) error {
			_, err := mapper.Columns[struct {
				L views.ListColumn[views.StringColumn] `arrow:"lists"`
			}](rec, o...)
			return err
		})
	})
	t.Run("dictionary entries need a pin", func(t *testing.T) {
		bind(t, func(o ...mapper.ReadOption) error {
			_, err := mapper.Columns[struct {
				D views.DictionaryColumn[int32, views.StringColumn] `arrow:"dict"`
			}](rec, o...)
			return err
		})
	})
	t.Run("pins and plain encodings bind under Strict", func(t *testing.T) {
		c, err := mapper.Columns[struct {
			P views.StringColumn                                `arrow:"plain"`
			L views.StringColumn                                `arrow:"large,large"`
			V views.StringColumn                                `arrow:"view,utf8_view"`
			F views.BinaryColumn                                `arrow:"fixed,fixed_size_binary"`
			E views.ListColumn[views.StringColumn]              `arrow:"lists" arrow-elem:"large_utf8"`
			D views.DictionaryColumn[int32, views.StringColumn] `arrow:"dict,large"`
		}](rec, mapper.Strict())
		require.NoError(t, err)
		assert.Equal(t, "a", c.P.Value(0))
		assert.Equal(t, "b", c.L.Value(0))
		assert.Equal(t, "c", c.V.Value(0))
		assert.Equal(t, []byte("dd"), c.F.Value(0))
		e := c.E.Value(0)
		assert.Equal(t, "e", e.Value(0))
		d := c.D.Dictionary()
		assert.Equal(t, "f", d.Value(c.D.Index(0)))
	})
}

// TestColumnsTypedMaps binds a map column with typed keys and values: a
// null value needs `arrow-value:"nullable"`, and Strict reaches the keys.
func TestColumnsTypedMaps(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)},
		{Name: "large", Type: arrow.MapOf(arrow.BinaryTypes.LargeString, arrow.PrimitiveTypes.Int64)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	attrs, large := b.Field(0).(*array.MapBuilder), b.Field(1).(*array.MapBuilder)
	for _, row := range [][]*int64{{ptr(int64(1)), nil}, {}, {ptr(int64(3))}} {
		attrs.Append(true)
		large.Append(true)
		for k, v := range row {
			attrs.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprint("k", k))
			large.KeyBuilder().(*array.LargeStringBuilder).Append(fmt.Sprint("k", k))
			large.ItemBuilder().(*array.Int64Builder).Append(int64(k))
			if v == nil {
				attrs.ItemBuilder().(*array.Int64Builder).AppendNull()
			} else {
				attrs.ItemBuilder().(*array.Int64Builder).Append(*v)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	_, err := mapper.Columns[struct {
		Attrs views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]] `arrow:"attrs"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrNull, "a null value without arrow-value:\"nullable\"")

	cols, err := mapper.Columns[struct {
		Attrs views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]] `arrow:"attrs" arrow-value:"nullable"`
	}](rec)
	require.NoError(t, err)
	first := cols.Attrs.Value(0)
	require.Equal(t, 2, first.Keys.Len())
	assert.Equal(t, "k0", first.Keys.Value(0))
	assert.Equal(t, int64(1), first.Values.Value(0))
	assert.True(t, first.Values.IsNull(1))
	assert.Equal(t, 0, cols.Attrs.ValueLen(1))
	last := cols.Attrs.Slice(2, 3)
	values := last.Values(0)
	assert.Equal(t, []int64{3}, values.Values())

	type largeKeys struct {
		Large views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]] `arrow:"large"`
	}
	_, err = mapper.Columns[largeKeys](rec)
	require.NoError(t, err)
	_, err = mapper.Columns[largeKeys](rec, mapper.Strict())
	require.ErrorIs(t, err, mapper.ErrTypeMismatch, "large_utf8 keys without a pin under Strict")
	_, err = mapper.Columns[struct {
		Large views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]] `arrow:"large" arrow-key:"large"`
	}](rec, mapper.Strict())
	require.NoError(t, err)
}

func ptr[T any](v T) *T { return &v }

func TestColumnsBindAUnionColumn(t *testing.T) {
	for _, mode := range []arrow.UnionMode{arrow.SparseMode, arrow.DenseMode} {
		t.Run(mode.String()+": typed and as an arrow.Array", func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := unRecord(t, mem, mode)
			defer rec.Release()
			type cols struct {
				V views.UnionColumn `arrow:"v,nullable"`
			}
			type raw struct {
				V arrow.Array `arrow:"v"`
			}
			c, err := mapper.Columns[cols](rec)
			require.NoError(t, err)
			r, err := mapper.Columns[raw](rec)
			require.NoError(t, err)
			u := rec.Column(1).(array.Union)
			assert.Equal(t, rec.Column(1), r.V)
			want := unWant()
			page := c.V.Slice(1, 5)
			for i := range page.Len() {
				assert.Equal(t, u.TypeCode(i+1), page.TypeCode(i))
				assert.Equal(t, u.ChildID(i+1), page.ChildIndex(i))
				w := want[i+1]
				assert.Equal(t, w.I == nil && w.S == nil, page.IsNull(i), "row %d", i+1)
				child := page.Child(page.ChildIndex(i))
				assert.Equal(t, page.Value(i), child.Value(page.ChildRow(i)))
			}
		})
	}
}

var customerType = arrow.StructOf(
	arrow.Field{Name: "name", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "age", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String)},
	arrow.Field{Name: "points", Type: arrow.PrimitiveTypes.Int64},
	arrow.Field{Name: "address", Type: arrow.StructOf(arrow.Field{Name: "city", Type: arrow.BinaryTypes.LargeString})},
)

var ordersSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "customer", Type: customerType, Nullable: true},
}, nil)

// ordersBatch is n rows of ordersSchema: the customer's age is null at
// every third row, and with nullCustomer, the whole customer at row 4.
func ordersBatch(t *testing.T, mem memory.Allocator, n int, nullCustomer bool) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, ordersSchema)
	defer b.Release()
	customer := b.Field(1).(*array.StructBuilder)
	name := customer.FieldBuilder(0).(*array.StringBuilder)
	age := customer.FieldBuilder(1).(*array.Int32Builder)
	tags := customer.FieldBuilder(2).(*array.ListBuilder)
	points := customer.FieldBuilder(3).(*array.Int64Builder)
	address := customer.FieldBuilder(4).(*array.StructBuilder)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(100 + i))
		if nullCustomer && i == 4 {
			customer.AppendNull()
			continue
		}
		customer.Append(true)
		name.Append(fmt.Sprintf("customer %d", i))
		if i%3 == 0 {
			age.AppendNull()
		} else {
			age.Append(int32(20 + i))
		}
		tags.Append(true)
		for k := range i % 3 {
			tags.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("tag %d.%d", i, k))
		}
		points.Append(int64(i * i))
		address.Append(true)
		address.FieldBuilder(0).(*array.LargeStringBuilder).Append(fmt.Sprintf("city %d", i%4))
	}
	return b.NewRecordBatch()
}

// orderColumns reads the customer struct column as a struct of columns,
// with a struct of columns inside it and a plain arrow.Array among them.
type orderColumns struct {
	ID       views.PrimitiveColumn[int64] `arrow:"id"`
	Customer struct {
		Points  arrow.Array                          `arrow:"points"` // not in the struct's order
		Name    views.StringColumn                   `arrow:"name"`
		Age     views.PrimitiveColumn[int32]         `arrow:"age,nullable"`
		Tags    views.ListColumn[views.StringColumn] `arrow:"tags"`
		Address struct {
			City views.StringColumn `arrow:"city"`
		} `arrow:"address"`
	} `arrow:"customer"`
}

// orderRow is how Decode reads ordersBatch.
type orderRow struct {
	ID       int64 `arrow:"id"`
	Customer struct {
		Name    string   `arrow:"name"`
		Age     *int32   `arrow:"age"`
		Tags    []string `arrow:"tags"`
		Points  int64    `arrow:"points"`
		Address struct {
			City string `arrow:"city"`
		} `arrow:"address"`
	} `arrow:"customer"`
}

// requireOrderColumns checks that c reads rows, as Decode reads them.
func requireOrderColumns(t *testing.T, c orderColumns, rows []orderRow) {
	t.Helper()
	cu := c.Customer
	require.Equal(t, len(rows), c.ID.Len())
	require.Equal(t, len(rows), cu.Points.Len())
	for i, want := range rows {
		assert.Equal(t, want.ID, c.ID.Value(i))
		assert.Equal(t, want.Customer.Name, cu.Name.Value(i))
		require.Equal(t, want.Customer.Age == nil, cu.Age.IsNull(i), "row %d", i)
		if want.Customer.Age != nil {
			assert.Equal(t, *want.Customer.Age, cu.Age.Value(i))
		}
		tags := []string{}
		for _, tag := range cu.Tags.Value(i).All() {
			tags = append(tags, tag)
		}
		assert.Equal(t, append([]string{}, want.Customer.Tags...), tags)
		assert.Equal(t, want.Customer.Points, cu.Points.(*array.Int64).Value(i))
		assert.Equal(t, want.Customer.Address.City, cu.Address.City.Value(i))
	}
}

func TestColumnsBindStructsOfColumnsToStructColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := ordersBatch(t, mem, 20, false)
	defer whole.Release()

	for _, win := range [][2]int64{{0, 20}, {3, 17}, {19, 20}, {5, 5}} {
		t.Run(fmt.Sprintf("rows %d to %d of the record", win[0], win[1]), func(t *testing.T) {
			rec := whole.NewSlice(win[0], win[1]) // every array at an offset
			defer rec.Release()
			cols, err := mapper.Columns[orderColumns](rec)
			require.NoError(t, err)
			rows, err := mapper.Decode[orderRow](rec)
			require.NoError(t, err)
			requireOrderColumns(t, cols, rows)
		})
	}

	t.Run("pages cut every column of the struct to the page", func(t *testing.T) {
		rr, err := array.NewRecordReader(ordersSchema, []arrow.RecordBatch{whole, whole})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[orderColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		rows, err := mapper.Decode[orderRow](whole)
		require.NoError(t, err)
		rows = append(rows, rows...)
		at := 0
		for page, err := range r.Windows(6) {
			require.NoError(t, err)
			n := page.ID.Len()
			requireOrderColumns(t, page, rows[at:at+n])
			at += n
		}
		assert.Equal(t, len(rows), at)
	})
}

func TestColumnsOfStructsErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := ordersBatch(t, mem, 9, false)
	defer rec.Release()
	withNull := ordersBatch(t, mem, 9, true)
	defer withNull.Release()

	bind := func(rec arrow.RecordBatch, bind func(arrow.RecordBatch) error) func() error {
		return func() error { return bind(rec) }
	}
	for _, tc := range []struct {
		name   string
		bind   func() error
		kind   error
		path   string
		column string
		row    int
	}{{
		name: "a null struct row, where the field is not nullable, is an unexpected null",
		bind: bind(withNull, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[orderColumns](rec)
			return err
		}),
		kind: mapper.ErrNull, path: "Customer", column: "customer", row: 4,
	}, {
		name: "a struct of columns cannot be nullable",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Name views.StringColumn `arrow:"name"`
				} `arrow:"customer,nullable"`
			}](rec)
			return err
		}),
		kind: mapper.ErrUnsupported, path: "Customer", column: "customer", row: -1,
	}, {
		name: "a null in a field of the struct not tagged nullable is an unexpected null at its row",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Age views.PrimitiveColumn[int32] `arrow:"age"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrNull, path: "Customer.Age", column: "customer.age", row: 0,
	}, {
		name: "a struct of columns from a column that is not a struct is a type mismatch",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				ID struct {
					Name views.StringColumn `arrow:"name"`
				} `arrow:"id"`
			}](rec)
			return err
		}),
		kind: mapper.ErrTypeMismatch, path: "ID", column: "id", row: -1,
	}, {
		name: "a field of the struct of another type is a type mismatch, named by both paths",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Address struct {
						City views.PrimitiveColumn[int64] `arrow:"city"`
					} `arrow:"address"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrTypeMismatch, path: "Customer.Address.City", column: "customer.address.city", row: -1,
	}, {
		name: "a field the struct does not have is a missing column",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Email views.StringColumn `arrow:"email"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrMissingColumn, path: "Customer.Email", column: "customer.email", row: -1,
	}, {
		name: "Strict holds down the struct's fields",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Address struct {
						City views.StringColumn `arrow:"city"`
					} `arrow:"address"`
				} `arrow:"customer"`
			}](rec, mapper.Strict())
			return err
		}),
		kind: mapper.ErrTypeMismatch, path: "Customer.Address.City", column: "customer.address.city", row: -1,
	}, {
		name: "a field of the struct that is no column is unsupported",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Name string `arrow:"name"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrUnsupported, path: "Customer.Name", column: "customer.name", row: -1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.bind()
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.ErrorIs(t, err, tc.kind)
			assert.Equal(t, tc.path, me.Path)
			assert.Equal(t, tc.column, me.Column)
			assert.Equal(t, tc.row, me.Row)
		})
	}

	t.Run("AllowMissing leaves a field the struct does not have unbound", func(t *testing.T) {
		cols, err := mapper.Columns[struct {
			Customer struct {
				Name  views.StringColumn `arrow:"name"`
				Email views.StringColumn `arrow:"email"`
			} `arrow:"customer"`
		}](rec, mapper.AllowMissing())
		require.NoError(t, err)
		assert.Equal(t, 9, cols.Customer.Name.Len())
		assert.Zero(t, cols.Customer.Email.Len())
	})
	t.Run("a views.StructColumn reads a nullable struct's nulls", func(t *testing.T) {
		cols, err := mapper.Columns[struct {
			Customer views.StructColumn `arrow:"customer,nullable"`
		}](withNull)
		require.NoError(t, err)
		names, err := views.FieldOf[views.StringColumn](cols.Customer, "name")
		require.NoError(t, err)
		for i, row := range cols.Customer.All() {
			require.Equal(t, i == 4, row.IsNull(), "row %d", i)
			if !row.IsNull() {
				assert.Equal(t, fmt.Sprintf("customer %d", i), names.Value(i))
			}
		}
	})
}
