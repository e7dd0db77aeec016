package ipc_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"

	"github.com/arrowmap/arrowmap/ipc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sizedRow is a row of the files of TestReadFileSizesItsResultFromTheRecordHeaders.
type sizedRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

func sizedRows(n int) []sizedRow {
	rows := make([]sizedRow, n)
	for i := range rows {
		rows[i] = sizedRow{ID: int64(i), Name: "row"}
	}
	return rows
}

// TestReadFileSizesItsResultFromTheRecordHeaders reads files of records
// of 1,000 rows: grown as records come, the result of 60,000 rows would
// have a capacity of 64,000 (doubling from 1,000); counted from the
// footer's record blocks and each record's header, it has exactly its
// rows (ReadAll trusts a count up to 64 times the rows in hand, and at
// once as far as the file's bytes back it: 100,000 rows, past 64 times
// the first record's, are sized at once too). A stream knows no count,
// and grows as before.
func TestReadFileSizesItsResultFromTheRecordHeaders(t *testing.T) {
	for _, n := range []int{100_000, 60_000, 1_000, 1, 0} {
		rows := sizedRows(n)
		path := tempPath(t, "rows.arrow")
		require.NoError(t, ipc.WriteFile(path, rows, ipc.WriteConfig{BatchRows: 1000}))

		got, err := ipc.ReadFile[sizedRow](path)
		require.NoError(t, err)
		require.Len(t, got, n)
		assert.Equal(t, n, cap(got), "%d rows: the result was grown, not sized from the record headers", n)
		if n > 0 {
			assert.Equal(t, rows, got)
		}

		data, err := os.ReadFile(path)
		require.NoError(t, err)
		r, err := ipc.OpenReaderAt[sizedRow](bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		got, err = r.ReadAll()
		r.Release()
		require.NoError(t, err)
		assert.Equal(t, n, cap(got), "OpenReaderAt and ReadAll of %d rows", n)
	}

	var stream bytes.Buffer
	w, err := ipc.NewWriter[sizedRow](&stream, ipc.WriteConfig{BatchRows: 1000})
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(sizedRows(60_000))))
	require.NoError(t, w.Close())
	r, err := ipc.NewReader[sizedRow](&stream)
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	require.Len(t, got, 60_000)
	assert.Equal(t, 64_000, cap(got), "a stream's result grows by doubling, as before")
}

// TestAFileWhoseRecordBlocksLieIsAnErrorNotAPanic moves the first record
// block of a file's footer past the end of the file, then before its
// start: the count of rows gives up (it is a hint), and reading says the
// file is malformed, whatever the record headers say.
func TestAFileWhoseRecordBlocksLieIsAnErrorNotAPanic(t *testing.T) {
	path := tempPath(t, "rows.arrow")
	require.NoError(t, ipc.WriteFile(path, sizedRows(5000), ipc.WriteConfig{BatchRows: 1000}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	first := firstBlockOffset(t, data)
	for _, c := range []struct {
		name   string
		offset int64
	}{
		{"past the end", int64(len(data)) + 100},
		{"negative", -8},
		{"on the footer", int64(len(data)) - 20},
		{"one byte on", int64(binary.LittleEndian.Uint64(data[first:])) + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := bytes.Clone(data)
			binary.LittleEndian.PutUint64(bad[first:], uint64(c.offset))
			p := writeTemp(t, "bad.arrow", bad)
			assert.NotPanics(t, func() {
				_, err := ipc.ReadFile[sizedRow](p)
				assert.Error(t, err)
			})
		})
	}
}

// firstBlockOffset is where, in the IPC file data, the offset of the
// first record block of its footer lies: found as the offset of the
// first record message, the first 8-byte value of the footer that is.
func firstBlockOffset(t *testing.T, data []byte) int {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	footer := len(data) - 10 - n
	// The first record follows the schema message: the first message of
	// the file after its 8 bytes of magic and padding.
	schemaLen := int(binary.LittleEndian.Uint32(data[12:]))
	record := uint64(8 + 8 + schemaLen)
	for at := footer; at+8 <= len(data)-10; at += 4 {
		if binary.LittleEndian.Uint64(data[at:]) == record {
			return at
		}
	}
	t.Fatalf("no record block at %d in the footer", record)
	return -1
}
