package ipc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claimRow is the row of the compressed files whose buffers are damaged:
// its dictionary column puts compressed buffers in a dictionary batch
// too.
type claimRow struct {
	ID   int64  `arrow:"id"`
	City string `arrow:"city,dict"`
}

type claimColumns struct {
	ID views.PrimitiveColumn[int64] `arrow:"id"`
}

func claimRows(n int) []claimRow {
	rows := make([]claimRow, n)
	for i := range rows {
		rows[i] = claimRow{ID: int64(i), City: []string{"Oslo", "Lima", "Pune"}[i%3]}
	}
	return rows
}

// sizeAllocator records the largest allocation asked of it, and refuses
// (panicking, as an allocator can only) any past refuse: a reader that
// trusts a claim then fails with an error, rather than the test
// allocating what the claim asks.
type sizeAllocator struct {
	memory.Allocator
	refuse  int
	largest atomic.Int64
}

func newSizeAllocator() *sizeAllocator {
	return &sizeAllocator{Allocator: memory.NewGoAllocator(), refuse: 256 << 20}
}

func (a *sizeAllocator) check(size int) {
	for {
		old := a.largest.Load()
		if int64(size) <= old || a.largest.CompareAndSwap(old, int64(size)) {
			break
		}
	}
	if size > a.refuse {
		panic(fmt.Sprintf("sizeAllocator: %d bytes asked", size))
	}
}

func (a *sizeAllocator) Allocate(size int) []byte {
	a.check(size)
	return a.Allocator.Allocate(size)
}

func (a *sizeAllocator) Reallocate(size int, b []byte) []byte {
	a.check(size)
	return a.Allocator.Reallocate(size, b)
}

// readEntry is one entry point of this package reading data (an IPC file
// or stream, at path), to its end: the error that ended it, whether
// opening or reading.
type readEntry struct {
	name   string
	stream bool // reads only a stream
	read   func(path string, data []byte, mem memory.Allocator, opts ...ipc.ReadOption) error
}

// readEntries is every entry point of this package that reads, of rows
// of T (with an id column, which OpenColumns reads).
func readEntries[T any]() []readEntry {
	return []readEntry{
		{"ReadFile", false, func(path string, _ []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			_, err := ipc.ReadFile[T](path, append(opts, mapper.Allocator(mem))...)
			return err
		}},
		{"Open, read in pages", false, func(path string, _ []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			r, err := ipc.Open[T](path, append(opts, mapper.Allocator(mem))...)
			return pagesOf(r, err)
		}},
		{"OpenReaderAt, read in pages", false, func(_ string, data []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			r, err := ipc.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)), append(opts, mapper.Allocator(mem))...)
			return pagesOf(r, err)
		}},
		{"OpenColumns", false, func(path string, _ []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			r, err := ipc.OpenColumns[claimColumns](path, append(opts, mapper.Allocator(mem))...)
			if err != nil {
				return err
			}
			defer r.Release()
			for r.Next() {
			}
			return r.Err()
		}},
		{"NewReader, read with ReadAll", true, func(_ string, data []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			r, err := ipc.NewReader[T](bytes.NewReader(data), append(opts, mapper.Allocator(mem))...)
			if err != nil {
				return err
			}
			defer r.Release()
			_, err = r.ReadAll()
			return err
		}},
		{"OpenRecords", false, func(path string, _ []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			return recordsOf(ipc.OpenRecords(path, append(opts, mapper.Allocator(mem))...))
		}},
		{"OpenRecordsReaderAt", false, func(_ string, data []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			return recordsOf(ipc.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), append(opts, mapper.Allocator(mem))...))
		}},
		{"NewRecordReader", true, func(_ string, data []byte, mem memory.Allocator, opts ...ipc.ReadOption) error {
			return recordsOf(ipc.NewRecordReader(bytes.NewReader(data), append(opts, mapper.Allocator(mem))...))
		}},
	}
}

func pagesOf[T any](r *mapper.Reader[T], err error) error {
	if err != nil {
		return err
	}
	defer r.Release()
	for _, err := range r.Pages(7) {
		if err != nil {
			return err
		}
	}
	return nil
}

func recordsOf(rr array.RecordReader, err error) error {
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
	}
	return rr.Err()
}

func TestACompressedBufferClaimingTerabytesIsErrTooLargeBeforeItIsAllocated(t *testing.T) {
	rows := claimRows(100)
	for _, codec := range []ipc.Codec{ipc.LZ4, ipc.ZSTD} {
		for _, file := range []bool{true, false} {
			data := writeRows(t, file, ipc.WriteConfig{Compression: codec, BatchRows: 40}, rows)
			for _, claim := range []int64{1 << 31, 1 << 40} {
				damaged := arrowtest.ClaimUncompressed(data, claim)
				require.NotNil(t, damaged, "the compressed buffers")
				path := writeTemp(t, "claim.arrow", damaged)
				for _, e := range readEntries[claimRow]() {
					if e.stream && file {
						continue
					}
					t.Run(fmt.Sprintf("%s, %s, a file %t, %d bytes claimed", e.name, codec, file, claim), func(t *testing.T) {
						mem := newSizeAllocator()
						err := e.read(path, damaged, mem)
						require.ErrorIs(t, err, mapper.ErrTooLarge)
						var me *mapper.Error
						require.ErrorAs(t, err, &me)
						assert.Contains(t, err.Error(), fmt.Sprint(claim), "the claim named")
						assert.Contains(t, err.Error(), "MaxExpansion", "the remedy named")
						assert.Less(t, mem.largest.Load(), int64(1<<20), "the largest allocation")
					})
				}
			}
		}
	}
}

// A ZSTD frame's header names the window its decoder allocates before any
// block is read; arrow-go's decoder takes up to 512 MiB. One damaged byte
// of a 168-byte buffer of a 3 KB file (the IPC mutation test's seed
// 1796547645001858021) asked for 352 MiB, which every reader allocated.
func TestAZstdFrameAskingForAWindowPastItsBufferIsAnErrorBeforeItIsAllocated(t *testing.T) {
	rows := claimRows(100)
	for _, file := range []bool{true, false} {
		data := writeRows(t, file, ipc.WriteConfig{Compression: ipc.ZSTD, BatchRows: 40}, rows)
		damaged := bytes.Clone(data)
		frames := 0
		for at := 0; ; {
			i := bytes.Index(damaged[at:], []byte{0x28, 0xb5, 0x2f, 0xfd})
			if i < 0 {
				break
			}
			at += i + 4
			if damaged[at]&0x20 == 0 { // a window descriptor follows
				damaged[at+1] = 0x93 // 2^28 + 3/8 of it: 352 MiB
				frames++
			}
		}
		require.Positive(t, frames, "frames with a window descriptor")
		path := writeTemp(t, "window.arrow", damaged)
		for _, e := range readEntries[claimRow]() {
			if e.stream && file {
				continue
			}
			t.Run(fmt.Sprintf("%s, a file %t", e.name, file), func(t *testing.T) {
				mem := newSizeAllocator()
				err := e.read(path, damaged, mem)
				require.Error(t, err)
				assert.Contains(t, err.Error(), "a frame asks for a window of 369098752 bytes")
			})
		}
	}
}

// oneBuffer is a row of one column of no nulls: a record batch of one
// compressed buffer, its values.
type oneBuffer struct {
	ID int64 `arrow:"id"`
}

func TestAClaimIsRefusedOneBytePastTheLimitAndMaxExpansionRaisesIt(t *testing.T) {
	rows := make([]oneBuffer, 1000)
	for i := range rows {
		rows[i].ID = int64(i)
	}
	for _, file := range []bool{true, false} {
		data := writeRows(t, file, ipc.WriteConfig{Compression: ipc.LZ4}, rows)
		stream := data
		if file {
			stream = data[8:]
		}
		var body int64 = -1
		for _, m := range arrowtest.StreamMessages(stream) {
			if len(m.Body) > 0 {
				body = int64(len(m.Body))
			}
		}
		require.Positive(t, body, "the record batch's body")
		limit := 64<<20 + 64*body
		tests := []struct {
			name     string
			claim    int64
			opts     []ipc.ReadOption
			tooLarge bool
		}{
			{"a claim of the limit is read", limit, nil, false},
			{"a claim one byte past it is refused", limit + 1, nil, true},
			{"MaxExpansion of 65 raises the limit by the body's bytes", limit + body, []ipc.ReadOption{mapper.MaxExpansion(65)}, false},
			{"MaxExpansion of 65 refuses a byte more", limit + body + 1, []ipc.ReadOption{mapper.MaxExpansion(65)}, true},
			{"MaxExpansion of 0 is the default", limit + 1, []ipc.ReadOption{mapper.MaxExpansion(0)}, true},
		}
		for _, tt := range tests {
			damaged := arrowtest.ClaimUncompressed(data, tt.claim)
			require.NotNil(t, damaged)
			path := writeTemp(t, "limit.arrow", damaged)
			for _, e := range readEntries[oneBuffer]() {
				if e.stream && file {
					continue
				}
				t.Run(fmt.Sprintf("%s: %s, a file %t", tt.name, e.name, file), func(t *testing.T) {
					err := e.read(path, damaged, newSizeAllocator(), tt.opts...)
					// The frame holds 8000 bytes, not the claim: a claim
					// let through is arrow-go's error once decompressed.
					require.Error(t, err)
					if tt.tooLarge {
						require.ErrorIs(t, err, mapper.ErrTooLarge)
						assert.Contains(t, err.Error(), fmt.Sprint(tt.claim))
					} else {
						require.NotErrorIs(t, err, mapper.ErrTooLarge)
					}
				})
			}
		}
	}
}

func TestCompressedDataWithinTheLimitReadsAsWritten(t *testing.T) {
	rows := claimRows(1000)
	for _, codec := range []ipc.Codec{ipc.LZ4, ipc.ZSTD} {
		for _, file := range []bool{true, false} {
			data := writeRows(t, file, ipc.WriteConfig{Compression: codec, BatchRows: 300}, rows)
			path := writeTemp(t, "fine.arrow", data)
			for _, e := range readEntries[claimRow]() {
				if e.stream && file {
					continue
				}
				t.Run(fmt.Sprintf("%s, %s, a file %t", e.name, codec, file), func(t *testing.T) {
					require.NoError(t, e.read(path, data, newSizeAllocator()))
				})
			}
			got, err := ipc.ReadFile[claimRow](path)
			require.NoError(t, err)
			assert.Equal(t, rows, got)
		}
	}
}

func TestABatchClaimingMoreVariadicBuffersThanItHasIsMalformed(t *testing.T) {
	type viewRow struct {
		ID int64  `arrow:"id"`
		S  string `arrow:"s,utf8_view"`
	}
	rows := make([]viewRow, 200)
	for i := range rows {
		rows[i] = viewRow{int64(i), fmt.Sprintf("a string longer than twelve bytes, %d", i)}
	}
	for _, file := range []bool{true, false} {
		damaged := writeRows(t, file, ipc.WriteConfig{}, rows)
		claimed := false
		for _, m := range arrowtest.StreamMessages(streamOf(damaged, file)) {
			claimed = arrowtest.ClaimVariadicBuffers(m.Meta, 1<<40) || claimed
		}
		require.True(t, claimed, "a record batch with variadic buffers")
		path := writeTemp(t, "variadic.arrow", damaged)
		for _, e := range readEntries[viewRow]() {
			if e.stream && file {
				continue
			}
			t.Run(fmt.Sprintf("%s, a file %t", e.name, file), func(t *testing.T) {
				err := e.read(path, damaged, newSizeAllocator())
				require.ErrorIs(t, err, ipcschema.ErrMalformed)
				assert.Contains(t, err.Error(), "variadic buffer count 0 of 1099511627776")
			})
		}
	}
}

// streamOf is the messages of data, an IPC stream or, when file, an IPC
// file: after its magic and padding.
func streamOf(data []byte, file bool) []byte {
	if file {
		return data[8:]
	}
	return data
}

func TestABatchClaimingBillionsOfKeyValuesIsMalformed(t *testing.T) {
	type idRow struct {
		ID int64 `arrow:"id"`
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 2, 3}, nil)
	col := b.NewArray()
	b.Release()
	defer col.Release()
	rec := array.NewRecordBatchWithMetadata(schema, []arrow.Array{col}, 3, arrow.NewMetadata([]string{"k"}, []string{"v"}))
	defer rec.Release()
	for _, file := range []bool{true, false} {
		var buf bytes.Buffer
		var w interface {
			Write(arrow.RecordBatch) error
			Close() error
		}
		var err error
		if file {
			w, err = arrowipc.NewFileWriter(&buf, arrowipc.WithSchema(schema))
		} else {
			w = arrowipc.NewWriter(&buf, arrowipc.WithSchema(schema))
		}
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
		damaged := buf.Bytes()
		claimed := false
		for _, m := range arrowtest.StreamMessages(streamOf(damaged, file)) {
			claimed = arrowtest.ClaimCustomMetadata(m.Meta, 1<<31-1) || claimed
		}
		require.True(t, claimed, "a record batch with custom metadata")
		path := writeTemp(t, "keyvalues.arrow", damaged)
		for _, e := range readEntries[idRow]() {
			if e.stream && file {
				continue
			}
			t.Run(fmt.Sprintf("%s, a file %t", e.name, file), func(t *testing.T) {
				require.ErrorIs(t, e.read(path, damaged, newSizeAllocator()), ipcschema.ErrMalformed)
			})
		}
	}
}

// BenchmarkReadFile reads 1M rows of three columns, in records of 64k
// rows, from a file and from a stream, uncompressed and ZSTD: what the
// checks of each message before arrow-go reads it cost beside reading.
func BenchmarkReadFile(b *testing.B) {
	type row struct {
		ID    int64   `arrow:"id"`
		Name  string  `arrow:"name"`
		Score float64 `arrow:"score"`
	}
	rows := make([]row, 1_000_000)
	for i := range rows {
		rows[i] = row{int64(i), fmt.Sprintf("name-%d", i%1000), float64(i) / 8}
	}
	for _, codec := range []ipc.Codec{ipc.None, ipc.ZSTD} {
		for _, file := range []bool{true, false} {
			path := filepath.Join(b.TempDir(), "rows.arrow")
			f, err := os.Create(path)
			require.NoError(b, err)
			newWriter := ipc.NewWriter[row]
			if file {
				newWriter = ipc.NewFileWriter[row]
			}
			w, err := newWriter(f, ipc.WriteConfig{Compression: codec})
			require.NoError(b, err)
			_, err = w.Write(rows)
			require.NoError(b, err)
			require.NoError(b, w.Close())
			require.NoError(b, f.Close())
			b.Run(fmt.Sprintf("%s_file_%t", codec, file), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					got, err := ipc.ReadFile[row](path)
					if err != nil || len(got) != len(rows) {
						b.Fatal(len(got), err)
					}
				}
			})
		}
	}
}

// FuzzReadIPC reads any bytes as an IPC file or stream through
// OpenRecordsReaderAt, OpenReaderAt with ReadAll and, for a stream,
// NewReader in pages: an error or rows, never a panic, and never an
// allocation of arrow-go's past what the bytes may claim (64 MiB plus 64
// times them).
func FuzzReadIPC(f *testing.F) {
	rows := claimRows(60)
	for _, codec := range []ipc.Codec{ipc.None, ipc.LZ4, ipc.ZSTD} {
		for _, file := range []bool{true, false} {
			var buf bytes.Buffer
			newWriter := ipc.NewWriter[claimRow]
			if file {
				newWriter = ipc.NewFileWriter[claimRow]
			}
			w, err := newWriter(&buf, ipc.WriteConfig{Compression: codec, BatchRows: 25, DictionaryDeltas: !file})
			require.NoError(f, err)
			_, err = w.Write(rows)
			require.NoError(f, err)
			require.NoError(f, w.Close())
			f.Add(buf.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := newSizeAllocator()
		mem.refuse = 64<<20 + 64*len(data)
		at := bytes.NewReader(data)
		if rr, err := ipc.OpenRecordsReaderAt(at, int64(len(data)), mapper.Allocator(mem)); err == nil {
			for rr.Next() {
			}
			rr.Release()
		}
		if r, err := ipc.OpenReaderAt[claimRow](at, int64(len(data)), mapper.Allocator(mem)); err == nil {
			_, _ = r.ReadAll()
			r.Release()
		}
		if r, err := ipc.NewReader[claimRow](bytes.NewReader(data), mapper.Allocator(mem)); err == nil {
			for _, err := range r.Pages(16) {
				if err != nil {
					break
				}
			}
			r.Release()
		}
		// A refused allocation panics inside arrow-go, which recovers it:
		// the largest asked is the test.
		require.LessOrEqual(t, mem.largest.Load(), int64(mem.refuse), "an allocation past what %d bytes may claim", len(data))
	})
}

// nullRow is a row of a column of nulls, whose records have no body.
type nullRow struct {
	N *int32 `arrow:"n,nullable"`
}

func TestARecordClaimingTrillionsOfRowsInAFewBytesIsErrTooLargeUnlessMaxExpansionAllowsIt(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.Null, Nullable: true}}, nil)
	const rows = 4242 // a count that no other field of the messages holds
	col := array.NewNull(rows)
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, rows)
	defer rec.Release()
	for _, file := range []bool{true, false} {
		var buf bytes.Buffer
		var w interface {
			Write(arrow.RecordBatch) error
			Close() error
		}
		if file {
			fw, err := arrowipc.NewFileWriter(&buf, arrowipc.WithSchema(schema))
			require.NoError(t, err)
			w = fw
		} else {
			w = arrowipc.NewWriter(&buf, arrowipc.WithSchema(schema))
		}
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
		// The record's length and its node's length and null count.
		claim := int64(1) << 40
		damaged := bytes.ReplaceAll(buf.Bytes(), binary.LittleEndian.AppendUint64(nil, rows), binary.LittleEndian.AppendUint64(nil, uint64(claim)))
		require.GreaterOrEqual(t, bytes.Count(damaged, binary.LittleEndian.AppendUint64(nil, uint64(claim))), 3, "the counts replaced")
		path := writeTemp(t, "nulls.arrow", damaged)
		for _, e := range readEntries[nullRow]() {
			if (e.stream && file) || e.name == "OpenColumns" { // whose columns are claimColumns
				continue
			}
			t.Run(fmt.Sprintf("%s, a file %t", e.name, file), func(t *testing.T) {
				err := e.read(path, damaged, newSizeAllocator())
				require.ErrorIs(t, err, mapper.ErrTooLarge)
				assert.Contains(t, err.Error(), fmt.Sprint(claim), "the claim named")
				assert.Contains(t, err.Error(), "MaxExpansion", "the remedy named")
			})
		}
		// A caller who trusts the source reads the record as it claims.
		var rr array.RecordReader
		var err error
		if file {
			rr, err = ipc.OpenRecordsReaderAt(bytes.NewReader(damaged), int64(len(damaged)), mapper.MaxExpansion(math.MaxInt64))
		} else {
			rr, err = ipc.NewRecordReader(bytes.NewReader(damaged), mapper.MaxExpansion(math.MaxInt64))
		}
		require.NoError(t, err)
		require.True(t, rr.Next(), "%v", rr.Err())
		require.Equal(t, claim, rr.RecordBatch().NumRows())
		rr.Release()
	}
}
