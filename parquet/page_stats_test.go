package parquet_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// pageStatsRow has text and decimals of every encoding the direct writer
// gives them: few distinct values (a dictionary kept), many (a dictionary
// full, then plain), unique (no dictionary), nullable and not.
type pageStatsRow struct {
	Few    string
	Many   string
	Unique string
	PMany  *string
	Price  decimal.Decimal128  `arrow:",decimal(15,2)"`
	PPrice *decimal.Decimal128 `arrow:",decimal(15,2)"`
	Wide   decimal.Decimal128  `arrow:",decimal(30,4)"`
}

func pageStatsRows(seed uint64, n int) []pageStatsRow {
	r := rand.New(rand.NewPCG(seed, 7))
	word := func(max int) string { return fmt.Sprintf("w%0*d", 8+r.IntN(24), r.IntN(max)) }
	dec := func(bound int64) decimal.Decimal128 { return decimal128.FromI64(r.Int64N(2*bound) - bound) }
	rows := make([]pageStatsRow, n)
	for i := range rows {
		rows[i] = pageStatsRow{
			Few: []string{"", "AIR", "MAIL", "RAIL", "SHIP", "TRUCK", "é"}[r.IntN(7)], Many: word(200_000),
			Unique: fmt.Sprintf("u%09d-%d", i, r.IntN(1000)), Price: dec(1 << 40), Wide: decimal128.New(int64(r.IntN(4))-2, r.Uint64()),
		}
		if r.IntN(5) > 0 {
			rows[i].PMany = ptr(word(50_000))
			rows[i].PPrice = ptr(dec(5000))
		}
	}
	return rows
}

// The statistics of every page in the column index are the least and the
// greatest value of the page's rows, and their nulls, computed here from
// the rows the offset index puts in the page: text compared as bytes,
// decimals as numbers stored big-endian in the column's width.
func TestPageStatisticsAreTheMinAndMaxOfEachPagesRows(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rows := pageStatsRows(seed, 400_000)
	path := filepath.Join(t.TempDir(), "stats.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 300_000}))
	pf := openPageFile(t, path)
	text := func(s string) []byte { return []byte(s) }
	decimalBytes := func(width int) func(decimal.Decimal128) []byte {
		return func(d decimal.Decimal128) []byte {
			var b [16]byte
			binary.BigEndian.PutUint64(b[:8], uint64(d.HighBits()))
			binary.BigEndian.PutUint64(b[8:], d.LowBits())
			return b[16-width:]
		}
	}
	cols := []struct {
		name    string
		value   func(pageStatsRow) ([]byte, bool)
		compare func(a, b []byte) int
	}{
		{"Few", func(r pageStatsRow) ([]byte, bool) { return text(r.Few), true }, bytes.Compare},
		{"Many", func(r pageStatsRow) ([]byte, bool) { return text(r.Many), true }, bytes.Compare},
		{"Unique", func(r pageStatsRow) ([]byte, bool) { return text(r.Unique), true }, bytes.Compare},
		{"PMany", func(r pageStatsRow) ([]byte, bool) {
			if r.PMany == nil {
				return nil, false
			}
			return text(*r.PMany), true
		}, bytes.Compare},
		{"Price", func(r pageStatsRow) ([]byte, bool) { return decimalBytes(7)(r.Price), true }, compareSigned},
		{"PPrice", func(r pageStatsRow) ([]byte, bool) {
			if r.PPrice == nil {
				return nil, false
			}
			return decimalBytes(7)(*r.PPrice), true
		}, compareSigned},
		{"Wide", func(r pageStatsRow) ([]byte, bool) { return decimalBytes(13)(r.Wide), true }, compareSigned},
	}
	pages := 0
	for g := range pf.NumRowGroups() {
		first := int64(g) * 300_000
		groupRows := pf.MetaData().RowGroup(g).NumRows()
		ri, err := pf.GetPageIndexReader().RowGroup(g)
		require.NoError(t, err)
		for _, col := range cols {
			c := pf.MetaData().Schema.ColumnIndexByName(col.name)
			require.GreaterOrEqual(t, c, 0, col.name)
			ci, err := ri.GetColumnIndex(c)
			require.NoError(t, err)
			oi, err := ri.GetOffsetIndex(c)
			require.NoError(t, err)
			require.NotNil(t, ci, col.name)
			locs := oi.GetPageLocations()
			for k, loc := range locs {
				end := groupRows
				if k+1 < len(locs) {
					end = locs[k+1].FirstRowIndex
				}
				var lo, hi []byte
				var nulls int64
				for _, row := range rows[first+loc.FirstRowIndex : first+end] {
					v, ok := col.value(row)
					switch {
					case !ok:
						nulls++
					case lo == nil:
						lo, hi = v, v
					case col.compare(v, lo) < 0:
						lo = v
					case col.compare(v, hi) > 0:
						hi = v
					}
				}
				name := fmt.Sprintf("row group %d, column %s, page %d of %d", g, col.name, k, len(locs))
				require.Equal(t, lo, ci.GetMinValues()[k], name+": min")
				require.Equal(t, hi, ci.GetMaxValues()[k], name+": max")
				require.Equal(t, nulls, ci.GetNullCounts()[k], name+": nulls")
				pages++
			}
		}
	}
	require.Greater(t, pages, 3*len(cols), "columns of several pages")
}

// compareSigned compares two big-endian two's complement numbers of one
// width.
func compareSigned(a, b []byte) int {
	if (a[0] >= 0x80) != (b[0] >= 0x80) {
		if a[0] >= 0x80 {
			return -1
		}
		return 1
	}
	return bytes.Compare(a, b)
}
