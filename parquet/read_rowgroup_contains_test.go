package parquet_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// shipment is a row of a table whose status repeats in every row group
// ("open", "closed") but for one status only its own row group holds
// ("held-g"): min and max of status are the same in every row group, so
// only a bloom filter tells the row groups apart.
type shipment struct {
	ID     int64  `arrow:"id"`
	Status string `arrow:"status"`
	Depot  int32  `arrow:"depot"`
	Code   []byte `arrow:"code"`
	// Placed is day 1000+g of row group g; At its hour i.
	Placed time.Time `arrow:"placed,date32"`
	At     time.Time `arrow:"at,timestamp,unit=ms"`
}

func placed(g int) time.Time { return time.Unix(int64(1000+g)*86400, 0).UTC() }

const (
	shipmentGroups    = 8
	shipmentGroupRows = 500
)

func shipments() []shipment {
	rows := make([]shipment, shipmentGroups*shipmentGroupRows)
	for i := range rows {
		g := i / shipmentGroupRows
		status := []string{"open", "closed"}[i%2]
		if i%shipmentGroupRows == 7 {
			status = fmt.Sprintf("held-%d", g)
		}
		// depot and code: the same range in every row group, but for one
		// value each row group has alone.
		depot := int32(i % 2 * 1000)
		code := []byte{byte(i % 2 * 200)}
		if i%shipmentGroupRows == 9 {
			depot, code = int32(100+g), []byte{byte(10 + g)}
		}
		at := placed(g).Add(time.Duration(i%shipmentGroupRows) * time.Minute)
		rows[i] = shipment{ID: int64(i), Status: status, Depot: depot, Code: code, Placed: placed(g), At: at}
	}
	return rows
}

// writeShipments writes shipments with arrow-go's own writer, with bloom
// filters on status, depot and code (our writer writes none yet), and
// returns the file's path.
func writeShipments(t *testing.T) string {
	t.Helper()
	rec, err := mapper.Encode(shipments())
	require.NoError(t, err)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "shipments.parquet")
	f, err := os.Create(path)
	require.NoError(t, err)
	props := arrowparquet.NewWriterProperties(
		arrowparquet.WithMaxRowGroupLength(shipmentGroupRows),
		arrowparquet.WithBloomFilterEnabledFor("status", true),
		arrowparquet.WithBloomFilterEnabledFor("depot", true),
		arrowparquet.WithBloomFilterEnabledFor("code", true),
		arrowparquet.WithBloomFilterFPP(0.001),
	)
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return path
}

// keptBy is the indexes of the row groups of path that keep keeps, and
// the rows ReadFile reads with it.
func keptBy(t *testing.T, path string, keep func(amparquet.RowGroup) bool) ([]int, []shipment) {
	t.Helper()
	var kept []int
	rows, err := amparquet.ReadFile[shipment](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		ok := keep(g)
		if ok {
			kept = append(kept, g.Index)
		}
		return ok
	}})
	require.NoError(t, err)
	return kept, rows
}

func TestMayContainSkipsTheRowGroupsABloomFilterRulesOut(t *testing.T) {
	path := writeShipments(t)
	all := shipments()
	tests := []struct {
		name   string
		column string
		value  any
		want   []int // the row groups that can match
	}{
		{"a string that one row group holds", "status", "held-3", []int{3}},
		{"a string that every row group holds", "status", "open", []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"a string within every min and max that no row group holds", "status", "lost", nil},
		{"an int32 given as an int", "depot", 105, []int{5}},
		{"an int32 given as an int32", "depot", int32(106), []int{6}},
		{"an int too large for the column is in no row group", "depot", 1 << 40, nil},
		{"bytes", "code", []byte{12}, []int{2}},
		{"bytes given as a string", "code", string([]byte{13}), []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, rows := keptBy(t, path, func(g amparquet.RowGroup) bool { return g.MayContain(tt.column, tt.value) })
			require.Equal(t, tt.want, kept)
			var want []shipment
			for _, g := range tt.want {
				want = append(want, all[g*shipmentGroupRows:(g+1)*shipmentGroupRows]...)
			}
			require.Equal(t, len(want), len(rows), "only the row groups kept are read")
			if len(want) > 0 {
				require.Equal(t, want, rows)
			}
		})
	}
}

func TestMayContainAgreesWithArrowGosBloomFilterReader(t *testing.T) {
	path := writeShipments(t)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	status := pf.MetaData().Schema.ColumnIndexByName("status")
	// MayContain reads the bloom filter from the open file: asked inside
	// KeepRowGroup, while Open has it open.
	got := map[[2]int]bool{}
	_, err = amparquet.ReadFile[shipment](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		for h := range shipmentGroups {
			got[[2]int{g.Index, h}] = g.MayContain("status", fmt.Sprintf("held-%d", h))
		}
		return false
	}})
	require.NoError(t, err)
	require.Len(t, got, shipmentGroups*shipmentGroups)
	for g := range shipmentGroups {
		rg, err := pf.GetBloomFilterReader().RowGroup(g)
		require.NoError(t, err)
		bf, err := rg.GetColumnBloomFilter(status)
		require.NoError(t, err)
		require.NotNil(t, bf, "arrow-go wrote a bloom filter for status")
		typed := metadata.TypedBloomFilter[arrowparquet.ByteArray]{BloomFilter: bf}
		for h := range shipmentGroups {
			v := fmt.Sprintf("held-%d", h)
			require.Equal(t, typed.Check(arrowparquet.ByteArray(v)), got[[2]int{g, h}], "row group %d, %q", g, v)
			require.Equal(t, g == h, got[[2]int{g, h}], "row group %d, %q", g, v)
		}
	}
}

func TestMayContainRulesOutByStatisticsWithoutABloomFilter(t *testing.T) {
	path := writeShipments(t) // no bloom filter on id: row group g holds ids 500g…500g+499
	tests := []struct {
		name   string
		column string
		value  any
		want   []int
	}{
		{"an id inside one row group's min and max", "id", int64(1234), []int{2}},
		{"an id given as an int", "id", 3999, []int{7}},
		{"an id past every max", "id", int64(4000), nil},
		{"an id below every min", "id", -1, nil},
		{"a time.Time on a date column is its UTC date", "placed", placed(4), []int{4}},
		{"a time.Time on a date column that is no whole day is in no row group", "placed", placed(4).Add(time.Hour), nil},
		{"a time.Time on a timestamp column is its count of the column's units", "at", placed(6).Add(17 * time.Minute), []int{6}},
		{"a time.Time in another zone is the same instant", "at", placed(6).Add(17 * time.Minute).In(time.FixedZone("", 5*3600)), []int{6}},
		{"a value of a type the column cannot hold proves nothing", "id", "1234", []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"nil proves nothing", "id", nil, []int{0, 1, 2, 3, 4, 5, 6, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, _ := keptBy(t, path, func(g amparquet.RowGroup) bool { return g.MayContain(tt.column, tt.value) })
			require.Equal(t, tt.want, kept)
		})
	}
	kept, _ := keptBy(t, path, func(g amparquet.RowGroup) bool { return g.MayContain("color", "red") })
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, kept, "a column the file does not have proves nothing")
}

func TestMinMaxGivesAColumnsBoundsInItsStorageType(t *testing.T) {
	path := writeShipments(t)
	kept, rows := keptBy(t, path, func(g amparquet.RowGroup) bool {
		lo, hi, ok := amparquet.MinMax[int64](g, "id")
		return ok && hi >= 1700 && lo < 2600
	})
	require.Equal(t, []int{3, 4, 5}, kept)
	require.Len(t, rows, 3*shipmentGroupRows)

	var g0 amparquet.RowGroup
	keptBy(t, path, func(g amparquet.RowGroup) bool {
		if g.Index == 0 {
			g0 = g
		}
		return false
	})
	lo, hi, ok := amparquet.MinMax[string](g0, "status")
	require.True(t, ok)
	require.Equal(t, []string{"closed", "open"}, []string{lo, hi})
	d0, d1, ok := amparquet.MinMax[int32](g0, "depot")
	require.True(t, ok)
	require.Equal(t, []int32{0, 1000}, []int32{d0, d1})
	_, _, ok = amparquet.MinMax[int64](g0, "depot")
	require.False(t, ok, "an int32 column's bounds are no int64s")
	_, _, ok = amparquet.MinMax[int64](g0, "color")
	require.False(t, ok, "a column the file does not have")
}

func TestMayContainOfAMalformedBloomFilterProvesNothing(t *testing.T) {
	path := writeShipments(t)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	status := pf.MetaData().Schema.ColumnIndexByName("status")
	cc, err := pf.MetaData().RowGroup(3).ColumnChunk(status)
	require.NoError(t, err)
	off := cc.BloomFilterOffset()
	require.Positive(t, off)
	pf.Close()
	// The bloom filter's header and bitset overwritten with garbage.
	for i := off; i < off+64 && i < int64(len(data)); i++ {
		data[i] = 0xff
	}
	var kept []int
	r, err := amparquet.OpenReaderAt[shipment](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		if g.MayContain("status", "held-3") {
			kept = append(kept, g.Index)
		}
		return false
	}}, mapper.Allocator(memory.DefaultAllocator))
	require.NoError(t, err)
	r.Release()
	require.Equal(t, []int{3}, kept, "row group 3 may hold it: its bloom filter cannot be read")
}
