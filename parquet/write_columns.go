package parquet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/arrowmap/arrowmap/mapper"
)

// ColumnConfig is how one leaf column is written, overriding the
// WriteConfig's choices for the file: WriteConfig.Columns maps a column's
// dotted Parquet path to one, and an `arrow-parquet:"…"` tag on a field of T
// gives one to the field's column (see WriteConfig.Columns). The zero
// ColumnConfig changes nothing.
type ColumnConfig struct {
	// BloomFilter writes a split-block bloom filter of the column's values
	// in every row group (arrow-go's WithBloomFilterEnabledFor), which
	// readers probe for an equality predicate (RowGroup.MayContain,
	// DuckDB's and Spark's readers): a row group whose filter does not
	// hold a value has no row with it. Not for a BOOLEAN column, whose
	// min and max say as much.
	BloomFilter bool
	// BloomFilterFPP is the filter's false-positive rate when it holds
	// BloomFilterNDV distinct values: 0 is 0.01, arrow-go's and
	// parquet-mr's default; else it must be above 0 and below 1.
	BloomFilterFPP float64
	// BloomFilterNDV is the number of distinct values a row group's filter
	// is sized for; it must not be negative. 0 sizes each filter for the
	// distinct values its column chunk holds: the direct writer counts
	// them at the chunk's end, pqarrow keeps the smallest of its adaptive
	// filter's sizes that holds them. The filter is a power of two bytes,
	// 32 bytes to 1 MiB (arrow-go's maximum, which holds about 900k
	// distinct values at 1%).
	BloomFilterNDV int64
	// Statistics turns the column's chunk and page statistics on or off
	// (arrow-go's WithStatsFor): nil is WriteConfig.Statistics.
	Statistics *bool
	// PageIndex turns the column's column index and offset index on or off
	// (arrow-go's WithPageIndexEnabledFor): nil is WriteConfig.PageIndex.
	PageIndex *bool
	// Encoding is the encoding of the column's data pages: the zero
	// EncodingDefault is the WriteConfig's (WriteConfig.Dictionary).
	Encoding Encoding
}

// Encoding is the encoding of a column's values that ColumnConfig asks
// for. Levels are RLE encoded whatever the encoding, as every writer does.
type Encoding uint8

const (
	// EncodingDefault is the WriteConfig's choice: dictionary encoding
	// while it pays, else plain (WriteConfig.Dictionary).
	EncodingDefault Encoding = iota
	// EncodingPlain is PLAIN: values end to end, no dictionary.
	EncodingPlain
	// EncodingDictionary is a dictionary page and RLE_DICTIONARY (or
	// PLAIN_DICTIONARY) indices, kept whether it pays or not until the
	// dictionary reaches the dictionary page size limit (1 MiB), then
	// plain for the rest of the chunk. Not for BOOLEAN columns.
	EncodingDictionary
	// EncodingDelta is DELTA_BINARY_PACKED for INT32 and INT64 columns
	// (integers, dates, times, timestamps: sorted or slowly changing
	// numbers shrink to a few bits each) and DELTA_BYTE_ARRAY for byte
	// arrays (each value stored as the prefix it shares with the one
	// before and the rest: sorted text).
	EncodingDelta
	// EncodingDeltaLength is DELTA_LENGTH_BYTE_ARRAY for byte-array
	// columns: the lengths delta encoded, then the bytes end to end.
	EncodingDeltaLength
	// EncodingByteStreamSplit is BYTE_STREAM_SPLIT for FLOAT and DOUBLE
	// columns: the values' first bytes, then their second bytes, and so
	// on, which the codec then compresses better. Not for the INT32,
	// INT64 and FIXED_LEN_BYTE_ARRAY columns Parquet 2.11 allows it for
	// too: DuckDB (1.5) does not read those.
	EncodingByteStreamSplit
)

// encodingNames are the names of the encodings in tags and messages.
var encodingNames = [...]string{
	EncodingDefault:         "default",
	EncodingPlain:           "plain",
	EncodingDictionary:      "dictionary",
	EncodingDelta:           "delta",
	EncodingDeltaLength:     "delta_length",
	EncodingByteStreamSplit: "byte_stream_split",
}

// String is the encoding's name as a tag spells it: "plain",
// "dictionary", "delta", "delta_length", "byte_stream_split".
func (e Encoding) String() string {
	if int(e) < len(encodingNames) {
		return encodingNames[e]
	}
	return fmt.Sprintf("Encoding(%d)", e)
}

// SortingColumn is a leaf column that the rows of every row group are
// sorted by, as WriteConfig.SortingColumns declares them.
type SortingColumn struct {
	// Column is the leaf column's dotted Parquet path, as
	// WriteConfig.Columns names it.
	Column string
	// Descending is a descending order; else ascending.
	Descending bool
	// NullsFirst puts nulls before the values; else after them.
	NullsFirst bool
}

// leafIndex is the index in sch of the leaf column name names: its dotted
// Parquet path ("id", "customer.name", "items.list.element.sku"), or a
// top-level or struct field with exactly one leaf under it ("tags" for
// "tags.list.element"); -1 when it names none, or more than one: a
// top-level column named "x.y" beside a struct x with a field y are two
// leaves of the path "x.y", which names neither. RowGroup.Column and
// WriteConfig.Columns name columns by it.
func leafIndex(sch *schema.Schema, name string) int {
	exact, under := -1, -1
	exacts, unders := 0, 0
	for i, col := range sch.Columns() {
		switch p := col.Path(); {
		case p == name:
			exact, exacts = i, exacts+1
		case strings.HasPrefix(p, name+"."):
			under, unders = i, unders+1
		}
	}
	switch {
	case exacts == 1:
		return exact
	case exacts == 0 && unders == 1:
		return under
	}
	return -1 // none, or two leaves: name no single column
}

// leafPathList is the dotted paths of sch's leaves, for an error naming
// the columns there are.
func leafPathList(sch *schema.Schema) string {
	paths := make([]string, sch.NumColumns())
	for i := range paths {
		paths[i] = fmt.Sprintf("%q", sch.Column(i).Path())
	}
	return strings.Join(paths, ", ")
}

// columnSettings is the ColumnConfig of each leaf of pq that has one (by
// leaf index): WriteConfig.Columns by path, over the tags' configs of a
// Writer's T (tagged, by leaf), each checked against its column's type.
func columnSettings(pq *schema.Schema, cfg WriteConfig, tagged map[int]taggedColumn) (map[int]ColumnConfig, error) {
	if len(tagged) == 0 && len(cfg.Columns) == 0 {
		return nil, nil
	}
	out := map[int]ColumnConfig{}
	for leaf, tc := range tagged {
		if err := checkColumnConfig(pq.Column(leaf), tc.cfg); err != nil {
			return nil, &mapper.Error{Path: tc.goPath, Column: pq.Column(leaf).Path(), Row: -1, Err: fmt.Errorf("%w: the arrow-parquet tag: %w", mapper.ErrTag, err)}
		}
		out[leaf] = tc.cfg
	}
	given := map[int]string{}
	paths := make([]string, 0, len(cfg.Columns))
	for p := range cfg.Columns {
		paths = append(paths, p)
	}
	slices.Sort(paths) // the first of two keys of one column is named first
	for _, p := range paths {
		leaf := leafIndex(pq, p)
		if leaf < 0 {
			return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.Columns[%q]: no one leaf column of that path; the columns are %s", p, leafPathList(pq))
		}
		if other, ok := given[leaf]; ok {
			return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.Columns[%q] and [%q] both name column %s", other, p, pq.Column(leaf).Path())
		}
		given[leaf] = p
		c := cfg.Columns[p]
		if err := checkColumnConfig(pq.Column(leaf), c); err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.Columns[%q]: %w", p, err)
		}
		out[leaf] = c // replaces the tag's whole
	}
	return out, nil
}

// checkColumnConfig refuses what c asks of col that col's type cannot
// take, or numbers out of range.
func checkColumnConfig(col *schema.Column, c ColumnConfig) error {
	pt := col.PhysicalType()
	switch {
	case c.BloomFilter && pt == parquet.Types.Boolean:
		return fmt.Errorf("column %s: a bloom filter of a BOOLEAN column: its min and max say as much", col.Path())
	case !c.BloomFilter && (c.BloomFilterFPP != 0 || c.BloomFilterNDV != 0):
		return fmt.Errorf("column %s: BloomFilterFPP or BloomFilterNDV without BloomFilter", col.Path())
	case c.BloomFilterFPP < 0 || c.BloomFilterFPP >= 1 || math.IsNaN(c.BloomFilterFPP):
		return fmt.Errorf("column %s: BloomFilterFPP %v is not above 0 and below 1", col.Path(), c.BloomFilterFPP)
	case c.BloomFilterNDV < 0 || c.BloomFilterNDV > math.MaxUint32:
		return fmt.Errorf("column %s: BloomFilterNDV %d is negative or past 2^32", col.Path(), c.BloomFilterNDV)
	case int(c.Encoding) >= len(encodingNames):
		return fmt.Errorf("column %s: %s is not an Encoding", col.Path(), c.Encoding)
	}
	if _, ok := physicalEncoding(c.Encoding, pt); !ok {
		return fmt.Errorf("column %s: encoding %s does not apply to its physical type %s", col.Path(), c.Encoding, pt)
	}
	return nil
}

// physicalEncoding is the Parquet encoding of the values of a column of
// physical type pt that e asks for (Plain for the default and dictionary
// encodings, whose fallback it is), and whether pt takes e.
func physicalEncoding(e Encoding, pt parquet.Type) (parquet.Encoding, bool) {
	switch e {
	case EncodingDefault, EncodingPlain:
		return parquet.Encodings.Plain, true
	case EncodingDictionary:
		return parquet.Encodings.Plain, pt != parquet.Types.Boolean
	case EncodingDelta:
		switch pt {
		case parquet.Types.Int32, parquet.Types.Int64:
			return parquet.Encodings.DeltaBinaryPacked, true
		case parquet.Types.ByteArray:
			return parquet.Encodings.DeltaByteArray, true
		}
	case EncodingDeltaLength:
		return parquet.Encodings.DeltaLengthByteArray, pt == parquet.Types.ByteArray
	case EncodingByteStreamSplit:
		// Parquet 2.11 allows it for INT32, INT64 and FIXED_LEN_BYTE_ARRAY
		// too, which DuckDB (1.5) refuses to read.
		return parquet.Encodings.ByteStreamSplit, pt == parquet.Types.Float || pt == parquet.Types.Double
	}
	return 0, false
}

// adaptiveBloomCandidates is the number of sizes of pqarrow's adaptive
// bloom filter, halving from arrow-go's maximum of 1 MiB to 32 bytes.
const adaptiveBloomCandidates = 16

// columnProperties is the writer properties of the leaves settings
// configures, after the file's (which they override): the column's
// statistics, page index, encoding and dictionary, and bloom filter.
func columnProperties(pq *schema.Schema, settings map[int]ColumnConfig) []parquet.WriterProperty {
	var props []parquet.WriterProperty
	leaves := make([]int, 0, len(settings))
	for leaf := range settings {
		leaves = append(leaves, leaf)
	}
	slices.Sort(leaves)
	for _, leaf := range leaves {
		c, path := settings[leaf], pq.Column(leaf).Path()
		if c.Statistics != nil {
			props = append(props, parquet.WithStatsFor(path, *c.Statistics))
		}
		if c.PageIndex != nil {
			props = append(props, parquet.WithPageIndexEnabledFor(path, *c.PageIndex))
		}
		switch c.Encoding {
		case EncodingDefault:
		case EncodingDictionary:
			props = append(props, parquet.WithDictionaryFor(path, true), parquet.WithDictionaryCostFallbackFor(path, false))
		default:
			enc, _ := physicalEncoding(c.Encoding, pq.Column(leaf).PhysicalType())
			props = append(props, parquet.WithDictionaryFor(path, false), parquet.WithEncodingFor(path, enc))
		}
		if c.BloomFilter {
			props = append(props, parquet.WithBloomFilterEnabledFor(path, true),
				parquet.WithBloomFilterFPPFor(path, cmp.Or(c.BloomFilterFPP, parquet.DefaultBloomFilterFPP)))
			if c.BloomFilterNDV > 0 {
				props = append(props, parquet.WithBloomFilterNDVFor(path, c.BloomFilterNDV))
			} else {
				// pqarrow's adaptive filter: candidates from 1 MiB down to
				// 32 bytes, the smallest that holds the distinct values
				// written kept (the direct writer sizes its own from them).
				props = append(props, parquet.WithAdaptiveBloomFilterEnabledFor(path, true), parquet.WithBloomFilterCandidatesFor(path, adaptiveBloomCandidates))
			}
		}
	}
	return props
}

// sortingColumns is cfg.SortingColumns as arrow-go's metadata stores them,
// each column checked: a leaf of pq, named once, not under a list (whose
// elements no row order sorts).
func sortingColumns(pq *schema.Schema, cols []SortingColumn) ([]parquet.SortingColumn, error) {
	out := make([]parquet.SortingColumn, 0, len(cols))
	seen := map[int]bool{}
	for i, sc := range cols {
		leaf := leafIndex(pq, sc.Column)
		switch {
		case leaf < 0:
			return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.SortingColumns[%d]: no one leaf column %q; the columns are %s", i, sc.Column, leafPathList(pq))
		case seen[leaf]:
			return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.SortingColumns[%d]: column %s is named twice", i, pq.Column(leaf).Path())
		case pq.Column(leaf).MaxRepetitionLevel() > 0:
			return nil, fmt.Errorf("arrowmap/parquet: WriteConfig.SortingColumns[%d]: column %s is under a list, which no order of the rows sorts", i, pq.Column(leaf).Path())
		}
		seen[leaf] = true
		out = append(out, parquet.SortingColumn{ColumnIdx: int32(leaf), Descending: sc.Descending, NullsFirst: sc.NullsFirst})
	}
	return out, nil
}
