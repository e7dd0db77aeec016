package pagewriter

import (
	"fmt"
	"strings"
)

// pageBuffers are the buffers a leafWriter builds its pages and holds
// its chunk in, grown to a page's and a chunk's size once, and its
// dictionary: kept from one file to the next (fileBuffers).
type pageBuffers struct {
	defs, reps []int16
	idx        []int32 // values present in the rows of a batch, nested
	values     []byte  // plain encoded
	indices    []uint32
	seen       []uint64 // the dictionary indices of the page built (firstInPage)
	chunk      chunkPages
	spareDict  *byteDict // a dictionary for the leaf, when its chunks have one
}

// pageScratch is where a page is encoded before a leaf holds it,
// compressed, in its chunk: one for each goroutine that encodes leaves
// (eachLeaf), not one per leaf.
type pageScratch struct {
	levels  []byte // a page's, encoded
	encoded []byte // a page's values dictionary encoded or split by byte streams
	page    []byte // the levels and values of a page, for codecs of one source
	snappy  []byte // a piece of a page compressed by appendSnappy
	header  []byte // a page's header
	// dictionary is a dictionary page plain; compressed, a page compressed
	// aside (chunkPages.hold) or a dictionary page compressed.
	dictionary, compressed []byte
}

// fileBuffers is the buffers of a closed file's leaves, in leaf order,
// and its page scratch, handed to the next file through spareFiles: a
// program writing file after file of one type allocates each column's
// buffers once, grown to what that column needs, not once a file, and
// leaf i takes back leaf i's (single leaves' buffers from a sync.Pool
// came back in another order, each column growing another's).
type fileBuffers struct {
	leaves  []pageBuffers
	scratch []pageScratch
	columns string // the file's leaf columns (File.columns)
}

var spareFiles spareList[*fileBuffers]

// takeBuffers gives the leaves and the file the buffers of a file closed
// before, if any.
func (d *File) takeBuffers() {
	columns := d.columns()
	fb, ok := spareFiles.take(func(fb *fileBuffers) bool { return fb.columns == columns })
	if !ok {
		return
	}
	for i, lw := range d.leaves {
		if i < len(fb.leaves) {
			lw.pageBuffers = fb.leaves[i]
		}
	}
	copy(d.scratch, fb.scratch)
}

// columns names the file's leaf columns and their types: the buffers of a
// file of the same columns are the first a file takes (takeBuffers).
func (d *File) columns() string {
	var b strings.Builder
	for _, lw := range d.leaves {
		fmt.Fprintf(&b, "%s %s;", lw.descr.Path(), lw.descr.PhysicalType())
	}
	return b.String()
}

// releaseBuffers hands the leaves' buffers and the file's to the next
// file, empty: a file closed after its io.Writer failed leaves a page
// built and pages held, which are not the next file's.
func (d *File) releaseBuffers() {
	fb := &fileBuffers{leaves: make([]pageBuffers, len(d.leaves)), columns: d.columns()}
	for i, lw := range d.leaves {
		b := lw.pageBuffers
		b.defs, b.reps, b.idx, b.values, b.indices = b.defs[:0], b.reps[:0], b.idx[:0], b.values[:0], b.indices[:0]
		clear(b.seen)
		b.chunk.reset()
		if lw.dict != nil {
			b.spareDict = lw.dict
		}
		fb.leaves[i] = b
		lw.pageBuffers, lw.dict = pageBuffers{}, nil
	}
	fb.scratch, d.scratch = d.scratch, nil
	spareFiles.put(fb)
}
