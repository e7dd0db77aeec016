package pagewriter

import (
	"bytes"
	"encoding/binary"

	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// appendValues adds the leaf values of slots [a, b), or of idx when not
// nil, to the page and the statistics.
func (lw *leafWriter) appendValues(a, b int, idx []int32) {
	n := b - a
	if idx != nil {
		n = len(idx)
		// idx increases strictly (slots in order): its last less its first
		// is n-1 only when it is every slot between them, which is copied
		// as a range (a leaf with no nulls under lists and structs).
		if n > 0 && int(idx[n-1]-idx[0]) == n-1 {
			a, b, idx = int(idx[0]), int(idx[n-1])+1, nil
		}
	}
	if n == 0 {
		return
	}
	lw.nvals += n
	switch lw.kind {
	case leafFixed4, leafFixed8:
		w := 4
		if lw.kind == leafFixed8 {
			w = 8
		}
		start := len(lw.values)
		if idx == nil {
			lw.values = append(lw.values, lw.data[(lw.off+a)*w:(lw.off+b)*w]...)
		} else {
			for _, i := range idx {
				p := (lw.off + int(i)) * w
				lw.values = append(lw.values, lw.data[p:p+w]...)
			}
		}
		if lw.stats {
			lw.fixedStats(lw.values[start:])
		}
		if lw.bloomOn {
			lw.bloomFixed(lw.values[start:], w)
		}
		if lw.dictState != dictOff {
			lw.fixedIndices(start, w)
		}
	case leafDecimal:
		start := len(lw.values)
		if idx == nil {
			for i := a; i < b; i++ {
				lw.appendDecimal(i)
			}
		} else {
			for _, i := range idx {
				lw.appendDecimal(int(i))
			}
		}
		if lw.stats {
			lw.decimalStats(a, b, idx)
		}
		if lw.dictState != dictOff {
			lw.fixedIndices(start, lw.flbaWidth)
		}
	case leafBool:
		for k := range n {
			i := a + k
			if idx != nil {
				i = int(idx[k])
			}
			v := bitSet(lw.data, lw.off+i)
			bit := lw.nvals - n + k
			if bit&7 == 0 {
				lw.values = append(lw.values, 0)
			}
			if v {
				lw.values[bit>>3] |= 1 << (bit & 7)
			}
		}
		if lw.stats {
			lw.pageStats.(*metadata.BooleanStatistics).UpdateFromBitmap(lw.values, int64(lw.nvals-n), int64(n), 0)
		}
	case leafBinary, leafLargeBinary:
		var r byteRange
		for k := range n {
			i := a + k
			if idx != nil {
				i = int(idx[k])
			}
			v := lw.binValue(i)
			if lw.bloomOn {
				lw.bloomInsert(lw.bloomHasher.Sum64(v))
			}
			code, coded := lw.byteValue(v)
			if lw.stats && (!coded || lw.firstInPage(code)) {
				r.add(v)
			}
		}
		if lw.stats {
			st := lw.pageStats.(*metadata.ByteArrayStatistics)
			st.IncNumValues(int64(n))
			if r.some {
				st.SetMinMax(r.min, r.max)
			}
		}
	}
}

// byteRange is the least and the greatest of byte arrays, as Parquet
// orders them (unsigned bytes, shorter first): what a page's statistics
// merge of its values, which are merged by arrow-go's SetMinMax a step of
// rows at a time rather than compared there value by value (its Update
// calls two functions a value, a tenth of the writer's time on TPC-H's
// text columns).
type byteRange struct {
	min, max []byte
	some     bool
}

func (r *byteRange) add(v []byte) {
	switch {
	case !r.some:
		r.min, r.max, r.some = v, v, true
	case bytes.Compare(v, r.min) < 0:
		r.min = v
	case bytes.Compare(v, r.max) > 0:
		r.max = v
	}
}

// firstInPage reports whether code, a dictionary index, is the first of
// its value in the page built, marking it: the page's statistics compare
// each distinct value once (a column of a few statuses, a few values a
// page).
func (lw *leafWriter) firstInPage(code uint32) bool {
	w, bit := int(code>>6), uint64(1)<<(code&63)
	if w >= len(lw.seen) {
		lw.seen = append(lw.seen, make([]uint64, max(w+1-len(lw.seen), len(lw.seen)))...)
	}
	if lw.seen[w]&bit != 0 {
		return false
	}
	lw.seen[w] |= bit
	return true
}

// fixedIndices adds the dictionary indices of the plain values from start
// on, just added, which the page keeps only while the dictionary is
// undecided.
func (lw *leafWriter) fixedIndices(start, w int) {
	vals := lw.values[start:]
	for k := 0; k < len(vals); k += w {
		lw.indices = append(lw.indices, lw.dict.index(vals[k:k+w]))
	}
	if lw.dictState == dictUndecided {
		lw.plain += len(vals)
	}
	lw.values = lw.values[:start] // held as indices (dropDictionary makes them again)
}

// byteValue adds the byte array v to the page: its dictionary index, which
// it returns (coded), or its plain value.
func (lw *leafWriter) byteValue(v []byte) (code uint32, coded bool) {
	if lw.dictState != dictOff {
		code = lw.dict.index(v)
		lw.indices = append(lw.indices, code)
		if lw.dictState == dictUndecided {
			lw.plain += 4 + len(v)
		}
		return code, true
	}
	lw.values = binary.LittleEndian.AppendUint32(lw.values, uint32(len(v)))
	lw.values = append(lw.values, v...)
	return 0, false
}

// appendDecimal appends the plain value of leaf slot i, a decimal128: its
// 16 little-endian bytes big-endian, the last flbaWidth of them (the value
// fits its precision, which fits them), as pqarrow writes it.
func (lw *leafWriter) appendDecimal(i int) {
	p := (lw.off + i) * 16
	var be [16]byte
	binary.BigEndian.PutUint64(be[:8], binary.LittleEndian.Uint64(lw.data[p+8:p+16]))
	binary.BigEndian.PutUint64(be[8:], binary.LittleEndian.Uint64(lw.data[p:p+8]))
	lw.values = append(lw.values, be[16-lw.flbaWidth:]...)
}
