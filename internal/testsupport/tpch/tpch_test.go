package tpch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// touch makes an empty file at path, and its directory.
func touch(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, nil, 0o644))
}

func TestPathAtFindsEachScaleInItsOwnDirectory(t *testing.T) {
	root := t.TempDir()
	t.Setenv("ARROWMAP_TPCH_DIR", root)
	touch(t, filepath.Join(root, "lineitem.parquet"))
	touch(t, filepath.Join(root, "sf0.2", "lineitem.parquet"))
	touch(t, filepath.Join(root, "sf1", "orders.parquet"))
	tests := []struct {
		name  string
		table string
		sf    float64
		want  string
	}{
		{"the default scale is in the directory itself", "lineitem", 0.1, filepath.Join(root, "lineitem.parquet")},
		{"another scale is in its sf directory", "lineitem", 0.2, filepath.Join(root, "sf0.2", "lineitem.parquet")},
		{"a whole scale factor is named without a point", "orders", 1, filepath.Join(root, "sf1", "orders.parquet")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, why := PathAt(tt.table, tt.sf)
			assert.Equal(t, tt.want, path)
			assert.Empty(t, why)
		})
	}
}

func TestPathAtOfAnAbsentFileSaysHowToMakeIt(t *testing.T) {
	root := t.TempDir()
	t.Setenv("ARROWMAP_TPCH_DIR", root)
	touch(t, filepath.Join(root, "lineitem.parquet")) // sf 0.1's: not sf 0.2's
	path, why := PathAt("lineitem", 0.2)
	assert.Empty(t, path)
	assert.Contains(t, why, filepath.Join(root, "sf0.2"))
	assert.Contains(t, why, "tpchgen -sf 0.2")
}

func TestGenDirIsOutsideTheWorkingDirectoryWithoutTheVariable(t *testing.T) {
	t.Setenv("ARROWMAP_TPCH_DIR", "")
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Unix
	t.Setenv("HOME", cache)           // and on macOS
	dir, err := GenDir(1)
	require.NoError(t, err)
	assert.Equal(t, "sf1", filepath.Base(dir))
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(wd, dir)
	require.NoError(t, err)
	assert.Contains(t, rel, "..", "GenDir %s is under the working directory %s", dir, wd)
}

func TestRowsAtKnowsTheBenchmarksScales(t *testing.T) {
	for _, sf := range []float64{0.1, 0.2, 1} {
		n, ok := RowsAt("lineitem", sf)
		assert.True(t, ok, "scale factor %v", sf)
		// TPC-H's lineitem has about 6 million rows a scale factor.
		assert.InDelta(t, 6e6*sf, float64(n), 6e6*sf*0.01, "scale factor %v", sf)
	}
	_, ok := RowsAt("lineitem", 0.3)
	assert.False(t, ok)
}
