package golden

import (
	"encoding/hex"
	"fmt"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Tokyo on hosts without a zone database

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oneColumn is an integration file of one field and one batch.
func oneColumn(t *testing.T, field, column, dictionaries string, count int) *File {
	t.Helper()
	if dictionaries == "" {
		dictionaries = "[]"
	}
	f, err := Parse(fmt.Appendf(nil, `{"schema": {"fields": [%s]}, "batches": [{"count": %d, "columns": [%s]}], "dictionaries": %s}`, field, count, column, dictionaries))
	require.NoError(t, err)
	return f
}

func ptr[T any](v T) *T { return &v }

type monthDayNano struct {
	Months, Days int32
	Nanoseconds  int64
}

type variants struct {
	A *int32
	B *string
}

func TestCheckReadsEveryLayoutOfTheFormat(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	long := "xabcdefghijklmnop" // a view past 12 bytes lives in a buffer
	for _, tc := range []struct {
		name, field, column, dicts string
		count                      int
		good, bad                  any
		badColumn                  string
		badRow                     int
	}{
		{
			name:   "a timestamp with a zone is an instant in that zone",
			field:  `{"name": "t", "nullable": true, "type": {"name": "timestamp", "unit": "MILLISECOND", "timezone": "Asia/Tokyo"}, "children": []}`,
			column: `{"name": "t", "count": 2, "VALIDITY": [1, 0], "DATA": ["1500", "5"]}`, count: 2,
			good:      []struct{ T *time.Time }{{ptr(time.UnixMilli(1500).In(tokyo))}, {nil}},
			bad:       []struct{ T *time.Time }{{ptr(time.UnixMilli(1500).UTC())}, {nil}},
			badColumn: "t", badRow: 0,
		},
		{
			name:   "a time32 is a time.Duration since midnight",
			field:  `{"name": "t", "nullable": false, "type": {"name": "time", "unit": "SECOND", "bitWidth": 32}, "children": []}`,
			column: `{"name": "t", "count": 2, "VALIDITY": [1, 1], "DATA": [3600, 0]}`, count: 2,
			good:      []struct{ T time.Duration }{{time.Hour}, {0}},
			bad:       []struct{ T time.Duration }{{time.Hour}, {time.Second}},
			badColumn: "t", badRow: 1,
		},
		{
			name:   "a decimal into a string is its plain text",
			field:  `{"name": "d", "nullable": false, "type": {"name": "decimal", "precision": 5, "scale": 2}, "children": []}`,
			column: `{"name": "d", "count": 1, "VALIDITY": [1], "DATA": ["-5"]}`, count: 1,
			good:      []struct{ D string }{{"-0.05"}},
			bad:       []struct{ D string }{{"-0.5"}},
			badColumn: "d", badRow: 0,
		},
		{
			name: "a dense union is a struct of its variants, one set",
			field: `{"name": "u", "nullable": false, "type": {"name": "union", "mode": "DENSE", "typeIds": [3, 7]}, "children": [
				{"name": "a", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []},
				{"name": "b", "nullable": true, "type": {"name": "utf8"}, "children": []}]}`,
			column: `{"name": "u", "count": 2, "TYPE_ID": [7, 3], "OFFSET": [0, 0], "children": [
				{"name": "a", "count": 1, "VALIDITY": [1], "DATA": [42]},
				{"name": "b", "count": 1, "VALIDITY": [1], "OFFSET": [0, 2], "DATA": ["hi"]}]}`, count: 2,
			good:      []struct{ U variants }{{variants{B: ptr("hi")}}, {variants{A: ptr(int32(42))}}},
			bad:       []struct{ U variants }{{variants{A: ptr(int32(1)), B: ptr("hi")}}, {variants{A: ptr(int32(42))}}},
			badColumn: "u", badRow: 0,
		},
		{
			name:   "a month_day_nano interval is its three parts",
			field:  `{"name": "i", "nullable": false, "type": {"name": "interval", "unit": "MONTH_DAY_NANO"}, "children": []}`,
			column: `{"name": "i", "count": 1, "VALIDITY": [1], "DATA": [{"months": 1, "days": -2, "nanoseconds": "3"}]}`, count: 1,
			good:      []struct{ I monthDayNano }{{monthDayNano{1, -2, 3}}},
			bad:       []struct{ I monthDayNano }{{monthDayNano{1, -2, 4}}},
			badColumn: "i.nanoseconds", badRow: 0,
		},
		{
			name:   "a string view is inlined or in a variadic buffer",
			field:  `{"name": "s", "nullable": false, "type": {"name": "utf8view"}, "children": []}`,
			column: `{"name": "s", "count": 2, "VALIDITY": [1, 1], "VIEWS": [{"SIZE": 3, "INLINED": "abc"}, {"SIZE": 14, "PREFIX_HEX": "61626364", "BUFFER_INDEX": 0, "OFFSET": 1}], "VARIADIC_DATA_BUFFERS": ["` + hex.EncodeToString([]byte(long)) + `"]}`, count: 2,
			good:      []struct{ S string }{{"abc"}, {long[1:15]}},
			bad:       []struct{ S string }{{"abc"}, {long[0:14]}},
			badColumn: "s", badRow: 1,
		},
		{
			name: "a run-end encoded row is the value of its run",
			field: `{"name": "r", "nullable": false, "type": {"name": "runendencoded"}, "children": [
				{"name": "run_ends", "nullable": false, "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []},
				{"name": "values", "nullable": true, "type": {"name": "utf8"}, "children": []}]}`,
			column: `{"name": "r", "count": 3, "children": [
				{"name": "run_ends", "count": 2, "VALIDITY": [1, 1], "DATA": [2, 3]},
				{"name": "values", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["x", "y"]}]}`, count: 3,
			good:      []struct{ R string }{{"x"}, {"x"}, {"y"}},
			bad:       []struct{ R string }{{"x"}, {"y"}, {"y"}},
			badColumn: "r", badRow: 1,
		},
		{
			name: "a map row is its entries, in any order",
			field: `{"name": "m", "nullable": true, "type": {"name": "map", "keysSorted": false}, "children": [
				{"name": "entries", "nullable": false, "type": {"name": "struct"}, "children": [
					{"name": "key", "nullable": false, "type": {"name": "utf8"}, "children": []},
					{"name": "value", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []}]}]}`,
			column: `{"name": "m", "count": 2, "VALIDITY": [1, 0], "OFFSET": [0, 2, 2], "children": [
				{"name": "entries", "count": 2, "VALIDITY": [1, 1], "children": [
					{"name": "key", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["b", "a"]},
					{"name": "value", "count": 2, "VALIDITY": [1, 0], "DATA": [2, 0]}]}]}`, count: 2,
			good:      []struct{ M map[string]*int32 }{{map[string]*int32{"a": nil, "b": ptr(int32(2))}}, {nil}},
			bad:       []struct{ M map[string]*int32 }{{map[string]*int32{"a": ptr(int32(0)), "b": ptr(int32(2))}}, {nil}},
			badColumn: "m[\"a\"]", badRow: 0,
		},
		{
			name:   "a dictionary row is its entry, null entries included",
			field:  `{"name": "d", "nullable": true, "type": {"name": "utf8"}, "dictionary": {"id": 4, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false}, "children": []}`,
			column: `{"name": "d", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 0]}`,
			dicts:  `[{"id": 4, "data": {"count": 2, "columns": [{"name": "DICT4", "count": 2, "VALIDITY": [1, 0], "OFFSET": [0, 1, 1], "DATA": ["a", ""]}]}}]`, count: 2,
			good:      []struct{ D *string }{{nil}, {ptr("a")}},
			bad:       []struct{ D *string }{{ptr("a")}, {ptr("a")}},
			badColumn: "d", badRow: 0,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := oneColumn(t, tc.field, tc.column, tc.dicts, tc.count)
			assert.Empty(t, f.Check(0, tc.good), "the right values agree")
			got := f.Check(0, tc.bad)
			require.Len(t, got, 1, "one wrong value, one mismatch: %v", got)
			assert.Equal(t, tc.badColumn, got[0].Column)
			assert.Equal(t, tc.badRow, got[0].Row)
		})
	}
}

func TestOutsideSpecFindsWhatTheDeclaredTypeCannotHold(t *testing.T) {
	for _, tc := range []struct {
		name, field, column string
		rows                []int
	}{
		{"a decimal with more digits than its precision", `{"name": "d", "nullable": true, "type": {"name": "decimal", "precision": 3, "scale": 2}, "children": []}`,
			`{"name": "d", "count": 3, "VALIDITY": [1, 1, 0], "DATA": ["999", "-1000", "123456"]}`, []int{1}},
		{"a time of day of 24h or more, or negative", `{"name": "t", "nullable": false, "type": {"name": "time", "unit": "MILLISECOND", "bitWidth": 32}, "children": []}`,
			`{"name": "t", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [86399999, 86400000, -1]}`, []int{1, 2}},
		{"a date64 that is not a whole number of days", `{"name": "d", "nullable": false, "type": {"name": "date", "unit": "MILLISECOND"}, "children": []}`,
			`{"name": "d", "count": 2, "VALIDITY": [1, 1], "DATA": ["86400000", "86400001"]}`, []int{1}},
	} {
		t.Run(tc.name+" is outside the spec", func(t *testing.T) {
			f := oneColumn(t, tc.field, tc.column, "", 0)
			f.Batches[0].Count = f.Batches[0].Columns[0].Count // the column's rows
			out, err := f.OutsideSpec(0)
			require.NoError(t, err)
			var rows []int
			for _, o := range out {
				rows = append(rows, o.Row)
			}
			assert.Equal(t, tc.rows, rows)
		})
	}
}
