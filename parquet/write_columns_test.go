package parquet_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// reading is a row with a column of every physical type the encodings
// apply to, under a struct and a list too.
type reading struct {
	ID     int64     `arrow:"id"`
	Day    time.Time `arrow:"day,date32"`
	Sensor string    `arrow:"sensor"`
	Value  float64   `arrow:"value"`
	Temp   float32   `arrow:"temp"`
	Count  int32     `arrow:"count"`
	OK     bool      `arrow:"ok"`
	Site   struct {
		Name string `arrow:"name"`
		Zone int64  `arrow:"zone"`
	} `arrow:"site"`
	Tags []string `arrow:"tags"`
	Note *string  `arrow:"note"`
}

func readings(n int) []reading {
	rows := make([]reading, n)
	for i := range rows {
		r := &rows[i]
		r.ID = int64(1_000_000 + i*3)
		r.Day = time.Unix(int64(19000+i/100)*86400, 0).UTC()
		r.Sensor = fmt.Sprintf("sensor-%03d", i%40)
		r.Value = float64(i%1000) * 0.25
		r.Temp = 20 + float32(i%17)/4
		r.Count = int32(i % 7)
		r.OK = i%3 != 0
		r.Site.Name = []string{"north", "south", "east"}[i%3]
		r.Site.Zone = int64(i / 500)
		r.Tags = []string{"a", "bb", "ccc"}[:i%4]
		if i%5 != 0 {
			s := fmt.Sprintf("note %d", i%11)
			r.Note = &s
		}
	}
	return rows
}

// readThroughPqarrow is the rows of T that arrow-go's pqarrow reads from
// data, decoded by mapper: the independent reader.
func readThroughPqarrow[T any](t *testing.T, data []byte) []T {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 20}, memory.DefaultAllocator)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	tr := array.NewTableReader(tbl, -1)
	defer tr.Release()
	var out []T
	for tr.Next() {
		rows, err := mapper.Decode[T](tr.RecordBatch())
		require.NoError(t, err)
		out = append(out, rows...)
	}
	require.NoError(t, tr.Err())
	return out
}

// writeBytes is rows written by a Writer with opts.
func writeBytes[T any](t *testing.T, rows []T, opts ...amparquet.WriteOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := amparquet.NewWriter[T](&buf, opts...)
	require.NoError(t, err)
	_, err = w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// chunkOf is the metadata of leaf column path in row group g of pf.
func chunkOf(t *testing.T, pf *file.Reader, g int, path string) *metadata.ColumnChunkMetaData {
	t.Helper()
	leaf := pf.MetaData().Schema.ColumnIndexByName(path)
	require.GreaterOrEqual(t, leaf, 0, "column %s", path)
	cc, err := pf.MetaData().RowGroup(g).ColumnChunk(leaf)
	require.NoError(t, err)
	return cc
}

func TestColumnEncodingsAreWrittenAndReadBackEqual(t *testing.T) {
	rows := readings(3000)
	dict := []arrowparquet.Encoding{arrowparquet.Encodings.RLEDict, arrowparquet.Encodings.PlainDict}
	tests := []struct {
		column string
		enc    amparquet.Encoding
		want   []arrowparquet.Encoding // one of them in ColumnMetaData.Encodings
	}{
		{"id", amparquet.EncodingPlain, []arrowparquet.Encoding{arrowparquet.Encodings.Plain}},
		{"id", amparquet.EncodingDictionary, dict},
		{"id", amparquet.EncodingDelta, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaBinaryPacked}},
		{"day", amparquet.EncodingDelta, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaBinaryPacked}},
		{"count", amparquet.EncodingDelta, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaBinaryPacked}},
		{"value", amparquet.EncodingByteStreamSplit, []arrowparquet.Encoding{arrowparquet.Encodings.ByteStreamSplit}},
		{"temp", amparquet.EncodingByteStreamSplit, []arrowparquet.Encoding{arrowparquet.Encodings.ByteStreamSplit}},
		{"value", amparquet.EncodingDictionary, dict},
		{"sensor", amparquet.EncodingPlain, []arrowparquet.Encoding{arrowparquet.Encodings.Plain}},
		{"sensor", amparquet.EncodingDelta, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaByteArray}},
		{"sensor", amparquet.EncodingDeltaLength, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaLengthByteArray}},
		{"ok", amparquet.EncodingPlain, []arrowparquet.Encoding{arrowparquet.Encodings.Plain}},
		{"site.name", amparquet.EncodingDeltaLength, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaLengthByteArray}},
		{"tags", amparquet.EncodingDelta, []arrowparquet.Encoding{arrowparquet.Encodings.DeltaByteArray}},
		{"note", amparquet.EncodingDictionary, dict},
		{"note", amparquet.EncodingPlain, []arrowparquet.Encoding{arrowparquet.Encodings.Plain}},
	}
	for _, tt := range tests {
		for _, viaPqarrow := range []bool{false, true} {
			for _, v2 := range []bool{false, true} {
				name := fmt.Sprintf("%s %s, through pqarrow %v, v2 pages %v", tt.column, tt.enc, viaPqarrow, v2)
				t.Run(name, func(t *testing.T) {
					cfg := amparquet.WriteConfig{RowGroupRows: 1000, Columns: map[string]amparquet.ColumnConfig{tt.column: {Encoding: tt.enc}}}
					if v2 {
						cfg.DataPageVersion = arrowparquet.DataPageV2
					}
					cfg = amparquet.ThroughPqarrow(viaPqarrow, cfg)
					if !viaPqarrow {
						// The delta encodings by arrow-go's column writer, in
						// the direct writer's file and row groups.
						require.True(t, amparquet.WritesDirectly[reading](cfg), "the direct writer writes the file")
					}
					data := writeBytes(t, rows, cfg)
					pf, err := file.NewParquetReader(bytes.NewReader(data))
					require.NoError(t, err)
					defer pf.Close()
					for g := range pf.NumRowGroups() {
						encs := chunkOf(t, pf, g, leafPath(tt.column)).Encodings()
						require.True(t, slices.ContainsFunc(tt.want, func(e arrowparquet.Encoding) bool { return slices.Contains(encs, e) }),
							"row group %d: encodings %v, want one of %v", g, encs, tt.want)
					}
					require.Equal(t, rows, readThroughPqarrow[reading](t, data), "pqarrow reads back the rows")
					rdr, err := amparquet.OpenReaderAt[reading](bytes.NewReader(data), int64(len(data)))
					require.NoError(t, err)
					back, err := rdr.ReadAll()
					rdr.Release()
					require.NoError(t, err)
					require.Equal(t, rows, back, "our reader reads back the rows")
				})
			}
		}
	}
}

// leafPath is the Parquet path of a column as the tests name it.
func leafPath(column string) string {
	if column == "tags" {
		return "tags.list.element"
	}
	return column
}

func TestBloomFiltersOfEveryWriterHoldEveryValueWritten(t *testing.T) {
	all := shipments()
	// The id delta encoded: its filter is arrow-go's column writer's, in
	// the direct writer's file.
	for _, c := range []struct{ viaPqarrow, deltaID bool }{{false, false}, {true, false}, {false, true}} {
		viaPqarrow := c.viaPqarrow
		t.Run(fmt.Sprintf("through pqarrow %v, id delta encoded %v", viaPqarrow, c.deltaID), func(t *testing.T) {
			bloom := amparquet.ColumnConfig{BloomFilter: true, BloomFilterFPP: 0.01, BloomFilterNDV: 1000}
			id := bloom
			if c.deltaID {
				id.Encoding = amparquet.EncodingDelta
			}
			cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{
				RowGroupRows: shipmentGroupRows,
				Columns:      map[string]amparquet.ColumnConfig{"status": bloom, "depot": bloom, "code": bloom, "id": id},
			})
			if !viaPqarrow {
				require.True(t, amparquet.WritesDirectly[shipment](cfg))
			}
			data := writeBytes(t, all, cfg)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			require.NoError(t, err)
			defer pf.Close()
			require.Equal(t, shipmentGroups, pf.NumRowGroups())
			falsePositives, probes := 0, 0
			for g := range shipmentGroups {
				rg, err := pf.GetBloomFilterReader().RowGroup(g)
				require.NoError(t, err)
				filter := func(path string) metadata.BloomFilter {
					bf, err := rg.GetColumnBloomFilter(pf.MetaData().Schema.ColumnIndexByName(path))
					require.NoError(t, err)
					require.NotNil(t, bf, "row group %d has a bloom filter of %s", g, path)
					return bf
				}
				status := metadata.TypedBloomFilter[arrowparquet.ByteArray]{BloomFilter: filter("status")}
				depot := metadata.TypedBloomFilter[int32]{BloomFilter: filter("depot")}
				code := metadata.TypedBloomFilter[arrowparquet.ByteArray]{BloomFilter: filter("code")}
				id := metadata.TypedBloomFilter[int64]{BloomFilter: filter("id")}
				for _, r := range all[g*shipmentGroupRows : (g+1)*shipmentGroupRows] {
					require.True(t, status.Check(arrowparquet.ByteArray(r.Status)), "row group %d holds %q", g, r.Status)
					require.True(t, depot.Check(r.Depot), "row group %d holds depot %d", g, r.Depot)
					require.True(t, code.Check(arrowparquet.ByteArray(r.Code)), "row group %d holds code %v", g, r.Code)
					require.True(t, id.Check(r.ID), "row group %d holds id %d", g, r.ID)
				}
				for k := range 2000 {
					probes += 2
					if status.Check(arrowparquet.ByteArray(fmt.Sprintf("absent-%d", k))) {
						falsePositives++
					}
					if id.Check(int64(-1 - k)) {
						falsePositives++
					}
				}
			}
			rate := float64(falsePositives) / float64(probes)
			t.Logf("false positives: %d of %d probes (%.4f)", falsePositives, probes, rate)
			require.Less(t, rate, 0.03, "within 3× the false-positive rate asked for")
			for g := range shipmentGroups {
				require.Zero(t, chunkOf(t, pf, g, "placed").BloomFilterOffset(), "no bloom filter where none was asked for")
			}
			require.Equal(t, all, readThroughPqarrow[shipment](t, data))
		})
	}
}

func TestMayContainSkipsTheRowGroupsOurBloomFiltersRuleOut(t *testing.T) {
	all := shipments()
	bloom := amparquet.ColumnConfig{BloomFilter: true, BloomFilterFPP: 0.001}
	for _, viaPqarrow := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "shipments.parquet")
		require.NoError(t, amparquet.WriteFile(path, all, amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{
			RowGroupRows: shipmentGroupRows,
			Columns:      map[string]amparquet.ColumnConfig{"status": bloom, "depot": bloom, "code": bloom},
		})))
		tests := []struct {
			name   string
			column string
			value  any
			want   []int
		}{
			{"a string that one row group holds", "status", "held-3", []int{3}},
			{"a string that every row group holds", "status", "open", []int{0, 1, 2, 3, 4, 5, 6, 7}},
			{"a string within every min and max that no row group holds", "status", "lost", nil},
			{"an int32 one row group holds", "depot", 105, []int{5}},
			{"bytes one row group holds", "code", []byte{12}, []int{2}},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s, through pqarrow %v", tt.name, viaPqarrow), func(t *testing.T) {
				kept, rows := keptBy(t, path, func(g amparquet.RowGroup) bool { return g.MayContain(tt.column, tt.value) })
				require.Equal(t, tt.want, kept, "the row groups read")
				var want []shipment
				for _, g := range tt.want {
					want = append(want, all[g*shipmentGroupRows:(g+1)*shipmentGroupRows]...)
				}
				require.Equal(t, len(want), len(rows))
			})
		}
	}
}

func TestStatisticsAndPageIndexPerColumn(t *testing.T) {
	off, on := false, true
	rows := readings(3000)
	for _, viaPqarrow := range []bool{false, true} {
		t.Run(fmt.Sprintf("through pqarrow %v", viaPqarrow), func(t *testing.T) {
			cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{RowGroupRows: 1000, Columns: map[string]amparquet.ColumnConfig{
				"id":        {Statistics: &off},
				"sensor":    {PageIndex: &off},
				"site.name": {Statistics: &off, PageIndex: &off},
			}})
			data := writeBytes(t, rows, cfg)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			require.NoError(t, err)
			defer pf.Close()
			for g := range pf.NumRowGroups() {
				stats := func(path string) bool {
					set, err := chunkOf(t, pf, g, path).StatsSet()
					require.NoError(t, err)
					return set
				}
				require.False(t, stats("id"), "id: statistics off")
				require.False(t, stats("site.name"), "site.name: statistics off")
				require.True(t, stats("sensor"), "sensor: statistics on")
				require.True(t, stats("value"), "value: statistics on")
				require.Nil(t, chunkOf(t, pf, g, "sensor").GetOffsetIndexLocation(), "sensor: no offset index")
				require.Nil(t, chunkOf(t, pf, g, "sensor").GetColumnIndexLocation(), "sensor: no column index")
				require.Nil(t, chunkOf(t, pf, g, "site.name").GetOffsetIndexLocation(), "site.name: no offset index")
				require.NotNil(t, chunkOf(t, pf, g, "value").GetOffsetIndexLocation(), "value: an offset index")
				require.NotNil(t, chunkOf(t, pf, g, "value").GetColumnIndexLocation(), "value: a column index")
				require.NotNil(t, chunkOf(t, pf, g, "id").GetOffsetIndexLocation(), "id: an offset index without statistics")
			}
			require.Equal(t, rows, readThroughPqarrow[reading](t, data))
		})
	}
	t.Run("a column's page index on in a file whose page index is off", func(t *testing.T) {
		data := writeBytes(t, rows, amparquet.WriteConfig{RowGroupRows: 1000, PageIndex: &off,
			Columns: map[string]amparquet.ColumnConfig{"value": {PageIndex: &on}}})
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer pf.Close()
		require.NotNil(t, chunkOf(t, pf, 0, "value").GetOffsetIndexLocation())
		require.NotNil(t, chunkOf(t, pf, 0, "value").GetColumnIndexLocation())
		require.Nil(t, chunkOf(t, pf, 0, "id").GetOffsetIndexLocation())
		require.Equal(t, rows, readThroughPqarrow[reading](t, data))
	})
}

func TestSortingColumnsAreInEveryRowGroup(t *testing.T) {
	rows := readings(3000)
	for _, viaPqarrow := range []bool{false, true} {
		t.Run(fmt.Sprintf("through pqarrow %v", viaPqarrow), func(t *testing.T) {
			cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{RowGroupRows: 1000, SortingColumns: []amparquet.SortingColumn{
				{Column: "site.zone"}, {Column: "id", NullsFirst: true},
			}})
			data := writeBytes(t, rows, cfg)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			require.NoError(t, err)
			defer pf.Close()
			sch := pf.MetaData().Schema
			require.Equal(t, 3, pf.NumRowGroups())
			for g := range pf.NumRowGroups() {
				want := []arrowparquet.SortingColumn{
					{ColumnIdx: int32(sch.ColumnIndexByName("site.zone"))},
					{ColumnIdx: int32(sch.ColumnIndexByName("id")), NullsFirst: true},
				}
				got := pf.MetaData().RowGroup(g).SortingColumns()
				require.Len(t, got, len(want), "row group %d", g)
				for i := range want {
					require.Equal(t, want[i], got[i], "row group %d, sorting column %d", g, i)
				}
			}
		})
	}
}

func TestColumnConfigsTheColumnCannotTakeAreRefused(t *testing.T) {
	bloom := amparquet.ColumnConfig{BloomFilter: true}
	tests := []struct {
		name string
		cfg  amparquet.WriteConfig
		want []string // in the error
	}{
		{"a path that names no column", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"sensr": bloom}},
			[]string{`"sensr"`, `"sensor"`, `"site.name"`, `"tags.list.element"`}},
		{"a struct of two leaves", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"site": bloom}}, []string{`"site"`, "no one leaf column"}},
		{"two paths of one leaf", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"tags": bloom, "tags.list.element": bloom}},
			[]string{`"tags"`, `"tags.list.element"`, "both name"}},
		{"delta of floats", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"value": {Encoding: amparquet.EncodingDelta}}},
			[]string{"value", "delta", "DOUBLE"}},
		{"byte stream split of text", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"sensor": {Encoding: amparquet.EncodingByteStreamSplit}}},
			[]string{"sensor", "byte_stream_split", "BYTE_ARRAY"}},
		{"byte stream split of ints, which DuckDB does not read", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"count": {Encoding: amparquet.EncodingByteStreamSplit}}},
			[]string{"count", "byte_stream_split", "INT32"}},
		{"delta length of ints", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"id": {Encoding: amparquet.EncodingDeltaLength}}},
			[]string{"id", "delta_length"}},
		{"a dictionary of booleans", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"ok": {Encoding: amparquet.EncodingDictionary}}},
			[]string{"ok", "dictionary", "BOOLEAN"}},
		{"an encoding that is none", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"id": {Encoding: 99}}}, []string{"Encoding(99)"}},
		{"a bloom filter of booleans", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"ok": bloom}}, []string{"ok", "BOOLEAN"}},
		{"a false-positive rate of 1", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"id": {BloomFilter: true, BloomFilterFPP: 1}}},
			[]string{"id", "BloomFilterFPP 1"}},
		{"a negative number of distinct values", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"id": {BloomFilter: true, BloomFilterNDV: -1}}},
			[]string{"id", "BloomFilterNDV -1"}},
		{"a false-positive rate without a bloom filter", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"id": {BloomFilterFPP: 0.1}}},
			[]string{"id", "without BloomFilter"}},
		{"a sorting column that is none", amparquet.WriteConfig{SortingColumns: []amparquet.SortingColumn{{Column: "zone"}}}, []string{"SortingColumns[0]", `"zone"`, `"site.zone"`}},
		{"a sorting column twice", amparquet.WriteConfig{SortingColumns: []amparquet.SortingColumn{{Column: "id"}, {Column: "id"}}}, []string{"SortingColumns[1]", "twice"}},
		{"a sorting column under a list", amparquet.WriteConfig{SortingColumns: []amparquet.SortingColumn{{Column: "tags"}}}, []string{"tags.list.element", "under a list"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := amparquet.NewWriter[reading](&buf, tt.cfg)
			require.Error(t, err)
			for _, s := range tt.want {
				require.Contains(t, err.Error(), s)
			}
			require.Zero(t, buf.Len(), "nothing written")
		})
	}
}

// tagged is a row whose parquet tags configure its columns.
type tagged struct {
	ID     int64  `arrow:"id" arrow-parquet:"bloom,ndv=5000"`
	Status string `arrow-parquet:"bloom, fpp=0.001, encoding=dictionary"`
	Total  float64
	Line   struct {
		SKU   string `arrow:"sku" arrow-parquet:"encoding=delta_length,stats=false"`
		Price int64  `arrow-parquet:"encoding=delta,pageindex=false"`
	} `arrow:"line"`
	Labels []string `arrow-parquet:"encoding=plain"`
}

func TestParquetTagsConfigureTheirColumns(t *testing.T) {
	rows := make([]tagged, 2000)
	for i := range rows {
		rows[i].ID = int64(i)
		rows[i].Status = []string{"open", "shipped"}[i%2]
		rows[i].Total = float64(i) / 3
		rows[i].Line.SKU = fmt.Sprintf("sku-%05d", i)
		rows[i].Line.Price = int64(i * 10)
		rows[i].Labels = []string{"x", "y"}[:i%3%2+1]
	}
	t.Run("the tags", func(t *testing.T) {
		data := writeBytes(t, rows, amparquet.WriteConfig{RowGroupRows: 1000})
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer pf.Close()
		for g := range pf.NumRowGroups() {
			require.Positive(t, chunkOf(t, pf, g, "id").BloomFilterOffset())
			require.Positive(t, chunkOf(t, pf, g, "Status").BloomFilterOffset())
			require.Zero(t, chunkOf(t, pf, g, "Total").BloomFilterOffset())
			require.True(t, chunkOf(t, pf, g, "Status").HasDictionaryPage())
			require.Contains(t, chunkOf(t, pf, g, "line.sku").Encodings(), arrowparquet.Encodings.DeltaLengthByteArray)
			set, err := chunkOf(t, pf, g, "line.sku").StatsSet()
			require.NoError(t, err)
			require.False(t, set)
			require.Contains(t, chunkOf(t, pf, g, "line.Price").Encodings(), arrowparquet.Encodings.DeltaBinaryPacked)
			require.Nil(t, chunkOf(t, pf, g, "line.Price").GetOffsetIndexLocation())
			require.False(t, chunkOf(t, pf, g, "Labels.list.element").HasDictionaryPage())
		}
		require.Equal(t, rows, readThroughPqarrow[tagged](t, data))
	})
	t.Run("SnakeCase names the tagged columns", func(t *testing.T) {
		data := writeBytes(t, rows, mapper.SnakeCase())
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer pf.Close()
		require.Positive(t, chunkOf(t, pf, 0, "status").BloomFilterOffset())
		require.Contains(t, chunkOf(t, pf, 0, "line.price").Encodings(), arrowparquet.Encodings.DeltaBinaryPacked)
	})
	t.Run("a WriteConfig entry replaces the tag of its column", func(t *testing.T) {
		data := writeBytes(t, rows, amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{
			"Status":     {Encoding: amparquet.EncodingPlain},
			"line.Price": {},
		}})
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer pf.Close()
		require.Zero(t, chunkOf(t, pf, 0, "Status").BloomFilterOffset(), "the tag's bloom filter replaced")
		require.False(t, chunkOf(t, pf, 0, "Status").HasDictionaryPage())
		require.NotContains(t, chunkOf(t, pf, 0, "line.Price").Encodings(), arrowparquet.Encodings.DeltaBinaryPacked)
		require.Positive(t, chunkOf(t, pf, 0, "id").BloomFilterOffset(), "an untouched tag stays")
		require.Equal(t, rows, readThroughPqarrow[tagged](t, data))
	})
}

type badTag struct {
	ID int64 `arrow-parquet:"bloom,colour=red"`
}

type tagOnStruct struct {
	Line struct {
		A, B int64
	} `arrow-parquet:"bloom"`
}

type tagOfType struct {
	Value float64 `arrow-parquet:"encoding=delta"`
}

// parquetGoTagged is tagged for parquet-go, whose tags this package
// does not read.
type parquetGoTagged struct {
	ID   int64   `arrow:"id" parquet:"id,delta"`
	Note *string `arrow:"note" parquet:"note,optional"`
}

func TestParquetGosTagsAreNotOurs(t *testing.T) {
	data := writeBytes(t, []parquetGoTagged{{ID: 1}, {ID: 2}})
	require.Equal(t, []parquetGoTagged{{ID: 1}, {ID: 2}}, readThroughPqarrow[parquetGoTagged](t, data))
}

func TestParquetTagsThatDoNotApplyAreRefused(t *testing.T) {
	var buf bytes.Buffer
	_, err := amparquet.NewWriter[badTag](&buf)
	require.ErrorIs(t, err, mapper.ErrTag)
	require.ErrorContains(t, err, "ID")
	require.ErrorContains(t, err, "colour")

	_, err = amparquet.NewWriter[tagOnStruct](&buf)
	require.ErrorIs(t, err, mapper.ErrTag)
	require.ErrorContains(t, err, "Line.A")
	require.ErrorContains(t, err, "Line.B")

	_, err = amparquet.NewWriter[tagOfType](&buf)
	require.ErrorIs(t, err, mapper.ErrTag)
	require.ErrorContains(t, err, "Value")
	require.ErrorContains(t, err, "DOUBLE")
	require.Zero(t, buf.Len())

	for _, tag := range []string{"bloom=maybe", "fpp=", "ndv=x", "encoding=zstd", "bloom,bloom", "encoding=default"} {
		_, err := amparquet.ParseColumnTag(tag)
		require.Error(t, err, tag)
	}
	c, err := amparquet.ParseColumnTag(" bloom , fpp=0.05, ndv=10, stats=false, pageindex, encoding=byte_stream_split ")
	require.NoError(t, err)
	no, yes := false, true
	require.Equal(t, amparquet.ColumnConfig{BloomFilter: true, BloomFilterFPP: 0.05, BloomFilterNDV: 10, Statistics: &no, PageIndex: &yes, Encoding: amparquet.EncodingByteStreamSplit}, c)
}

// TestColumnConfigsOfEveryWriterOnDisk writes every ColumnConfig at once
// with WriteFile, for the duckdb module's corpus.
func TestColumnConfigsOfEveryWriterOnDisk(t *testing.T) {
	rows := readings(2000)
	path := filepath.Join(t.TempDir(), "configured.parquet")
	off := false
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 500,
		Columns: map[string]amparquet.ColumnConfig{
			"sensor": {BloomFilter: true}, "temp": {Encoding: amparquet.EncodingByteStreamSplit}, "value": {Statistics: &off},
		},
		SortingColumns: []amparquet.SortingColumn{{Column: "id"}},
	}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, rows, readThroughPqarrow[reading](t, data))
}

// ranked is a row of the sorting tests.
type ranked struct {
	Group int32  `arrow:"group"`
	Score *int64 `arrow:"score"`
	Name  string `arrow:"name"`
}

func score(v int64) *int64 { return &v }

func TestSortingColumnsAreChecked(t *testing.T) {
	asc := []amparquet.SortingColumn{{Column: "group"}, {Column: "score"}}
	tests := []struct {
		name    string
		sorting []amparquet.SortingColumn
		batches [][]ranked // one Write each
		group   int64      // RowGroupRows
		badRow  int        // -1: every row in order
		column  string
	}{
		{"rows in order", asc, [][]ranked{{{1, score(1), "a"}, {1, score(2), "b"}, {2, score(0), "c"}}}, 0, -1, ""},
		{"equal rows are in order", asc, [][]ranked{{{1, score(1), "a"}, {1, score(1), "b"}}}, 0, -1, ""},
		{"a row whose first column goes back", asc, [][]ranked{{{1, score(1), "a"}, {2, score(2), "b"}, {1, score(3), "c"}}}, 0, 2, "group"},
		{"a row whose second column goes back in its group", asc, [][]ranked{{{1, score(5), "a"}, {1, score(4), "b"}}}, 0, 1, "score"},
		{"the first row of a Write before the last of the one before", asc, [][]ranked{{{1, score(1), "a"}, {3, score(1), "b"}}, {{2, score(1), "c"}}}, 0, 2, "group"},
		{"each row group sorted on its own", asc, [][]ranked{{{5, score(1), "a"}, {6, score(1), "b"}, {1, score(1), "c"}, {2, score(1), "d"}}}, 2, -1, ""},
		{"descending", []amparquet.SortingColumn{{Column: "score", Descending: true}}, [][]ranked{{{0, score(3), ""}, {0, score(2), ""}, {0, score(-7), ""}}}, 0, -1, ""},
		{"ascending where descending is declared", []amparquet.SortingColumn{{Column: "score", Descending: true}}, [][]ranked{{{0, score(3), ""}, {0, score(4), ""}}}, 0, 1, "score"},
		{"nulls last", []amparquet.SortingColumn{{Column: "score"}}, [][]ranked{{{0, score(3), ""}, {0, nil, ""}, {0, nil, ""}}}, 0, -1, ""},
		{"a value after a null, nulls last", []amparquet.SortingColumn{{Column: "score"}}, [][]ranked{{{0, nil, ""}, {0, score(3), ""}}}, 0, 1, "score"},
		{"nulls first", []amparquet.SortingColumn{{Column: "score", NullsFirst: true}}, [][]ranked{{{0, nil, ""}, {0, score(3), ""}}}, 0, -1, ""},
		{"text as bytes", []amparquet.SortingColumn{{Column: "name"}}, [][]ranked{{{0, nil, "B"}, {0, nil, "a"}, {0, nil, "ab"}, {0, nil, "\u00e9"}}}, 0, -1, ""},
		{"text out of order", []amparquet.SortingColumn{{Column: "name"}}, [][]ranked{{{0, nil, "ab"}, {0, nil, "a"}}}, 0, 1, "name"},
	}
	for _, tt := range tests {
		for _, viaPqarrow := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, through pqarrow %v", tt.name, viaPqarrow), func(t *testing.T) {
				var buf bytes.Buffer
				cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{RowGroupRows: tt.group, SortingColumns: tt.sorting})
				w, err := amparquet.NewWriter[ranked](&buf, cfg)
				require.NoError(t, err)
				var all []ranked
				var errs []error
				for _, b := range tt.batches {
					all = append(all, b...)
					if _, err := w.Write(b); err != nil {
						errs = append(errs, err)
					}
				}
				if err := w.Close(); err != nil {
					errs = append(errs, err) // the last batch is checked at Close
				}
				if tt.badRow < 0 {
					require.Empty(t, errs)
					require.Equal(t, all, readThroughPqarrow[ranked](t, buf.Bytes()))
					return
				}
				require.Len(t, errs, 1)
				var me *mapper.Error
				require.ErrorAs(t, errs[0], &me)
				require.ErrorIs(t, errs[0], mapper.ErrInvalidData)
				require.Equal(t, tt.badRow, me.Row, "the row out of order")
				require.Equal(t, tt.column, me.Column)
				// The footer is written: the file reads, without the batch refused.
				_, err = file.NewParquetReader(bytes.NewReader(buf.Bytes()))
				require.NoError(t, err)
			})
		}
	}
}

// cityRow sorts by a dictionary-encoded column.
type cityRow struct {
	City string `arrow:"city,dict"`
	N    int64  `arrow:"n"`
}

func TestSortingColumnsOfADictionaryColumnCompareItsValues(t *testing.T) {
	sorting := []amparquet.SortingColumn{{Column: "city"}, {Column: "n"}}
	for _, viaPqarrow := range []bool{false, true} {
		cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{SortingColumns: sorting})
		// Each row a record of its own, with its own dictionary ("b" is
		// index 0 of the third): the first row of each is compared with
		// the last of the one before through their values.
		var buf bytes.Buffer
		schema, err := mapper.SchemaOf[cityRow]()
		require.NoError(t, err)
		rw, err := amparquet.NewRecordWriter(&buf, schema, cfg)
		require.NoError(t, err)
		rows := []cityRow{{"a", 1}, {"a", 2}, {"b", 0}, {"c", 5}, {"c", 6}, {"a", 7}}
		for i, r := range rows {
			rec, err := mapper.Encode([]cityRow{r})
			require.NoError(t, err)
			err = rw.Write(rec)
			rec.Release()
			if i < 5 {
				require.NoError(t, err)
				continue
			}
			var me *mapper.Error
			require.ErrorAs(t, err, &me, "through pqarrow %v", viaPqarrow)
			require.Equal(t, 5, me.Row)
			require.Equal(t, "city", me.Column)
		}
		require.NoError(t, rw.Close())
		require.Equal(t, rows[:5], readThroughPqarrow[cityRow](t, buf.Bytes()))

		buf.Reset()
		w, err := amparquet.NewWriter[cityRow](&buf, cfg)
		require.NoError(t, err)
		_, err = w.Write([]cityRow{{"b", 1}, {"a", 2}})
		require.NoError(t, err)
		err = w.Close()
		var me *mapper.Error
		require.ErrorAs(t, err, &me, "through pqarrow %v", viaPqarrow)
		require.Equal(t, 1, me.Row)
		require.Equal(t, "city", me.Column)
	}
}

func TestARecordWriterTakesColumnConfigs(t *testing.T) {
	rows := readings(2000)
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := amparquet.NewRecordWriter(&buf, rec.Schema(), amparquet.WriteConfig{
		Columns:        map[string]amparquet.ColumnConfig{"sensor": {BloomFilter: true}, "value": {Encoding: amparquet.EncodingByteStreamSplit}},
		SortingColumns: []amparquet.SortingColumn{{Column: "id"}},
	})
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	defer pf.Close()
	require.Positive(t, chunkOf(t, pf, 0, "sensor").BloomFilterOffset())
	require.Contains(t, chunkOf(t, pf, 0, "value").Encodings(), arrowparquet.Encodings.ByteStreamSplit)
	require.Len(t, pf.MetaData().RowGroup(0).SortingColumns(), 1)
	require.Equal(t, rows, readThroughPqarrow[reading](t, buf.Bytes()))

	// A record out of order is refused, naming the row; the file goes on.
	buf.Reset()
	w, err = amparquet.NewRecordWriter(&buf, rec.Schema(), amparquet.WriteConfig{SortingColumns: []amparquet.SortingColumn{{Column: "id", Descending: true}}})
	require.NoError(t, err)
	err = w.Write(rec)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.Equal(t, 1, me.Row)
	require.NoError(t, w.Close())
}

func TestAnArrowDictionaryColumnWrittenPlain(t *testing.T) {
	rows := []cityRow{{"a", 1}, {"b", 2}, {"a", 3}, {"c", 4}}
	for _, viaPqarrow := range []bool{false, true} {
		cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"city": {Encoding: amparquet.EncodingPlain, BloomFilter: true}}})
		if !viaPqarrow {
			require.True(t, amparquet.WritesDirectly[cityRow](cfg))
		}
		data := writeBytes(t, rows, cfg)
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		require.False(t, chunkOf(t, pf, 0, "city").HasDictionaryPage(), "through pqarrow %v", viaPqarrow)
		rg, err := pf.GetBloomFilterReader().RowGroup(0)
		require.NoError(t, err)
		bf, err := rg.GetColumnBloomFilter(0)
		require.NoError(t, err)
		typed := metadata.TypedBloomFilter[arrowparquet.ByteArray]{BloomFilter: bf}
		for _, r := range rows {
			require.True(t, typed.Check(arrowparquet.ByteArray(r.City)))
		}
		pf.Close()
		require.Equal(t, rows, readThroughPqarrow[cityRow](t, data))
	}
}

// FuzzParseColumnTag: any tag text is a ColumnConfig or an error, never a
// panic, and a config parsed is one NewWriter checks without panicking.
func FuzzParseColumnTag(f *testing.F) {
	for _, s := range []string{"", "bloom", "bloom,fpp=0.5,ndv=3", "encoding=delta", "fpp=NaN", "ndv=-1", "fpp=1e309", ",,=,", "encoding=", "stats=maybe", "bloom=false,fpp=0.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		c, err := amparquet.ParseColumnTag(tag)
		if err != nil {
			return
		}
		w, err := amparquet.NewWriter[reading](io.Discard, amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"id": c, "sensor": c}})
		if err == nil {
			_, _ = w.Write(readings(3))
			require.NoError(t, w.Close())
		}
	})
}

func TestBloomFiltersAreSizedForTheDistinctValuesWritten(t *testing.T) {
	all := shipments() // 4 statuses a row group, 500 distinct ids
	for _, viaPqarrow := range []bool{false, true} {
		cfg := amparquet.ThroughPqarrow(viaPqarrow, amparquet.WriteConfig{RowGroupRows: shipmentGroupRows, Columns: map[string]amparquet.ColumnConfig{
			"status": {BloomFilter: true}, "id": {BloomFilter: true}, "depot": {BloomFilter: true, BloomFilterNDV: 100_000},
		}})
		data := writeBytes(t, all, cfg)
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		for g := range pf.NumRowGroups() {
			status, id, depot := chunkOf(t, pf, g, "status").BloomFilterLength(), chunkOf(t, pf, g, "id").BloomFilterLength(), chunkOf(t, pf, g, "depot").BloomFilterLength()
			if g == 0 {
				t.Logf("through pqarrow %v: filters of status %d, id %d, depot %d bytes", viaPqarrow, status, id, depot)
			}
			require.Less(t, status, int32(4<<10), "through pqarrow %v: a filter of 4 values", viaPqarrow)
			require.Less(t, id, int32(4<<10), "through pqarrow %v: a filter of 500 values", viaPqarrow)
			require.Greater(t, depot, int32(64<<10), "through pqarrow %v: a filter sized for the 100,000 values asked for", viaPqarrow)
			rg, err := pf.GetBloomFilterReader().RowGroup(g)
			require.NoError(t, err)
			bf, err := rg.GetColumnBloomFilter(pf.MetaData().Schema.ColumnIndexByName("id"))
			require.NoError(t, err)
			typed := metadata.TypedBloomFilter[int64]{BloomFilter: bf}
			misses := 0
			for _, r := range all[g*shipmentGroupRows : (g+1)*shipmentGroupRows] {
				require.True(t, typed.Check(r.ID))
			}
			for k := range 10_000 {
				if typed.Check(int64(-1 - k)) {
					misses++
				}
			}
			require.Less(t, misses, 300, "through pqarrow %v: about 1%% false positives of 10,000", viaPqarrow)
		}
		pf.Close()
	}
}

// A top-level column named "x.y" beside a struct x with a field y: two
// leaves of the dotted path "x.y", which names neither. A RowGroup has no
// statistics of it, MayContain cannot rule a row group out by it (it
// answered for the struct's leaf, and skipped the row group holding the
// column's value), and a WriteConfig naming it is refused.
func TestAPathTwoLeavesShareNamesNeither(t *testing.T) {
	type inner struct {
		Y int64 `arrow:"y"`
	}
	type dotted struct {
		X  inner `arrow:"x"`
		XY int64 `arrow:"x.y"`
		Z  int64 `arrow:"z"`
	}
	rows := make([]dotted, 100)
	for i := range rows {
		rows[i] = dotted{X: inner{Y: int64(i)}, XY: int64(1000 + i), Z: int64(i)}
	}
	path := filepath.Join(t.TempDir(), "dotted.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 50}))

	var groups []amparquet.RowGroup
	got, err := amparquet.ReadFile[dotted](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		groups = append(groups, g)
		return g.MayContain("x.y", int64(1010))
	}})
	require.NoError(t, err)
	require.Equal(t, rows, got, "no row group is ruled out by a name of two columns")
	require.Len(t, groups, 2)
	_, ok := groups[0].Column("x.y")
	require.False(t, ok, "no statistics for a name of two columns")
	_, ok = groups[0].Column("z")
	require.True(t, ok, "a name of one column has them")

	err = amparquet.WriteFile(path, rows, amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"x.y": {}}})
	require.ErrorContains(t, err, `WriteConfig.Columns["x.y"]: no one leaf column of that path`)
	err = amparquet.WriteFile(path, rows, amparquet.WriteConfig{SortingColumns: []amparquet.SortingColumn{{Column: "x.y"}}})
	require.ErrorContains(t, err, `no one leaf column "x.y"`)
}
