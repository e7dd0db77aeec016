package ipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openers are the entry points that read a path, each read to its end:
// the rows read, and the first error, from the open or from the reading.
var openers = []struct {
	name string
	read func(path string, opts ...ipc.ReadOption) ([]tagged, error)
}{
	{"ReadFile", func(path string, opts ...ipc.ReadOption) ([]tagged, error) {
		return ipc.ReadFile[tagged](path, opts...)
	}},
	{"Open", func(path string, opts ...ipc.ReadOption) ([]tagged, error) {
		r, err := ipc.Open[tagged](path, opts...)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		return r.ReadAll()
	}},
	{"OpenColumns", func(path string, opts ...ipc.ReadOption) ([]tagged, error) {
		type cols struct {
			ID  arrow.Array `arrow:"id"`
			Tag arrow.Array `arrow:"tag"`
		}
		cr, err := ipc.OpenColumns[cols](path, opts...)
		if err != nil {
			return nil, err
		}
		defer cr.Release()
		var rows []tagged
		for c, err := range cr.All() {
			if err != nil {
				return rows, err
			}
			for i := range c.ID.Len() {
				rows = append(rows, tagged{ID: c.ID.(*array.Int64).Value(i), Tag: c.Tag.ValueStr(i)})
			}
		}
		return rows, nil
	}},
	{"NewReader", func(path string, opts ...ipc.ReadOption) ([]tagged, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, err := ipc.NewReader[tagged](f, opts...)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		return r.ReadAll()
	}},
}

func taggedFile(t *testing.T, file bool) []byte {
	return writeRows(t, file, ipc.WriteConfig{BatchRows: 3}, taggedRows())
}

func TestWhatIsNotIPCIsAnErrorThatSaysSo(t *testing.T) {
	const seed = 20240301
	t.Logf("random bytes seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	random[0], random[1], random[2], random[3] = 'x', 'y', 'z', 0 // neither magic nor a stream's start
	file := taggedFile(t, true)
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		data     []byte // nil: path is dir
		path     string
		contains map[string]string // by opener, "" for all
		isNotIPC bool
	}{
		{name: "an empty file", data: []byte{}, contains: map[string]string{"": "empty"}, isNotIPC: true},
		{name: "random bytes", data: random, contains: map[string]string{"": "not Arrow IPC data"}, isNotIPC: true},
		{name: "a CSV file", data: []byte("id,tag\n1,a\n"), contains: map[string]string{"": "not Arrow IPC data"}, isNotIPC: true},
		{name: "a Parquet file's magic", data: append([]byte("PAR1"), append(random[:100], "PAR1"...)...), contains: map[string]string{"": "not Arrow IPC data"}, isNotIPC: true},
		{name: "the file magic and random bytes", data: append([]byte("ARROW1\x00\x00"), append(random[:200], "ARROW1"...)...), contains: map[string]string{"": "not a valid Arrow IPC file", "NewReader": "is an Arrow IPC file, not an IPC stream"}},
		{name: "an IPC file, read as a stream", data: file, contains: map[string]string{"NewReader": "is an Arrow IPC file, not an IPC stream"}},
		{name: "a directory", path: dir, contains: map[string]string{"": "directory"}},
		{name: "a file that does not exist", path: filepath.Join(dir, "nope.arrow"), contains: map[string]string{"": "nope.arrow"}},
	} {
		path := tc.path
		if path == "" {
			path = writeTemp(t, "input", tc.data)
		}
		for _, o := range openers {
			want, ok := tc.contains[o.name]
			if !ok {
				want, ok = tc.contains[""]
			}
			if !ok {
				continue // this opener reads it: see the round-trip tests
			}
			t.Run(tc.name+", to "+o.name, func(t *testing.T) {
				mem := checked(t)
				rows, err := o.read(path, mapper.Allocator(mem))
				require.Error(t, err)
				t.Log(err)
				assert.Empty(t, rows)
				assert.Contains(t, err.Error(), want)
				assert.NotContains(t, err.Error(), "panic")
				if tc.isNotIPC {
					assert.ErrorIs(t, err, ipc.ErrNotIPC)
				}
			})
		}
	}
}

func TestATruncatedFileIsAnErrorAtEveryLength(t *testing.T) {
	data := taggedFile(t, true)
	for _, o := range openers[:3] { // the file openers
		t.Run(o.name, func(t *testing.T) {
			mem := checked(t)
			path := tempPath(t, "cut.arrow")
			for n := range len(data) {
				require.NoError(t, os.WriteFile(path, data[:n], 0o600))
				rows, err := o.read(path, mapper.Allocator(mem))
				require.Error(t, err, "cut at %d of %d bytes", n, len(data))
				assert.Empty(t, rows)
				if n >= 8 {
					assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "cut at %d: %v", n, err)
					assert.Contains(t, err.Error(), "cut short")
				}
			}
		})
	}
}

// boundaries are the offsets at which the messages of an IPC stream end.
func boundaries(t *testing.T, stream []byte) map[int]bool {
	_, bodies := messages(t, stream)
	ends := map[int]bool{}
	pos := 0
	for _, body := range bodies {
		meta := int(binary.LittleEndian.Uint32(stream[pos+4:]))
		pos += 8 + meta + int(body)
		ends[pos] = true
	}
	return ends
}

// A stream cut at a message boundary is a shorter stream (the end-of-stream
// marker is optional); cut anywhere else it is an io.ErrUnexpectedEOF
// error, after the rows of the records before the cut.
func TestATruncatedStreamIsAnErrorAfterTheRowsBefore(t *testing.T) {
	data := taggedFile(t, false)
	rows := taggedRows()
	ends := boundaries(t, data)
	require.Len(t, ends, 9, "a schema, then a dictionary and a record 4 times")
	for _, o := range []struct {
		name string
		read func(path string, opts ...ipc.ReadOption) ([]tagged, error)
	}{openers[0], openers[3]} {
		t.Run(o.name, func(t *testing.T) {
			mem := checked(t)
			path := tempPath(t, "cut.arrows")
			for n := range len(data) {
				require.NoError(t, os.WriteFile(path, data[:n], 0o600))
				got, err := o.read(path, mapper.Allocator(mem))
				msg := fmt.Sprintf("cut at %d of %d bytes: %v", n, len(data), err)
				require.LessOrEqual(t, len(got), len(rows), msg)
				if len(got) > 0 {
					assert.Equal(t, rows[:len(got)], got, "the rows before the cut: %s", msg)
				}
				assert.Zero(t, len(got)%3, "whole records only: %s", msg)
				switch {
				case ends[n]:
					assert.NoError(t, err, "a cut between messages is a clean end: %s", msg)
				case n < 4:
					assert.ErrorIs(t, err, ipc.ErrNotIPC, msg)
				default:
					assert.ErrorIs(t, err, io.ErrUnexpectedEOF, msg)
				}
			}
		})
	}
}

// Flipped bytes in a file or a stream are an error or rows, never a
// panic, and never a corrupt length that makes arrow-go ask for more memory
// than there is (its schema parsing and stream reader take lengths at
// their word).
func TestCorruptInputIsAnErrorNeverAPanic(t *testing.T) {
	const seed = 7
	t.Logf("corruptions seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	path := tempPath(t, "bad")
	for _, file := range []bool{true, false} {
		data := writeRows(t, file, ipc.WriteConfig{BatchRows: 40}, rowsOf(0, 120))
		for trial := range 300 {
			bad := bytes.Clone(data)
			for range 1 + rng.IntN(4) {
				bad[rng.IntN(len(bad))] = byte(rng.UintN(256))
			}
			require.NoError(t, os.WriteFile(path, bad, 0o600))
			rows, err := ipc.ReadFile[everything](path)
			// An end-of-stream marker made by the flips ends a stream early:
			// whole records, without an error.
			if err == nil {
				assert.Zero(t, len(rows)%40, "file %v, trial %d: no error, %d rows, whole records", file, trial, len(rows))
			}
		}
	}
}

func TestASchemaThatDoesNotMatchIsReportedBeforeAnyRow(t *testing.T) {
	type wrong struct {
		ID  string `arrow:"id"`
		Tag string `arrow:"tag,dict"`
	}
	type missing struct {
		ID    int64 `arrow:"id"`
		Score float64
	}
	for _, file := range []bool{true, false} {
		path := writeTemp(t, "tagged", taggedFile(t, file))
		for _, tc := range []struct {
			name         string
			open         func() error
			field, colum string
			kind         error
		}{
			{"ReadFile, a field of another type", func() error { _, err := ipc.ReadFile[wrong](path); return err }, "ID", "id", mapper.ErrTypeMismatch},
			{"ReadFile, a field without a column", func() error { _, err := ipc.ReadFile[missing](path); return err }, "Score", "Score", mapper.ErrMissingColumn},
			{"Open", func() error {
				r, err := ipc.Open[wrong](path)
				if err == nil {
					r.Release()
				}
				return err
			}, "ID", "id", mapper.ErrTypeMismatch},
			{"NewReader", func() error {
				f, err := os.Open(path)
				require.NoError(t, err)
				defer f.Close()
				r, err := ipc.NewReader[missing](f)
				if err == nil {
					r.Release()
				}
				return err
			}, "Score", "Score", mapper.ErrMissingColumn},
		} {
			if file == (tc.name == "NewReader") {
				continue
			}
			t.Run(fmt.Sprintf("%s, file %v", tc.name, file), func(t *testing.T) {
				err := tc.open()
				require.Error(t, err)
				var e *mapper.Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tc.field, e.Path)
				assert.Equal(t, tc.colum, e.Column)
				assert.Equal(t, -1, e.Row, "not about a row: before any")
				assert.ErrorIs(t, err, tc.kind)
			})
		}
	}
}

// openFiles counts the files the process has open.
func openFiles(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd to count open files")
	}
	return len(entries)
}

func TestAFileReaderClosesItsFileWhenReleasedOrRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts open files in /proc")
	}
	path := writeTemp(t, "tagged.arrow", taggedFile(t, true))
	stream := writeTemp(t, "tagged.arrows", taggedFile(t, false))
	type wrong struct {
		ID string `arrow:"id"`
	}
	before := openFiles(t)
	for range 20 {
		r, err := ipc.Open[tagged](path)
		require.NoError(t, err)
		_, err = r.Read(make([]tagged, 2)) // a record read, some of it left
		require.NoError(t, err)
		r.Release()
		_, err = ipc.Open[wrong](path)
		require.Error(t, err)
		_, err = ipc.ReadFile[tagged](stream)
		require.NoError(t, err)
		_, err = ipc.ReadFile[wrong](stream)
		require.Error(t, err)
		_, err = ipc.ReadFile[tagged](writeTemp(t, "cut", []byte("ARROW1\x00\x00")))
		require.Error(t, err)
	}
	assert.Equal(t, before, openFiles(t), "every file opened is closed")

	r, err := ipc.Open[tagged](path)
	require.NoError(t, err)
	assert.Equal(t, before+1, openFiles(t), "an open Reader holds its file")
	r.Release()
	assert.Equal(t, before, openFiles(t))
	_, err = r.ReadAll()
	assert.ErrorIs(t, err, mapper.ErrClosed)
}

func TestWriteAfterCloseIsErrClosed(t *testing.T) {
	mem := checked(t)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter[tagged](&buf, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(taggedRows()[:2])))
	require.NoError(t, w.Close())
	size := buf.Len()
	assert.ErrorIs(t, errOf(w.Write(taggedRows()[:1])), ipc.ErrClosed)
	assert.ErrorIs(t, w.Flush(), ipc.ErrClosed)
	assert.NoError(t, w.Close(), "closing again returns what the first Close did")
	assert.Equal(t, size, buf.Len(), "nothing written after Close")

	schema, err := mapper.SchemaOf[tagged]()
	require.NoError(t, err)
	rw, err := ipc.NewRecordStreamWriter(&buf, schema, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	require.NoError(t, rw.Close())
	rec, err := mapper.Encode(taggedRows(), mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	assert.ErrorIs(t, rw.Write(rec), ipc.ErrClosed)
}

// failingWriter takes its first after bytes, then fails.
type failingWriter struct {
	buf   bytes.Buffer
	after int
	short bool // fail with a short count and no error
}

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	room := max(w.after-w.buf.Len(), 0)
	if room >= len(p) {
		return w.buf.Write(p)
	}
	w.buf.Write(p[:room])
	if w.short {
		return room, nil
	}
	return room, errDiskFull
}

func TestAFailingOutputIsAClearErrorAndCloseSaysWhatIsLeft(t *testing.T) {
	rows := rowsOf(0, 200)
	whole := writeRows(t, false, ipc.WriteConfig{BatchRows: 50}, rows)
	for _, file := range []bool{true, false} {
		for _, after := range []int{0, 1, 7, 8, 100, 1000, len(whole) / 2, len(whole) - 9, len(whole) - 1} {
			for _, short := range []bool{false, true} {
				t.Run(fmt.Sprintf("file %v, failing after %d bytes, short %v", file, after, short), func(t *testing.T) {
					mem := checked(t)
					out := &failingWriter{after: after, short: short}
					newWriter := ipc.NewWriter[everything]
					if file {
						newWriter = ipc.NewFileWriter[everything]
					}
					w, err := newWriter(out, ipc.WriteConfig{BatchRows: 50}, mapper.Allocator(mem))
					require.NoError(t, err)
					var writeErr error
					for i := 0; i < len(rows) && writeErr == nil; i += 30 {
						_, writeErr = w.Write(rows[i:min(i+30, len(rows))])
					}
					want := errDiskFull
					if short {
						want = io.ErrShortWrite
					}
					if writeErr != nil {
						assert.ErrorIs(t, writeErr, want)
						assert.Contains(t, writeErr.Error(), fmt.Sprintf("failed after %d bytes", after))
						assert.Equal(t, writeErr, errOf(w.Write(rows[:1])), "the writer stopped at the failure")
					}
					closeErr := w.Close()
					require.Error(t, closeErr)
					t.Log(writeErr, "|", closeErr)
					assert.ErrorIs(t, closeErr, want)
					if file {
						assert.Contains(t, closeErr.Error(), "without its footer")
					} else {
						assert.Contains(t, closeErr.Error(), "cut short")
					}
					assert.Equal(t, after, out.buf.Len(), "nothing written past the failure")
					if !file && after > 8 {
						// What was written is a stream cut short: its whole
						// records are the first rows.
						got, err := ipc.ReadFile[everything](writeTemp(t, "cut.arrows", out.buf.Bytes()))
						assert.Equal(t, throughMemory(t, rows[:len(got)]), got)
						if len(got) < len(rows) {
							assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
						}
					}
				})
			}
		}
	}
}

func TestABadValueFailsItsRecordAndTheWriterGoesOn(t *testing.T) {
	type price struct {
		ID    int    `arrow:"id"`
		Price string `arrow:"price,decimal(5,2)"`
	}
	rows := make([]price, 12)
	for i := range rows {
		rows[i] = price{ID: i, Price: fmt.Sprintf("%d.25", i)}
	}
	rows[8].Price = "123456.7" // over the precision
	mem := checked(t)
	var buf bytes.Buffer
	w, err := ipc.NewWriter[price](&buf, ipc.WriteConfig{BatchRows: 4}, mapper.Allocator(mem))
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(rows[:3])))
	_, err = w.Write(rows[3:10]) // fills [0, 4) and [4, 8), fails in [8, 10)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "Price", e.Path)
	assert.Equal(t, "price", e.Column)
	assert.Equal(t, 5, e.Row, "the index in the rows given to Write")
	require.NoError(t, errOf(w.Write(rows[11:])))
	require.NoError(t, w.Close())

	r, err := ipc.NewReader[price](&buf, mapper.Allocator(mem))
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	assert.Equal(t, append(append([]price(nil), rows[:8]...), rows[11]), got)
}

func TestOptionsAndConfigurationsTheEntryPointsRefuse(t *testing.T) {
	path := writeTemp(t, "tagged.arrow", taggedFile(t, true))
	var buf bytes.Buffer
	for _, tc := range []struct {
		name string
		err  func() error
		want string
		is   error
	}{
		{"ReadFile refuses ZeroCopy: its rows outlive the records", func() error { _, err := ipc.ReadFile[tagged](path, mapper.ZeroCopy()); return err }, "ZeroCopy", mapper.ErrOption},
		{"a negative BatchRows", func() error { _, err := ipc.NewWriter[tagged](&buf, ipc.WriteConfig{BatchRows: -1}); return err }, "BatchRows -1", nil},
		{"an unknown codec", func() error {
			_, err := ipc.NewFileWriter[tagged](&buf, ipc.WriteConfig{Compression: ipc.Codec(9)})
			return err
		}, "Codec(9)", nil},
		{"a nil io.Writer", func() error { _, err := ipc.NewFileWriter[tagged](nil, ipc.WriteConfig{}); return err }, "nil io.Writer", nil},
		{"a nil schema", func() error { _, err := ipc.NewRecordFileWriter(&buf, nil, ipc.WriteConfig{}); return err }, "nil schema", nil},
		{"a Go type with no Arrow type", func() error { _, err := ipc.NewFileWriter[struct{ C chan int }](&buf, ipc.WriteConfig{}); return err }, "chan", mapper.ErrUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
		})
	}
}

func TestARecordOfAnotherSchemaIsRefusedAndTheWriterGoesOn(t *testing.T) {
	mem := checked(t)
	schema, err := mapper.SchemaOf[tagged]()
	require.NoError(t, err)
	var buf bytes.Buffer
	w, err := ipc.NewRecordFileWriter(&buf, schema, ipc.WriteConfig{}, mapper.Allocator(mem))
	require.NoError(t, err)
	other, err := mapper.Encode([]leaf{{SKU: "x"}}, mapper.Allocator(mem))
	require.NoError(t, err)
	defer other.Release()
	err = w.Write(other)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not the writer's")
	rec, err := mapper.Encode(taggedRows(), mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	got, err := ipc.ReadFile[tagged](writeTemp(t, "t.arrow", buf.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, taggedRows(), got)
}

func TestAReaderReleasedBeforeTheEndFreesTheRecordItWasReading(t *testing.T) {
	data := taggedFile(t, true)
	path := writeTemp(t, "tagged.arrow", data)
	for _, tc := range []struct {
		name string
		open func(mem memory.Allocator) (func(), error)
	}{
		{"a Reader of a file", func(mem memory.Allocator) (func(), error) {
			r, err := ipc.Open[tagged](path, mapper.Allocator(mem))
			if err != nil {
				return nil, err
			}
			_, err = r.Read(make([]tagged, 2)) // of the first record of 3 rows
			return r.Release, err
		}},
		{"a Reader of a file, into its second record", func(mem memory.Allocator) (func(), error) {
			r, err := ipc.Open[tagged](path, mapper.Allocator(mem))
			if err != nil {
				return nil, err
			}
			_, err = r.Read(make([]tagged, 4)) // into the second record
			return r.Release, err
		}},
		{"a record reader of a file", func(mem memory.Allocator) (func(), error) {
			rr, err := ipc.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), mapper.Allocator(mem))
			if err != nil {
				return nil, err
			}
			if !rr.Next() {
				return rr.Release, rr.Err()
			}
			return rr.Release, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			release, err := tc.open(mem)
			require.NoError(t, err)
			require.NotZero(t, mem.CurrentAlloc(), "the record read is in mem")
			release()
			mem.AssertSize(t, 0)
		})
	}
}

func TestARecordReaderThatFailsToOpenIsANilInterface(t *testing.T) {
	notIPC := []byte("not arrow at all")
	file, err := ipc.OpenRecordsReaderAt(bytes.NewReader(notIPC), int64(len(notIPC)))
	require.Error(t, err)
	assert.True(t, file == nil, "OpenRecordsReaderAt returned %#v", file)
	stream, err := ipc.NewRecordReader(bytes.NewReader(notIPC))
	require.Error(t, err)
	assert.True(t, stream == nil, "NewRecordReader returned %#v", stream)
}
