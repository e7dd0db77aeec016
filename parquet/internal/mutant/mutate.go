package mutant

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Original is a seed file and where its parts lie: the footer, the first
// byte of each column chunk (a page header), the indices of dictionary
// encoded pages, and the stored Arrow schema within the footer.
type Original struct {
	Seed
	Data        []byte
	footer      int    // the footer's first byte
	chunks      []int  // each column chunk's first byte
	indices     []span // the indices of each dictionary encoded v1 data page not compressed, from their bit width
	schemaAt    int    // the ARROW:schema value's first byte, -1 without one
	schemaValue string
}

// Load reads the seed s and finds its parts.
func Load(s Seed, data []byte) (*Original, error) {
	o := &Original{Seed: s, Data: data, schemaAt: -1}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	md := pf.MetaData()
	o.footer = len(data) - 8 - int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for c := range rg.NumColumns() {
			col, err := rg.ColumnChunk(c)
			if err != nil {
				return nil, err
			}
			start := col.DataPageOffset()
			if col.HasDictionaryPage() && col.DictionaryPageOffset() > 0 {
				start = min(start, col.DictionaryPageOffset())
			}
			o.chunks = append(o.chunks, int(start))
			if col.HasDictionaryPage() && col.Compression() == compress.Codecs.Uncompressed {
				at, err := indicesOf(pf, g, c, data[start:start+col.TotalCompressedSize()])
				if err != nil {
					return nil, err
				}
				for _, a := range at {
					o.indices = append(o.indices, span{int(start) + a.from, int(start) + a.to})
				}
			}
		}
	}
	if v := md.KeyValueMetadata().FindValue("ARROW:schema"); v != nil {
		o.schemaValue = *v
		o.schemaAt = o.footer + bytes.Index(data[o.footer:], []byte(*v))
	}
	return o, nil
}

// span is the bytes [from, to) of a file.
type span struct{ from, to int }

// indicesOf is where, in chunk (the bytes of column c of row group g),
// the indices of each dictionary encoded v1 data page lie: after its
// levels, from the byte of their bit width to the page's end.
func indicesOf(pf *file.Reader, g, c int, chunk []byte) ([]span, error) {
	descr := pf.MetaData().Schema.Column(c)
	pages, err := pf.RowGroup(g).GetColumnPageReader(c)
	if err != nil {
		return nil, err
	}
	var at []span
	for pages.Next() {
		p, ok := pages.Page().(*file.DataPageV1)
		if !ok || (parquet.Encoding(p.Encoding()) != parquet.Encodings.RLEDict && parquet.Encoding(p.Encoding()) != parquet.Encodings.PlainDict) {
			continue
		}
		body := p.Data()
		levels := 0
		for _, max := range []int16{descr.MaxRepetitionLevel(), descr.MaxDefinitionLevel()} {
			if max > 0 && levels+4 <= len(body) {
				levels += 4 + int(binary.LittleEndian.Uint32(body[levels:]))
			}
		}
		if k := bytes.Index(chunk, body); k >= 0 && levels < len(body) {
			at = append(at, span{k + levels, k + len(body)})
		}
	}
	return at, pages.Err()
}

// Mutations are the names of the ways Mutate damages a file.
var Mutations = []string{
	"footer byte flipped", "footer byte set", "footer integer set",
	"stored schema damaged", "page header damaged", "page header integer set",
	"page body byte flipped", "truncated", "span cut before the footer",
	"page body bytes set", "dictionary indices set",
}

// Mutate is a damaged copy of o, chosen by rng, and the name of its
// mutation (one of Mutations) with where it struck.
func (o *Original) Mutate(rng *rand.Rand) ([]byte, string) {
	d := bytes.Clone(o.Data)
	footerLen := len(d) - 8 - o.footer
	k := rng.IntN(len(Mutations))
	if k >= 4 && k != 7 && (len(o.chunks) == 0 || o.footer <= 4+24) {
		k = rng.IntN(3) // no column chunk to damage: the footer instead
	}
	if k == 10 && len(o.indices) == 0 {
		k = 6 // no dictionary page's indices: a page body's byte
	}
	switch k {
	case 0:
		at := o.footer + rng.IntN(footerLen)
		d[at] ^= 1 << rng.IntN(8)
		return d, fmt.Sprintf("%s at %d", Mutations[k], at)
	case 1:
		at := o.footer + rng.IntN(footerLen)
		d[at] = []byte{0, 0xFF, 0x80, 0x7F, byte(rng.IntN(256))}[rng.IntN(5)]
		return d, fmt.Sprintf("%s at %d to %#x", Mutations[k], at, d[at])
	case 2:
		at := o.footer + rng.IntN(footerLen)
		d, n := setVarint(d, at, len(d)-8, hostile(rng))
		binary.LittleEndian.PutUint32(d[len(d)-8:], uint32(footerLen+n))
		return d, fmt.Sprintf("%s at %d", Mutations[k], at)
	case 3:
		if o.schemaAt < 0 {
			return o.Mutate(rng)
		}
		raw, err := base64.StdEncoding.DecodeString(o.schemaValue)
		if err != nil || len(raw) < 8 {
			return o.Mutate(rng)
		}
		at := rng.IntN(len(raw) - 3)
		if rng.IntN(2) == 0 {
			binary.LittleEndian.PutUint32(raw[at:], uint32(hostile(rng)))
		} else {
			raw[at] ^= 1 << rng.IntN(8)
		}
		copy(d[o.schemaAt:], base64.StdEncoding.EncodeToString(raw))
		return d, fmt.Sprintf("%s at byte %d of its %d", Mutations[k], at, len(raw))
	case 4:
		at := o.chunks[rng.IntN(len(o.chunks))] + rng.IntN(24)
		d[at] ^= 1 << rng.IntN(8)
		return d, fmt.Sprintf("%s at %d", Mutations[k], at)
	case 5:
		at := o.chunks[rng.IntN(len(o.chunks))] + rng.IntN(16)
		d, _ = setVarint(d, at, o.footer, hostile(rng))
		return d, fmt.Sprintf("%s at %d", Mutations[k], at)
	case 6:
		at := 4 + rng.IntN(o.footer-4)
		d[at] ^= 1 << rng.IntN(8)
		return d, fmt.Sprintf("%s at %d", Mutations[k], at)
	case 7:
		n := rng.IntN(len(d))
		return d[:n], fmt.Sprintf("%s to %d bytes", Mutations[k], n)
	case 8:
		from := 4 + rng.IntN(o.footer-4)
		to := from + 1 + rng.IntN(min(64, o.footer-from))
		return append(d[:from:from], d[to:]...), fmt.Sprintf("%s: bytes %d to %d", Mutations[k], from, to)
	case 10:
		// One run of one index, likely past the dictionary, for every
		// value of the page: arrow-go's decoder hands it on unchecked.
		ix := o.indices[rng.IntN(len(o.indices))]
		// Wide indices, whose transposition through a dictionary of a few
		// entries reads far past it, and narrow ones, just past it.
		width := []int{2, 4, 8, 16, 24, 28, 31, 32}[rng.IntN(8)]
		index := 1<<(width-1) + rng.Uint64N(1<<(width-1))
		run := binary.AppendUvarint([]byte{byte(width)}, 1<<19<<1) // an RLE run (an even header) of 2^19 values, more than any page holds
		run = binary.LittleEndian.AppendUint64(run, index)[:len(run)+(width+7)/8]
		if len(run) > ix.to-ix.from {
			return o.Mutate(rng)
		}
		copy(d[ix.from:], run)
		return d, fmt.Sprintf("%s at %d to %d of %d bits", Mutations[k], ix.from, index, width)
	default:
		// A bit width, a run's length or value, a level: in an
		// uncompressed page, what the decoders read as such.
		at := 4 + rng.IntN(o.footer-4)
		n := min(1+rng.IntN(4), o.footer-at)
		for i := range n {
			d[at+i] = []byte{0xFF, 0x7F, 0x80, 0x20, byte(rng.IntN(256))}[rng.IntN(5)]
		}
		return d, fmt.Sprintf("%s: %d at %d", Mutations[k], n, at)
	}
}

// hostile is an integer a damaged header may hold: negative, huge, or
// just off.
func hostile(rng *rand.Rand) int64 {
	switch rng.IntN(8) {
	case 0:
		return -1
	case 1:
		return math.MinInt32
	case 2:
		return math.MinInt64
	case 3:
		return math.MaxInt32
	case 4:
		return 1 << 40
	case 5:
		return math.MaxInt64
	case 6:
		return -rng.Int64N(1 << 20)
	default:
		return rng.Int64N(1 << 34)
	}
}

// setVarint is d with the thrift varint starting at at (up to end)
// replaced by the zigzag varint of v, and how many bytes longer it is.
func setVarint(d []byte, at, end int, v int64) ([]byte, int) {
	n := 0
	for at+n < end && n < 10 {
		n++
		if d[at+n-1]&0x80 == 0 {
			break
		}
	}
	enc := binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63))
	out := make([]byte, 0, len(d)+len(enc))
	out = append(append(append(out, d[:at]...), enc...), d[at+n:]...)
	return out, len(enc) - n
}
