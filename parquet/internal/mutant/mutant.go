// Package mutant is the mutation test of the Parquet readers: seed files
// of every shape the Writer and pqarrow write, their damaged copies, and
// the check a child process runs on one of them (cmd/mutant), so that a
// panic on any goroutine or a fatal allocation shows in its exit, not in
// the test's process.
package mutant

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/internal/testsupport/mutation"
	"github.com/arrowmap/arrowmap/ipc"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/arrowmap/arrowmap/views"
)

// Flat, Nested, Lists, Maps and Dict are the rows of the seed files our
// Writer writes: flat columns, a struct, lists, a map, a dictionary.
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
	}
)

// idColumns is the columns every typed seed has: what OpenColumns reads.
type idColumns struct {
	ID views.PrimitiveColumn[int64] `arrow:"id"`
}

// Kinds are the kinds of seed, by the name cmd/mutant takes: each a row
// type, or "records" for a file of any schema, read as records.
var Kinds = []string{"flat", "nested", "lists", "maps", "dict", "records"}

// Seed is a seed file and the kind of its rows.
type Seed struct {
	Path string
	Kind string
}

// seedRows is the rows of each seed our Writer writes: in row groups of
// rowGroupRows, so a footer has several to damage.
const (
	seedRows     = 300
	rowGroupRows = 100
)

// WriteSeeds writes the seed files into dir: one of each row type by our
// Writer, compressed and not, and each IPC file of integrationDir that
// pqarrow converts, as kind "records". The uncompressed ones are what
// damage reaches the decoders through: a byte changed in a compressed page
// mostly fails its decompression.
func WriteSeeds(dir, integrationDir string) ([]Seed, error) {
	var seeds []Seed
	var errs []error
	for _, cfg := range []amparquet.WriteConfig{{RowGroupRows: rowGroupRows}, {RowGroupRows: rowGroupRows, Compression: amparquet.Uncompressed}} {
		suffix := ""
		if cfg.Compression == amparquet.Uncompressed {
			suffix = "-uncompressed"
		}
		write := func(kind string, f func(path string) error) {
			path := filepath.Join(dir, kind+suffix+".parquet")
			if err := f(path); err != nil {
				errs = append(errs, fmt.Errorf("writing the %s seed: %w", kind+suffix, err))
				return
			}
			seeds = append(seeds, Seed{path, kind})
		}
		write("flat", func(p string) error { return amparquet.WriteFile(p, rows(flat), cfg) })
		write("nested", func(p string) error { return amparquet.WriteFile(p, rows(nested), cfg) })
		write("lists", func(p string) error { return amparquet.WriteFile(p, rows(lists), cfg) })
		write("maps", func(p string) error { return amparquet.WriteFile(p, rows(maps), cfg) })
		write("dict", func(p string) error { return amparquet.WriteFile(p, rows(dict), cfg) })
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(integrationDir, "*.arrow_file"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		path := filepath.Join(dir, filepath.Base(f)+".parquet")
		if convert(f, path) == nil {
			seeds = append(seeds, Seed{path, "records"})
		}
	}
	return seeds, nil
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
	return Dict{ID: int64(i), City: []string{"Oslo", "Lima", "Pune"}[i%3]}
}

// convert writes the records of the IPC file in as the Parquet file out,
// through pqarrow with the Arrow schema stored.
func convert(in, out string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	rr, err := ipc.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	defer rr.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rr.Schema(), &buf, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return err
	}
	for rr.Next() {
		if err := w.WriteBuffered(rr.RecordBatch()); err != nil {
			w.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if rr.Err() != nil {
		return rr.Err()
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// Verdict is what cmd/mutant prints for one file: the row count its
// footer states (-1 when arrow-go cannot read the footer) and the outcome
// of each path read.
type Verdict struct {
	FooterRows int64     `json:"footer_rows"`
	Paths      []Outcome `json:"paths"`
}

// Outcome is the result of one path: the rows it read and its error.
type Outcome struct {
	Path  string `json:"path"`
	Rows  int64  `json:"rows"`
	Err   string `json:"err,omitempty"`
	Panic string `json:"panic,omitempty"` // a panic that escaped on the calling goroutine
}

// Check reads the file at path, of the kind of rows kind, through every
// path: ReadFile, Open with Pages, Open with Read, Open with All,
// OpenColumns, OpenRecordsReaderAt and OpenRecords for a typed kind; the
// same but OpenColumns with a row type with no fields for "records".
// Some paths read records of batch rows, the others of the default size
// (see paths): a small size makes records span row groups, whose chunks
// are joined into one, the default reads every row group at once. Before
// each path it writes "mutant: reading PATH" to stderr, so that a process
// that dies tells on which.
func Check(path, kind string, batch int) (Verdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{FooterRows: FooterRows(data)}
	run := func(name string, f func() (int64, error)) {
		fmt.Fprintf(os.Stderr, "mutant: reading %s\n", name)
		o := Outcome{Path: name}
		func() {
			defer func() {
				if p := recover(); p != nil {
					o.Panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
				}
			}()
			n, err := f()
			o.Rows = n
			if err != nil {
				o.Err = err.Error()
			}
		}()
		v.Paths = append(v.Paths, o)
	}
	small := amparquet.ReadConfig{BatchRows: batch}
	switch kind {
	case "flat":
		checkRows[Flat](run, path, small)
	case "nested":
		checkRows[Nested](run, path, small)
	case "lists":
		checkRows[Lists](run, path, small)
	case "maps":
		checkRows[Maps](run, path, small)
	case "dict":
		checkRows[Dict](run, path, small)
	case "records":
		checkRows[struct{}](run, path, small)
	default:
		return Verdict{}, fmt.Errorf("no kind of seed %q", kind)
	}
	run("OpenRecordsReaderAt", func() (int64, error) {
		rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), small)
		if err != nil {
			return 0, err
		}
		return countRecords(rr)
	})
	run("OpenRecords", func() (int64, error) {
		rr, err := amparquet.OpenRecords(path)
		if err != nil {
			return 0, err
		}
		return countRecords(rr)
	})
	return v, nil
}

// Paths are the names of the paths Check reads a file through, in order,
// and the record size each reads with: "batch" the size given to Check,
// "default" none (DefaultBatchRows, or records sized to the pages read).
var Paths = []struct{ Name, Records string }{
	{"ReadFile", "default"},
	{"Open+Pages", "batch"},
	{"Open+Read", "default"},
	{"Open+All", "batch"},
	{"OpenColumns", "batch"},
	{"OpenRecordsReaderAt", "batch"},
	{"OpenRecords", "default"},
}

func countRecords(rr array.RecordReader) (int64, error) {
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	return n, rr.Err()
}

// checkRows runs the paths of a row type T, some with the ReadConfig
// small.
func checkRows[T any](run func(string, func() (int64, error)), path string, small amparquet.ReadConfig) {
	run("ReadFile", func() (int64, error) {
		rows, err := amparquet.ReadFile[T](path)
		return int64(len(rows)), err
	})
	run("Open+Pages", func() (int64, error) {
		r, err := amparquet.Open[T](path, small)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		var n int64
		for page, err := range r.Pages(50) {
			if err != nil {
				return n, err
			}
			n += int64(len(page))
		}
		return n, nil
	})
	run("Open+Read", func() (int64, error) {
		r, err := amparquet.Open[T](path)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		return mutation.ReadRows[T](r, 37)
	})
	run("Open+All", func() (int64, error) {
		r, err := amparquet.Open[T](path, small)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		var n int64
		for _, err := range r.All() {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	})
	var zero T
	if _, ok := any(zero).(struct{}); ok {
		return
	}
	run("OpenColumns", func() (int64, error) {
		r, err := amparquet.OpenColumns[idColumns](path, small)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		var n int64
		for r.Next() {
			n += int64(r.Columns().ID.Len())
		}
		return n, r.Err()
	})
}

// FooterRows is the rows of the row groups of the footer of data, which
// every reader reads in all, or -1 when the footer does not read. It is
// read through this package's checks first: arrow-go alone allocates what
// a damaged footer claims, and one mutant's claim ends the process. The
// footer is not read through a reader of every column: a column a damaged
// footer makes unreadable fails that reader, not one that reads the others.
func FooterRows(data []byte) (rows int64) {
	if _, err := amparquet.ReadSchema(bytes.NewReader(data), int64(len(data))); err != nil {
		return -1
	}
	defer func() {
		if recover() != nil {
			rows = -1
		}
	}()
	// The row groups' num_rows as the footer's thrift holds them, read
	// here field by field: arrow-go's readers refuse, or panic on, footers
	// that arrowmap repairs and reads as every other reader does (a count
	// of 0 over row groups of rows, a logical type arrow-go does not know),
	// whose row groups count the rows all the same.
	n := len(data)
	if n < 12 {
		return -1
	}
	size := int64(binary.LittleEndian.Uint32(data[n-8:]))
	if size <= 0 || size > int64(n-12) {
		return -1
	}
	rows, err := footerRowGroupRows(data[int64(n-8)-size : n-8])
	if err != nil {
		return -1
	}
	return rows
}

// footerRowGroupRows adds up the num_rows of the row_groups of footer, a
// FileMetaData in thrift's compact encoding, read as parquet.thrift's
// generated readers (arrow-go's, parquet-mr's, DuckDB's) read it: a list
// is read as the elements its field holds in the IDL, whatever element
// type its header declares (generated code never looks), a field of
// another type than the IDL's is skipped as the type its header declares,
// and a field read twice keeps its last value. Only the structs on the way
// to the row counts that hold a list are described (idlStruct); a struct
// of no list reads alike either way, skipped field by field.
func footerRowGroupRows(footer []byte) (int64, error) {
	conf := &thrift.TConfiguration{MaxMessageSize: int32(len(footer)), MaxFrameSize: int32(len(footer))}
	r := idlReader{ctx: context.Background(), p: thrift.NewTCompactProtocolConf(thrift.NewStreamTransportR(bytes.NewReader(footer)), conf)}
	var groups []int64 // of the last row_groups read
	err := r.structure(fileMetaData, func(id int16) (bool, error) {
		if id != 4 {
			return false, nil
		}
		groups = groups[:0]
		return true, r.list(fileMetaData[4], func() error {
			rows := int64(-1)
			err := r.structure(rowGroup, func(id int16) (bool, error) {
				if id != 3 {
					return false, nil
				}
				n, err := r.p.ReadI64(r.ctx)
				rows = n
				return true, err
			})
			if err == nil && rows < 0 {
				err = fmt.Errorf("a row group of %d rows, or of no num_rows", rows)
			}
			groups = append(groups, rows)
			return err
		})
	})
	if err != nil {
		return 0, err
	}
	var rows int64
	for _, n := range groups {
		if rows > math.MaxInt64-n {
			return 0, errors.New("row groups of more than 2^63 rows")
		}
		rows += n
	}
	return rows, nil
}

// idlField is a field of parquet.thrift as its generated reader reads it:
// of type t; a list's elements of type elem; a struct, or a list's struct
// elements, of the fields of of (nil: a struct that holds no list).
type idlField struct {
	t, elem thrift.TType
	of      idlStruct
}

type idlStruct map[int16]idlField

func listOf(elem thrift.TType, of idlStruct) idlField {
	return idlField{t: thrift.LIST, elem: elem, of: of}
}

// The structs of arrow-go v18.8.0's parquet.thrift from FileMetaData to
// its lists: EncryptionWithColumnKey, ColumnCryptoMetaData,
// SizeStatistics, GeospatialStatistics, ColumnMetaData, ColumnChunk,
// RowGroup and FileMetaData. The others hold none.
var (
	columnKey    = idlStruct{1: listOf(thrift.STRING, nil)}
	cryptoMeta   = idlStruct{2: {t: thrift.STRUCT, of: columnKey}}
	sizeStats    = idlStruct{2: listOf(thrift.I64, nil), 3: listOf(thrift.I64, nil)}
	geoStats     = idlStruct{1: {t: thrift.STRUCT}, 2: listOf(thrift.I32, nil)}
	columnMeta   = idlStruct{2: listOf(thrift.I32, nil), 3: listOf(thrift.STRING, nil), 8: listOf(thrift.STRUCT, nil), 12: {t: thrift.STRUCT}, 13: listOf(thrift.STRUCT, nil), 16: {t: thrift.STRUCT, of: sizeStats}, 17: {t: thrift.STRUCT, of: geoStats}}
	columnChunk  = idlStruct{3: {t: thrift.STRUCT, of: columnMeta}, 8: {t: thrift.STRUCT, of: cryptoMeta}}
	rowGroup     = idlStruct{1: listOf(thrift.STRUCT, columnChunk), 3: {t: thrift.I64}, 4: listOf(thrift.STRUCT, nil)}
	fileMetaData = idlStruct{2: listOf(thrift.STRUCT, nil), 4: listOf(thrift.STRUCT, rowGroup), 5: listOf(thrift.STRUCT, nil), 7: listOf(thrift.STRUCT, nil), 8: {t: thrift.STRUCT}}
)

// idlReader reads compact thrift as parquet.thrift's generated code does.
type idlReader struct {
	ctx   context.Context
	p     *thrift.TCompactProtocol
	depth int
}

// structure reads a struct of the fields of s. own, when not nil, reads
// a field of the IDL's type that it wants, saying so; it is given its id.
func (r *idlReader) structure(s idlStruct, own func(id int16) (bool, error)) error {
	if r.depth++; r.depth > thrift.DEFAULT_RECURSION_DEPTH {
		return errors.New("structs nested too deep")
	}
	defer func() { r.depth-- }()
	if _, err := r.p.ReadStructBegin(r.ctx); err != nil {
		return err
	}
	for {
		_, t, id, err := r.p.ReadFieldBegin(r.ctx)
		if err != nil {
			return err
		}
		if t == thrift.STOP {
			return r.p.ReadStructEnd(r.ctx)
		}
		f, known := s[id]
		read := false
		if known && f.t == t && own != nil {
			read, err = own(id)
		}
		switch {
		case err != nil, read:
		case !known || f.t != t:
			err = r.p.Skip(r.ctx, t) // as its header says
		case t == thrift.LIST:
			err = r.list(f, nil)
		default:
			err = r.value(t, f.of)
		}
		if err != nil {
			return err
		}
		if err := r.p.ReadFieldEnd(r.ctx); err != nil {
			return err
		}
	}
}

// list reads a list of f's elements, each by each when it is not nil.
func (r *idlReader) list(f idlField, each func() error) error {
	_, n, err := r.p.ReadListBegin(r.ctx)
	if err != nil {
		return err
	}
	if n < 0 {
		return fmt.Errorf("a list of %d elements", n)
	}
	for range n {
		if each != nil {
			err = each()
		} else {
			err = r.value(f.elem, f.of)
		}
		if err != nil {
			return err
		}
	}
	return r.p.ReadListEnd(r.ctx)
}

// value reads a value of type t, a struct of the fields of of.
func (r *idlReader) value(t thrift.TType, of idlStruct) error {
	if t == thrift.STRUCT && of != nil {
		return r.structure(of, nil)
	}
	return r.p.Skip(r.ctx, t)
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
