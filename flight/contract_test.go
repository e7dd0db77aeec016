package flight_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The reader contract, one table run against every reader: Reader and
// ColumnsReader over IPC bytes, and the Flight readers over a DoGet that
// relays the same bytes' messages.

// contractRow is a row of contractSchema. Name is not nullable in Go, so a
// null name is a record that fails validation.
type contractRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
	Tag  string `arrow:"tag"`
	Kind string `arrow:"kind"`
}

// contractColumns is contractSchema bound as typed columns; Name is not
// nullable there either.
type contractColumns struct {
	ID   views.PrimitiveColumn[int64]                      `arrow:"id"`
	Name views.StringColumn                                `arrow:"name"`
	Tag  views.DictionaryColumn[int32, views.StringColumn] `arrow:"tag"`
	Kind views.DictionaryColumn[int16, views.StringColumn] `arrow:"kind"`
}

// contractSchema declares two dictionaries, so that a stream can be cut
// after its schema or between its dictionaries.
var contractSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tag", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
	{Name: "kind", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}},
}, nil)

var (
	contractTags  = []string{"red", "green", "blue"}
	contractKinds = []string{"a", "b"}
)

// contractRecords is records of the given sizes, ids counting from 0; the
// row with id nullName, if any, has a null name. Every record shares one
// pair of dictionaries, so the stream sends each once, before the first
// record.
func contractRecords(mem memory.Allocator, nullName int, sizes ...int) ([]arrow.RecordBatch, []contractRow) {
	dict := func(entries []string) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.AppendValues(entries, nil)
		return b.NewArray()
	}
	tags, kinds := dict(contractTags), dict(contractKinds)
	defer tags.Release()
	defer kinds.Release()

	var recs []arrow.RecordBatch
	var rows []contractRow
	id := 0
	for _, n := range sizes {
		ids := array.NewInt64Builder(mem)
		names := array.NewStringBuilder(mem)
		tagIdx := array.NewInt32Builder(mem)
		kindIdx := array.NewInt16Builder(mem)
		for range n {
			ids.Append(int64(id))
			if id == nullName {
				names.AppendNull()
			} else {
				names.Append(fmt.Sprintf("row-%d", id))
			}
			tagIdx.Append(int32(id % len(contractTags)))
			kindIdx.Append(int16(id % len(contractKinds)))
			rows = append(rows, contractRow{ID: int64(id), Name: fmt.Sprintf("row-%d", id),
				Tag: contractTags[id%len(contractTags)], Kind: contractKinds[id%len(contractKinds)]})
			id++
		}
		cols := []arrow.Array{ids.NewArray(), names.NewArray(), tagIdx.NewArray(), kindIdx.NewArray()}
		tagCol := array.NewDictionaryArray(contractSchema.Field(2).Type, cols[2], tags)
		kindCol := array.NewDictionaryArray(contractSchema.Field(3).Type, cols[3], kinds)
		recs = append(recs, array.NewRecordBatch(contractSchema, []arrow.Array{cols[0], cols[1], tagCol, kindCol}, int64(n)))
		for _, c := range append(cols, tagCol, kindCol) {
			c.Release()
		}
		for _, b := range []array.Builder{ids, names, tagIdx, kindIdx} {
			b.Release()
		}
	}
	return recs, rows
}

// contractStream writes recs as an IPC stream with arrow-go's ipc.Writer.
func contractStream(t *testing.T, mem memory.Allocator, recs []arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(contractSchema), ipc.WithAllocator(mem))
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
		rec.Release()
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// rawMessage is one message of an IPC stream: its bytes [start, end), its
// flatbuffer metadata and its body, as a Flight server sends them.
type rawMessage struct {
	typ        ipc.MessageType
	start, end int
	meta, body []byte
}

// splitMessages reads the messages of an IPC stream with arrow-go's
// message reader, up to its end marker (err nil) or to where it fails (the
// error it reports, a stream cut short).
func splitMessages(data []byte) ([]rawMessage, error) {
	src := bytes.NewReader(data)
	mr := ipc.NewMessageReader(src)
	defer mr.Release()
	var msgs []rawMessage
	for {
		start := len(data) - src.Len()
		msg, err := mr.Message()
		if err == io.EOF {
			return msgs, nil
		}
		if err != nil {
			return msgs, err
		}
		end := len(data) - src.Len()
		// The framing is a continuation marker, the metadata's length, the
		// metadata, then the body.
		metaLen := int(binary.LittleEndian.Uint32(data[start+4:]))
		msgs = append(msgs, rawMessage{typ: msg.Type(), start: start, end: end,
			meta: data[start+8 : start+8+metaLen], body: data[start+8+metaLen : end]})
	}
}

// contractCase is one stream and what every reader must make of it.
type contractCase struct {
	name string
	// stream is the bytes of the stream, and the rows a reader delivers
	// before the error or the end.
	stream func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow)
	// releaseFirst releases the reader before reading it.
	releaseFirst bool
	// The error that ends reading: nil for a clean end; else it is
	// wantIs, or it carries wantText, the source's own message. Never
	// io.EOF, nor an error that wraps it.
	wantIs   error
	wantText string
}

func (c contractCase) clean() bool { return c.wantIs == nil && c.wantText == "" }

// cutAt is the stream of records of sizes, cut at the offset where says,
// from the stream's messages, along with how many rows come before it.
func cutAt(where func(t *testing.T, msgs []rawMessage) (cut int, rowsBefore int), sizes ...int) func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow) {
	return func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow) {
		recs, rows := contractRecords(mem, -1, sizes...)
		data := contractStream(t, mem, recs)
		msgs, err := splitMessages(data)
		require.NoError(t, err)
		cut, before := where(t, msgs)
		return data[:cut], rows[:before]
	}
}

var contractCases = []contractCase{
	{
		name: "a clean end: every row, then the end",
		stream: func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow) {
			recs, rows := contractRecords(mem, -1, 3, 0, 5, 1)
			return contractStream(t, mem, recs), rows
		},
	},
	{
		name: "a stream of no record ends cleanly",
		stream: func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow) {
			return contractStream(t, mem, nil), nil
		},
	},
	{
		name: "a record with a null where none is allowed is ErrNull, after every row before it, its own record's too",
		stream: func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow) {
			recs, rows := contractRecords(mem, 9, 3, 4, 5, 2)
			return contractStream(t, mem, recs), rows[:9]
		},
		wantIs: mapper.ErrNull,
	},
	{
		name: "use after Release is ErrClosed",
		stream: func(t *testing.T, mem memory.Allocator) ([]byte, []contractRow) {
			recs, _ := contractRecords(mem, -1, 3, 4)
			return contractStream(t, mem, recs), nil
		},
		releaseFirst: true,
		wantIs:       mapper.ErrClosed,
	},
	{
		name: "a stream cut right after its schema is an error",
		stream: cutAt(func(t *testing.T, msgs []rawMessage) (int, int) {
			require.Equal(t, ipc.MessageSchema, msgs[0].typ)
			return msgs[0].end, 0
		}, 3, 4),
		wantText: "could not read continuation indicator",
	},
	{
		name: "a stream cut between its two dictionaries is an error",
		stream: cutAt(func(t *testing.T, msgs []rawMessage) (int, int) {
			require.Equal(t, ipc.MessageDictionaryBatch, msgs[1].typ)
			require.Equal(t, ipc.MessageDictionaryBatch, msgs[2].typ)
			return msgs[1].end, 0
		}, 3, 4),
		wantText: "could not read continuation indicator",
	},
	{
		name: "a stream cut in the middle of a record's message is an error, after every row before it",
		stream: cutAt(func(t *testing.T, msgs []rawMessage) (int, int) {
			second := msgs[4]
			require.Equal(t, ipc.MessageRecordBatch, second.typ)
			return second.end - len(second.body)/2, 3
		}, 3, 4),
		wantText: "could not read message body",
	},
}

// contractReader is one way of reading: the calls the contract checks.
// again and release are nil for a reader without them.
type contractReader struct {
	// readAll reads every row, as the reader's users loop over it, and
	// returns the rows and the error that ended reading (nil at a clean
	// end); it fails the test if the reader breaks the shape of its loop
	// (an error that is not last, a row after it).
	readAll func(t *testing.T) ([]contractRow, error)
	// again reads once more after readAll: nil is the end again.
	again   func(t *testing.T) error
	release func()
}

// contractDriver opens a reader over the bytes of one stream.
type contractDriver struct {
	name string
	open func(t *testing.T, mem memory.Allocator, data []byte) contractReader
}

// ipcRecords is arrow-go's stream reader over data; a stream cut inside
// its schema would fail here, which no case does.
func ipcRecords(t *testing.T, mem memory.Allocator, data []byte) array.RecordReader {
	t.Helper()
	rr, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	require.NoError(t, err)
	t.Cleanup(rr.Release)
	return rr
}

func newContractReader(t *testing.T, rr array.RecordReader) *mapper.Reader[contractRow] {
	t.Helper()
	r, err := mapper.NewReader[contractRow](rr)
	require.NoError(t, err)
	return r
}

func newContractColumnsReader(t *testing.T, rr array.RecordReader) *mapper.ColumnsReader[contractColumns] {
	t.Helper()
	r, err := mapper.NewColumnsReader[contractColumns](rr)
	require.NoError(t, err)
	return r
}

// readerAll reads r through All.
func readerAll(r *mapper.Reader[contractRow]) contractReader {
	loop := func(t *testing.T) ([]contractRow, error) {
		rows, err := seqRows(t, r.All(), func(row contractRow) []contractRow { return []contractRow{row} })
		require.Equal(t, err, r.Err(), "Err is the error All ended with")
		return rows, err
	}
	return contractReader{
		readAll: loop,
		again: func(t *testing.T) error {
			rows, err := loop(t)
			require.Empty(t, rows)
			return err
		},
		release: r.Release,
	}
}

// readerRead reads r through Read, testing the end with == io.EOF.
func readerRead(r *mapper.Reader[contractRow]) contractReader {
	buf := make([]contractRow, 2)
	return contractReader{
		readAll: func(t *testing.T) ([]contractRow, error) {
			var rows []contractRow
			for {
				n, err := r.Read(buf)
				rows = append(rows, buf[:n]...)
				if err == io.EOF {
					require.NoError(t, r.Err())
					return rows, nil
				}
				if err != nil {
					require.Zero(t, n, "rows come before the error, not with it")
					require.Equal(t, err, r.Err())
					return rows, err
				}
				require.Positive(t, n)
			}
		},
		again: func(t *testing.T) error {
			n, err := r.Read(buf)
			require.Zero(t, n)
			if err == io.EOF {
				return nil
			}
			require.Error(t, err)
			return err
		},
		release: r.Release,
	}
}

func columnsRowsOf(c contractColumns) []contractRow {
	rows := make([]contractRow, c.ID.Len())
	tags, kinds := c.Tag.Dictionary(), c.Kind.Dictionary()
	for i := range rows {
		rows[i] = contractRow{ID: c.ID.Value(i), Name: c.Name.Value(i),
			Tag: tags.Value(c.Tag.Index(i)), Kind: kinds.Value(c.Kind.Index(i))}
	}
	return rows
}

// columnsSeq reads r through seq, All or Windows.
func columnsSeq(r *mapper.ColumnsReader[contractColumns], seq func() func(func(contractColumns, error) bool)) contractReader {
	loop := func(t *testing.T) ([]contractRow, error) {
		rows, err := seqRows(t, seq(), columnsRowsOf)
		require.Equal(t, err, r.Err(), "Err is the error the sequence ended with")
		return rows, err
	}
	return contractReader{
		readAll: loop,
		again: func(t *testing.T) error {
			rows, err := loop(t)
			require.Empty(t, rows)
			require.False(t, r.Next())
			return err
		},
		release: r.Release,
	}
}

// seqRows collects the rows of a sequence, which must yield at most one
// error, last.
func seqRows[V any](t *testing.T, seq func(func(V, error) bool), rowsOf func(V) []contractRow) ([]contractRow, error) {
	t.Helper()
	var rows []contractRow
	var last error
	for v, err := range seq {
		require.NoError(t, last, "nothing comes after the error")
		if err != nil {
			last = err
			continue
		}
		rows = append(rows, rowsOf(v)...)
	}
	return rows, last
}

// relayServer is a Flight server whose DoGet for ticket k sends the
// messages of streams[k], as they are in the bytes. Where the bytes are
// cut, it ends the stream with the error its message reader reported, as
// a server relaying a source cut short must: a Flight stream has no end
// marker of its own, so a stream that just stopped after its schema would
// be an empty result, not a cut one.
type relayServer struct {
	flight.BaseFlightServer
	mu      sync.Mutex
	streams [][]byte
}

// add serves data, under the ticket it returns.
func (s *relayServer) add(data []byte) *flight.Ticket {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streams = append(s.streams, data)
	return &flight.Ticket{Ticket: []byte(strconv.Itoa(len(s.streams) - 1))}
}

func (s *relayServer) DoGet(tkt *flight.Ticket, fs flight.FlightService_DoGetServer) error {
	k, err := strconv.Atoi(string(tkt.Ticket))
	s.mu.Lock()
	streams := s.streams
	s.mu.Unlock()
	if err != nil || k < 0 || k >= len(streams) {
		return status.Errorf(codes.NotFound, "no stream %q", tkt.Ticket)
	}
	msgs, cut := splitMessages(streams[k])
	for _, m := range msgs {
		if err := fs.Send(&flight.FlightData{DataHeader: m.meta, DataBody: m.body}); err != nil {
			return err
		}
	}
	if cut != nil {
		return status.Errorf(codes.DataLoss, "relaying a stream cut short: %v", cut)
	}
	return nil
}

// flightDrivers opens the Flight readers over a relayServer serving the
// bytes they are given.
func flightDrivers(client func(t *testing.T, data []byte) (flight.Client, *flight.Ticket)) []contractDriver {
	return []contractDriver{
		{"FlightStream, read through All", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			c, tkt := client(t, data)
			r, err := amflight.Stream[contractRow](testContext(t), c, tkt)
			require.NoError(t, err)
			return readerAll(r)
		}},
		{"FlightOpen, one endpoint through Source.Client, read through All", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			c, tkt := client(t, data)
			info := &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{Ticket: tkt}}}
			r, err := amflight.Open[contractRow](testContext(t), amflight.Source{Client: c}, info, mapper.Allocator(mem))
			require.NoError(t, err)
			return readerAll(r)
		}},
		{"FlightOpen, one ordered endpoint at the reuse-connection location, read through Read", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			c, tkt := client(t, data)
			info := &flight.FlightInfo{Ordered: true, Endpoint: []*flight.FlightEndpoint{
				{Ticket: tkt, Location: []*flight.Location{{Uri: flight.LocationReuseConnection}}},
			}}
			r, err := amflight.Open[contractRow](testContext(t), amflight.Source{Client: c}, info, mapper.Allocator(mem))
			require.NoError(t, err)
			return readerRead(r)
		}},
		{"FlightOwnedPages", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			c, tkt := client(t, data)
			info := &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{Ticket: tkt}}}
			return contractReader{readAll: func(t *testing.T) ([]contractRow, error) {
				return seqRows(t, amflight.OwnedPages[contractRow](testContext(t), amflight.Source{Client: c}, info, 2), func(page []contractRow) []contractRow {
					require.NotEmpty(t, page)
					require.LessOrEqual(t, len(page), 2)
					return page
				})
			}}
		}},
	}
}

func TestReadersKeepOneContract(t *testing.T) {
	drivers := []contractDriver{
		{"Reader, read through All", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			return readerAll(newContractReader(t, ipcRecords(t, mem, data)))
		}},
		{"Reader, read through Read", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			return readerRead(newContractReader(t, ipcRecords(t, mem, data)))
		}},
		{"ColumnsReader, read through All", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			r := newContractColumnsReader(t, ipcRecords(t, mem, data))
			return columnsSeq(r, func() func(func(contractColumns, error) bool) { return r.All() })
		}},
		{"ColumnsReader, read through Windows", func(t *testing.T, mem memory.Allocator, data []byte) contractReader {
			r := newContractColumnsReader(t, ipcRecords(t, mem, data))
			return columnsSeq(r, func() func(func(contractColumns, error) bool) { return r.Windows(2) })
		}},
	}

	// One server for every Flight case: each stream is served under the
	// ticket of its index.
	relay := &relayServer{}
	var flightClient flight.Client
	drivers = append(drivers, flightDrivers(func(t *testing.T, data []byte) (flight.Client, *flight.Ticket) {
		return flightClient, relay.add(data)
	})...)
	flightClient = serve(t, relay)
	// The client connects at its first call: connect before counting.
	_, err := flightClient.GetFlightInfo(testContext(t), &flight.FlightDescriptor{Type: flight.DescriptorCMD})
	require.Equal(t, codes.Unimplemented, status.Code(err), "%v", err)
	settledGoroutines()

	for _, d := range drivers {
		for _, c := range contractCases {
			t.Run(d.name+": "+c.name, func(t *testing.T) {
				// Counted here, with this test's own goroutine.
				before := runtime.NumGoroutine()
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the readers' cleanups
				data, want := c.stream(t, mem)
				r := d.open(t, mem, data)
				if c.releaseFirst {
					if r.release == nil {
						t.Skip("a reader without Release")
					}
					r.release()
					r.release() // twice is harmless
				} else if r.release != nil {
					defer r.release()
				}

				got, err := r.readAll(t)
				if len(want) == 0 {
					require.Empty(t, got, "no row before the end or the error")
				} else {
					require.Equal(t, want, got, "every row before the end or the error, once, in order")
				}
				requireContractError(t, c, err)
				if r.again != nil {
					requireContractError(t, c, r.again(t))
				}
				if r.release != nil && !c.releaseFirst {
					r.release()
					require.NotPanics(t, func() { err = r.again(t) })
					require.ErrorIs(t, err, mapper.ErrClosed, "a read after Release")
				}
				requireGoroutinesBack(t, before)
			})
		}
	}
}

// settledGoroutines waits until the number of goroutines has not changed
// for 100ms, and returns it: a connection starts some of its goroutines
// after its first call has returned.
func settledGoroutines() int {
	n, since := runtime.NumGoroutine(), time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Since(since) < 100*time.Millisecond && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		if m := runtime.NumGoroutine(); m != n {
			n, since = m, time.Now()
		}
	}
	return n
}

// requireGoroutinesBack waits until at most n goroutines run: those of
// the server and its one connection, none of a reader's.
func requireGoroutinesBack(t *testing.T, n int) {
	t.Helper()
	// Not require.Eventually: it runs the condition on a goroutine of its own.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), n, "no goroutine of the reader outlives it")
}

// requireContractError checks err, the error that ended reading, against
// what c says.
func requireContractError(t *testing.T, c contractCase, err error) {
	t.Helper()
	if c.clean() {
		require.NoError(t, err, "a clean end is no error")
		return
	}
	require.Error(t, err)
	require.False(t, errors.Is(err, io.EOF), "%v is not the end", err)
	if c.wantIs != nil {
		require.ErrorIs(t, err, c.wantIs)
	}
	if c.wantText != "" {
		require.ErrorContains(t, err, c.wantText, "the source's own message is kept")
	}
}
