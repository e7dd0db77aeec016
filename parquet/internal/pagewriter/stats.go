package pagewriter

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// decimalStats merges the least and the greatest of the decimal128s of
// slots [a, b), or of idx when not nil, into the page's statistics: found
// as the numbers they are, merged as their plain values (which order as
// signed FIXED_LEN_BYTE_ARRAYs order the same) by arrow-go's SetMinMax,
// rather than arrow-go's comparisons of every value's bytes (a tenth of
// the writer's time on TPC-H's four decimal columns).
func (lw *leafWriter) decimalStats(a, b int, idx []int32) {
	at := func(k int) (hi int64, lo uint64) {
		p := (lw.off + k) * 16
		return int64(binary.LittleEndian.Uint64(lw.data[p+8:])), binary.LittleEndian.Uint64(lw.data[p:])
	}
	first := a
	if idx != nil {
		first = int(idx[0])
	}
	minHi, minLo := at(first)
	maxHi, maxLo := minHi, minLo
	n := b - a
	if idx != nil {
		n = len(idx)
	}
	for k := range n {
		i := a + k
		if idx != nil {
			i = int(idx[k])
		}
		hi, lo := at(i)
		if hi < minHi || (hi == minHi && lo < minLo) {
			minHi, minLo = hi, lo
		}
		if hi > maxHi || (hi == maxHi && lo > maxLo) {
			maxHi, maxLo = hi, lo
		}
	}
	var minV, maxV [16]byte
	binary.BigEndian.PutUint64(minV[:8], uint64(minHi))
	binary.BigEndian.PutUint64(minV[8:], minLo)
	binary.BigEndian.PutUint64(maxV[:8], uint64(maxHi))
	binary.BigEndian.PutUint64(maxV[8:], maxLo)
	st := lw.pageStats.(*metadata.FixedLenByteArrayStatistics)
	st.IncNumValues(int64(n))
	st.SetMinMax(minV[16-lw.flbaWidth:], maxV[16-lw.flbaWidth:])
}

// fixedStats merges the min and max of vals, the plain values just added.
func (lw *leafWriter) fixedStats(vals []byte) {
	switch st := lw.pageStats.(type) {
	case *metadata.Int32Statistics: // and uint32, by the column's sort order
		st.Update(castBytes[int32](vals), 0)
	case *metadata.Int64Statistics:
		st.Update(castBytes[int64](vals), 0)
	case *metadata.Float32Statistics:
		st.Update(castBytes[float32](vals), 0)
	case *metadata.Float64Statistics:
		st.Update(castBytes[float64](vals), 0)
	}
}

// castBytes is b as a slice of T: plain values are little-endian, as the
// machines arrow-go runs on.
func castBytes[T any](b []byte) []T {
	var zero T
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(zero)))
}

// encodedStats is st, the statistics of a page or a chunk, as the page
// header, the column index or the footer stores them, as pqarrow's column
// writer makes them: arrow-go's statistics of the values (NaNs skipped, a
// zero min is -0 and a zero max +0, as parquet-mr's), the nulls counted by
// the levels, cut to the size limit. arrow-go's statistics
// cost the direct writer 2–4% of its time and 460 allocations a file over
// the hand-written min and max they replaced (bench/RESULTS.md, "Direct
// writer statistics: hand vs metadata.Statistics"): one implementation of
// Parquet's ordering rules, arrow-go's, is worth that.
func (lw *leafWriter) encodedStats(st metadata.TypedStatistics) (metadata.EncodedStatistics, error) {
	enc, err := st.Encode()
	if err != nil {
		return enc, fmt.Errorf("statistics of column %s: %w", lw.descr.Path(), err)
	}
	enc.ApplyStatSizeLimits(lw.maxStats)
	enc.Signed = lw.signed
	return enc, nil
}

// endPageStats is the statistics of the page built, whose nulls (null
// values, null or empty parents) are nulls, merged into the chunk's.
func (lw *leafWriter) endPageStats(nulls int64) (metadata.EncodedStatistics, error) {
	if !lw.stats {
		return metadata.EncodedStatistics{}, nil
	}
	lw.pageStats.IncNulls(nulls)
	enc, err := lw.encodedStats(lw.pageStats)
	lw.chunkStats.Merge(lw.pageStats)
	lw.pageStats.Reset()
	return enc, err
}
