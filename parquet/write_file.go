package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet/internal/pagewriter"
)

// fileOut is the Parquet file a Writer or a RecordWriter writes: the
// records of its schema go to the row group being built, and a full row
// group to the io.Writer when the next records come.
type fileOut struct {
	fw   pagewriter.FileWriter
	sink *sink
	pool *pool // the allocator without mapper.Allocator
	// storage is the schema encoded (storageType's, with encodingType's
	// lists) when a column of the records' is converted to it, nil when
	// none is; convert is the indexes of those columns.
	storage               *arrow.Schema
	convert               []int
	mem                   memory.Allocator
	props                 *parquet.WriterProperties // what the encoder writes with, for failingColumn
	rows                  int64                     // written to the file, for the rows of errors
	groupRows, groupBytes int64
	inGroup               int64      // rows written to the current row group
	groups                int        // row groups holding rows, the current one included
	groupArrow            int64      // their size as Arrow data, with RowGroupBytes
	groupFull             bool       // the current row group is to be closed before the next rows
	order                 *sortOrder // checks WriteConfig.SortingColumns; nil without
	err                   error      // the failure that broke the file, for every call after it
}

// newFileOut starts the Parquet file of records of schema on w, as cfg
// says, its buffers from mem (own when the file owns that pool).
func newFileOut(w io.Writer, schema *arrow.Schema, cfg WriteConfig, mem memory.Allocator, own *pool) (*fileOut, error) {
	groupRows := cfg.RowGroupRows
	if groupRows == 0 {
		groupRows = DefaultRowGroupRows
	}
	stored, changed, err := storageSchema(schema)
	if err != nil {
		return nil, err
	}
	encoded, reshaped := encodingSchema(stored)
	props, err := writerProperties(encoded, cfg, mem, groupRows)
	if err != nil {
		return nil, err
	}
	arrowSchema, err := storedSchema(stored, mem)
	if err != nil {
		return nil, err
	}
	meta := [][2]string{{arrowSchemaKey, arrowSchema}}
	goSchema, err := encodeSchema(schema, mem)
	if err != nil {
		return nil, err
	}
	// Always: pqarrow's reading of arrowSchema does not keep every type,
	// name and metadata of it.
	meta = append(meta, [2]string{goSchemaKey, goSchema})
	meta = append(meta, fileMetadata(schema.Metadata())...)
	s := &sink{w: w}
	if completed != nil {
		s.copy = new(bytes.Buffer)
	}
	if err := storable(schema, encoded, props, pqarrow.DefaultWriterProps()); err != nil {
		return nil, err
	}
	var fw pagewriter.FileWriter
	if cfg.Encoder == EncoderArrowmap {
		direct, err := pagewriter.New(encoded, s, props, cfg.parallelism())
		if err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: creating the Parquet writer: %w", err)
		}
		if direct != nil { // else a schema only pqarrow writes
			fw = direct
		}
	}
	if fw == nil {
		if fw, err = newFileWriter(encoded, s, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem))); err != nil {
			return nil, err
		}
	}
	for _, kv := range meta {
		if err := fw.AppendKeyValueMetadata(kv[0], kv[1]); err != nil {
			fw.Close()
			return nil, fmt.Errorf("arrowmap/parquet: metadata %q: %w", kv[0], err)
		}
	}
	out := &fileOut{fw: fw, sink: s, pool: own, groupRows: groupRows, groupBytes: cfg.RowGroupBytes, mem: mem, props: props}
	if len(cfg.SortingColumns) > 0 {
		pq, err := pqarrow.ToParquet(encoded, props, pqarrow.DefaultWriterProps())
		if err != nil {
			fw.Close()
			return nil, fmt.Errorf("arrowmap/parquet: %w", err)
		}
		paths := make([]string, pq.NumColumns())
		for i := range paths {
			paths[i] = pq.Column(i).Path()
		}
		out.order = newSortOrder(encoded, paths, cfg.SortingColumns, func(name string) int { return leafIndex(pq, name) })
	}
	for i, f := range schema.Fields() {
		if changed[i] || reshaped[i] || mayNormalize(f.Type) {
			out.storage = encoded
			out.convert = append(out.convert, i)
		}
	}
	return out, nil
}

// fileMetadata is the file's key/value metadata besides the stored
// schemas: the Arrow schema's metadata, in key order, but the keys that
// hold a stored schema (a schema read from a Parquet file may hold them;
// parseWrite refuses them in a mapper.SchemaMetadata).
func fileMetadata(schemaMeta arrow.Metadata) [][2]string {
	all := map[string]string{}
	for i, k := range schemaMeta.Keys() {
		if k != arrowSchemaKey && k != goSchemaKey {
			all[k] = schemaMeta.Values()[i]
		}
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	kv := make([][2]string, len(keys))
	for i, k := range keys {
		kv[i] = [2]string{k, all[k]}
	}
	return kv
}

// mayNormalize reports whether a column of dt may need converting for
// pqarrow even where its storage type is dt: a list whose null rows hold
// elements, a dictionary with a null entry, a struct of decimals
// (underNulls).
func mayNormalize(dt arrow.DataType) bool {
	r := arrowtype.OfType(dt)
	if r.Layout == arrowtype.Dictionary {
		return true
	}
	if t, ok := dt.(arrow.NestedType); ok {
		for _, f := range t.Fields() {
			if mayNormalize(f.Type) || (r.Layout == arrowtype.Struct && arrowtype.OfType(f.Type).Decimal) {
				return true
			}
		}
		return r.Layout == arrowtype.List
	}
	return false
}

// toStorage is rec with the columns f converts in their storage types;
// its rows are those from row base of the file. The caller releases it.
func (f *fileOut) toStorage(rec arrow.RecordBatch, base int64) (arrow.RecordBatch, error) {
	cols := slices.Clone(rec.Columns())
	var made []arrow.Array
	defer func() {
		for _, c := range made {
			c.Release()
		}
	}()
	for _, i := range f.convert {
		c, err := convert(cols[i], f.storage.Field(i).Type, f.mem)
		if err != nil {
			return nil, columnError(rec.Schema().Field(i).Name, base, err)
		}
		made = append(made, c)
		cols[i] = c
	}
	return array.NewRecordBatch(f.storage, cols, rec.NumRows()), nil
}

// room is how many rows, and how many bytes of Arrow data with
// RowGroupBytes, the row group that the next rows go to takes.
func (f *fileOut) room() (rows, bytes int64) {
	inGroup, groupArrow := f.inGroup, f.groupArrow
	if f.groupFull { // the rows go to a new row group
		inGroup, groupArrow = 0, 0
	}
	bytes = math.MaxInt64
	if f.groupBytes > 0 {
		bytes = f.groupBytes - groupArrow
	}
	return f.groupRows - inGroup, bytes
}

// write adds rec, whose rows fit in room, to the current row group, or to
// a new one when the current is full. size is rec's Arrow size, counted
// with RowGroupBytes.
func (f *fileOut) write(rec arrow.RecordBatch, size int64) error {
	rec.Retain()
	wait, err := f.begin(rec, size, 0)
	if err != nil {
		return err
	}
	return wait()
}

// begin does what write does, and takes rec, which it releases: it closes
// a full row group and checks rec's rows, counting them in the row group,
// then encodes rec's columns on another goroutine, for wait to wait for.
// coming is how many rows the caller knows are to follow rec: the direct
// writer sizes its pages' buffers for the rows the row group is to take.
// The caller calls wait before anything else of f: its rows go on being
// built meanwhile. An error of begin is a refusal of rec's rows or the
// failure that broke the file; that of wait, an encoding failure, which
// breaks the file.
func (f *fileOut) begin(rec arrow.RecordBatch, size, coming int64) (wait func() error, err error) {
	defer func() {
		if err != nil {
			rec.Release()
		}
	}()
	if f.err != nil {
		return nil, f.err
	}
	starts := (f.groupFull || f.inGroup == 0) && rec.NumRows() > 0
	if starts && f.groups == math.MaxInt16 {
		// Refused before either encoder starts the row group: arrow-go's
		// writes the ordinal of the 32,768th as -32,768.
		return nil, fmt.Errorf("arrowmap/parquet: more than %d row groups, which Parquet numbers with int16 ordinals: the file holds the rows before (a larger WriteConfig.RowGroupRows or RowGroupBytes makes fewer)", math.MaxInt16)
	}
	if f.groupFull {
		// Closing the full row group writes its pages to the io.Writer.
		if err := f.fw.NewBufferedRowGroupChecked(); err != nil {
			return nil, f.fail("writing row group", err)
		}
		f.groupFull, f.inGroup, f.groupArrow = false, 0, 0
		if f.order != nil {
			f.order.reset() // the order is a row group's
		}
	}
	if f.storage != nil {
		stored, err := f.toStorage(rec, f.rows)
		if err != nil {
			return nil, err // a value refused: the file goes on without these rows
		}
		rec.Release()
		rec = stored
	}
	if f.order != nil {
		if err := f.order.check(rec, f.rows, f.mem); err != nil {
			return nil, err // a row refused: the file goes on without these rows
		}
	}
	if d, ok := f.fw.(*pagewriter.File); ok {
		d.ExpectRows(min(f.groupRows-f.inGroup, rec.NumRows()+coming))
	}
	// The rows are the row group's now: a failure to encode them breaks
	// the file.
	if starts {
		f.groups++
	}
	f.inGroup += rec.NumRows()
	f.rows += rec.NumRows()
	f.groupArrow += size
	if f.inGroup >= f.groupRows || (f.groupBytes > 0 && f.groupArrow >= f.groupBytes) {
		f.groupFull = true
	}
	done := make(chan error, 1)
	go func() {
		err := f.encode(rec)
		if err != nil {
			var named *mapper.Error
			if f.sink.err == nil && !errors.As(err, &named) {
				err = f.failingColumn(rec, err)
			}
			err = f.fail("encoding rows", err)
		}
		// Released before wait returns: the caller may count its
		// allocator's bytes, or free what rec's arrays hold, then.
		rec.Release()
		done <- err
	}()
	return func() error { return <-done }, nil
}

// encode hands rec, of the encoded schema, to the file's encoder: a panic
// of pqarrow's is an error like its others.
func (f *fileOut) encode(rec arrow.RecordBatch) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return f.fw.WriteBuffered(rec)
}

// failingColumn is err, the encoder's failure on rec, as an *mapper.Error
// naming the first column of rec that pqarrow fails to encode alone (its
// errors name none), wrapping mapper.ErrInvalidData for a value it
// refuses (a decimal past its precision) and mapper.ErrUnsupported for
// what it cannot write; err itself when every column encodes alone.
func (f *fileOut) failingColumn(rec arrow.RecordBatch, err error) error {
	for i, field := range rec.Schema().Fields() {
		one := arrow.NewSchema([]arrow.Field{field}, nil)
		col := array.NewRecordBatch(one, []arrow.Array{rec.Column(i)}, rec.NumRows())
		cerr := encodeAlone(col, f.props, f.mem)
		col.Release()
		if cerr == nil {
			continue
		}
		kind := mapper.ErrUnsupported
		if errors.Is(cerr, arrow.ErrInvalid) {
			kind = mapper.ErrInvalidData
		}
		return &mapper.Error{Column: field.Name, Row: -1, Err: fmt.Errorf("%w: Parquet cannot store the column's values: %w", kind, cerr)}
	}
	return err
}

// encodeAlone writes rec with pqarrow to no file: its error, if any.
func encodeAlone(rec arrow.RecordBatch, props *parquet.WriterProperties, mem memory.Allocator) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	fw, err := pqarrow.NewFileWriter(rec.Schema(), io.Discard, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return err
	}
	err = fw.WriteBuffered(rec)
	if cerr := fw.Close(); err == nil {
		err = cerr
	}
	return err
}

// fail records the error that broke the file.
func (f *fileOut) fail(doing string, err error) error {
	if f.sink.err != nil {
		err = f.sink.err // pqarrow's error wraps it, or says less
	}
	f.err = fmt.Errorf("arrowmap/parquet: %s: %w", doing, err)
	return f.err
}

// close writes the footer, unless a failure broke the file, and frees
// what the file holds.
func (f *fileOut) close() error {
	defer func() {
		if f.order != nil {
			f.order.reset()
		}
		if f.pool != nil {
			f.pool.release() // every record and page is freed by now
		}
	}()
	if f.err == nil {
		if err := f.fw.Close(); err != nil {
			f.fail("writing the footer", err)
		}
	}
	if f.err != nil {
		f.fw.Close() // frees what pqarrow holds; the file is lost anyway
		return fmt.Errorf("arrowmap/parquet: no footer written, the file is not readable: %w", f.err)
	}
	if f.sink.copy != nil {
		completed(f.sink.copy.Bytes())
	}
	return nil
}

// completed, when not nil, is given the bytes of every file a writer of
// this package completes (its footer written), at its close: the package's
// tests set it to collect the files they write (export_test.go, with
// ARROWMAP_PARQUET_CORPUS), and it is nil otherwise.
var completed func(file []byte)

// defaultPageBytes is the size of a data page before compression: 1 MiB,
// arrow-go's and parquet-mr's default. The direct writer counts a page's
// levels and indices as the memory they hold until the page is encoded
// (leafWriter.pageBytes), so its pages of levels and dictionary indices
// are smaller once encoded.
const defaultPageBytes = 1 << 20

// defaultDictionaryBytes is the dictionary page size limit, past which a
// column chunk's values are plain encoded: 1 MiB, parquet-mr's, pyarrow's
// and arrow-go's.
const defaultDictionaryBytes = 1 << 20

// newFileWriter is pqarrow.NewFileWriter, its errors naming the column
// Parquet cannot store.
func newFileWriter(schema *arrow.Schema, w io.Writer, props *parquet.WriterProperties, arrProps pqarrow.ArrowWriterProperties) (fw *pqarrow.FileWriter, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrowmap/parquet: creating the Parquet writer: %v", p)
		}
	}()
	if err := storable(schema, schema, props, arrProps); err != nil {
		return nil, err
	}
	fw, err = pqarrow.NewFileWriter(schema, w, props, arrProps)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: creating the Parquet writer: %w", err)
	}
	return fw, nil
}

// storable reports the first column of schema (in its storage types
// stored) that Parquet cannot store, as an *mapper.Error naming it.
func storable(schema, stored *arrow.Schema, props *parquet.WriterProperties, arrProps pqarrow.ArrowWriterProperties) error {
	if _, err := pqarrow.ToParquet(stored, props, arrProps); err == nil {
		return nil
	}
	for i, f := range stored.Fields() {
		if _, err := pqarrow.ToParquet(arrow.NewSchema([]arrow.Field{f}, nil), props, arrProps); err != nil {
			return &mapper.Error{Column: f.Name, Row: -1, Err: fmt.Errorf("%w: Parquet cannot store %s: %w", mapper.ErrUnsupported, schema.Field(i).Type, err)}
		}
	}
	_, err := pqarrow.ToParquet(stored, props, arrProps)
	return fmt.Errorf("arrowmap/parquet: %w", err)
}

// sink is the io.Writer pqarrow writes to: it remembers the first failure
// of the caller's writer and refuses every write after it, so that no
// footer goes after a hole; and it hides the caller's Close from pqarrow,
// which would close an io.Closer.
type sink struct {
	w    io.Writer
	n    int64
	err  error
	copy *bytes.Buffer // what was written, when completed is set
}

// Tell is the number of bytes written: the offset in the file of the next.
func (s *sink) Tell() int64 { return s.n }

// Err is the failure of the caller's writer, nil while there is none.
func (s *sink) Err() error { return s.err }

func (s *sink) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.n += int64(n)
	if s.copy != nil {
		s.copy.Write(p[:n])
	}
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		s.err = fmt.Errorf("writing to the io.Writer after %d bytes: %w", s.n, err)
		return n, s.err
	}
	return n, nil
}

// recordBytes is the size of rec's buffers. A buffer shared by two arrays
// counts twice: Builder's records share none but dictionaries', which are
// small.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
		if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
			walk(dict)
		}
	}
	for _, col := range rec.Columns() {
		walk(col.Data())
	}
	return n
}
