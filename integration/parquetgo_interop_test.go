package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/stretchr/testify/require"
)

// pgItem and pgRow are tagged for both libraries, with the types both map
// the same way: nil slices, maps and pointers are nulls on both sides.
type pgItem struct {
	SKU   string  `arrow:"sku" parquet:"sku"`
	Price float64 `arrow:"price" parquet:"price"`
}

type pgRow struct {
	ID     int64            `arrow:"id" parquet:"id"`
	Qty    int32            `arrow:"qty" parquet:"qty"`
	Small  int16            `arrow:"small" parquet:"small"`
	Count  uint32           `arrow:"count" parquet:"count"`
	Big    uint64           `arrow:"big" parquet:"big"`
	Price  float64          `arrow:"price" parquet:"price"`
	Score  float32          `arrow:"score" parquet:"score"`
	OK     bool             `arrow:"ok" parquet:"ok"`
	Name   string           `arrow:"name" parquet:"name"`
	Note   *string          `arrow:"note" parquet:"note,optional"`
	Blob   []byte           `arrow:"blob" parquet:"blob,optional"`
	At     time.Time        `arrow:"at" parquet:"at"`
	Tags   []string         `arrow:"tags" parquet:"tags,optional,list"`
	Items  []pgItem         `arrow:"items" parquet:"items,optional,list"`
	Attrs  map[string]int64 `arrow:"attrs" parquet:"attrs,optional"`
	Origin *pgItem          `arrow:"origin" parquet:"origin,optional"`
}

// pgRows is n rows with nulls, empties aside (the libraries differ on
// whether an empty list reads back nil), at every nullable level.
func pgRows(n int) []pgRow {
	rows := make([]pgRow, n)
	for i := range rows {
		note := fmt.Sprintf("note %d", i)
		r := pgRow{ID: int64(i), Qty: int32(i % 1000), Small: int16(-i), Count: uint32(i) * 7, Big: 1<<63 + uint64(i),
			Price: float64(i) / 4, Score: float32(i%100) / 8, OK: i%2 == 0, Name: fmt.Sprintf("customer-%05d", i),
			At: time.Unix(1_700_000_000+int64(i), int64(i)*1001).UTC()}
		if i%3 != 0 {
			r.Note, r.Blob = &note, []byte{byte(i), 0, 1}
			r.Tags = []string{"a", fmt.Sprint(i % 7)}[:1+i%2]
			r.Items = []pgItem{{SKU: fmt.Sprintf("sku-%d", i%13), Price: 1.5}}
			r.Attrs = map[string]int64{"k": int64(i)}
			r.Origin = &pgItem{SKU: "o", Price: float64(i)}
		}
		rows[i] = r
	}
	return rows
}

func TestParquetGoReadsTheFilesWeWrite(t *testing.T) {
	rows := pgRows(3000)
	path := filepath.Join(t.TempDir(), "ours.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 1000, Compression: amparquet.Snappy}))
	got, err := parquet.ReadFile[pgRow](path)
	require.NoError(t, err)
	require.Equal(t, rows, utcTimes(got))
}

func TestWeReadTheFilesParquetGoWrites(t *testing.T) {
	rows := pgRows(3000)
	path := filepath.Join(t.TempDir(), "parquet-go.parquet")
	require.NoError(t, parquet.WriteFile(path, rows, parquet.Compression(&snappy.Codec{}), parquet.MaxRowsPerRowGroup(1000)))
	got, err := amparquet.ReadFile[pgRow](path)
	require.NoError(t, err)
	require.Equal(t, rows, utcTimes(got))

	// Row groups by their statistics, as parquet-go wrote them.
	r, err := amparquet.Open[pgRow](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		s, ok := g.Column("id")
		return ok && s.Min.(int64) >= 1000
	}})
	require.NoError(t, err)
	defer r.Release()
	kept, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, rows[1000:], utcTimes(kept))
}

// utcTimes is rows with their times in UTC, the zone rows are made in:
// a time.Time compares its location too.
func utcTimes(rows []pgRow) []pgRow {
	for i := range rows {
		rows[i].At = rows[i].At.UTC()
	}
	return rows
}
