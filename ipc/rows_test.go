package ipc_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maybeNamed is a row whose name may be null; named, the same row read
// into a field that cannot hold one.
type maybeNamed struct {
	ID   int64   `arrow:"id"`
	Name *string `arrow:"name"`
}

type named struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

// nullNameAt is n rows with ids 0…n-1 and a null name at row nullAt.
func nullNameAt(n, nullAt int) []maybeNamed {
	rows := make([]maybeNamed, n)
	for i := range rows {
		rows[i].ID = int64(i)
		if i != nullAt {
			rows[i].Name = ptr(fmt.Sprint("name-", i))
		}
	}
	return rows
}

func TestAReaderErrorNamesTheRowOfTheFileAndItsRecord(t *testing.T) {
	// Three records of 1,000 rows; the null is row 345 of the third.
	const nullAt = 2345
	rows := nullNameAt(3000, nullAt)
	cfg := ipc.WriteConfig{BatchRows: 1000}
	path := writeTemp(t, "rows.arrow", writeRows(t, true, cfg, rows))
	stream := writeRows(t, false, cfg, rows)

	reads := []struct {
		name string
		read func() error
	}{
		{"ReadFile", func() error {
			_, err := ipc.ReadFile[named](path)
			return err
		}},
		{"OpenFile and Pages of 300", func() error {
			r, err := ipc.Open[named](path)
			require.NoError(t, err)
			defer r.Release()
			for _, err := range r.Pages(300) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"NewStreamReader and ReadAll", func() error {
			r, err := ipc.NewReader[named](bytes.NewReader(stream))
			require.NoError(t, err)
			defer r.Release()
			_, err = r.ReadAll()
			return err
		}},
		{"OpenFileColumns", func() error {
			r, err := ipc.OpenColumns[struct {
				Name views.StringColumn `arrow:"name"`
			}](path)
			require.NoError(t, err)
			defer r.Release()
			for _, err := range r.All() {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			err := rd.read()
			require.ErrorIs(t, err, mapper.ErrNull)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, nullAt, me.Row, "the row of the file, not of its record")
			assert.Equal(t, 2, me.Record)
			assert.Equal(t, "name", me.Column)
			assert.Contains(t, err.Error(), "row 2345 (record 2)")
		})
	}
}

func TestAReaderGivesEveryRowBeforeAnErrorOfItsRecord(t *testing.T) {
	// One record of 5 rows whose row 4 has a null name: rows 0 to 3 come
	// first, then the error, however the rows are read.
	rows := nullNameAt(5, 4)
	stream := writeRows(t, false, ipc.WriteConfig{}, rows)
	path := writeTemp(t, "rows.arrow", writeRows(t, true, ipc.WriteConfig{}, rows))
	want := make([]named, 4)
	for i := range want {
		want[i] = named{ID: int64(i), Name: *rows[i].Name}
	}
	newReader := func(t *testing.T) *mapper.Reader[named] {
		r, err := ipc.NewReader[named](bytes.NewReader(stream))
		require.NoError(t, err)
		t.Cleanup(r.Release)
		return r
	}
	reads := []struct {
		name string
		read func(t *testing.T) ([]named, error)
	}{
		{"NewReader and All", func(t *testing.T) ([]named, error) {
			var got []named
			for row, err := range newReader(t).All() {
				if err != nil {
					return got, err
				}
				got = append(got, row)
			}
			return got, nil
		}},
		{"NewReader and Pages of 2", func(t *testing.T) ([]named, error) {
			var got []named
			for page, err := range newReader(t).Pages(2) {
				if err != nil {
					return got, err
				}
				got = append(got, page...)
			}
			return got, nil
		}},
		{"NewReader and Read into 3 rows", func(t *testing.T) ([]named, error) {
			r := newReader(t)
			var got []named
			buf := make([]named, 3)
			for {
				n, err := r.Read(buf)
				got = append(got, buf[:n]...)
				if err != nil {
					return got, err
				}
			}
		}},
		{"NewReader and ReadAll", func(t *testing.T) ([]named, error) { return newReader(t).ReadAll() }},
		{"ReadFile", func(t *testing.T) ([]named, error) { return ipc.ReadFile[named](path) }},
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			got, err := rd.read(t)
			require.ErrorIs(t, err, mapper.ErrNull)
			assert.Equal(t, want, got, "the rows before the null")
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, 4, me.Row)
			assert.Equal(t, "Name", me.Path)
		})
	}
}
