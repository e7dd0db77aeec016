package parquet

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/arrowmap/arrowmap/internal/testsupport/tpch"
)

// BenchmarkReadPageChecksums reads TPC-H's lineitem (DuckDB's file, of no
// page CRCs), its pages laid out again without and with a CRC in each page
// header: what checking the CRCs costs. The
// figures are in bench/RESULTS.md.
func BenchmarkReadPageChecksums(b *testing.B) {
	path, why := tpch.Path("lineitem")
	if path == "" {
		b.Skip(why)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	// The same pages with and without a CRC, laid out alike (rewritePages
	// drops the page index and bloom filters).
	crc, _ := withChecksums(b, data)
	plain, _ := rewritePages(b, data, func(_, _ *tStruct, body []byte) []byte { return body })
	withCRC := filepath.Join(b.TempDir(), "lineitem-crc.parquet")
	withoutCRC := filepath.Join(b.TempDir(), "lineitem-plain.parquet")
	if err := os.WriteFile(withCRC, crc, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(withoutCRC, plain, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		path string
		cfg  ReadConfig
	}{
		{"DuckDB's file", path, ReadConfig{}},
		{"no CRCs", withoutCRC, ReadConfig{}},
		{"CRCs checked", withCRC, ReadConfig{}},
		{"CRCs skipped", withCRC, ReadConfig{SkipPageChecksums: true}},
	} {
		b.Run(bc.name+"/ReadFile", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				rows, err := ReadFile[tpch.Lineitem](bc.path, bc.cfg)
				if err != nil || len(rows) != tpch.Rows["lineitem"] {
					b.Fatal(err, len(rows))
				}
			}
		})
		b.Run(bc.name+"/OpenRecords", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				rr, err := OpenRecords(bc.path, bc.cfg)
				if err != nil {
					b.Fatal(err)
				}
				n := int64(0)
				for rr.Next() {
					n += rr.RecordBatch().NumRows()
				}
				if err := rr.Err(); err != nil || n != int64(tpch.Rows["lineitem"]) {
					b.Fatal(err, n)
				}
				rr.Release()
			}
		})
	}
}

// BenchmarkPageFileReads reads the column chunks of TPC-H's lineitem as
// arrow-go reads them (in order, 32 KiB at a time) through the file
// itself and through pageFile, which follows the pages and checks their
// CRCs: the cost of that, apart from decoding.
func BenchmarkPageFileReads(b *testing.B) {
	path, why := tpch.Path("lineitem")
	if path == "" {
		b.Skip(why)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	crc, pages := withChecksums(b, data)
	for _, bc := range []struct {
		name   string
		data   []byte
		follow bool
		cfg    ReadConfig
	}{
		{"the file itself", crc, false, ReadConfig{}},
		{"pageFile, CRCs checked", crc, true, ReadConfig{}},
		{"pageFile, CRCs skipped", crc, true, ReadConfig{SkipPageChecksums: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			src, err := openSource(bytes.NewReader(bc.data), int64(len(bc.data)), nil, "lineitem", bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer src.close()
			var r io.ReaderAt = src.pages
			if !bc.follow {
				r = src.pages.r
			}
			chunks := src.pages.chunks
			buf := make([]byte, readBufferBytes)
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				for _, c := range chunks {
					for off := c.start; off < c.end; {
						n, err := r.ReadAt(buf[:min(int64(len(buf)), c.end-off)], off)
						if err != nil && err != io.EOF {
							b.Fatal(err)
						}
						off += int64(n)
					}
				}
			}
			b.ReportMetric(float64(len(pages)), "pages")
		})
	}
}
