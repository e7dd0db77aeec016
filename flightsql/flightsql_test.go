package flightsql

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The parts of the package that need no server; the integration module
// tests the entry points against real ones.

func TestCheckParameters(t *testing.T) {
	type byID struct {
		ID int64 `arrow:"id"`
	}
	type byName struct {
		Name *string `arrow:"name"`
	}
	type idAndName struct {
		ID   int64  `arrow:"id"`
		Name string `arrow:"name"`
	}
	str := func(s string) *string { return &s }
	encode := func(t *testing.T, mem memory.Allocator, rows any) arrow.RecordBatch {
		var rec arrow.RecordBatch
		var err error
		switch rows := rows.(type) {
		case []byID:
			rec, err = mapper.Encode(rows, mapper.Allocator(mem))
		case []byName:
			rec, err = mapper.Encode(rows, mapper.Allocator(mem))
		case []idAndName:
			rec, err = mapper.Encode(rows, mapper.Allocator(mem))
		default:
			t.Fatalf("no encoding for %T", rows)
		}
		require.NoError(t, err)
		return rec
	}
	field := func(name string, typ arrow.DataType, nullable bool) arrow.Field {
		return arrow.Field{Name: name, Type: typ, Nullable: nullable}
	}
	schema := func(fields ...arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }
	i64, i32, utf8 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String

	cases := []struct {
		name       string
		want       *arrow.Schema
		rows       any
		wantIs     error
		wantColumn string
		wantRow    int
	}{
		{name: "parameters of the statement's names and types match", want: schema(field("id", i64, true), field("name", utf8, false)),
			rows: []idAndName{{1, "a"}}},
		{name: "an unnamed parameter matches by position", want: schema(field("", i64, false)), rows: []byID{{1}}},
		{name: "nulls match a nullable parameter", want: schema(field("name", utf8, true)), rows: []byName{{nil}}},
		{name: "a parameter of another type is ErrTypeMismatch", want: schema(field("id", i32, true)),
			rows: []byID{{1}}, wantIs: mapper.ErrTypeMismatch, wantColumn: "id", wantRow: -1},
		{name: "a parameter of another name is ErrMissingColumn naming the statement's", want: schema(field("key", i64, true)),
			rows: []byID{{1}}, wantIs: mapper.ErrMissingColumn, wantColumn: "key", wantRow: -1},
		{name: "a parameter with no column is ErrMissingColumn naming it", want: schema(field("id", i64, true), field("name", utf8, true)),
			rows: []byID{{1}}, wantIs: mapper.ErrMissingColumn, wantColumn: "name", wantRow: -1},
		{name: "an unnamed parameter with no column is named by its position", want: schema(field("id", i64, true), field("", utf8, true)),
			rows: []byID{{1}}, wantIs: mapper.ErrMissingColumn, wantColumn: "$2", wantRow: -1},
		{name: "a column past the parameters is ErrExtraColumn naming the column", want: schema(field("id", i64, true)),
			rows: []idAndName{{1, "a"}}, wantIs: mapper.ErrExtraColumn, wantColumn: "name", wantRow: -1},
		{name: "no parameters at all takes no column", want: schema(),
			rows: []byID{{1}}, wantIs: mapper.ErrExtraColumn, wantColumn: "id", wantRow: -1},
		{name: "a null for a parameter that takes none is ErrNull at the first null row", want: schema(field("name", utf8, false)),
			rows: []byName{{str("a")}, {str("b")}, {nil}, {nil}}, wantIs: mapper.ErrNull, wantColumn: "name", wantRow: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := encode(t, mem, tc.rows)
			defer rec.Release()
			err := checkParameters(tc.want, rec)
			if tc.wantIs == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tc.wantIs)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tc.wantColumn, me.Column)
			assert.Equal(t, tc.wantRow, me.Row)
		})
	}
}

func TestQuoted(t *testing.T) {
	cases := []struct {
		name, query, want string
	}{
		{"a short query is quoted whole", `SELECT "a"`, `"SELECT \"a\""`},
		{"a query of 80 bytes is quoted whole", strings.Repeat("x", 80), `"` + strings.Repeat("x", 80) + `"`},
		{"a long query is cut after 80 bytes", strings.Repeat("y", 81), `"` + strings.Repeat("y", 80) + `"…`},
		{"a cut never splits a rune", strings.Repeat("a", 79) + "é and more", `"` + strings.Repeat("a", 79) + `"…`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, quoted(tc.query))
		})
	}
}

// pagesOf yields rows in pages of the given sizes, one buffer reused, then
// err if any.
func pagesOf[T any](rows []T, size int, err error) iter.Seq2[[]T, error] {
	return func(yield func([]T, error) bool) {
		buf := make([]T, size)
		for len(rows) > 0 {
			k := copy(buf, rows)
			rows = rows[k:]
			if !yield(buf[:k], nil) {
				return
			}
			clear(buf)
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

func TestIngestRecords(t *testing.T) {
	type row struct {
		ID int64     `arrow:"id"`
		At time.Time `arrow:"at"`
	}
	rowsOf := func(n int) []row {
		rows := make([]row, n)
		for i := range rows {
			rows[i] = row{int64(i), time.Unix(int64(i), 0).UTC()}
		}
		return rows
	}
	broken := errors.New("broken")
	tooLate := time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC) // past int64 nanoseconds
	withBad := func(n, bad int) []row {
		rows := rowsOf(n)
		rows[bad].At = tooLate
		return rows
	}
	const B = IngestBatchRows
	cases := []struct {
		name      string
		rows      []row
		pages     iter.Seq2[[]row, error]
		wantSizes []int64
		wantIs    error
		wantRow   int // of the *mapper.Error, when wantIs is one
		firstFail bool
	}{
		{name: "no rows is one batch of no rows", pages: pagesOf[row](nil, 10, nil), wantSizes: []int64{0}},
		{name: "one page under a batch is one batch", rows: rowsOf(10), pages: pagesOf(rowsOf(10), 10, nil), wantSizes: []int64{10}},
		{name: "small pages are gathered into full batches", rows: rowsOf(B + 7), pages: pagesOf(rowsOf(B+7), 1000, nil),
			wantSizes: []int64{B, 7}},
		{name: "a page of more than a batch is cut into batches", rows: rowsOf(2*B + 1), pages: pagesOf(rowsOf(2*B+1), 2*B+1, nil),
			wantSizes: []int64{B, B, 1}},
		{name: "a row that does not fit in the first batch fails it", pages: pagesOf(withBad(20, 13), 5, nil),
			wantIs: mapper.ErrOverflow, wantRow: 13, firstFail: true},
		{name: "a row that does not fit later is numbered from the first row", pages: pagesOf(withBad(B+100, B+42), 1000, nil),
			wantSizes: []int64{B}, wantIs: mapper.ErrOverflow, wantRow: B + 42},
		{name: "an error of the pages ends the batches", pages: pagesOf(rowsOf(B+3), 4096, broken),
			wantSizes: []int64{B}, wantIs: broken},
		{name: "an error of the first page fails the first batch", pages: pagesOf[row](nil, 1, broken),
			wantIs: broken, firstFail: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			b, err := mapper.NewBuilder[row](mapper.Allocator(mem))
			require.NoError(t, err)
			next, stop := iter.Pull2(tc.pages)
			defer stop()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := &ingestRecords[row]{b: b, next: next, cancel: cancel}
			r.refs.Store(1)
			defer r.Release()

			r.first()
			if tc.firstFail {
				require.ErrorIs(t, r.err, tc.wantIs)
				require.Error(t, ctx.Err(), "a failure cancels the stream")
				checkRow(t, r.err, tc.wantRow)
				return
			}
			require.NoError(t, r.err)
			want, err := mapper.SchemaOf[row]()
			require.NoError(t, err)
			require.True(t, want.Equal(r.Schema()))

			var sizes []int64
			var got []row
			for r.Next() {
				rec := r.RecordBatch()
				sizes = append(sizes, rec.NumRows())
				rows, err := mapper.Decode[row](rec)
				require.NoError(t, err)
				got = append(got, rows...)
			}
			require.Equal(t, tc.wantSizes, sizes)
			require.False(t, r.Next(), "the end stays the end")
			if tc.wantIs == nil {
				require.NoError(t, r.Err())
				require.NoError(t, ctx.Err())
				assert.Equal(t, tc.rows, got)
				return
			}
			require.ErrorIs(t, r.Err(), tc.wantIs)
			require.Error(t, ctx.Err(), "a failure cancels the stream")
			checkRow(t, r.Err(), tc.wantRow)
		})
	}
}

// checkRow checks the row of err when it is an *mapper.Error.
func checkRow(t *testing.T, err error, want int) {
	t.Helper()
	var me *mapper.Error
	if errors.As(err, &me) {
		assert.Equal(t, want, me.Row)
		assert.Equal(t, "At", me.Path)
	}
}

// TestTheQueriesTakeMaxExpansion: the readers they open bound what a
// message's compressed buffers and ReadAll may claim by it.
func TestTheQueriesTakeMaxExpansion(t *testing.T) {
	ctx := context.Background()
	_, err := Query[struct{}](ctx, Conn{}, "SELECT 1", mapper.MaxExpansion(128))
	require.ErrorIs(t, err, errNoClient, "taken, and on to the client")
	_, err = QueryWith[struct{}, struct{}](ctx, Conn{}, "SELECT ?", nil, mapper.MaxExpansion(128))
	require.ErrorIs(t, err, errNoClient, "taken, and on to the client")
}
