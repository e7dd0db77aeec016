package ipcschema

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// message is one message of a stream: its flatbuffer and its body, and
// the stream's schema.
type message struct {
	meta, body []byte
	schema     *Schema
}

// batchMessages writes a record of 100 int64 and 100 strings, the ints
// with nulls, as an IPC stream with opts, and returns its messages after
// the schema.
func batchMessages(t *testing.T, opts ...arrowipc.Option) []message {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String},
	}, nil)
	ints := array.NewInt64Builder(memory.DefaultAllocator)
	strs := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 100 {
		if i%7 == 0 {
			ints.AppendNull()
		} else {
			ints.Append(int64(i))
		}
		strs.Append("value")
	}
	a, b := ints.NewArray(), strs.NewArray()
	rec := array.NewRecordBatch(schema, []arrow.Array{a, b}, 100)
	a.Release()
	b.Release()
	defer rec.Release()
	var buf bytes.Buffer
	w := arrowipc.NewWriter(&buf, append(opts, arrowipc.WithSchema(schema))...)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	var out []message
	stream := buf.Bytes()
	for len(stream) >= 8 && binary.LittleEndian.Uint32(stream[4:]) > 0 {
		n := int(binary.LittleEndian.Uint32(stream[4:]))
		meta := stream[8 : 8+n]
		size, err := bodyLength(meta)
		require.NoError(t, err)
		out = append(out, message{meta: bytes.Clone(meta), body: bytes.Clone(stream[8+n : 8+n+int(size)])})
		stream = stream[8+n+int(size):]
	}
	require.Len(t, out, 2, "the schema and the record batch")
	schemaOf, err := SchemaOfMessage(out[0].meta)
	require.NoError(t, err)
	out[1].schema = schemaOf
	return out[1:]
}

// batchOf is the RecordBatch table of the record batch message meta.
func batchOf(t *testing.T, meta []byte) fbTable {
	t.Helper()
	fb := &flatbuffer{buf: meta}
	msg, err := fb.root()
	require.NoError(t, err)
	batch, ok, err := msg.subtable(2)
	require.NoError(t, err)
	require.True(t, ok)
	return batch
}

func TestCheckBatchPassesWhatArrowGoWrites(t *testing.T) {
	for _, opts := range [][]arrowipc.Option{nil, {arrowipc.WithLZ4()}, {arrowipc.WithZstd()}} {
		for _, m := range batchMessages(t, opts...) {
			require.NoError(t, CheckBatch(m.meta, BodyAt(m.body), int64(len(m.body)), 0, m.schema, nil))
		}
	}
}

func TestCheckBatchRefusesWhatArrowGoWouldTrust(t *testing.T) {
	put64 := func(b []byte, v int64) { binary.LittleEndian.PutUint64(b, uint64(v)) }
	tests := []struct {
		name   string
		opts   []arrowipc.Option
		damage func(t *testing.T, m *message)
		want   string
	}{
		{"a negative row count", nil, func(t *testing.T, m *message) {
			at, _ := batchOf(t, m.meta).field(0, 8)
			put64(m.meta[at:], -1)
		}, "a record batch of -1 rows"},
		{"a field node of negative length", nil, func(t *testing.T, m *message) {
			start, _, _ := batchOf(t, m.meta).vector(1, fieldNodeSize)
			put64(m.meta[start:], -5)
		}, "field node 0 of -5 values"},
		{"a negative null count", nil, func(t *testing.T, m *message) {
			start, _, _ := batchOf(t, m.meta).vector(1, fieldNodeSize)
			put64(m.meta[start+8:], -2)
		}, "field node 0 of 100 values, -2 of them null"},
		{"a buffer past the body", nil, func(t *testing.T, m *message) {
			start, _, _ := batchOf(t, m.meta).vector(2, bufferSize)
			put64(m.meta[start+8:], int64(len(m.body))+1)
		}, "buffer 0 of"},
		{"a buffer at a negative offset", nil, func(t *testing.T, m *message) {
			start, _, _ := batchOf(t, m.meta).vector(2, bufferSize)
			put64(m.meta[start:], -8)
		}, "buffer 0 of"},
		{"a buffer whose end overflows", nil, func(t *testing.T, m *message) {
			start, _, _ := batchOf(t, m.meta).vector(2, bufferSize)
			put64(m.meta[start:], 8)
			put64(m.meta[start+8:], 1<<63-1)
		}, "buffer 0 of 9223372036854775807 bytes at 8"},
		{"a codec arrow-go does not know", []arrowipc.Option{arrowipc.WithZstd()}, func(t *testing.T, m *message) {
			c, _, _ := batchOf(t, m.meta).subtable(3)
			at, _ := c.field(0, 1) // ZSTD, 1, is stored; LZ4_FRAME, the default, is not
			require.NotZero(t, at)
			m.meta[at] = 7
		}, "codec 7"},
		{"a compressed buffer shorter than its prefix", []arrowipc.Option{arrowipc.WithZstd()}, func(t *testing.T, m *message) {
			start, n, _ := batchOf(t, m.meta).vector(2, bufferSize)
			for i := range n {
				at := start + i*bufferSize
				if binary.LittleEndian.Uint64(m.meta[at+8:]) > 0 {
					put64(m.meta[at+8:], 5)
					return
				}
			}
			t.Fatal("no buffer")
		}, "shorter than its length prefix"},
		{"a negative uncompressed length", []arrowipc.Option{arrowipc.WithZstd()}, func(t *testing.T, m *message) {
			start, _, _ := batchOf(t, m.meta).vector(2, bufferSize)
			put64(m.body[binary.LittleEndian.Uint64(m.meta[start:]):], -3)
		}, "claims -3 bytes uncompressed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := batchMessages(t, tt.opts...)[0]
			tt.damage(t, &m)
			err := CheckBatch(m.meta, BodyAt(m.body), int64(len(m.body)), 0, m.schema, nil)
			require.ErrorIs(t, err, ErrMalformed)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestCheckBatchBoundsTheSumOfWhatTheBuffersClaim(t *testing.T) {
	for _, opts := range [][]arrowipc.Option{{arrowipc.WithLZ4()}, {arrowipc.WithZstd()}} {
		m := batchMessages(t, opts...)[0]
		start, n, verr := batchOf(t, m.meta).vector(2, bufferSize)
		require.NoError(t, verr)
		var prefixes []int
		for i := range n {
			at := start + i*bufferSize
			if binary.LittleEndian.Uint64(m.meta[at+8:]) >= 8 {
				prefixes = append(prefixes, int(binary.LittleEndian.Uint64(m.meta[at:])))
			}
		}
		require.GreaterOrEqual(t, len(prefixes), 3, "the compressed buffers")
		body := int64(len(m.body))
		limit := expansion.Limit(body, 0)
		claim := func(sizes ...int64) error {
			b := bytes.Clone(m.body)
			for i, at := range prefixes {
				binary.LittleEndian.PutUint64(b[at:], uint64(sizes[i%len(sizes)]))
			}
			return CheckBatch(m.meta, BodyAt(b), body, 0, m.schema, nil)
		}
		each := limit / int64(len(prefixes))
		require.NoError(t, claim(each), "every buffer a share of the limit")
		rest := limit - each*int64(len(prefixes)-1)
		require.NoError(t, claim(append(repeat(each, len(prefixes)-1), rest)...), "the limit in all")
		err := claim(append(repeat(each, len(prefixes)-1), rest+1)...)
		require.ErrorIs(t, err, expansion.ErrTooLarge, "a byte past it in all")
		require.ErrorIs(t, claim(1<<62, 1<<62), expansion.ErrTooLarge, "claims whose sum overflows")
		require.NoError(t, claim(-1), "buffers stored uncompressed claim nothing")
	}
}

func repeat(v int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestCheckBatchOfAnyDamageIsNilOrAnErrorNeverAPanic(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, opts := range [][]arrowipc.Option{nil, {arrowipc.WithLZ4()}, {arrowipc.WithZstd()}} {
		m := batchMessages(t, opts...)[0]
		for n := range len(m.meta) {
			_ = CheckBatch(m.meta[:n], BodyAt(m.body), int64(len(m.body)), 0, m.schema, nil)
		}
		for range 20000 {
			meta, body := bytes.Clone(m.meta), bytes.Clone(m.body)
			for range 1 + rng.IntN(4) {
				b := meta
				if rng.IntN(4) == 0 {
					b = body
				}
				b[rng.IntN(len(b))] = []byte{0, 0xFF, byte(rng.Uint32()), 0x80}[rng.IntN(4)]
			}
			require.NotPanics(t, func() { _ = CheckBatch(meta, BodyAt(body), int64(len(body)), 0, m.schema, nil) }, "seed %d", seed)
		}
	}
}

// dictionaryMessages writes a stream of two records of a ZSTD-compressed
// dictionary column, the second's dictionary growing the first's, and
// returns its two dictionary batches: the first, and the delta.
func dictionaryMessages(t *testing.T) (first, delta message) {
	t.Helper()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt}}, nil)
	var buf bytes.Buffer
	w := arrowipc.NewWriter(&buf, arrowipc.WithSchema(schema), arrowipc.WithZstd(), arrowipc.WithDictionaryDeltas(true))
	for _, values := range [][]string{{"oslo", "lima"}, {"oslo", "lima", "pune"}} {
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		sb.AppendValues(values, nil)
		dict := sb.NewArray()
		ib := array.NewInt32Builder(memory.DefaultAllocator)
		ib.AppendValues([]int32{0, 1}, nil)
		idx := ib.NewArray()
		col := array.NewDictionaryArray(dt, idx, dict)
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, 2)
		require.NoError(t, w.Write(rec))
		for _, r := range []interface{ Release() }{rec, col, idx, ib, dict, sb} {
			r.Release()
		}
	}
	require.NoError(t, w.Close())
	var dicts []message
	var streamSchema *Schema
	stream := buf.Bytes()
	for len(stream) >= 8 && binary.LittleEndian.Uint32(stream[4:]) > 0 {
		n := int(binary.LittleEndian.Uint32(stream[4:]))
		meta := stream[8 : 8+n]
		size, err := bodyLength(meta)
		require.NoError(t, err)
		switch kind, _ := messageKind(meta); kind {
		case HeaderSchema:
			streamSchema, err = SchemaOfMessage(meta)
			require.NoError(t, err)
		case headerDictionaryBatch:
			dicts = append(dicts, message{bytes.Clone(meta), bytes.Clone(stream[8+n : 8+n+int(size)]), streamSchema})
		}
		stream = stream[8+n+int(size):]
	}
	require.Len(t, dicts, 2, "the dictionary and its delta")
	return dicts[0], dicts[1]
}

// claiming is m with each compressed buffer claiming size bytes, and how
// many there are.
func claiming(t *testing.T, m message, size int64) (message, int) {
	t.Helper()
	fb := &flatbuffer{buf: m.meta}
	msg, err := fb.root()
	require.NoError(t, err)
	header, _, err := msg.subtable(2)
	require.NoError(t, err)
	data, _, err := header.subtable(1)
	require.NoError(t, err)
	start, n, err := data.vector(2, bufferSize)
	require.NoError(t, err)
	body := bytes.Clone(m.body)
	k := 0
	for i := range n {
		at := start + i*bufferSize
		if binary.LittleEndian.Uint64(m.meta[at+8:]) >= 8 {
			binary.LittleEndian.PutUint64(body[binary.LittleEndian.Uint64(m.meta[at:]):], uint64(size))
			k++
		}
	}
	return message{m.meta, body, m.schema}, k
}

func TestTheDictionariesOfAStreamClaimWithinTheBytesOfAllTheirBodies(t *testing.T) {
	first, delta := dictionaryMessages(t)
	check := func(dicts *Dictionaries, m message, each int64) error {
		m, _ = claiming(t, m, each)
		return CheckBatch(m.meta, BodyAt(m.body), int64(len(m.body)), 0, m.schema, dicts)
	}
	_, k := claiming(t, delta, 0)
	require.Positive(t, k)
	// Each delta alone claims within its own limit, a third of the floor;
	// the fourth is past what the dictionaries held may claim in all.
	each := int64(expansion.Floor) / 3 / int64(k)
	var held Dictionaries
	require.NoError(t, check(&held, first, 0))
	require.NoError(t, check(&held, delta, each))
	require.NoError(t, check(&held, delta, each))
	require.NoError(t, check(&held, delta, each))
	err := check(&held, delta, each)
	require.ErrorIs(t, err, expansion.ErrTooLarge)
	assert.Contains(t, err.Error(), "by the dictionaries held")
	require.NoError(t, check(nil, delta, each), "a batch alone")

	// A dictionary that replaces the one of its id takes its place.
	var replaced Dictionaries
	for i := range 10 {
		require.NoError(t, check(&replaced, first, each*int64(k)), "replacement %d", i)
	}
}

// arrow-go reads a batch's field nodes and buffers by index, past the end
// of vectors shorter than its schema needs: such a batch is refused, each
// vector one short, and passes whole.
func TestABatchOfFewerNodesOrBuffersThanItsSchemaNeedsIsRefused(t *testing.T) {
	first, _ := dictionaryMessages(t)
	for _, c := range []struct {
		name string
		m    message
		dict bool
	}{
		{"a record batch", batchMessages(t, arrowipc.WithZstd())[0], false},
		{"a dictionary batch", first, true},
	} {
		require.NoError(t, CheckBatch(c.m.meta, BodyAt(c.m.body), int64(len(c.m.body)), 0, c.m.schema, nil), c.name)
		for _, v := range []struct {
			field int
			want  string
		}{{1, "field nodes, for a schema of"}, {2, "buffers, for a schema of"}} {
			meta := bytes.Clone(c.m.meta)
			fb := &flatbuffer{buf: meta}
			msg, err := fb.root()
			require.NoError(t, err)
			batch, _, err := msg.subtable(2)
			require.NoError(t, err)
			if c.dict {
				batch, _, err = batch.subtable(1)
				require.NoError(t, err)
			}
			to, err := batch.ref(v.field)
			require.NoError(t, err)
			n := binary.LittleEndian.Uint32(meta[to:])
			binary.LittleEndian.PutUint32(meta[to:], n-1)
			err = CheckBatch(meta, BodyAt(c.m.body), int64(len(c.m.body)), 0, c.m.schema, nil)
			require.ErrorIs(t, err, ErrMalformed, "%s, vector %d", c.name, v.field)
			assert.ErrorContains(t, err, v.want, c.name)
		}
	}
}

func TestABatchWithoutTheSchemaOfItsStreamIsMalformed(t *testing.T) {
	m := batchMessages(t)[0]
	err := CheckBatch(m.meta, BodyAt(m.body), int64(len(m.body)), 0, nil, nil)
	require.ErrorIs(t, err, ErrMalformed)
	assert.ErrorContains(t, err, "a record batch before the schema")
}

// countingReaderAt counts the ReadAt calls made of it.
type countingReaderAt struct {
	r     *bytes.Reader
	calls int
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	return c.r.ReadAt(p, off)
}

// zstdFrames is a frame of a one-byte content size and blocks raw blocks of
// no bytes, the last flagged, then a frame asking for a window of 1 GiB.
func zstdFrames(blocks int) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0xFD2FB528)
	b = append(b, 0x20, 0) // single segment, content size 0
	for range blocks - 1 {
		b = append(b, 0, 0, 0)
	}
	b = append(b, 1, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, 0xFD2FB528)
	return append(b, 0x00, 20<<3, 1, 0, 0) // window 2^30
}

func TestTheFramesOfAZstdBufferAreReadAWindowAtATimeNotABlockHeaderAtATime(t *testing.T) {
	for _, blocks := range []int{1, 1000, 100_000} {
		data := zstdFrames(blocks)
		r := &countingReaderAt{r: bytes.NewReader(data)}
		err := checkZstdWindows(r, 0, int64(len(data)), 0)
		require.ErrorContains(t, err, "a frame asks for a window of 1073741824 bytes", "the frame after the blocks is reached")
		assert.LessOrEqual(t, r.calls, 2+2*len(data)/4096, "%d blocks of 3 bytes", blocks)
	}
}
