package parquet

import (
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// What the direct writer does of ColumnConfig: the statistics and page
// index per column it reads from the writer properties as before, bloom
// filters it builds from the values it writes (below), and of the
// encodings plain, dictionary and BYTE_STREAM_SPLIT (of floats and
// doubles, the fixed-width leaves it applies to). A column of another encoding (the delta encodings, whose
// encoders are internal to arrow-go) sends the file to pqarrow
// (directEncodes).

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

// newBloomFilter is the bloom filter of a column chunk of path, as
// arrow-go's column writer sizes it (without its adaptive filters): for
// the distinct values and false-positive rate props give, within its
// maximum size.
func newBloomFilter(props *parquet.WriterProperties, path string) metadata.BloomFilterBuilder {
	maxBytes := props.MaxBloomFilterBytes()
	if ndv := props.BloomFilterNDVFor(path); ndv > 0 {
		return metadata.NewBloomFilterFromNDVAndFPP(uint32(ndv), props.BloomFilterFPPFor(path), maxBytes, props.Allocator())
	}
	return metadata.NewBloomFilter(uint32(maxBytes), uint32(maxBytes), props.Allocator())
}

// bloomFixed adds the fixed-width plain values vals, of w bytes each, to
// the chunk's bloom filter: a value's hash is of its plain bytes, as
// every reader probes it.
func (lw *leafWriter) bloomFixed(vals []byte, w int) {
	h := lw.bloom.Hasher()
	for k := 0; k+w <= len(vals); k += w {
		lw.bloom.InsertHash(h.Sum64(vals[k : k+w]))
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
