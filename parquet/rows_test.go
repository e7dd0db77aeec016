package parquet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maybeNamed is a row whose name may be null; nameRow, the same row read
// into a field that cannot hold one.
type maybeNamed struct {
	ID   int64   `arrow:"id"`
	Name *string `arrow:"name"`
}

type nameRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

// recordOfRow is the index of the record holding row of the file, read in
// records of cfg.BatchRows rows: counted with a reader that takes nulls.
func recordOfRow(t *testing.T, path string, cfg amparquet.ReadConfig, row int) int {
	t.Helper()
	r, err := amparquet.OpenColumns[struct {
		ID arrow.Array `arrow:"id"`
	}](path, cfg)
	require.NoError(t, err)
	defer r.Release()
	k, seen := 0, 0
	for cols, err := range r.All() {
		require.NoError(t, err)
		if seen += cols.ID.Len(); seen > row {
			return k
		}
		k++
	}
	t.Fatalf("no row %d in %s", row, path)
	return -1
}

// nullAt is the row of writeRowsWithANullName's file whose name is null.
const nullAt = 150_000

// writeRowsWithANullName writes 200,000 maybeNamed rows, all named but row
// nullAt, in four row groups of 50,000, and returns the file's path.
func writeRowsWithANullName(t *testing.T) string {
	t.Helper()
	rows := make([]maybeNamed, 200_000)
	for i := range rows {
		rows[i].ID = int64(i)
		if i != nullAt {
			rows[i].Name = strp(fmt.Sprint("name-", i))
		}
	}
	path := filepath.Join(t.TempDir(), "rows.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 50_000}))
	return path
}

func TestAReaderErrorNamesTheRowOfTheFileAndItsRecord(t *testing.T) {
	// Four row groups of 50,000 rows, past the default record of 64k rows,
	// and the null in the third.
	path := writeRowsWithANullName(t)
	batched := amparquet.ReadConfig{BatchRows: 30_000}

	reads := []struct {
		name   string
		record int // the index of the record holding row 150,000
		read   func() error
	}{
		{"ReadFile", recordOfRow(t, path, amparquet.ReadConfig{}, nullAt), func() error {
			_, err := amparquet.ReadFile[nameRow](path)
			return err
		}},
		{"Open in records of 30,000 and Pages of 7,000", recordOfRow(t, path, batched, nullAt), func() error {
			r, err := amparquet.Open[nameRow](path, batched)
			require.NoError(t, err)
			defer r.Release()
			for _, err := range r.Pages(7000) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"OpenReaderAt in records of 30,000 and Read", recordOfRow(t, path, batched, nullAt), func() error {
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			info, err := f.Stat()
			require.NoError(t, err)
			r, err := amparquet.OpenReaderAt[nameRow](f, info.Size(), batched)
			require.NoError(t, err)
			defer r.Release()
			page := make([]nameRow, 4096)
			for {
				if _, err := r.Read(page); err != nil {
					return err
				}
			}
		}},
		{"OpenColumns in records of 30,000", recordOfRow(t, path, batched, nullAt), func() error {
			r, err := amparquet.OpenColumns[struct {
				Name views.StringColumn `arrow:"name"`
			}](path, batched)
			require.NoError(t, err)
			defer r.Release()
			for _, err := range r.Windows(1000) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			require.Positive(t, rd.record, "the null is past the first record")
			err := rd.read()
			require.ErrorIs(t, err, mapper.ErrNull)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, nullAt, me.Row, "the row of the file, not of its record")
			assert.Equal(t, rd.record, me.Record)
			assert.Equal(t, "name", me.Column)
			assert.Contains(t, err.Error(), fmt.Sprintf("row 150000 (record %d)", rd.record))
		})
	}
}
