package parquet_test

import (
	"os"
	"path/filepath"
	"testing"

	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parquetTestingFile is the path of parquet-testing's data/name, from the
// checkout ARROWMAP_PARQUET_TESTING names, else ../shared/testdata from the
// repository's root; the test is skipped without one (its files are not
// in this repository).
func parquetTestingFile(t *testing.T, name string) string {
	t.Helper()
	root := os.Getenv("ARROWMAP_PARQUET_TESTING")
	if root == "" {
		root = filepath.Join("..", "..", "shared", "testdata", "parquet-testing")
	}
	path := filepath.Join(root, "data", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no %s (set ARROWMAP_PARQUET_TESTING to a parquet-testing checkout)", path)
	}
	return path
}

// countRecords reads every record of the file at path, and returns the
// rows read and the error.
func countRecords(t *testing.T, path string, cfg amparquet.ReadConfig) (int64, error) {
	rr, err := amparquet.OpenRecords(path, cfg)
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	var rows int64
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
	}
	return rows, rr.Err()
}

func TestParquetTestingsPagesOfCRCsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		file string
		says string // "": read whole
	}{
		{"datapage_v1-uncompressed-checksum.parquet", ""},
		{"datapage_v1-snappy-compressed-checksum.parquet", ""},
		{"plain-dict-uncompressed-checksum.parquet", ""},
		{"rle-dict-snappy-checksum.parquet", ""},
		{"datapage_v1-corrupt-checksum.parquet", `row group 0, column "a", data page 0`},
		{"rle-dict-uncompressed-corrupt-checksum.parquet", `row group 0, column "long_field", its dictionary page`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := parquetTestingFile(t, tc.file)
			rows, err := countRecords(t, path, amparquet.ReadConfig{})
			if tc.says == "" {
				require.NoError(t, err)
				assert.Positive(t, rows)
				return
			}
			require.ErrorIs(t, err, amparquet.ErrChecksum)
			assert.ErrorContains(t, err, tc.says)
			_, err = countRecords(t, path, amparquet.ReadConfig{SkipPageChecksums: true})
			assert.NoError(t, err, "read unchecked")
		})
	}
}

// The page of datapage_v1-uncompressed-checksum.parquet, a byte of its
// body flipped: unchecked, it reads with a value changed and no error.
func TestParquetTestingsPageOfABodyByteFlippedIsAChecksumError(t *testing.T) {
	data, err := os.ReadFile(parquetTestingFile(t, "datapage_v1-uncompressed-checksum.parquet"))
	require.NoError(t, err)
	// The first page's header (at byte 4) takes fewer than 64 bytes; its
	// body, 5120 int32 values, more than 20,000.
	data[4+1000] ^= 0x01
	path := filepath.Join(t.TempDir(), "flipped.parquet")
	require.NoError(t, os.WriteFile(path, data, 0o644))

	type row struct {
		A *int32 `arrow:"a"`
		B *int32 `arrow:"b"`
	}
	_, err = amparquet.ReadFile[row](path)
	require.ErrorIs(t, err, amparquet.ErrChecksum)
	assert.ErrorContains(t, err, `row group 0, column "a", data page 0 (at byte 4)`)

	got, err := amparquet.ReadFile[row](path, amparquet.ReadConfig{SkipPageChecksums: true})
	require.NoError(t, err, "unchecked, the flipped byte is a changed value")
	want, err := amparquet.ReadFile[row](parquetTestingFile(t, "datapage_v1-uncompressed-checksum.parquet"))
	require.NoError(t, err)
	assert.NotEqual(t, want, got)
}
