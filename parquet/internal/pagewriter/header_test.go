package pagewriter

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/stretchr/testify/require"
)

// tellBuffer is the sink arrow-go's page writer writes to in the tests.
type tellBuffer struct{ bytes.Buffer }

func (b *tellBuffer) Tell() int64 { return int64(b.Len()) }

// arrowGoPage is what arrow-go's page writer writes of a page: its header
// and data, data being the page's data, uncompressed and not compressed
// by the writer (for a dictionary page, the codec is none).
func arrowGoPage(t *testing.T, h pageHeader, data []byte, columnIndex bool) []byte {
	t.Helper()
	col := schema.NewColumn(schema.NewInt32Node("v", parquet.Repetitions.Optional, -1), 1, 0)
	sc := schema.NewSchema(schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{col.SchemaNode()}, -1)))
	props := parquet.NewWriterProperties()
	rg := metadata.NewFileMetadataBuilder(sc, props, nil).AppendRowGroup()
	var sink tellBuffer
	pager, err := file.NewPageWriter(&sink, compress.Codecs.Uncompressed, 0, rg.NextColumnChunk(), 0, 0, memory.DefaultAllocator, false, nil, nil)
	require.NoError(t, err)
	if columnIndex {
		pib := &metadata.PageIndexBuilder{Schema: sc}
		require.NoError(t, pib.AppendRowGroup())
		colIdx, err := pib.GetColumnIndexBuilder(0)
		require.NoError(t, err)
		offIdx, err := pib.GetOffsetIndexBuilder(0)
		require.NoError(t, err)
		pager.SetIndexBuilders(colIdx, offIdx)
	}
	var stats metadata.EncodedStatistics
	if h.stats != nil {
		stats = *h.stats
	}
	cfg := file.DataPageConfig{Num: h.values, Encoding: h.encoding, UncompressedSize: h.uncompressed, FirstRowIndex: 0, Stats: stats}
	switch h.kind {
	case pageData:
		page := file.NewDataPageV1WithConfig(memory.NewBufferBytes(data), parquet.Encodings.RLE, parquet.Encodings.RLE, cfg)
		_, err = pager.WriteDataPage(page)
	case pageDataV2:
		page := file.NewDataPageV2WithConfig(memory.NewBufferBytes(data), h.nulls, h.rows, h.defN, h.repN, h.valuesCompressed, cfg)
		_, err = pager.WriteDataPage(page)
	case pageDictionary:
		_, err = pager.WriteDictionaryPage(file.NewDictionaryPage(memory.NewBufferBytes(data), h.values, h.encoding))
	}
	require.NoError(t, err)
	return sink.Bytes()
}

// randomStats is statistics as a page's or a chunk's may be: any of their
// fields set, of any size, empty values among them.
func randomStats(r *rand.Rand) *metadata.EncodedStatistics {
	value := func() []byte {
		switch r.IntN(4) {
		case 0:
			return []byte{}
		case 1:
			return bytes.Repeat([]byte{byte(r.IntN(256))}, 200+r.IntN(200)) // a length of two varint bytes
		}
		b := make([]byte, 1+r.IntN(16))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	st := &metadata.EncodedStatistics{Signed: r.IntN(2) == 0}
	if r.IntN(4) > 0 {
		st.SetMin(value())
	}
	if r.IntN(4) > 0 {
		st.SetMax(value())
	}
	if r.IntN(3) > 0 {
		st.SetNullCount([]int64{0, 1, math.MaxInt64, int64(r.IntN(1 << 30))}[r.IntN(4)])
	}
	if r.IntN(4) == 0 {
		st.SetDistinctCount(int64(r.IntN(1 << 20)))
	}
	return st
}

func TestPageHeadersAreTheBytesArrowGosPageWriterWrites(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	sizes := []int32{0, 1, 63, 64, 127, 128, 16383, 16384, 1 << 20, math.MaxInt32}
	encodings := []parquet.Encoding{parquet.Encodings.Plain, parquet.Encodings.RLEDict, parquet.Encodings.PlainDict, parquet.Encodings.ByteStreamSplit, parquet.Encodings.DeltaBinaryPacked}
	size := func() int32 { return sizes[r.IntN(len(sizes))] }
	for i := range 2000 {
		data := make([]byte, r.IntN(64))
		for k := range data {
			data[k] = byte(r.IntN(256))
		}
		h := pageHeader{
			kind:         []int32{pageData, pageDataV2, pageDictionary}[i%3],
			uncompressed: int32(len(data)), compressed: int32(len(data)),
			values: size(), encoding: encodings[r.IntN(len(encodings))],
			nulls: size(), rows: size(), defN: size(), repN: size(), valuesCompressed: r.IntN(2) == 0,
			stats: randomStats(r),
		}
		columnIndex := h.kind != pageDictionary && r.IntN(3) == 0
		if h.kind == pageDictionary {
			h.nulls, h.rows, h.defN, h.repN, h.valuesCompressed, h.stats = 0, 0, 0, 0, false, nil
		}
		want := arrowGoPage(t, h, data, columnIndex)
		ours := h
		if columnIndex {
			ours.stats = nil // the column index holds them
		} else if ours.stats == nil && h.kind != pageDictionary {
			ours.stats = &metadata.EncodedStatistics{}
		}
		got := append(ours.append(nil), data...)
		require.Equal(t, want, got, "case %d: %+v, column index %v", i, h, columnIndex)
	}
}

func TestTheCompactProtocolWritesLongFieldIDsAndNegativeNumbers(t *testing.T) {
	c := compactStruct{}
	c.i32(1, -1)         // delta 1, zigzag 1
	c.i32(40, 5)         // delta 39: the long form, id 40 zigzag 80
	c.i64(41, -64)       // zigzag 127
	c.binary(41+15, nil) // delta 15, the longest short form
	c.boolean(1, true)   // a smaller id: the long form
	require.Equal(t, []byte{
		0x15, 0x01,
		0x05, 80, 10,
		0x16, 127,
		0xf8, 0,
		0x01, 2,
	}, c.b, fmt.Sprintf("% x", c.b))
}
