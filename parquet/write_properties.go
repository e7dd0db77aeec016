package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/version"
)

// writerProperties is the Parquet writer properties cfg asks for, with the
// dictionary decided per leaf column of schema.
func writerProperties(schema *arrow.Schema, cfg WriteConfig, mem memory.Allocator, groupRows int64) (*parquet.WriterProperties, error) {
	codecName, err := cfg.codec()
	if err != nil {
		return nil, err
	}
	codec, err := compress.GetCodec(codecName)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.Compression %s: %w", codecName, err)
	}
	level := cfg.CompressionLevel
	if level == 0 {
		level = compress.DefaultCompressionLevel
	} else if err := checkLevel(codec, level); err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.CompressionLevel %d for %s: %w", level, codecName, err)
	}
	switch cfg.DataPageVersion {
	case parquet.DataPageV1, parquet.DataPageV2:
	default:
		return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.DataPageVersion %d is not a data page version", cfg.DataPageVersion)
	}
	stats := cfg.Statistics == nil || *cfg.Statistics
	pageIndex := cfg.PageIndex == nil || *cfg.PageIndex
	props := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithMaxRowGroupLength(groupRows),
		parquet.WithCreatedBy(version.CreatedBy),
		parquet.WithCompression(codecName),
		parquet.WithCompressionLevel(level),
		parquet.WithDataPageVersion(cfg.DataPageVersion),
		parquet.WithStats(stats),
		parquet.WithPageIndexEnabled(pageIndex),
		parquet.WithDataPageSize(defaultPageBytes),
		parquet.WithDictionaryPageSizeLimit(defaultDictionaryBytes),
	}
	if cfg.Dictionary != nil {
		props = append(props, parquet.WithDictionaryDefault(*cfg.Dictionary))
	} else {
		props = append(props, parquet.WithDictionaryDefault(false))
	}
	base := parquet.NewWriterProperties(props...)
	pq, err := pqarrow.ToParquet(schema, base, pqarrow.DefaultWriterProps())
	if err != nil {
		if len(cfg.Columns) > 0 || len(cfg.SortingColumns) > 0 || len(cfg.tagged) > 0 {
			return nil, fmt.Errorf("arrowmap/parquet: %w", err) // no columns to configure
		}
		return base, nil // NewWriter names the column Parquet cannot store
	}
	if cfg.Dictionary == nil {
		dict := dictionaryLeaves(schema)
		for i, col := range pq.Columns() {
			switch {
			case len(dict) == pq.NumColumns() && dict[i]:
				props = append(props, parquet.WithDictionaryFor(col.Path(), true))
			case col.PhysicalType() != parquet.Types.Boolean:
				props = append(props, parquet.WithDictionaryFor(col.Path(), true), parquet.WithDictionaryCostFallbackFor(col.Path(), true))
			}
		}
	}
	tagged, err := taggedLeaves(schema, pq, cfg.tagged)
	if err != nil {
		return nil, err
	}
	settings, err := columnSettings(pq, cfg, tagged)
	if err != nil {
		return nil, err
	}
	if !pageIndex && anyPageIndex(settings) {
		// The file's page index is built only when on for the file: on,
		// and off for every column but those that ask for it.
		props = append(props, parquet.WithPageIndexEnabled(true))
		for i, col := range pq.Columns() {
			if c := settings[i]; c.PageIndex == nil {
				props = append(props, parquet.WithPageIndexEnabledFor(col.Path(), false))
			}
		}
	}
	props = append(props, columnProperties(pq, settings)...)
	if len(cfg.SortingColumns) > 0 {
		sorting, err := sortingColumns(pq, cfg.SortingColumns)
		if err != nil {
			return nil, err
		}
		props = append(props, parquet.WithSortingColumns(sorting))
	}
	return parquet.NewWriterProperties(props...), nil
}

// anyPageIndex reports whether a column of settings turns its page index on.
func anyPageIndex(settings map[int]ColumnConfig) bool {
	for _, c := range settings {
		if c.PageIndex != nil && *c.PageIndex {
			return true
		}
	}
	return false
}

// codec is the codec cfg asks for: snappy unless it says another.
func (cfg WriteConfig) codec() (compress.Compression, error) { return cfg.Compression.codec() }

// dictionaryLeaves reports, for each leaf of schema in pqarrow's order
// (depth first), whether it is an Arrow dictionary.
func dictionaryLeaves(schema *arrow.Schema) []bool {
	leaves := arrowLeaves(schema)
	dict := make([]bool, len(leaves))
	for i, l := range leaves {
		dict[i] = l.dict
	}
	return dict
}

// checkLevel tells a level codec takes from one it panics on.
func checkLevel(codec compress.Codec, level int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("not a level of the codec (%v)", p)
		}
	}()
	codec.EncodeLevel(nil, []byte("arrowmap"), level)
	return nil
}
