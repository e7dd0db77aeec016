// Package mutant is the mutation test of the IPC and Flight readers: seed
// files and streams of every shape our writers and Arrow C++ write,
// uncompressed and with LZ4 and ZSTD bodies, their damaged copies
// (Mutate), and the check a child process runs on one of them
// (cmd/mutant), so that a panic on any goroutine, a fatal signal or a
// fatal allocation shows in its exit, not in the test's process.
package mutant

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// Flat, Nested, Lists, Maps, Dict and Views are the rows of the seeds our
// Writer writes: flat columns, a struct, lists, a map, dictionaries (the
// bodies of dictionary batches compressed too), string views (variadic
// buffers).
type (
	Flat struct {
		ID    int64    `arrow:"id"`
		Name  string   `arrow:"name"`
		Score *float64 `arrow:"score"`
		Ok    bool     `arrow:"ok"`
	}
	Nested struct {
		ID    int64 `arrow:"id"`
		Point struct {
			X     float64 `arrow:"x"`
			Y     float64 `arrow:"y"`
			Label string  `arrow:"label"`
		} `arrow:"point"`
	}
	Lists struct {
		ID   int64    `arrow:"id"`
		Tags []string `arrow:"tags"`
		Nums []int32  `arrow:"nums"`
	}
	Maps struct {
		ID    int64            `arrow:"id"`
		Attrs map[string]int64 `arrow:"attrs"`
	}
	Dict struct {
		ID   int64  `arrow:"id"`
		City string `arrow:"city,dict"`
		Code string `arrow:"code,dict,index=int8"`
	}
	Views struct {
		ID   int64  `arrow:"id"`
		Text string `arrow:"text,utf8_view"`
		Run  int32  `arrow:"run,ree"`
	}
	// Runs is rows of a few bytes each: a record of them may claim many
	// more rows and still hold ("rows claimed").
	Runs struct {
		ID    int64       `arrow:"id,ree"`
		Empty mapper.Null `arrow:"empty"`
	}
)

// idColumns is the column every typed seed has: what OpenColumns reads.
type idColumns struct {
	ID views.PrimitiveColumn[int64] `arrow:"id"`
}

// Kinds are the kinds of seed, by the name cmd/mutant takes: each a row
// type, or "records" for data of any schema, read as rows of no field.
var Kinds = []string{"flat", "nested", "lists", "maps", "dict", "views", "runs", "records"}

// Seed is a seed file: its path, the kind of its rows, and whether it is
// an IPC file (else a stream).
type Seed struct {
	Path string
	Kind string
	File bool
}

// seedRows is the rows of each seed our Writer writes, in records of
// batchRows rows, so that a file has several to damage.
const (
	seedRows  = 300
	batchRows = 100
)

// codecs are the compressions of the seeds, by name.
var codecs = []struct {
	name  string
	codec ipc.Codec
}{{"none", ipc.None}, {"lz4", ipc.LZ4}, {"zstd", ipc.ZSTD}}

// WriteSeeds writes the seeds into dir: each row type by our Writer as a
// file and as a stream, uncompressed, LZ4 and ZSTD (the dictionaries of
// streams as deltas); and each file and stream of integrationDir as it is
// and rewritten by our RecordWriter with LZ4 and ZSTD bodies, as kind
// "records".
func WriteSeeds(dir, integrationDir string) ([]Seed, error) {
	var seeds []Seed
	var errs []error
	for _, c := range codecs {
		for _, file := range []bool{true, false} {
			cfg := ipc.WriteConfig{Compression: c.codec, BatchRows: batchRows, DictionaryDeltas: !file}
			write := func(kind string, w func(path string) error) {
				path := filepath.Join(dir, fmt.Sprintf("%s-%s%s", kind, c.name, suffix(file)))
				if err := w(path); err != nil {
					errs = append(errs, fmt.Errorf("writing the %s seed: %w", filepath.Base(path), err))
					return
				}
				seeds = append(seeds, Seed{path, kind, file})
			}
			write("flat", func(p string) error { return writeRows(p, file, cfg, rows(flat)) })
			write("nested", func(p string) error { return writeRows(p, file, cfg, rows(nested)) })
			write("lists", func(p string) error { return writeRows(p, file, cfg, rows(lists)) })
			write("maps", func(p string) error { return writeRows(p, file, cfg, rows(maps)) })
			write("dict", func(p string) error { return writeRows(p, file, cfg, rows(dict)) })
			write("views", func(p string) error { return writeRows(p, file, cfg, rows(viewRow)) })
			write("runs", func(p string) error { return writeRows(p, file, cfg, rows(runRow)) })
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, pattern := range []string{"*.arrow_file", "*.stream"} {
		files, err := filepath.Glob(filepath.Join(integrationDir, pattern))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			file := strings.HasSuffix(f, ".arrow_file")
			name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".arrow_file"), ".stream")
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			path := filepath.Join(dir, name+"-none"+suffix(file))
			if err := os.WriteFile(path, data, 0o644); err != nil {
				return nil, err
			}
			seeds = append(seeds, Seed{path, "records", file})
			for _, c := range codecs[1:] {
				path := filepath.Join(dir, name+"-"+c.name+suffix(file))
				if rewrite(data, path, file, c.codec) == nil {
					seeds = append(seeds, Seed{path, "records", file})
				}
			}
		}
	}
	return seeds, nil
}

func suffix(file bool) string {
	if file {
		return ".arrow"
	}
	return ".arrows"
}

func writeRows[T any](path string, file bool, cfg ipc.WriteConfig, rows []T) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	newWriter := ipc.NewWriter[T]
	if file {
		newWriter = ipc.NewFileWriter[T]
	}
	w, err := newWriter(f, cfg)
	if err == nil {
		if _, err = w.Write(rows); err == nil {
			err = w.Close()
		}
	}
	return errors.Join(err, f.Close())
}

// rewrite writes the records of data, an IPC file or stream, to path with
// bodies compressed by codec, through our RecordWriter.
func rewrite(data []byte, path string, file bool, codec ipc.Codec) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	rr, err := ipc.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	defer rr.Release()
	var buf bytes.Buffer
	newWriter := ipc.NewRecordStreamWriter
	if file {
		newWriter = ipc.NewRecordFileWriter
	}
	w, err := newWriter(&buf, rr.Schema(), ipc.WriteConfig{Compression: codec})
	if err != nil {
		return err
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			w.Close()
			return err
		}
	}
	if err := errors.Join(rr.Err(), w.Close()); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func rows[T any](row func(i int) T) []T {
	out := make([]T, seedRows)
	for i := range out {
		out[i] = row(i)
	}
	return out
}

func flat(i int) Flat {
	r := Flat{ID: int64(i), Name: fmt.Sprintf("name-%d", i%17), Ok: i%3 == 0}
	if i%5 != 0 {
		s := float64(i) / 4
		r.Score = &s
	}
	return r
}

func nested(i int) Nested {
	var r Nested
	r.ID = int64(i)
	r.Point.X, r.Point.Y, r.Point.Label = float64(i), -float64(i), fmt.Sprintf("p%d", i%7)
	return r
}

func lists(i int) Lists {
	r := Lists{ID: int64(i)}
	for k := range i % 4 {
		r.Tags = append(r.Tags, fmt.Sprintf("t%d", k))
		r.Nums = append(r.Nums, int32(i*k))
	}
	return r
}

func maps(i int) Maps {
	r := Maps{ID: int64(i), Attrs: map[string]int64{}}
	for k := range i % 3 {
		r.Attrs[fmt.Sprintf("k%d", k)] = int64(i + k)
	}
	return r
}

func dict(i int) Dict {
	// A record's dictionary grows as the rows go: deltas in a stream.
	return Dict{ID: int64(i), City: fmt.Sprintf("city-%d", i%(3+i/50)), Code: []string{"a", "b"}[i%2]}
}

func runRow(i int) Runs { return Runs{ID: int64(i / 60)} }

func viewRow(i int) Views {
	return Views{ID: int64(i), Text: fmt.Sprintf("a text longer than twelve bytes, %d", i%11), Run: int32(i / 40)}
}

// Verdict is what cmd/mutant prints for one file: its path, the rows its headers
// state, read as the readers by path read it (its footer's record batches
// for a file, its messages for a stream; -1 when they do not hold), the
// rows of the messages served as FlightData (-1 when they end cut), and
// the outcome of each path read.
type Verdict struct {
	File       string    `json:"file"`
	Rows       int64     `json:"rows"`
	ServedRows int64     `json:"served_rows"`
	Paths      []Outcome `json:"paths"`
}

// Outcome is the result of one path: the rows it read and its error.
type Outcome struct {
	Path   string `json:"path"`
	Rows   int64  `json:"rows"`
	Err    string `json:"err,omitempty"`
	Panic  string `json:"panic,omitempty"` // a panic that escaped on the calling goroutine
	Served bool   `json:"served,omitempty"`
}

// Print writes v as one line of JSON.
func Print(v Verdict) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Println(string(b))
	return err
}

// recordRows counts the rows of rr to its end.
func recordRows(rr array.RecordReader) (int64, error) {
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	return n, rr.Err()
}
