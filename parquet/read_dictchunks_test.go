package parquet_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rows of the files of the dictionary tests: 300 rows in row groups
// of 100, so that a record of 8 to 200 rows spans two row groups, whose
// chunks array.Concatenate joins.
const (
	dictTestRows      = 300
	dictTestGroupRows = 100
)

var dictCities = []string{"Oslo", "Lima", "Pune"}

type dictCity struct {
	ID   int64  `arrow:"id"`
	City string `arrow:"city,dict"`
}

type dictMaybeCity struct {
	ID   int64   `arrow:"id"`
	City *string `arrow:"city,dict"`
}

type dictTags struct {
	ID   int64    `arrow:"id"`
	Tags []string `arrow:"tags" arrow-elem:"dict"`
}

func dictCityRow(i int) dictCity { return dictCity{int64(i), dictCities[i%3]} }

func dictMaybeCityRow(i int) dictMaybeCity {
	r := dictMaybeCity{ID: int64(i)}
	if i%4 != 1 {
		r.City = &dictCities[i%3]
	}
	return r
}

func dictTagsRow(i int) dictTags {
	r := dictTags{ID: int64(i)}
	for k := range i % 3 {
		r.Tags = append(r.Tags, dictCities[(i+k)%3])
	}
	return r
}

// writeDictFile writes rows row(0), row(1), … of T uncompressed, then
// sets every dictionary index of the first data page of leaf column leaf
// in the second row group to index: a page whose indices its dictionary
// has no entry for.
func writeDictFile[T any](t *testing.T, row func(int) T, leaf int, index uint32) []byte {
	t.Helper()
	rows := make([]T, dictTestRows)
	for i := range rows {
		rows[i] = row(i)
	}
	var buf bytes.Buffer
	w, err := amparquet.NewWriter[T](&buf, amparquet.WriteConfig{RowGroupRows: dictTestGroupRows, Compression: amparquet.Uncompressed})
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(rows)))
	require.NoError(t, w.Close())
	data := buf.Bytes()

	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	col := pf.MetaData().Schema.Column(leaf)
	cc, err := pf.MetaData().RowGroup(1).ColumnChunk(leaf)
	require.NoError(t, err)
	require.True(t, cc.HasDictionaryPage(), "the column is dictionary-encoded")
	pages, err := pf.RowGroup(1).GetColumnPageReader(leaf)
	require.NoError(t, err)
	var body []byte
	var values int
	for body == nil && pages.Next() {
		if p, ok := pages.Page().(*file.DataPageV1); ok {
			body, values = bytes.Clone(p.Data()), int(p.NumValues())
		}
	}
	require.NoError(t, pages.Err())
	require.NotNil(t, body, "a v1 data page")

	// The page's body: its levels, each 4 bytes of length and the RLE
	// runs, then the indices' bit width and their runs.
	levels := 0
	for _, max := range []int16{col.MaxRepetitionLevel(), col.MaxDefinitionLevel()} {
		if max > 0 {
			levels += 4 + int(binary.LittleEndian.Uint32(body[levels:]))
		}
	}
	at := bytes.Index(data[cc.DictionaryPageOffset():cc.DictionaryPageOffset()+cc.TotalCompressedSize()], body)
	require.GreaterOrEqual(t, at, 0, "the page's body in the file")
	at += int(cc.DictionaryPageOffset()) + levels
	indices := data[at : at+len(body)-levels]
	clear(indices)
	// One RLE run of 32-bit indices, every one index.
	indices[0] = 32
	n := binary.PutUvarint(indices[1:], uint64(values)<<1)
	require.LessOrEqual(t, 1+n+4, len(indices), "room for the run")
	binary.LittleEndian.PutUint32(indices[1+n:], index)
	return data
}

// readDictRows reads data as rows of T through a Reader, in pages of 50 rows:
// the rows read, and the error.
func readDictRows[T any](data []byte, batch int) ([]T, error) {
	r, err := amparquet.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{BatchRows: batch})
	if err != nil {
		return nil, err
	}
	defer r.Release()
	var rows []T
	for page, err := range r.Pages(50) {
		if err != nil {
			return rows, err
		}
		rows = append(rows, page...)
	}
	return rows, nil
}

// readCities reads the city column of data as records, each value as a
// string ("" for null): the values read, and the error.
func readCities(data []byte, batch int) ([]string, error) {
	rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{BatchRows: batch})
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var cities []string
	for rr.Next() {
		col := rr.RecordBatch().Column(1).(*array.Dictionary)
		values := col.Dictionary().(*array.String)
		for i := range col.Len() {
			if col.IsNull(i) {
				cities = append(cities, "")
				continue
			}
			k := col.GetValueIndex(i)
			if k < 0 || k >= values.Len() {
				return cities, fmt.Errorf("index %d of %d entries handed on", k, values.Len())
			}
			// A copy: the value is the record's memory, which the next
			// record reuses.
			cities = append(cities, strings.Clone(values.Value(k)))
		}
	}
	return cities, rr.Err()
}

func TestDictionaryIndicesPastTheirDictionaryAreAnErrorAtTheirRowWhateverTheRecordSize(t *testing.T) {
	for _, index := range []uint32{3, 1 << 20, 0x7FFFFFFF, 0xFFFFFFFF} {
		for _, tt := range []struct {
			name string
			data []byte
			// The first row of a damaged index; -1 for a list's, which
			// pqarrow reads as its values, not as a dictionary, checking
			// their indices itself.
			row  int
			read func(t *testing.T, data []byte, batch int) (int, error)
		}{
			{"a column of the dict tag", writeDictFile(t, dictCityRow, 1, index), dictTestGroupRows,
				func(t *testing.T, data []byte, batch int) (int, error) {
					rows, err := readDictRows[dictCity](data, batch)
					for i, r := range rows {
						require.Equal(t, dictCityRow(i), r, "row %d", i)
					}
					return len(rows), err
				}},
			{"a nullable column of the dict tag", writeDictFile(t, dictMaybeCityRow, 1, index), dictTestGroupRows,
				func(t *testing.T, data []byte, batch int) (int, error) {
					rows, err := readDictRows[dictMaybeCity](data, batch)
					for i, r := range rows {
						require.Equal(t, dictMaybeCityRow(i), r, "row %d", i)
					}
					return len(rows), err
				}},
			{"a list of the dict tag", writeDictFile(t, dictTagsRow, 1, index), -1,
				func(t *testing.T, data []byte, batch int) (int, error) {
					rows, err := readDictRows[dictTags](data, batch)
					for i, r := range rows {
						require.Equal(t, dictTagsRow(i), r, "row %d", i)
					}
					return len(rows), err
				}},
			{"the records of a column of the dict tag", writeDictFile(t, dictCityRow, 1, index), dictTestGroupRows,
				func(t *testing.T, data []byte, batch int) (int, error) {
					cities, err := readCities(data, batch)
					for i, c := range cities {
						require.Equal(t, dictCityRow(i).City, c, "row %d", i)
					}
					return len(cities), err
				}},
		} {
			for _, batch := range []int{0, 8, 64, 100, 150, 200} {
				t.Run(fmt.Sprintf("%s, index %d, BatchRows %d", tt.name, index, batch), func(t *testing.T) {
					n, err := tt.read(t, tt.data, batch)
					require.ErrorIs(t, err, mapper.ErrInvalidData)
					assert.LessOrEqual(t, n, dictTestGroupRows, "no row past the damaged page's row group's first")
					if tt.row < 0 {
						return
					}
					assert.ErrorContains(t, err, fmt.Sprintf("dictionary index %d out of range for 3 entries", int32(index)))
					var me *mapper.Error
					require.ErrorAs(t, err, &me)
					assert.Equal(t, "city", me.Column)
					assert.Equal(t, tt.row, me.Row)
				})
			}
		}
	}
}
