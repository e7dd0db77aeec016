package parquet_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/require"
)

type order struct {
	ID       int64   `arrow:"id"`
	Customer string  `arrow:"customer"`
	Total    float64 `arrow:"total"`
	Note     *string `arrow:"note"`
	Items    []item  `arrow:"items"`
}

// orders is n orders with ids 0…n-1, a note every other row.
func orders(n int) []order {
	rows := make([]order, n)
	for i := range rows {
		rows[i] = order{ID: int64(i), Customer: fmt.Sprintf("c%d", i%7), Total: float64(i) / 2, Items: []item{{SKU: "s", Qty: int32(i)}}}
		if i%2 == 0 {
			rows[i].Note = strp(fmt.Sprintf("n%d", i))
		}
	}
	return rows
}

// writeOrders writes orders(n) in row groups of group rows to a file.
func writeOrders(t *testing.T, n int, group int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orders.parquet")
	require.NoError(t, amparquet.WriteFile(path, orders(n), amparquet.WriteConfig{RowGroupRows: group, Compression: amparquet.Snappy}))
	return path
}

func readAllOf[T any](t *testing.T, r *mapper.Reader[T], err error) []T {
	t.Helper()
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	return rows
}

func TestOpenReadsTheRowGroupsTheConfigSelects(t *testing.T) {
	path := writeOrders(t, 100, 10) // row group g holds ids 10g…10g+9
	idsOf := func(rows []order) []int64 {
		ids := []int64{}
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		return ids
	}
	groupsOf := func(groups ...int) []int64 {
		ids := []int64{}
		for _, g := range groups {
			for i := range 10 {
				ids = append(ids, int64(10*g+i))
			}
		}
		return ids
	}
	tests := []struct {
		name string
		cfg  amparquet.ReadConfig
		want []int64
	}{
		{"the zero config reads every row group in order", amparquet.ReadConfig{}, groupsOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
		{"RowGroups reads those row groups in the order given", amparquet.ReadConfig{RowGroups: []int{7, 2}}, groupsOf(7, 2)},
		{"an empty RowGroups reads none", amparquet.ReadConfig{RowGroups: []int{}}, []int64{}},
		{"KeepRowGroup skips row groups on their statistics", amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
			s, ok := g.Column("id")
			return ok && s.HasMinMax && s.Max.(int64) >= 35 && s.Min.(int64) < 60
		}}, groupsOf(3, 4, 5)},
		{"KeepRowGroup is asked only of the RowGroups given", amparquet.ReadConfig{RowGroups: []int{1, 8, 9}, KeepRowGroup: func(g amparquet.RowGroup) bool {
			return g.Index != 8
		}}, groupsOf(1, 9)},
		{"small batches cut records across row groups the same", amparquet.ReadConfig{BatchRows: 3}, groupsOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := amparquet.Open[order](path, tt.cfg)
			got := readAllOf(t, r, err)
			require.Equal(t, tt.want, idsOf(got))
			for _, row := range got {
				require.Equal(t, orders(100)[row.ID], row)
			}
		})
	}
}

func TestRowGroupColumnGivesTheStatisticsOfALeaf(t *testing.T) {
	path := writeOrders(t, 20, 10)
	var seen []amparquet.RowGroup
	_, err := amparquet.Open[order](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		seen = append(seen, g)
		return false
	}})
	require.NoError(t, err)
	require.Len(t, seen, 2)
	g := seen[1]
	require.Equal(t, 1, g.Index)
	require.Equal(t, int64(10), g.NumRows)

	tests := []struct {
		name   string
		column string
		want   amparquet.ColumnStats
		ok     bool
	}{
		{"an int64 column has int64 bounds", "id", amparquet.ColumnStats{Min: int64(10), Max: int64(19), HasMinMax: true, HasNullCount: true}, true},
		{"a text column has string bounds", "customer", amparquet.ColumnStats{Min: "c0", Max: "c6", HasMinMax: true, HasNullCount: true}, true},
		{"a column with nulls counts them", "note", amparquet.ColumnStats{Min: "n10", Max: "n18", HasMinMax: true, NullCount: 5, HasNullCount: true}, true},
		{"a leaf of a list of structs by its Parquet path", "items.list.element.qty", amparquet.ColumnStats{Min: int32(10), Max: int32(19), HasMinMax: true, HasNullCount: true}, true},
		{"a struct field with more than one leaf names no column", "items", amparquet.ColumnStats{}, false},
		{"a column the file does not have", "color", amparquet.ColumnStats{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := g.Column(tt.column)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestOpenReaderAtReadsTheBytesGiven(t *testing.T) {
	path := writeOrders(t, 25, 10)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)

	r, err := amparquet.OpenReaderAt[order](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{BatchRows: 4}, mapper.Allocator(mem))
	require.NoError(t, err)
	var got []order
	for page, err := range r.Pages(6) {
		require.NoError(t, err)
		got = append(got, page...)
	}
	r.Release()
	require.Equal(t, orders(25), got)
}

func TestOpenColumnsReadsOnlyTheColumnsCBinds(t *testing.T) {
	path := writeOrders(t, 30, 10)
	type totals struct {
		ID    views.PrimitiveColumn[int64]   `arrow:"id"`
		Total views.PrimitiveColumn[float64] `arrow:"total"`
	}
	cr, err := amparquet.OpenColumns[totals](path, amparquet.ReadConfig{BatchRows: 8, RowGroups: []int{2, 0}})
	require.NoError(t, err)
	defer cr.Release()
	require.Equal(t, []string{"id", "total"}, fieldNames(cr.Schema()))
	var ids []int64
	var sum float64
	for cols, err := range cr.Windows(5) {
		require.NoError(t, err)
		require.LessOrEqual(t, cols.ID.Len(), 5)
		for i := range cols.ID.Len() {
			ids = append(ids, cols.ID.Value(i))
			sum += cols.Total.Value(i)
		}
	}
	want := []int64{}
	wantSum := 0.0
	for _, id := range append(span(20, 30), span(0, 10)...) {
		want = append(want, id)
		wantSum += float64(id) / 2
	}
	require.Equal(t, want, ids)
	require.Equal(t, wantSum, sum)
}

func span(from, to int64) []int64 {
	var s []int64
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

func TestReadFileOfAProjection(t *testing.T) {
	path := writeOrders(t, 12, 5)
	type note struct {
		Note *string `arrow:"note"`
	}
	got, err := amparquet.ReadFile[note](path)
	require.NoError(t, err)
	require.Len(t, got, 12)
	for i, n := range got {
		require.Equal(t, orders(12)[i].Note, n.Note)
	}
	_, err = amparquet.ReadFile[note](path, mapper.ZeroCopy())
	require.ErrorIs(t, err, mapper.ErrOption, "the rows outlive the file")
}

func TestOpeningWhatIsNotAGoodParquetFileIsAnError(t *testing.T) {
	good, err := os.ReadFile(writeOrders(t, 40, 10))
	require.NoError(t, err)
	type wrongType struct {
		Customer int64 `arrow:"customer"`
	}
	type missing struct {
		Color string `arrow:"color"`
	}
	tests := []struct {
		name  string
		data  []byte
		open  func(r io.ReaderAt, size int64) error
		check func(t *testing.T, err error)
	}{
		{"an empty file is not Parquet", nil, openOrders, isErr(amparquet.ErrNotParquet)},
		{"an IPC file is not Parquet", []byte("ARROW1\x00\x00 and the rest of an IPC file"), openOrders, isErr(amparquet.ErrNotParquet)},
		{"text is not Parquet", []byte("id,customer\n1,a\n"), openOrders, isErr(amparquet.ErrNotParquet)},
		{"a file cut in its data is truncated", good[:len(good)/2], openOrders, isErr(io.ErrUnexpectedEOF)},
		{"a file cut in its footer is truncated", good[:len(good)-3], openOrders, isErr(io.ErrUnexpectedEOF)},
		{"the magic bytes alone are truncated", []byte("PAR1"), openOrders, isErr(io.ErrUnexpectedEOF)},
		{"a footer of garbage is invalid data", garbageFooter(good), openOrders, isErr(mapper.ErrInvalidData)},
		{"a column of another type is a mismatch naming field and column, before any row", good, func(r io.ReaderAt, size int64) error {
			_, err := amparquet.OpenReaderAt[wrongType](r, size, amparquet.ReadConfig{})
			return err
		}, func(t *testing.T, err error) {
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, mapper.ErrTypeMismatch)
			require.Equal(t, "Customer", me.Path)
			require.Equal(t, "customer", me.Column)
		}},
		{"a missing column is named", good, func(r io.ReaderAt, size int64) error {
			_, err := amparquet.OpenReaderAt[missing](r, size, amparquet.ReadConfig{})
			return err
		}, func(t *testing.T, err error) {
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, mapper.ErrMissingColumn)
			require.Equal(t, "color", me.Column)
		}},
		{"a row group that does not exist", good, func(r io.ReaderAt, size int64) error {
			_, err := amparquet.OpenReaderAt[order](r, size, amparquet.ReadConfig{RowGroups: []int{1, 4}})
			return err
		}, func(t *testing.T, err error) { require.ErrorContains(t, err, "row group 4 does not exist") }},
		{"a negative BatchRows", good, func(r io.ReaderAt, size int64) error {
			_, err := amparquet.OpenReaderAt[order](r, size, amparquet.ReadConfig{BatchRows: -1})
			return err
		}, func(t *testing.T, err error) { require.ErrorContains(t, err, "negative") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.open(bytes.NewReader(tt.data), int64(len(tt.data)))
			require.Error(t, err)
			tt.check(t, err)
		})
	}
}

func openOrders(r io.ReaderAt, size int64) error {
	rdr, err := amparquet.OpenReaderAt[order](r, size, amparquet.ReadConfig{})
	if err == nil {
		rdr.Release()
	}
	return err
}

func isErr(target error) func(t *testing.T, err error) {
	return func(t *testing.T, err error) { require.ErrorIs(t, err, target) }
}

// garbageFooter is data with its footer overwritten, its length and
// magic bytes kept.
func garbageFooter(data []byte) []byte {
	out := bytes.Clone(data)
	n := int(out[len(out)-8]) | int(out[len(out)-7])<<8 | int(out[len(out)-6])<<16
	for i := len(out) - 8 - n; i < len(out)-8; i++ {
		out[i] = byte(i*7 + 3)
	}
	return out
}

func TestCorruptDataIsAnErrorNeverAPanic(t *testing.T) {
	good, err := os.ReadFile(writeOrders(t, 300, 100))
	require.NoError(t, err)
	// Overwrite every 97th stretch of 16 bytes of the data, one at a time:
	// page headers, levels, values and compressed blocks all get hit.
	for at := 4; at < len(good)-64; at += 97 {
		data := bytes.Clone(good)
		for i := at; i < at+16; i++ {
			data[i] ^= 0x5a
		}
		func() {
			r, err := amparquet.OpenReaderAt[order](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{BatchRows: 64})
			if err != nil {
				return
			}
			defer r.Release()
			for _, err := range r.All() {
				if err != nil {
					require.False(t, errors.Is(err, io.EOF), "corruption at %d ends like a clean end: %v", at, err)
					return
				}
			}
		}()
	}
}

func TestZeroCopyRowsHoldUntilTheNextRead(t *testing.T) {
	path := writeOrders(t, 5000, 1000)
	r, err := amparquet.Open[order](path, amparquet.ReadConfig{BatchRows: 700}, mapper.ZeroCopy())
	require.NoError(t, err)
	defer r.Release()
	want := orders(5000)
	seen := 0
	for page, err := range r.Pages(512) {
		require.NoError(t, err)
		require.Equal(t, want[seen:seen+len(page)], page, "rows aliasing records the reader reuses once read past")
		seen += len(page)
	}
	require.Equal(t, 5000, seen)
}
