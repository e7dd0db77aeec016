package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

func TestGenerateWritesTheTablesOfTheScaleFactor(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, generate(0.01, dir))
	// DuckDB's dbgen at scale factor 0.01.
	for table, want := range map[string]int64{"lineitem": 60_175, "orders": 15_000} {
		r, err := amparquet.OpenRecords(filepath.Join(dir, table+".parquet"))
		require.NoError(t, err, table)
		assert.Equal(t, want, r.(mapper.RowsHinter).RowsHint(), table) // the footer's count
		r.Release()
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "the shim and the files being written are removed")
}

func TestGenerateRefusesAScaleFactorThatIsNotPositive(t *testing.T) {
	dir := t.TempDir()
	assert.ErrorContains(t, generate(0, dir), "not positive")
}

func TestMetadataEndsWithTheMagicValueBeforeTheSignature(t *testing.T) {
	footer, err := metadata("linux_amd64", "v1.5.6")
	require.NoError(t, err)
	require.Len(t, footer, 512)
	field := func(i int) string { // i counted from the last, as DuckDB reads them
		f := footer[256-(i+1)*32 : 256-i*32]
		for n, c := range f {
			if c == 0 {
				return string(f[:n])
			}
		}
		return string(f)
	}
	assert.Equal(t, []string{"4", "linux_amd64", "v1.5.6", "v1.5.6", "CPP"}, []string{field(0), field(1), field(2), field(3), field(4)})
}
