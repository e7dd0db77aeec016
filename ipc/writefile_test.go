package ipc_test

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/arrowmap/arrowmap/internal/testsupport/atomictest"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

type price struct {
	ID    int    `arrow:"id"`
	Price string `arrow:"price,decimal(5,2)"`
}

func prices(n int) []price {
	rows := make([]price, n)
	for i := range rows {
		rows[i] = price{ID: i, Price: fmt.Sprintf("%d.25", i%1000)}
	}
	return rows
}

func TestAFailedWriteFileLeavesTheFileItWouldReplace(t *testing.T) {
	refused := prices(100)
	refused[60].Price = "123456.7" // over the precision
	for _, c := range []struct {
		name  string
		write func(path string) error
		is    error
	}{
		{"a Go type with no Arrow type", func(path string) error {
			return ipc.WriteFile(path, []struct{ C chan int }{{}}, ipc.WriteConfig{})
		}, mapper.ErrUnsupported},
		{"a row its column refuses, after records written", func(path string) error {
			return ipc.WriteFile(path, refused, ipc.WriteConfig{BatchRows: 8})
		}, mapper.ErrOverflow},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := tempPath(t, "old.arrow")
			require.NoError(t, ipc.WriteFile(path, prices(10), ipc.WriteConfig{}))
			old, err := os.ReadFile(path)
			require.NoError(t, err)
			err = c.write(path)
			require.ErrorIs(t, err, c.is)
			atomictest.RequireUntouched(t, path, old)
			got, err := ipc.ReadFile[price](path)
			require.NoError(t, err)
			require.Equal(t, prices(10), got)
		})
	}
}

func TestWriteFileOnAFullDiskLeavesTheFileItWouldReplace(t *testing.T) {
	path := atomictest.SmallDisk(t, "1m") + "/old.arrow"
	require.NoError(t, ipc.WriteFile(path, prices(10), ipc.WriteConfig{}))
	old, err := os.ReadFile(path)
	require.NoError(t, err)
	err = ipc.WriteFile(path, prices(200_000), ipc.WriteConfig{}) // 3 MiB
	require.ErrorIs(t, err, syscall.ENOSPC)
	atomictest.RequireUntouched(t, path, old)
}

func TestWriteFileReplacesAFileKeepingItsPermissions(t *testing.T) {
	path := tempPath(t, "out.arrow")
	require.NoError(t, ipc.WriteFile(path, prices(3), ipc.WriteConfig{}))
	require.NoError(t, os.Chmod(path, 0o604))
	require.NoError(t, ipc.WriteFile(path, prices(7), ipc.WriteConfig{}))
	got, err := ipc.ReadFile[price](path)
	require.NoError(t, err)
	require.Equal(t, prices(7), got)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o604), fi.Mode().Perm())
	atomictest.RequireNoTemporary(t, path)
}
