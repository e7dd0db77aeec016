package pagewriter

import (
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// What the direct writer does of ColumnConfig: the statistics and page
// index per column it reads from the writer properties as before, bloom
// filters it builds from the values it writes (below), and of the
// encodings plain, dictionary and BYTE_STREAM_SPLIT (of floats and
// doubles, the fixed-width leaves it applies to). A leaf of another
// encoding (the delta encodings, whose encoders are internal to arrow-go)
// is written by arrow-go's column writer in the same row group, as a leaf
// of no leafKind is (directEncodes, viaArrow).

// directEncodes reports whether the direct writer writes the values of
// lw, a leaf of column path, in the encoding props ask for.
func directEncodes(lw *leafWriter, props *parquet.WriterProperties, path string) bool {
	switch props.EncodingFor(path) {
	case parquet.Encodings.Plain:
		return true
	case parquet.Encodings.ByteStreamSplit:
		return !props.DictionaryEnabledFor(path) && (lw.kind == leafFixed4 || lw.kind == leafFixed8)
	}
	return props.DictionaryEnabledFor(path) && lw.kind != leafBool // the encoding is the fallback's, which is plain here
}

// startBloom starts the bloom filter of the column chunk, in filters (the
// row group's, by path): made now, as arrow-go's column writer sizes it,
// when the writer properties give the number of distinct values; else
// made at the chunk's end (finishBloom) for the distinct values written,
// the smallest filter of the false-positive rate asked for, where
// arrow-go's adaptive filter picks among a few sizes it fills at once.
func (lw *leafWriter) startBloom(d *File, filters map[string]metadata.BloomFilterBuilder) {
	props, path := d.props, lw.descr.Path()
	lw.bloomHashes = lw.bloomHashes[:0]
	if ndv := props.BloomFilterNDVFor(path); ndv > 0 {
		lw.bloom = metadata.NewBloomFilterFromNDVAndFPP(uint32(ndv), props.BloomFilterFPPFor(path), props.MaxBloomFilterBytes(), props.Allocator())
		lw.bloomHasher = lw.bloom.Hasher()
		filters[path] = lw.bloom
		d.filters = append(d.filters, lw.bloom)
		return
	}
	if lw.bloomHasher == nil {
		probe := metadata.NewBloomFilter(0, 0, props.Allocator()) // of 32 bytes, for its hasher
		lw.bloomHasher = probe.Hasher()
		probe.Release()
	}
}

// bloomInsert adds the hash of a value to the chunk's bloom filter.
func (lw *leafWriter) bloomInsert(h uint64) {
	if lw.bloom != nil {
		lw.bloom.InsertHash(h)
		return
	}
	lw.bloomHashes = append(lw.bloomHashes, h)
}

// finishBloom makes the filter of a chunk whose values' hashes were kept,
// for as many distinct values as they are, into the row group's filters.
// The distinct values are counted by linear counting over the hashes' low
// bits (a bitmap of distinctBits bits, set per hash): within a few percent
// up to millions of values, where sorting a chunk's hashes to count them
// exactly cost the writer a sixth of its time (bench/RESULTS.md); the
// filter is a power of two bytes anyway.
func (lw *leafWriter) finishBloom(d *File) {
	if lw.bloom != nil {
		return // made at the start
	}
	props, path := d.props, lw.descr.Path()
	bf := metadata.NewBloomFilterFromNDVAndFPP(distinctHashes(lw.bloomHashes, &lw.bloomBits), props.BloomFilterFPPFor(path), props.MaxBloomFilterBytes(), props.Allocator())
	bf.InsertBulk(lw.bloomHashes)
	d.rgFilters[path] = bf
	d.filters = append(d.filters, bf)
	lw.bloomHashes = lw.bloomHashes[:0]
}

// distinctBits is the size of the bitmap distinctHashes counts with.
const distinctBits = 1 << 20

// distinctHashes estimates the number of distinct values of hashes by
// linear counting in bitmap (reused, distinctBits bits): the bits unset of
// m, V, give m·ln(m/V); a bitmap left without an unset bit (far more
// distinct values than a filter of arrow-go's 1 MiB maximum holds) counts
// as that many.
func distinctHashes(hashes []uint64, bitmap *[]uint64) uint32 {
	if len(hashes) <= 1 {
		return uint32(len(hashes))
	}
	if *bitmap == nil {
		*bitmap = make([]uint64, distinctBits/64)
	}
	b := *bitmap
	clear(b)
	for _, h := range hashes {
		i := h & (distinctBits - 1)
		b[i>>6] |= 1 << (i & 63)
	}
	set := 0
	for _, w := range b {
		set += bits.OnesCount64(w)
	}
	unset := distinctBits - set
	if unset == 0 {
		return math.MaxUint32
	}
	n := float64(distinctBits) * math.Log(float64(distinctBits)/float64(unset))
	return uint32(min(math.Ceil(n), math.MaxUint32))
}

// bloomFixed adds the fixed-width plain values vals, of w bytes each, to
// the chunk's bloom filter: a value's hash is of its plain bytes, as
// every reader probes it.
func (lw *leafWriter) bloomFixed(vals []byte, w int) {
	for k := 0; k+w <= len(vals); k += w {
		lw.bloomInsert(lw.bloomHasher.Sum64(vals[k : k+w]))
	}
}

// byteStreamSplit is the values plain (n values of w bytes) split into
// streams: every value's first byte, then every second byte, and so on,
// appended to dst.
func byteStreamSplit(dst, plain []byte, w int) []byte {
	n := len(plain) / w
	at := len(dst)
	dst = append(dst, make([]byte, len(plain))...)
	out := dst[at:]
	for b := range w {
		stream := out[b*n : (b+1)*n]
		for i := range stream {
			stream[i] = plain[i*w+b]
		}
	}
	return dst
}
