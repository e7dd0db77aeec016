package mapper_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// fuzzOrder is the row type FuzzReader decodes: a scalar, a nullable
// string, lists of scalars and of structs, a map, a timestamp, a nullable
// struct and a string that the seeds dictionary-encode.
type fuzzOrder struct {
	ID    int64            `arrow:"id"`
	Name  *string          `arrow:"name"`
	Vals  []int64          `arrow:"vals"`
	Items []fuzzItem       `arrow:"items"`
	Attrs map[string]int32 `arrow:"attrs"`
	At    time.Time        `arrow:"at"`
	Meta  *fuzzMeta        `arrow:"meta"`
	Tag   string           `arrow:"tag,nullable"`
}

type fuzzItem struct {
	S string  `arrow:"s"`
	F float64 `arrow:"f"`
}

type fuzzMeta struct {
	Owner string  `arrow:"owner"`
	Score float32 `arrow:"score,nullable"`
}

// fuzzColumns binds what fuzzOrder decodes as typed columns: the struct
// column as a struct of columns, the string that may be dictionary-encoded
// as an arrow.Array.
type fuzzColumns struct {
	ID    views.PrimitiveColumn[int64]                                      `arrow:"id"`
	Name  views.StringColumn                                                `arrow:"name,nullable"`
	Vals  views.ListColumn[views.PrimitiveColumn[int64]]                    `arrow:"vals,nullable"`
	Items views.ListColumn[views.StructColumn]                              `arrow:"items,nullable" arrow-elem:"nullable"`
	Attrs views.MapColumn[views.StringColumn, views.PrimitiveColumn[int32]] `arrow:"attrs,nullable" arrow-value:"nullable"`
	At    views.TimestampColumn                                             `arrow:"at"`
	Meta  struct {
		Owner views.StringColumn             `arrow:"owner"`
		Score views.PrimitiveColumn[float32] `arrow:"score,nullable"`
	} `arrow:"meta"`
	Tag arrow.Array `arrow:"tag"`
}

// The limits of one FuzzReader input.
const (
	fuzzPageSize = 64
	// fuzzMaxLogical bounds the logical size of the records read (see
	// fuzzLogicalSize); inputs past it are not decoded.
	fuzzMaxLogical = 1 << 18
	// Decoding may allocate this much per logical value, per input byte,
	// per record, and once.
	fuzzBytesPerValue  = 256
	fuzzBytesPerByte   = 16
	fuzzBytesPerRecord = 16 << 10
	fuzzBytesOnce      = 64 << 10
	// arrow-go may allocate no buffer larger than this per input byte,
	// plus 1 MiB.
	fuzzBufferPerByte = 64
)

// FuzzReader reads IPC streams through arrow-go's ipc reader (as
// ipc.NewReader makes it, with the size limits it leaves out) and a
// mapper.Reader, page by page. Whatever the bytes, reading must not panic, must not run
// forever, must allocate no more than a fixed multiple of what the records
// hold, must fail only with an *mapper.Error or the source's error, must
// deliver exactly the rows Decode delivers for each record, and must free
// all Arrow memory.
//
// A panic inside arrow-go's ipc reader is arrow-go's, not ours: the input
// is skipped. So is an input whose records hold more values than
// fuzzMaxLogical: Arrow encodes a huge number of values in a few bytes
// through run-end encoding, null arrays, structs without fields and
// overlapping list views, and decoding them into Go values materializes
// every one (see fuzzLogicalSize).
//
// Fuzz it as .ci/fuzz does, with -fuzzminimizetime=0: by default every
// input that finds new coverage is minimized first, for up to 60 s, and
// the worker fuzzes nothing meanwhile (nor reports the executions until it
// is done).
func FuzzReader(f *testing.F) {
	for _, seed := range fuzzReaderSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !arrowGoCanRead(data) {
			t.Skip("arrow-go's ipc reader would allocate what the metadata declares, past the input")
		}
		checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
		mem := &fuzzAllocator{Allocator: checked, limit: fuzzBufferPerByte*len(data) + 1<<20}
		rr, err := newFuzzStreamReader(data, mem)
		if err != nil {
			if !arrowGoRecovered(err) {
				checked.AssertSize(t, 0)
			}
			return
		}
		src := &fuzzRecords{rr: rr}
		defer func() {
			src.releaseRecords()
			rr.Release()
			if src.panicked == nil && !arrowGoRecovered(rr.Err()) {
				checked.AssertSize(t, 0)
			}
		}()
		r, err := mapper.NewReader[fuzzOrder](src, mapper.AllowMissing())
		if err != nil {
			requireFuzzError(t, err)
			return
		}
		defer r.Release()

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		pages, readErr := readFuzzPages(t, r, src)
		runtime.ReadMemStats(&after)
		rows := slices.Concat(pages...) // after the count: the test's copy, not the decoder's

		switch {
		case src.panicked != nil:
			t.Skipf("arrow-go's ipc reader panicked: %v", src.panicked)
		case src.over:
			return // a legitimately huge input: not decoded to the end
		}
		if readErr != nil && !fromSource(readErr, src.Err()) {
			requireFuzzError(t, readErr)
		}

		ours := int64(after.TotalAlloc-before.TotalAlloc) - int64(src.alloc)
		rowBytes := int64(len(rows)) * int64(unsafe.Sizeof(fuzzOrder{}))
		budget := fuzzBytesPerValue*src.logical + fuzzBytesPerByte*int64(len(data)) +
			fuzzBytesPerRecord*int64(src.records) + 3*rowBytes + fuzzBytesOnce
		require.LessOrEqual(t, ours, budget,
			"decoding %d rows (%d values) from %d bytes allocated %d bytes", len(rows), src.logical, len(data), ours)

		// The pages are, row for row, what Decode makes of each record,
		// up to the first record Decode rejects; the Reader fails there,
		// with Decode's error at the row of the stream, naming the record.
		var want []fuzzOrder
		var wantErr error
		m, err := mapper.New[fuzzOrder](rr.Schema(), mapper.AllowMissing())
		require.NoError(t, err)
		for k, rec := range src.recs {
			before := len(want)
			if want, wantErr = m.Append(want, rec); wantErr != nil {
				if me, ok := wantErr.(*mapper.Error); ok {
					moved := *me
					moved.Record = k
					if moved.Row >= 0 {
						moved.Row += before
					}
					wantErr = &moved
				}
				break
			}
		}
		requireFuzzRows(t, want, rows)
		readFuzzColumns(t, rr.Schema(), src.recs, want)
		switch {
		case wantErr != nil:
			require.Error(t, readErr, "Decode failed with %v", wantErr)
			require.Equal(t, wantErr.Error(), readErr.Error())
		case src.Err() != nil:
			require.True(t, fromSource(readErr, src.Err()), "%v does not report the source's %v", readErr, src.Err())
		default:
			require.NoError(t, readErr)
		}
	})
}

// newFuzzStreamReader is ipc.NewReader over data, with the size limits
// ipc.NewReader leaves out: it makes its message reader without the metadata
// and body size limits that ipc.NewMessageReader applies, so that a stream
// of 5 bytes declaring 2 GiB of metadata makes it allocate 2 GiB before it
// reads on. No message of a stream is longer than the stream.
func newFuzzStreamReader(data []byte, mem memory.Allocator) (*ipc.Reader, error) {
	limit := int64(max(len(data), 1))
	msgs := ipc.NewMessageReader(bytes.NewReader(data), ipc.WithAllocator(mem),
		ipc.WithMetadataSizeLimit(limit), ipc.WithBodySizeLimit(limit))
	return ipc.NewReaderFromMessageReader(msgs, ipc.WithAllocator(mem))
}

// arrowGoCanRead reports whether arrow-go's ipc reader can read data
// without a fatal out-of-memory error, which no recover stops. arrow-go
// sizes slices from counts in the flatbuffer metadata without checking them
// against the metadata's size: make([]arrow.Field, n) for a field's children
// and a schema's fields, make([]string, n) for custom metadata, and
// make([]*memory.Buffer, 0, 2+n) for the variadic buffers of a view column;
// so a kilobyte of stream can ask for terabytes. It walks the messages of
// the stream and checks each such count against the bytes that would hold
// it. Inputs it rejects are arrow-go's problem, not the mapper's.
func arrowGoCanRead(data []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false // metadata too broken to walk: arrow-go's to reject, or crash on
		}
	}()
	views := 0 // the view columns of the schema, at any depth
	for len(data) >= 4 {
		size := int64(int32(binary.LittleEndian.Uint32(data)))
		data = data[4:]
		if size == -1 { // the continuation marker, then the size
			if len(data) < 4 {
				return true
			}
			size = int64(int32(binary.LittleEndian.Uint32(data)))
			data = data[4:]
		}
		if size < 4 || size > int64(len(data)) {
			return true // the end, or an error arrow-go reports
		}
		meta := data[:size]
		data = data[size:]
		msg := fbTable{b: meta, pos: fbU32(meta, 0)}
		if !msg.vectorFits(12, 4) { // Message.custom_metadata
			return false
		}
		header := msg.table(8)
		switch msg.byte(6) { // Message.header_type
		case 1: // Schema: fields, custom_metadata
			views = 0
			if !header.vectorFits(6, 4) || !header.vectorFits(8, 4) || !header.fieldsFit(6, 0, &views) {
				return false
			}
		case 2: // DictionaryBatch: its data is a RecordBatch
			if !header.table(6).recordBatchFits(views) {
				return false
			}
		case 3: // RecordBatch
			if !header.recordBatchFits(views) {
				return false
			}
		}
		body := msg.int64(10) // Message.bodyLength
		if body < 0 || body > int64(len(data)) {
			return true
		}
		data = data[body:]
	}
	return true
}

// fbTable is a flatbuffer table at pos of b, read as arrow-go's generated
// code reads it; an absent table has b == nil and no fields. Reads out of
// range panic, as arrow-go's do.
type fbTable struct {
	b   []byte
	pos int
}

func fbU32(b []byte, at int) int { return int(binary.LittleEndian.Uint32(b[at:])) }

// field is where field f (a vtable offset) of t is, or 0 when absent.
func (t fbTable) field(f int) int {
	if t.b == nil {
		return 0
	}
	vtable := t.pos - int(int32(binary.LittleEndian.Uint32(t.b[t.pos:])))
	if f >= int(binary.LittleEndian.Uint16(t.b[vtable:])) {
		return 0
	}
	if o := int(binary.LittleEndian.Uint16(t.b[vtable+f:])); o != 0 {
		return t.pos + o
	}
	return 0
}

func (t fbTable) byte(f int) byte {
	if at := t.field(f); at != 0 {
		return t.b[at]
	}
	return 0
}

func (t fbTable) int64(f int) int64 {
	if at := t.field(f); at != 0 {
		return int64(binary.LittleEndian.Uint64(t.b[at:]))
	}
	return 0
}

// table is the table field f refers to (a table or a union's value).
func (t fbTable) table(f int) fbTable {
	if at := t.field(f); at != 0 {
		return fbTable{b: t.b, pos: at + fbU32(t.b, at)}
	}
	return fbTable{}
}

// vector is where the elements of the vector in field f start, and how
// many there are.
func (t fbTable) vector(f int) (start, n int) {
	if at := t.field(f); at != 0 {
		at += fbU32(t.b, at)
		return at + 4, fbU32(t.b, at)
	}
	return 0, 0
}

// vectorFits reports whether the vector in field f, of elements of
// elemSize bytes, fits in the buffer.
func (t fbTable) vectorFits(f, elemSize int) bool {
	_, n := t.vector(f)
	return n*elemSize <= len(t.b)
}

// fieldsFit checks every Field of the vector of tables in field f
// (Schema.fields, Field.children), their children, and so on down, and
// adds the binary and utf8 view fields among them to views.
func (t fbTable) fieldsFit(f, depth int, views *int) bool {
	start, n := t.vector(f)
	if n > 0 && depth > 64 {
		return false
	}
	for i := range n {
		at := start + 4*i
		field := fbTable{b: t.b, pos: at + fbU32(t.b, at)}
		// Field.children and Field.custom_metadata
		if !field.vectorFits(14, 4) || !field.vectorFits(16, 4) || !field.fieldsFit(14, depth+1, views) {
			return false
		}
		if typ := field.byte(8); typ == 23 || typ == 24 { // Field.type_type: BinaryView, Utf8View
			*views++
		}
	}
	return true
}

// recordBatchFits checks a RecordBatch's nodes, buffers and variadic buffer
// counts: no count may exceed the buffers there are. arrow-go reads a
// count for each of the schema's views, up to views of them, past the end
// of the vector when it is shorter (flatbuffers' accessor does not check
// the index): what lies there is a count too.
func (t fbTable) recordBatchFits(views int) bool {
	if !t.vectorFits(6, 16) || !t.vectorFits(8, 16) || !t.vectorFits(12, 8) {
		return false
	}
	_, buffers := t.vector(8)
	start, n := t.vector(12)
	if t.field(12) == 0 {
		return true // no vector: every count is 0
	}
	for i := range max(n, views) {
		if start+8*i+8 > len(t.b) {
			break // past the buffer: arrow-go's read panics, and is recovered
		}
		if c := int64(binary.LittleEndian.Uint64(t.b[start+8*i:])); c < 0 || c > int64(buffers) {
			return false
		}
	}
	return true
}

// readFuzzPages reads every row of r in pages, each copied. Every page but
// the last is full, and the pages hold no more rows than the records src
// handed out: a Reader that repeats rows, or never stops, fails here.
func readFuzzPages(t *testing.T, r *mapper.Reader[fuzzOrder], src *fuzzRecords) (pages [][]fuzzOrder, err error) {
	rows, short := 0, false
	for page, perr := range r.Pages(fuzzPageSize) {
		if perr != nil {
			return pages, perr
		}
		require.False(t, short, "page %d follows a short page", len(pages)+1)
		require.LessOrEqual(t, len(page), fuzzPageSize)
		short = len(page) < fuzzPageSize
		// Each page copied once, no slice of every row grown by append:
		// its regrowths (a quarter at a time past 256 elements) would
		// count several times the rows against the decoder's budget.
		pages = append(pages, slices.Clone(page))
		rows += len(page)
		require.LessOrEqual(t, int64(rows), src.rows, "page %d: more rows than the %d records read hold", len(pages), src.records)
	}
	return pages, nil
}

// readFuzzColumns reads recs through a ColumnsReader[fuzzColumns], in
// pages, every row of every column: it may fail only with an *mapper.Error,
// and the rows it reads agree with want, what Decode read of recs.
func readFuzzColumns(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch, want []fuzzOrder) {
	rr, err := array.NewRecordReader(schema, recs)
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewColumnsReader[fuzzColumns](rr, mapper.AllowMissing())
	if err != nil {
		requireFuzzError(t, err)
		return
	}
	defer r.Release()
	at := 0
	for page, err := range r.Windows(fuzzPageSize) {
		if err != nil {
			requireFuzzError(t, err)
			return
		}
		// A column the schema lacks is the zero column, of no rows.
		n := max(page.ID.Len(), page.Name.Len(), page.Vals.Len(), page.Items.Len(), page.Attrs.Len(),
			page.At.Len(), page.Meta.Owner.Len(), page.Meta.Score.Len())
		has := func(c interface{ Len() int }) bool { return c.Len() == n }
		for i := range n {
			if at < len(want) {
				w := want[at]
				if has(page.ID) {
					require.Equal(t, w.ID, page.ID.Value(i), "row %d", at)
				}
				if has(page.Name) {
					require.Equal(t, w.Name == nil, page.Name.IsNull(i), "row %d", at)
					if w.Name != nil {
						require.Equal(t, *w.Name, page.Name.Value(i), "row %d", at)
					}
				}
				if has(page.Vals) {
					require.Equal(t, len(w.Vals), page.Vals.ValueLen(i), "row %d", at)
				}
				if has(page.Items) {
					require.Equal(t, len(w.Items), page.Items.ValueLen(i), "row %d", at)
				}
				if has(page.Attrs) {
					require.Equal(t, len(w.Attrs), page.Attrs.ValueLen(i), "row %d", at)
				}
				if has(page.At) {
					require.True(t, w.At.Equal(page.At.Value(i)), "row %d", at)
				}
				if has(page.Meta.Owner) && w.Meta != nil {
					require.Equal(t, w.Meta.Owner, page.Meta.Owner.Value(i), "row %d", at)
				}
			}
			if has(page.Vals) {
				for range page.Vals.Value(i).All() {
				}
			}
			if has(page.Items) {
				for _, item := range page.Items.Value(i).All() {
					for k := range item.NumField() {
						item.Value(k)
					}
				}
			}
			if has(page.Attrs) {
				entries := page.Attrs.Value(i)
				for k := range entries.Keys.Len() {
					entries.Keys.Value(k)
					entries.Values.IsNull(k)
				}
			}
			if has(page.Meta.Score) {
				page.Meta.Score.IsNull(i)
			}
			at++
		}
	}
}

// fromSource reports whether err is how a Reader reports srcErr, its
// source's error: wrapped, or when srcErr wraps io.EOF, an
// io.ErrUnexpectedEOF error that does not wrap it (mapper.SourceError).
func fromSource(err, srcErr error) bool {
	if errors.Is(srcErr, io.EOF) {
		return errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) && strings.Contains(err.Error(), srcErr.Error())
	}
	return errors.Is(err, srcErr)
}

// requireFuzzError checks that err is an *mapper.Error wrapping one of
// the sentinels.
func requireFuzzError(t *testing.T, err error) {
	t.Helper()
	var merr *mapper.Error
	require.ErrorAs(t, err, &merr, "an error that is not a *mapper.Error: %v", err)
	for _, kind := range []error{mapper.ErrInvalidData, mapper.ErrNull, mapper.ErrTypeMismatch,
		mapper.ErrOverflow, mapper.ErrMissingColumn, mapper.ErrUnsupported, mapper.ErrTag, mapper.ErrDuplicateKey} {
		if errors.Is(err, kind) {
			return
		}
	}
	t.Fatalf("an error that wraps no sentinel: %v", err)
}

// requireFuzzRows compares rows value by value, a NaN equal to itself.
func requireFuzzRows(t *testing.T, want, got []fuzzOrder) {
	t.Helper()
	require.Equal(t, len(want), len(got), "rows")
	for i := range want {
		if !fuzzSameValue(reflect.ValueOf(want[i]), reflect.ValueOf(got[i])) {
			t.Fatalf("row %d: Decode made\n%+v\nthe pages\n%+v", i, want[i], got[i])
		}
	}
}

func fuzzSameValue(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return fuzzSameValue(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !fuzzSameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); !bv.IsValid() || !fuzzSameValue(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if a.Type() == reflect.TypeFor[time.Time]() {
			x, y := a.Interface().(time.Time), b.Interface().(time.Time)
			return x.Equal(y) && x.Location().String() == y.Location().String()
		}
		for i := range a.NumField() {
			if !fuzzSameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}

// fuzzRecords is the record reader FuzzReader hands the mapper: it
// recovers a panic of arrow-go's own Next, counts what arrow-go allocates
// and the logical size of the records, stops past fuzzMaxLogical, and keeps
// every record to decode it again.
type fuzzRecords struct {
	rr       array.RecordReader
	panicked any
	alloc    uint64 // bytes allocated inside the source's Next
	logical  int64  // the logical size of the records so far
	over     bool   // logical passed fuzzMaxLogical
	records  int    // records handed out, with rows or not
	rows     int64  // the rows of those records
	recs     []arrow.RecordBatch
}

func (g *fuzzRecords) Next() bool {
	if g.panicked != nil || g.over {
		return false
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ok := g.sourceNext()
	runtime.ReadMemStats(&after)
	g.alloc += after.TotalAlloc - before.TotalAlloc
	if !ok {
		return false
	}
	rec := g.rr.RecordBatch()
	g.records++
	g.logical += rec.NumRows()
	for _, col := range rec.Columns() {
		g.logical += fuzzLogicalSize(col.Data(), 0)
	}
	if g.logical > fuzzMaxLogical || rec.NumRows() > fuzzMaxLogical {
		g.over = true
		return false
	}
	g.rows += rec.NumRows()
	rec.Retain()
	g.recs = append(g.recs, rec)
	return true
}

// sourceNext is the only call into arrow-go whose panic is recovered.
func (g *fuzzRecords) sourceNext() (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			g.panicked, ok = p, false
		}
	}()
	return g.rr.Next()
}

// arrowGoRecovered reports whether err is a panic that arrow-go's ipc
// reader recovered itself: it leaks the message body it was reading then
// (a CheckedAllocator reports the buffer of memory.(*Buffer).Resize).
func arrowGoRecovered(err error) bool {
	return err != nil && strings.Contains(err.Error(), "unknown error while reading")
}

func (g *fuzzRecords) releaseRecords() {
	for _, rec := range g.recs {
		rec.Release()
	}
	g.recs = nil
}

func (g *fuzzRecords) Schema() *arrow.Schema          { return g.rr.Schema() }
func (g *fuzzRecords) RecordBatch() arrow.RecordBatch { return g.rr.RecordBatch() }
func (g *fuzzRecords) Record() arrow.RecordBatch      { return g.rr.RecordBatch() }
func (g *fuzzRecords) Retain()                        { g.rr.Retain() }
func (g *fuzzRecords) Release()                       { g.rr.Release() }
func (g *fuzzRecords) Err() error                     { return g.rr.Err() }

// fuzzLogicalSize is how many values d holds, counting every child, the
// dictionary, and for a list view every row as reaching the whole child:
// what decoding it into Go values may materialize, whatever its size in
// bytes. It reads lengths only, never buffers, which are not validated yet.
func fuzzLogicalSize(d arrow.ArrayData, depth int) int64 {
	if d == nil || depth > 64 {
		return 0
	}
	n := max(int64(d.Len()), 0)
	for _, c := range d.Children() {
		size := fuzzLogicalSize(c, depth+1)
		if id := d.DataType().ID(); id == arrow.LIST_VIEW || id == arrow.LARGE_LIST_VIEW {
			size = min(size*max(n, 1), fuzzMaxLogical+1) // rows may overlap: each may reach all
		}
		n += size
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += fuzzLogicalSize(dict, depth+1)
	}
	return min(n, fuzzMaxLogical+1)
}

// fuzzAllocator panics on any allocation past limit, before making it:
// arrow-go sizes buffers from lengths the input declares, and a few bytes
// of stream must not make it allocate gigabytes. arrow-go's ipc reader
// turns the panic into an error.
type fuzzAllocator struct {
	memory.Allocator
	limit int
}

func (a *fuzzAllocator) Allocate(n int) []byte {
	a.check(n)
	return a.Allocator.Allocate(n)
}

func (a *fuzzAllocator) Reallocate(n int, b []byte) []byte {
	a.check(n)
	return a.Allocator.Reallocate(n, b)
}

func (a *fuzzAllocator) check(n int) {
	if n > a.limit {
		panic(fmt.Sprintf("fuzz: an allocation of %d bytes, past the limit of %d", n, a.limit))
	}
}

// fuzzOrderSchema is the schema of the seeds; fuzzEncodedSchema holds the
// same values in other encodings: large, view and run-end encoded.
var (
	fuzzItemType = arrow.StructOf(
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "f", Type: arrow.PrimitiveTypes.Float64})
	fuzzMetaType = arrow.StructOf(
		arrow.Field{Name: "owner", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "score", Type: arrow.PrimitiveTypes.Float32, Nullable: true})
	fuzzOrderSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "vals", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "items", Type: arrow.ListOf(fuzzItemType), Nullable: true},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "meta", Type: fuzzMetaType, Nullable: true},
		{Name: "tag", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, Nullable: true},
	}, nil)
	fuzzEncodedSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)},
		{Name: "name", Type: arrow.BinaryTypes.StringView, Nullable: true},
		{Name: "vals", Type: arrow.ListViewOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "items", Type: arrow.LargeListOf(fuzzItemType), Nullable: true},
		{Name: "at", Type: arrow.FixedWidthTypes.Date32},
		{Name: "meta", Type: fuzzMetaType, Nullable: true},
		{Name: "tag", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	}, nil)
)

// fuzzOrderJSON is n rows of fuzzOrderSchema from row first on, as JSON;
// with nulls, every nullable level holds some.
func fuzzOrderJSON(first, n int, nulls bool) string {
	var b strings.Builder
	b.WriteString("[")
	for i := first; i < first+n; i++ {
		if i > first {
			b.WriteString(",")
		}
		null := nulls && i%3 == 1
		name, vals, items, attrs, meta, tag := fmt.Sprintf("%q", fmt.Sprint("name ", i)), fmt.Sprintf("[%d, %d]", i, -i),
			fmt.Sprintf(`[{"s": "item %d", "f": %d.5}]`, i, i), fmt.Sprintf(`[{"key": "k%d", "value": %d}]`, i%4, i),
			fmt.Sprintf(`{"owner": "owner %d", "score": %d.25}`, i%2, i), fmt.Sprintf("%q", []string{"red", "green", "blue"}[i%3])
		if null {
			name, vals, items, attrs, meta, tag = "null", "null", "null", "null", "null", "null"
		}
		fmt.Fprintf(&b, `{"id": %d, "name": %s, "vals": %s, "items": %s, "attrs": %s, "at": %d, "meta": %s, "tag": %s}`,
			i, name, vals, items, attrs, int64(i)*1_000_003, meta, tag)
	}
	b.WriteString("]")
	return b.String()
}

// fuzzReaderSeeds are valid streams that ipc.NewWriter wrote, and a few
// damaged ones.
func fuzzReaderSeeds(tb testing.TB) [][]byte {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(tb, 0)
	record := func(schema *arrow.Schema, rows string) arrow.RecordBatch {
		rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(rows))
		require.NoError(tb, err)
		return rec
	}
	stream := func(schema *arrow.Schema, opts []ipc.Option, rows ...string) []byte {
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, append([]ipc.Option{ipc.WithSchema(schema), ipc.WithAllocator(mem)}, opts...)...)
		for _, r := range rows {
			rec := record(schema, r)
			require.NoError(tb, w.Write(rec))
			rec.Release()
		}
		require.NoError(tb, w.Close())
		return buf.Bytes()
	}
	var many []string
	for k := range 6 {
		many = append(many, fuzzOrderJSON(10*k, k+1, k%2 == 1))
	}
	valid := [][]byte{
		stream(fuzzOrderSchema, nil), // a schema and no records
		stream(fuzzOrderSchema, nil, fuzzOrderJSON(0, 3, false)),
		stream(fuzzOrderSchema, nil, fuzzOrderJSON(0, 70, true)),
		stream(fuzzOrderSchema, nil, many...),
		stream(fuzzOrderSchema, nil, "[]", fuzzOrderJSON(0, 2, true), "[]"),
		stream(fuzzOrderSchema, []ipc.Option{ipc.WithLZ4()}, fuzzOrderJSON(0, 5, true)),
		stream(fuzzOrderSchema, nil, `[{"id": 1, "at": 0, "items": [{"s": null, "f": 1}]}]`), // a null where none may be
		stream(fuzzEncodedSchema, nil, `[{"id": 7, "name": "a string longer than twelve bytes", "vals": [1, 2], "items": [], "at": 19000, "tag": "x"},
			{"id": 7, "name": null, "vals": null, "items": [{"s": "t", "f": -0.5}], "at": 1, "meta": {"owner": "o", "score": null}, "tag": null}]`),
	}
	seeds := append([][]byte(nil), valid...)
	for _, v := range valid[1:4] {
		seeds = append(seeds, v[:len(v)/2], v[:len(v)-9]) // truncated in a body, and before the end marker
		for _, at := range []int{len(v) / 3, len(v) * 2 / 3, len(v) - 20} {
			flipped := bytes.Clone(v)
			flipped[at] ^= 0x80
			seeds = append(seeds, flipped)
		}
	}
	return seeds
}

// TestReaderPagesOfABigDictionaryCostTheirRows reads a dictionary column
// whose rows refer to entries far apart, in pages: each page must decode
// the entries its rows use, not every entry between them. It did, and
// reading 200,000 rows over 20,000 entries in pages of 64 allocated 1.3 GB,
// 250 times what Decode allocates for the whole record: the allocation
// bound FuzzReader asserts, and quadratic in the stream's size.
func TestReaderPagesOfABigDictionaryCostTheirRows(t *testing.T) {
	type row struct {
		Tag *string `arrow:"tag"`
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const entries, rows = 20000, 20000
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	vb := array.NewStringBuilder(mem)
	for e := range entries {
		vb.Append(fmt.Sprint("entry ", e))
	}
	values := vb.NewArray()
	vb.Release()
	ib := array.NewInt32Builder(mem)
	for i := range rows {
		switch i % 3 {
		case 0:
			ib.Append(0)
		case 1:
			ib.Append(int32(entries - 1 - i%7))
		default:
			ib.AppendNull()
		}
	}
	indices := ib.NewArray()
	ib.Release()
	column := array.NewDictionaryArray(dt, indices, values)
	indices.Release()
	values.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "tag", Type: dt, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{column}, rows)
	column.Release()
	defer rec.Release()
	rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewReader[row](rr)
	require.NoError(t, err)
	defer r.Release()

	var before, after runtime.MemStats
	got := make([]row, 0, rows)
	runtime.ReadMemStats(&before)
	for page, err := range r.Pages(fuzzPageSize) {
		require.NoError(t, err)
		got = append(got, page...)
	}
	runtime.ReadMemStats(&after)
	require.Len(t, got, rows)
	allocated := after.TotalAlloc - before.TotalAlloc
	require.Less(t, allocated, uint64(64*rows+1<<20), "reading %d rows in pages allocated %d bytes", rows, allocated)

	dict := rec.Column(0).(*array.Dictionary)
	for i, g := range got {
		if dict.IsNull(i) {
			require.Nil(t, g.Tag, "row %d", i)
			continue
		}
		want := dict.Dictionary().(*array.String).Value(dict.GetValueIndex(i))
		require.NotNil(t, g.Tag, "row %d", i)
		require.Equal(t, want, *g.Tag, "row %d", i)
	}
}
