package views_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// columnsRow is how mapper.Decode reads the record of columnsRecord: what
// the typed columns must agree with.
type columnsRow struct {
	F64  *float64         `arrow:"f64"`
	I32  int32            `arrow:"i32"`
	Str  *string          `arrow:"str"`
	LStr string           `arrow:"lstr"`
	VStr string           `arrow:"vstr"`
	Bin  []byte           `arrow:"bin"`
	TS   *time.Time       `arrow:"ts"`
	Lst  []float64        `arrow:"lst"`
	LLst []int64          `arrow:"llst"`
	St   *columnsStruct   `arrow:"st"`
	M    map[string]int64 `arrow:"m"`
	Nest [][]string       `arrow:"nest"`
}

type columnsStruct struct {
	A int64  `arrow:"a"`
	B string `arrow:"b"`
}

const columnsRows = 9

// columnsRecord is a record with a column of each kind, with nulls, sliced
// to rows [1, columnsRows) so that every array has an offset.
func columnsRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	stType := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
		{Name: "str", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "lstr", Type: arrow.BinaryTypes.LargeString},
		{Name: "vstr", Type: arrow.BinaryTypes.StringView},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "America/New_York"}, Nullable: true},
		{Name: "lst", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
		{Name: "llst", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Int64)},
		{Name: "st", Type: stType, Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "nest", Type: arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String))},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range columnsRows {
		null := i%3 == 2
		f64 := b.Field(0).(*array.Float64Builder)
		str := b.Field(2).(*array.StringBuilder)
		bin := b.Field(5).(*array.BinaryBuilder)
		ts := b.Field(6).(*array.TimestampBuilder)
		lst := b.Field(7).(*array.ListBuilder)
		st := b.Field(9).(*array.StructBuilder)
		m := b.Field(10).(*array.MapBuilder)
		if null {
			f64.AppendNull()
			str.AppendNull()
			bin.AppendNull()
			ts.AppendNull()
			lst.AppendNull()
			st.AppendNull() // appends a null to each field too
			m.AppendNull()
		} else {
			f64.Append(float64(i) + 0.5)
			str.Append("s" + string(rune('a'+i)))
			bin.Append([]byte{byte(i), byte(i + 1)})
			ts.Append(arrow.Timestamp(int64(i) * 3_600_000 * 7))
			lst.Append(true)
			for k := range i % 4 {
				lst.ValueBuilder().(*array.Float64Builder).Append(float64(i*10 + k))
			}
			st.Append(true)
			st.FieldBuilder(0).(*array.Int64Builder).Append(int64(-i))
			st.FieldBuilder(1).(*array.StringBuilder).Append("b" + string(rune('a'+i)))
			m.Append(true)
			for k := range i % 3 {
				m.KeyBuilder().(*array.StringBuilder).Append("k" + string(rune('0'+k)))
				m.ItemBuilder().(*array.Int64Builder).Append(int64(i * k))
			}
		}
		b.Field(1).(*array.Int32Builder).Append(int32(i * 7))
		b.Field(3).(*array.LargeStringBuilder).Append("long string number " + string(rune('a'+i)))
		b.Field(4).(*array.StringViewBuilder).Append(string(rune('a'+i)) + " is a string view long enough not to be inlined")
		llst := b.Field(8).(*array.LargeListBuilder)
		llst.Append(true)
		for k := range (i + 1) % 3 {
			llst.ValueBuilder().(*array.Int64Builder).Append(int64(i + k))
		}
		nest := b.Field(11).(*array.ListBuilder)
		nest.Append(true)
		inner := nest.ValueBuilder().(*array.ListBuilder)
		for k := range i % 3 {
			inner.Append(true)
			for e := range k + 1 {
				inner.ValueBuilder().(*array.StringBuilder).Append(string(rune('a' + e + i)))
			}
		}
	}
	whole := b.NewRecordBatch()
	defer whole.Release()
	cols := make([]arrow.Array, whole.NumCols())
	for k := range cols {
		cols[k] = array.NewSlice(whole.Column(k), 1, columnsRows)
		defer cols[k].Release()
	}
	return array.NewRecordBatch(schema, cols, columnsRows-1)
}

// bindColumn binds a column of kind C to arr, with every level C types
// nullable.
func bindColumn[C views.Column[C]](t *testing.T, arr arrow.Array) C {
	t.Helper()
	var zero C
	vt := zero.ViewType(arr.DataType())
	vt.Nullable = true
	for _, level := range []*views.Type{vt.Elem, vt.Value} {
		if level != nil {
			level.Nullable = true
		}
	}
	v, err := views.New(arr, vt)
	require.NoError(t, err)
	c, err := zero.From(v)
	require.NoError(t, err)
	return c
}

// windows is the windows each column is checked over: whole, sliced, empty,
// and slices of slices.
func windows[C views.Column[C]](c C) map[string]struct {
	col C
	lo  int
} {
	n := c.Len()
	out := map[string]struct {
		col C
		lo  int
	}{}
	add := func(name string, col C, lo int) {
		out[name] = struct {
			col C
			lo  int
		}{col, lo}
	}
	add("every row", c, 0)
	add("rows from 1", c.Slice(1, n), 1)
	add("rows to n-2", c.Slice(0, n-2), 0)
	add("rows [2,5)", c.Slice(2, 5), 2)
	add("no row", c.Slice(3, 3), 3)
	add("rows [1,n) then [2,5)", c.Slice(1, n).Slice(2, 5), 3)
	// A column bound to a view that is a window already.
	var zero C
	bound, err := zero.From(c.View().Slice(2, n-1))
	if err != nil {
		panic(err)
	}
	add("bound to rows [2,n-1)", bound, 2)
	add("bound to rows [2,n-1) then [1,3)", bound.Slice(1, 3), 3)
	return out
}

func TestColumnsAgreeWithDecode(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsRecord(t, mem)
	defer rec.Release()
	rows, err := mapper.Decode[columnsRow](rec)
	require.NoError(t, err)
	require.Len(t, rows, columnsRows-1)

	t.Run("float64 primitives read the decoded values", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.PrimitiveColumn[float64]](t, rec.Column(0))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				require.Len(t, c.Values(), c.Len())
				for i := range c.Len() {
					want := rows[w.lo+i].F64
					require.Equal(t, want == nil, c.IsNull(i), "row %d", i)
					if want != nil {
						assert.Equal(t, *want, c.Value(i))
						assert.Equal(t, *want, c.Values()[i])
					} else {
						assert.Zero(t, c.Value(i))
					}
				}
				n := 0
				for i, x := range c.All() {
					assert.Equal(t, c.Value(i), x)
					n++
				}
				assert.Equal(t, c.Len(), n)
			})
		}
	})
	t.Run("int32 primitives read the decoded values", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.PrimitiveColumn[int32]](t, rec.Column(1))) {
			t.Run(name, func(t *testing.T) {
				for i, x := range w.col.All() {
					assert.Equal(t, rows[w.lo+i].I32, x)
				}
			})
		}
	})
	for _, k := range []int{2, 3, 4} {
		t.Run("strings of "+rec.ColumnName(k)+" read the decoded values", func(t *testing.T) {
			for name, w := range windows(bindColumn[views.StringColumn](t, rec.Column(k))) {
				t.Run(name, func(t *testing.T) {
					for i, s := range w.col.All() {
						r := rows[w.lo+i]
						want := map[int]*string{2: r.Str, 3: &r.LStr, 4: &r.VStr}[k]
						require.Equal(t, want == nil, w.col.IsNull(i))
						if want != nil {
							assert.Equal(t, *want, s)
						}
					}
				})
			}
		})
	}
	t.Run("binaries read the decoded values", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.BinaryColumn](t, rec.Column(5))) {
			t.Run(name, func(t *testing.T) {
				for i, b := range w.col.All() {
					assert.Equal(t, rows[w.lo+i].Bin, b)
					assert.Equal(t, b == nil, w.col.IsNull(i))
				}
			})
		}
	})
	t.Run("timestamps read the decoded times in the column's zone", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.TimestampColumn](t, rec.Column(6))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				assert.Equal(t, arrow.Millisecond, c.Unit())
				for i, tm := range c.All() {
					want := rows[w.lo+i].TS
					require.Equal(t, want == nil, c.IsNull(i))
					if want != nil {
						assert.True(t, want.Equal(tm), "row %d: %v, want %v", i, tm, *want)
						assert.Equal(t, "America/New_York", tm.Location().String())
						assert.Equal(t, want.UnixMilli(), c.Values()[i])
					}
				}
			})
		}
	})
	t.Run("lists read each row as the column of its elements", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.ListColumn[views.PrimitiveColumn[float64]]](t, rec.Column(7))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				require.Len(t, c.Offsets(), c.Len()+1)
				assert.Nil(t, c.LargeOffsets())
				total := 0
				for i, elems := range c.All() {
					want := rows[w.lo+i].Lst
					require.Equal(t, want == nil, c.IsNull(i))
					assert.Equal(t, len(want), c.ValueLen(i))
					assert.Equal(t, len(want), elems.Len())
					if len(want) > 0 {
						assert.Equal(t, want, elems.Values())
					}
					total += len(want)
				}
				assert.Equal(t, total, c.Elements().Len())
				assert.Equal(t, total, int(c.Offsets()[c.Len()]-c.Offsets()[0]))
			})
		}
	})
	t.Run("large lists read each row as the column of its elements", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.ListColumn[views.PrimitiveColumn[int64]]](t, rec.Column(8))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				assert.Nil(t, c.Offsets())
				require.Len(t, c.LargeOffsets(), c.Len()+1)
				for i := range c.Len() {
					want := rows[w.lo+i].LLst
					assert.Equal(t, len(want), c.ValueLen(i))
					for k, x := range c.Value(i).All() {
						assert.Equal(t, want[k], x)
					}
				}
			})
		}
	})
	t.Run("lists of lists read each row as a list column", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.ListColumn[views.ListColumn[views.StringColumn]]](t, rec.Column(11))) {
			t.Run(name, func(t *testing.T) {
				for i, inner := range w.col.All() {
					want := rows[w.lo+i].Nest
					require.Equal(t, len(want), inner.Len())
					for k, strs := range inner.All() {
						got := []string{}
						for _, s := range strs.All() {
							got = append(got, s)
						}
						assert.Equal(t, want[k], got)
					}
				}
			})
		}
	})
	t.Run("structs read their fields as views", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.StructColumn](t, rec.Column(9))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				assert.Equal(t, 2, c.NumField())
				av, ok := c.FieldByName("a")
				require.True(t, ok)
				bv, ok := c.FieldByName("b")
				require.True(t, ok)
				_, ok = c.FieldByName("nope")
				assert.False(t, ok)
				a, err := views.PrimitivesOf[int64](av)
				require.NoError(t, err)
				b, err := views.StringsOf(bv)
				require.NoError(t, err)
				byName, err := views.FieldOf[views.StringColumn](c, "b")
				require.NoError(t, err)
				_, err = views.FieldOf[views.StringColumn](c, "nope")
				var missing *views.Error
				require.ErrorAs(t, err, &missing)
				assert.Equal(t, "nope", missing.Column)
				assert.Equal(t, -1, missing.Row)
				assert.Contains(t, missing.Detail, `no field "nope"`)
				require.Equal(t, c.Len(), a.Len())
				require.Equal(t, c.Len(), byName.Len())
				seen := 0
				for i, row := range c.All() {
					want := rows[w.lo+i].St
					require.Equal(t, want == nil, c.IsNull(i))
					require.Equal(t, want == nil, row.IsNull())
					assert.Equal(t, row, c.Value(i))
					assert.Equal(t, 2, row.NumField())
					assert.Equal(t, 1, row.Field(1).Len())
					if want != nil {
						assert.Equal(t, want.A, a.Value(i))
						assert.Equal(t, want.B, b.Value(i))
						assert.Equal(t, want.B, byName.Value(i))
						assert.Equal(t, want.A, row.Value(0))
						assert.Equal(t, want.B, row.Value(1))
						assert.Equal(t, want.B, row.Field(1).Value(0))
					}
					seen++
				}
				assert.Equal(t, c.Len(), seen)
			})
		}
	})
	t.Run("maps read each row's keys and values as typed columns", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]]](t, rec.Column(10))) {
			t.Run(name, func(t *testing.T) {
				c := w.col
				require.Len(t, c.Offsets(), c.Len()+1)
				for i, entries := range c.All() {
					want := rows[w.lo+i].M
					require.Equal(t, want == nil, c.IsNull(i))
					require.Equal(t, len(want), c.ValueLen(i))
					require.Equal(t, len(want), entries.Keys.Len())
					got := map[string]int64{}
					for k, key := range entries.Keys.All() {
						got[key] = entries.Values.Value(k)
					}
					if want != nil {
						assert.Equal(t, want, got)
					}
					keys, values := c.Keys(i), c.Values(i)
					assert.Equal(t, entries.Keys.Len(), keys.Len())
					assert.Equal(t, entries.Values.Values(), values.Values())
				}
			})
		}
	})
	t.Run("maps read their values as plain views through ViewColumn", func(t *testing.T) {
		for name, w := range windows(bindColumn[views.MapColumn[views.StringColumn, views.ViewColumn]](t, rec.Column(10))) {
			t.Run(name, func(t *testing.T) {
				for i, entries := range w.col.All() {
					want := rows[w.lo+i].M
					for k, key := range entries.Keys.All() {
						assert.Equal(t, want[key], entries.Values.Value(k), "row %d key %q", i, key)
					}
				}
			})
		}
	})
}

func TestColumnsRejectOtherEncodings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsRecord(t, mem)
	defer rec.Release()
	view := func(k int) views.View {
		v, err := views.New(rec.Column(k), views.Type{Accept: views.AcceptOf(rec.Column(k).DataType().ID()), Nullable: true,
			Elem: &views.Type{Accept: views.AcceptOf(arrow.FLOAT64, arrow.INT64), Nullable: true}})
		require.NoError(t, err)
		return v
	}
	for name, bind := range map[string]func() error{
		"int64 primitives of a float64 column": func() error { _, err := views.PrimitivesOf[int64](view(0)); return err },
		"strings of a binary column":           func() error { _, err := views.StringsOf(view(5)); return err },
		"binaries of a string column":          func() error { _, err := views.BinariesOf(view(2)); return err },
		"timestamps of an int32 column":        func() error { _, err := views.TimestampsOf(view(1)); return err },
		"lists of a string column":             func() error { _, err := views.ListsOf[views.StringColumn](view(2)); return err },
		"lists of the wrong elements":          func() error { _, err := views.ListsOf[views.StringColumn](view(7)); return err },
		"structs of a float64 column":          func() error { _, err := views.StructsOf(view(0)); return err },
		"a struct's field of another kind": func() error {
			_, err := views.FieldOf[views.StringColumn](bindColumn[views.StructColumn](t, rec.Column(9)), "a")
			return err
		},
		"a struct's field it does not have": func() error {
			_, err := views.FieldOf[views.StringColumn](bindColumn[views.StructColumn](t, rec.Column(9)), "nope")
			return err
		},
		"maps of a list column": func() error {
			_, err := views.MapsOf[views.StringColumn, views.ViewColumn](view(7))
			return err
		},
		"maps with keys of another kind": func() error {
			_, err := views.MapsOf[views.BinaryColumn, views.ViewColumn](viewOf(t, rec.Column(10)))
			return err
		},
		"maps with values of another kind": func() error {
			_, err := views.MapsOf[views.StringColumn, views.PrimitiveColumn[float64]](viewOf(t, rec.Column(10)))
			return err
		},
		"any column of no view": func() error { _, err := views.StringsOf(views.View{}); return err },
	} {
		t.Run(name+" is a type mismatch", func(t *testing.T) {
			err := bind()
			require.Error(t, err)
			assert.True(t, errors.Is(err, views.ErrTypeMismatch), "%v", err)
			var ve *views.Error
			assert.True(t, errors.As(err, &ve))
		})
	}
}

func TestColumnsReadWithoutAllocating(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsRecord(t, mem)
	defer rec.Release()
	f64 := bindColumn[views.PrimitiveColumn[float64]](t, rec.Column(0))
	strs := bindColumn[views.StringColumn](t, rec.Column(4))
	lists := bindColumn[views.ListColumn[views.PrimitiveColumn[float64]]](t, rec.Column(7))
	ts := bindColumn[views.TimestampColumn](t, rec.Column(6))
	structs := bindColumn[views.StructColumn](t, rec.Column(9))
	var sink float64
	allocs := testing.AllocsPerRun(100, func() {
		for i := range f64.Len() {
			if row := structs.Value(i); !row.IsNull() {
				sink += float64(row.Field(1).Len())
			}
			sink += f64.Value(i)
			sink += float64(len(strs.Value(i)))
			sink += float64(ts.Value(i).Second())
			for _, x := range lists.Value(i).Values() {
				sink += x
			}
			sink += float64(lists.ValueLen(i))
		}
		sink += float64(lists.Slice(1, 3).Len() + strs.Slice(2, 4).Len())
	})
	assert.Zero(t, allocs)
	_ = sink
}

func TestColumnsSlicePanicsOutOfRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsRecord(t, mem)
	defer rec.Release()
	c := bindColumn[views.ListColumn[views.PrimitiveColumn[float64]]](t, rec.Column(7))
	assert.Panics(t, func() { c.Slice(2, 1) })
	assert.Panics(t, func() { c.Slice(0, c.Len()+1) })
	s := bindColumn[views.StringColumn](t, rec.Column(4))
	assert.Panics(t, func() { s.Value(s.Len()) })
	// Rows out of range panic even where the bitmap past the window says
	// null: row 1 of rows [0, 1) is null in these columns.
	f64 := bindColumn[views.PrimitiveColumn[float64]](t, rec.Column(0)).Slice(0, 1)
	strs := bindColumn[views.StringColumn](t, rec.Column(2)).Slice(0, 1)
	bins := bindColumn[views.BinaryColumn](t, rec.Column(5)).Slice(0, 1)
	ts := bindColumn[views.TimestampColumn](t, rec.Column(6)).Slice(0, 1)
	lists := c.Slice(0, 1)
	maps := bindColumn[views.MapColumn[views.StringColumn, views.ViewColumn]](t, rec.Column(10)).Slice(0, 1)
	structs := bindColumn[views.StructColumn](t, rec.Column(9)).Slice(0, 1)
	require.True(t, bindColumn[views.StringColumn](t, rec.Column(2)).View().IsNull(1))
	for name, f := range map[string]func(){
		"float64 value": func() { f64.Value(1) }, "float64 null": func() { f64.IsNull(1) },
		"string value": func() { strs.Value(1) }, "string null": func() { strs.IsNull(1) },
		"binary value": func() { bins.Value(1) }, "binary null": func() { bins.IsNull(1) },
		"timestamp value": func() { ts.Value(1) }, "timestamp null": func() { ts.IsNull(1) },
		"list null": func() { lists.IsNull(1) }, "map null": func() { maps.IsNull(1) },
		"struct null": func() { structs.IsNull(1) }, "struct value": func() { structs.Value(1) },
	} {
		assert.Panics(t, f, name)
	}
}

// withNulls is arr with the rows null[i] marks null, its buffers and
// children otherwise as they are: null rows keep their spans in the child.
func withNulls(t *testing.T, arr arrow.Array, null ...bool) arrow.Array {
	t.Helper()
	require.Equal(t, arr.Len(), len(null))
	valid := memory.NewBufferBytes(make([]byte, (len(null)+7)/8))
	nulls := 0
	for i, n := range null {
		if n {
			nulls++
		} else {
			valid.Bytes()[i/8] |= 1 << (i % 8)
		}
	}
	d := arr.Data()
	data := array.NewData(d.DataType(), d.Len(), append([]*memory.Buffer{valid}, d.Buffers()[1:]...), d.Children(), nulls, d.Offset())
	defer data.Release()
	return array.MakeFromData(data)
}

func TestNullListAndMapRowsHaveNoElementsWhateverTheirOffsets(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	null := []bool{false, true, false, true, true, false}

	listBuilder := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer listBuilder.Release()
	mapBuilder := array.NewMapBuilder(mem, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64, false)
	defer mapBuilder.Release()
	for i := range null {
		listBuilder.Append(true)
		mapBuilder.Append(true)
		for k := range i%3 + 1 {
			listBuilder.ValueBuilder().(*array.Int64Builder).Append(int64(10*i + k))
			mapBuilder.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", k))
			mapBuilder.ItemBuilder().(*array.Int64Builder).Append(int64(10*i + k))
		}
	}
	plainLists, plainMaps := listBuilder.NewArray(), mapBuilder.NewArray()
	defer plainLists.Release()
	defer plainMaps.Release()
	lists, maps := withNulls(t, plainLists, null...), withNulls(t, plainMaps, null...)
	defer lists.Release()
	defer maps.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{
		{Name: "l", Type: lists.DataType(), Nullable: true},
		{Name: "m", Type: maps.DataType(), Nullable: true},
	}, nil), []arrow.Array{lists, maps}, int64(len(null)))
	defer rec.Release()
	rows, err := mapper.Decode[struct {
		L []int64          `arrow:"l"`
		M map[string]int64 `arrow:"m"`
	}](rec)
	require.NoError(t, err)

	for name, w := range windows(bindColumn[views.ListColumn[views.PrimitiveColumn[int64]]](t, lists)) {
		t.Run("lists, "+name, func(t *testing.T) {
			c := w.col
			for i := range c.Len() {
				want := rows[w.lo+i].L
				if null[w.lo+i] {
					require.True(t, c.IsNull(i))
					require.Nil(t, want)
					require.NotEqual(t, c.Offsets()[i], c.Offsets()[i+1], "the fixture's null row %d spans elements", w.lo+i)
				}
				assert.Equal(t, len(want), c.ValueLen(i), "row %d", w.lo+i)
				assert.Equal(t, len(want), c.Value(i).Len(), "row %d", w.lo+i)
				assert.Equal(t, append([]int64{}, want...), append([]int64{}, c.Value(i).Values()...), "row %d", w.lo+i)
			}
		})
	}
	for name, w := range windows(bindColumn[views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]]](t, maps)) {
		t.Run("maps, "+name, func(t *testing.T) {
			c := w.col
			for i := range c.Len() {
				want := rows[w.lo+i].M
				require.Equal(t, null[w.lo+i], c.IsNull(i))
				assert.Equal(t, len(want), c.ValueLen(i), "row %d", w.lo+i)
				entries := c.Value(i)
				require.Equal(t, len(want), entries.Keys.Len(), "row %d", w.lo+i)
				require.Equal(t, len(want), c.Values(i).Len(), "row %d", w.lo+i)
				for k := range entries.Keys.Len() {
					assert.Equal(t, want[entries.Keys.Value(k)], entries.Values.Value(k))
				}
			}
		})
	}
}

// requireSliceFrom checks that SliceFrom sets a column to what Slice
// returns, for every window of c, and panics on a column of another kind.
func requireSliceFrom[C views.Column[C], P interface {
	*C
	SliceFrom(src any, i, j int)
}](t *testing.T, c C) {
	t.Helper()
	for i := 0; i <= c.Len(); i++ {
		for j := i; j <= c.Len(); j++ {
			var got C
			P(&got).SliceFrom(&c, i, j)
			require.Equal(t, c.Slice(i, j), got, "rows [%d, %d)", i, j)
		}
	}
	var got C
	assert.Panics(t, func() { P(&got).SliceFrom(c, 0, 0) }, "a column, not a pointer to one")
	assert.Panics(t, func() { P(&got).SliceFrom(new(int), 0, 0) }, "a pointer to something else")
}

func TestSliceFromIsSlice(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := columnsRecord(t, mem)
	defer rec.Release()
	requireSliceFrom(t, bindColumn[views.PrimitiveColumn[float64]](t, rec.Column(0)))
	requireSliceFrom(t, bindColumn[views.StringColumn](t, rec.Column(2)))
	requireSliceFrom(t, bindColumn[views.BinaryColumn](t, rec.Column(5)))
	requireSliceFrom(t, bindColumn[views.TimestampColumn](t, rec.Column(6)))
	requireSliceFrom(t, bindColumn[views.ListColumn[views.PrimitiveColumn[float64]]](t, rec.Column(7)))
	requireSliceFrom(t, bindColumn[views.StructColumn](t, rec.Column(9)))
	requireSliceFrom(t, bindColumn[views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]]](t, rec.Column(10)))
	requireSliceFrom(t, bindColumn[views.ListColumn[views.ListColumn[views.StringColumn]]](t, rec.Column(11)))
	requireSliceFrom(t, bindColumn[views.ViewColumn](t, rec.Column(3)))

	more := moreColumnsRecord(t, mem)
	defer more.Release()
	flags, hashes, trios, lists, dict, runs := bindMoreColumns(t, more)
	requireSliceFrom(t, flags)
	requireSliceFrom(t, hashes)
	requireSliceFrom(t, trios)
	requireSliceFrom(t, lists)
	requireSliceFrom(t, dict)
	requireSliceFrom(t, runs)
}
