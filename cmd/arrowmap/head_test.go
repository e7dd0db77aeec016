package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// badOffsetsStream is an IPC stream of three records of an int64 column
// "i" and a utf8 column "s": 3 rows, then 8 whose row 4 (row 7 of the
// stream) ends at offset 1000 of a data buffer of 8 bytes, then 2.
func badOffsetsStream(t *testing.T) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	mem := memory.NewGoAllocator()
	good := func(start, n int) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		for i := range n {
			b.Field(0).(*array.Int64Builder).Append(int64(start + i))
			b.Field(1).(*array.StringBuilder).Append("g")
		}
		return b.NewRecordBatch()
	}
	bad := func(start, n, faulty int) arrow.RecordBatch {
		ib := array.NewInt64Builder(mem)
		defer ib.Release()
		offsets := make([]byte, 4*(n+1))
		for i := range n + 1 {
			o := i
			if i == faulty+1 {
				o = 1000
			}
			binary.LittleEndian.PutUint32(offsets[4*i:], uint32(o))
			if i < n {
				ib.Append(int64(start + i))
			}
		}
		ids := ib.NewArray()
		defer ids.Release()
		s := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{nil, memory.NewBufferBytes(offsets), memory.NewBufferBytes([]byte("abcdefgh"))}, nil, 0, 0)
		defer s.Release()
		strs := array.MakeFromData(s)
		defer strs.Release()
		return array.NewRecordBatch(schema, []arrow.Array{ids, strs}, int64(n))
	}
	var stream bytes.Buffer
	w := ipc.NewWriter(&stream, ipc.WithSchema(schema))
	for _, rec := range []arrow.RecordBatch{good(0, 3), bad(3, 8, 4), good(11, 2)} {
		require.NoError(t, w.Write(rec))
		rec.Release()
	}
	require.NoError(t, w.Close())
	path := filepath.Join(t.TempDir(), "bad.arrows")
	require.NoError(t, os.WriteFile(path, stream.Bytes(), 0o600))
	return path
}

// head prints every row before a malformed one, and names the malformed
// one's column and row (arrow-go's slice of the record, which trusts its
// buffers, panicked, and the rows before were dropped); rows printed
// before the malformed one are all there is to check when -n stops short
// of it.
func TestHeadPrintsTheRowsBeforeAMalformedOneAndNamesIt(t *testing.T) {
	path := badOffsetsStream(t)
	for _, c := range []struct {
		n       int
		printed int
		fails   bool
	}{
		{3, 3, false}, {5, 5, false}, {7, 7, false}, // the malformed row 7 is not reached
		{8, 7, true}, {100, 7, true},
	} {
		t.Run(fmt.Sprintf("-n %d", c.n), func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, nil, "head", "-n", fmt.Sprint(c.n), path)
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			require.Len(t, lines, c.printed, "stdout: %s\nstderr: %s", stdout, stderr)
			for i, line := range lines {
				assert.True(t, strings.HasPrefix(line, fmt.Sprintf(`{"i":%d,`, i)), "line %d: %s", i, line)
			}
			if !c.fails {
				assert.Equal(t, 0, status, "stderr: %s", stderr)
				assert.Empty(t, stderr)
				return
			}
			assert.Equal(t, 1, status)
			assert.Contains(t, stderr, `column "s", row 7 (record 1)`)
			assert.Contains(t, stderr, "offset 1000 past the end of the data buffer (8)")
			assert.NotContains(t, stderr, "reading failed")
		})
	}
}
