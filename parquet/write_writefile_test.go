package parquet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/testsupport/atomictest"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

func TestAFailedWriteFileLeavesTheFileItWouldReplace(t *testing.T) {
	type interval struct { // Parquet's INTERVAL is unsigned
		Took arrow.DayTimeInterval `arrow:"took"`
	}
	refused := make([]texts, 100)
	for i := range refused {
		refused[i] = texts{S: fmt.Sprint(i), Dec: "1.000"}
	}
	refused[60].Dec = "not a number"
	for _, c := range []struct {
		name  string
		write func(path string) error
		is    error
	}{
		{"a type Parquet cannot store", func(path string) error {
			return amparquet.WriteFile(path, []interval{{arrow.DayTimeInterval{Days: -1}}}, amparquet.WriteConfig{})
		}, mapper.ErrUnsupported},
		{"a row its column refuses, after rows written", func(path string) error {
			return amparquet.WriteFile(path, refused, amparquet.WriteConfig{RowGroupRows: 8})
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.parquet")
			require.NoError(t, amparquet.WriteFile(path, orders(10), amparquet.WriteConfig{}))
			old, err := os.ReadFile(path)
			require.NoError(t, err)
			err = c.write(path)
			require.Error(t, err)
			if c.is != nil {
				require.ErrorIs(t, err, c.is)
			}
			atomictest.RequireUntouched(t, path, old)
			got, err := amparquet.ReadFile[order](path)
			require.NoError(t, err)
			require.Equal(t, orders(10), got)
		})
	}
}

func TestWriteFileOnAFullDiskLeavesTheFileItWouldReplace(t *testing.T) {
	dir := atomictest.SmallDisk(t, "1m")
	path := filepath.Join(dir, "old.parquet")
	require.NoError(t, amparquet.WriteFile(path, orders(10), amparquet.WriteConfig{}))
	old, err := os.ReadFile(path)
	require.NoError(t, err)
	rows := make([]flat, 100_000) // a few MiB uncompressed
	flatRows(rows, 0)
	err = amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 10_000})
	require.ErrorIs(t, err, syscall.ENOSPC)
	atomictest.RequireUntouched(t, path, old)
}

func TestWriteFileReplacesAFileKeepingItsPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	require.NoError(t, amparquet.WriteFile(path, orders(3), amparquet.WriteConfig{}))
	require.NoError(t, os.Chmod(path, 0o604))
	require.NoError(t, amparquet.WriteFile(path, orders(7), amparquet.WriteConfig{}))
	got, err := amparquet.ReadFile[order](path)
	require.NoError(t, err)
	require.Equal(t, orders(7), got)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o604), fi.Mode().Perm())
	atomictest.RequireNoTemporary(t, path)
}
