//go:build duckdb_arrow

package duckdb_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// knownDifferences is every way DuckDB's read_parquet reads a file of our
// writer otherwise than arrow-go's pqarrow does, by the class of the
// column's type where they differ (and what differs), with its reason.
// The test fails on a difference not listed here, and on a listed one no
// file shows: the table stays what DuckDB does. parquet/doc.go ("Read by
// DuckDB") says the same to users, with the tag that avoids each.
var knownDifferences = map[string]string{
	"timestamp[ns, UTC]: value": "DuckDB reads a Parquet TIMESTAMP(NANOS) adjusted to UTC as TIMESTAMPTZ, " +
		"which is microseconds: the nanoseconds are truncated toward zero (unit=us avoids it)",
	"timestamp[ns, zoned]: value": "as timestamp[ns, UTC]: TIMESTAMPTZ is microseconds",
	"timestamp[ms, zoned]: zone name": "Parquet's TIMESTAMP keeps isAdjustedToUTC, not the zone, which only the " +
		"ARROW:schema holds and DuckDB does not read: DuckDB exports TIMESTAMPTZ in UTC, the same instants",
	"timestamp[us, zoned]: zone name": "as timestamp[ms, zoned]",
	"timestamp[ns, zoned]: zone name": "as timestamp[ms, zoned]",
	"decimal(39-76): value": "DuckDB's DECIMAL holds 38 digits: it reads a wider Parquet DECIMAL as DOUBLE, " +
		"rounded, and in 17 bytes (precision 39, 40) wrongly (1.5 as 1.08e17; duckdb/duckdb#25058)",
	"column name": "DuckDB renames a column whose name an earlier column of the file has (ints, ints_1): " +
		"its tables have unique column names",
}

// notStorable is the Arrow types of the type table our Parquet writer
// refuses (parquet/doc.go says why), which no file of the corpus holds.
var notStorable = []arrow.Type{arrow.SPARSE_UNION, arrow.DENSE_UNION, arrow.INTERVAL_DAY_TIME, arrow.INTERVAL_MONTH_DAY_NANO}

// corpusSkip is the tests of the parquet package the corpus is built
// without: they write rows of types other tests write too, by the million
// (a file of 215 MB, 60% of the values the corpus compared, which took
// most of the package's ten minutes under the race detector), and their
// bounds on memory do not hold with the copy of every file the corpus
// takes.
const corpusSkip = "^(TestWritingFlatRowsHoldsOneRowGroupWhateverTheRowCount|TestReadingFlatRowsInPagesHoldsOneRowGroupWhateverTheRowCount)$"

func TestDuckDBReadsEveryFileOurWriterWritesWithEqualValues(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the parquet package's tests to collect their files")
	}
	start := time.Now()
	dir := parquetCorpus(t)
	built := time.Since(start)
	paths, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	require.NoError(t, err)
	require.NotEmpty(t, paths, "the parquet package's tests saved no file")

	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()
	// One connection for each file compared at once (a connection's Arrow
	// interface reads one result at a time), with DuckDB's own export
	// settings: how DuckDB reads a file, not how a setting exports it, is
	// what is compared.
	workers := runtime.GOMAXPROCS(0)
	pool := make(chan *duckdb.Arrow, workers)
	for range workers {
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.Raw(func(dc any) error {
			ar, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
			pool <- ar
			return err
		}))
	}

	var sum summary
	sum.seen, sum.compared = map[string]int{}, map[string]int{}
	sum.cover = coverage{codecs: map[compress.Compression]bool{}, types: map[arrow.Type]bool{}}
	var mu sync.Mutex
	t.Run("files", func(t *testing.T) {
		for _, path := range paths {
			t.Run(filepath.Base(path), func(t *testing.T) {
				t.Parallel()
				ar := <-pool
				defer func() { pool <- ar }()
				one := summary{seen: map[string]int{}, compared: map[string]int{}}
				compareFile(t, ctx, ar, path, &one)
				mu.Lock()
				defer mu.Unlock()
				sum.merge(&one)
			})
		}
	})
	for _, path := range paths {
		sum.cover.add(t, path)
	}

	t.Run("every difference is a known one", func(t *testing.T) {
		for class, n := range sum.seen {
			if _, ok := knownDifferences[class]; !ok {
				t.Errorf("%s: %d values differ, in files %s", class, n, strings.Join(sum.where[class], ", "))
			}
		}
	})
	t.Run("every known difference is shown by a file", func(t *testing.T) {
		for class := range knownDifferences {
			assert.Contains(t, sum.seen, class, "no file shows the known difference %q: drop it from the table and the doc", class)
		}
	})
	t.Run("the corpus covers every codec, layout and storable type", func(t *testing.T) {
		sum.cover.check(t)
	})

	var kinds []string
	for class, n := range sum.seen {
		kinds = append(kinds, fmt.Sprintf("%s (%d values)", class, n))
	}
	sort.Strings(kinds)
	t.Logf("corpus built in %s by the parquet package's tests; %d files, %d columns, %d values compared in %s",
		built.Round(time.Millisecond), len(paths), sum.columns, sum.values, time.Since(start).Round(time.Millisecond))
	t.Logf("%d files with a difference; differences by kind:\n\t%s", sum.filesDiffering, strings.Join(kinds, "\n\t"))
	var classes []string
	for class, n := range sum.compared {
		classes = append(classes, fmt.Sprintf("%s %d", class, n))
	}
	sort.Strings(classes)
	t.Logf("values compared by type: %s", strings.Join(classes, "; "))
}

// parquetCorpus runs the root module's parquet tests with the corpus hook
// on, and returns the directory of the files they saved; or the directory
// ARROWMAP_PARQUET_CORPUS names, when it is set, as it is.
func parquetCorpus(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("ARROWMAP_PARQUET_CORPUS"); dir != "" {
		t.Logf("the corpus of %s, as it is", dir)
		return dir // a corpus built before, for working on this test
	}
	dir := t.TempDir()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	cmd := exec.Command("go", "test", "-count=1", "-skip", corpusSkip, "./parquet")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "ARROWMAP_PARQUET_CORPUS="+dir)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go test ./parquet with the corpus hook:\n%s", out)
	t.Logf("go test -count=1 -skip %s ./parquet: %s", corpusSkip, time.Since(start).Round(time.Millisecond))
	return dir
}

type summary struct {
	columns, values, filesDiffering int
	seen                            map[string]int      // values differing, by class
	compared                        map[string]int      // values compared, by class
	where                           map[string][]string // the files showing each class
	cover                           coverage
}

// compareFile reads path with pqarrow and with DuckDB and compares every
// value of every column, recording the differences in sum.
func compareFile(t *testing.T, ctx context.Context, ar *duckdb.Arrow, path string, sum *summary) {
	t.Helper()
	name := filepath.Base(path)
	ref, err := readReference(ctx, path)
	require.NoError(t, err, "%s: pqarrow", name)
	defer ref.Release()

	rdr, err := ar.QueryContext(ctx, fmt.Sprintf("SELECT * FROM read_parquet('%s')", path))
	if err != nil {
		sum.record(name, "refused by DuckDB: "+err.Error(), 1)
		return
	}
	var recs []arrow.RecordBatch
	for rdr.Next() {
		rec := rdr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	rerr := rdr.Err()
	schema := rdr.Schema()
	rdr.Release()
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	if rerr != nil {
		sum.record(name, "refused by DuckDB: "+rerr.Error(), 1)
		return
	}
	require.Equal(t, int(ref.NumCols()), schema.NumFields(), "%s: columns", name)
	differs := false
	for c := range int(ref.NumCols()) {
		col := ref.Column(c)
		if col.Name() != schema.Field(c).Name {
			sum.record(name, "column name", 1)
			differs = true
			t.Logf("%s: column %d: %q is %q to DuckDB", name, c, col.Name(), schema.Field(c).Name)
		}
		var duck []arrow.Array
		for _, r := range recs {
			duck = append(duck, r.Column(c))
		}
		sum.columns++
		a, b := cursor{chunks: col.Data().Chunks()}, cursor{chunks: duck}
		var ta, tb []token
		for row := 0; ; row++ {
			ra, i, okA := a.next()
			rb, j, okB := b.next()
			if !okA || !okB {
				if okA != okB {
					sum.record(name, "row count", 1)
					differs = true
				}
				break
			}
			ta, tb = tokens(ta[:0], ra, i), tokens(tb[:0], rb, j)
			sum.values += len(ta)
			for _, tk := range ta {
				if tk.class != "" {
					sum.compared[tk.class]++
				}
			}
			for _, class := range differences(col.DataType(), ta, tb) {
				sum.record(name, class, 1)
				differs = true
				if sum.seen[class] == 1 {
					t.Logf("%s: column %q (%s, DuckDB %s) row %d: %s: %v != %v", name, col.Name(), col.DataType(), schema.Field(c).Type, row, class, ta, tb)
				}
			}
		}
	}
	if differs {
		sum.filesDiffering++
	}
}

// merge adds the counts of one, a summary of other files, to s.
func (s *summary) merge(one *summary) {
	s.columns += one.columns
	s.values += one.values
	s.filesDiffering += one.filesDiffering
	for class, n := range one.compared {
		s.compared[class] += n
	}
	for class, n := range one.seen {
		if s.where == nil {
			s.where = map[string][]string{}
		}
		s.where[class] = append(s.where[class], one.where[class]...)
		s.seen[class] += n
	}
}

func (s *summary) record(file, class string, n int) {
	if s.where == nil {
		s.where = map[string][]string{}
	}
	if s.seen[class] == 0 || !slices.Contains(s.where[class], file) {
		s.where[class] = append(s.where[class], file)
	}
	s.seen[class] += n
}

// readReference is the file at path as arrow-go's pqarrow reads it, with
// the types of the file's ARROW:schema.
func readReference(ctx context.Context, path string) (arrow.Table, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.ReadTable(ctx)
}

// cursor walks the rows of a column in chunks.
type cursor struct {
	chunks []arrow.Array
	c, i   int
}

func (k *cursor) next() (arrow.Array, int, bool) {
	for k.c < len(k.chunks) && k.i >= k.chunks[k.c].Len() {
		k.c, k.i = k.c+1, 0
	}
	if k.c == len(k.chunks) {
		return nil, 0, false
	}
	k.i++
	return k.chunks[k.c], k.i - 1, true
}

// token is one piece of a row in its canonical form: a leaf value with
// the class of its type, or a piece of structure (class "").
type token struct {
	class, value string
	zone         string // of a timestamp: "naive", "UTC" or the zone's name
}

func (t token) String() string {
	if t.zone != "" {
		return t.value + "@" + t.zone
	}
	return t.value
}

// differences is the classes of what differs between two rows of a
// column of type dt (a, the reference's, b DuckDB's).
func differences(dt arrow.DataType, a, b []token) []string {
	if len(a) != len(b) {
		return []string{"structure of " + dt.String()}
	}
	var out []string
	for i := range a {
		if a[i].class == "" && a[i].value != b[i].value {
			return []string{"structure of " + dt.String()}
		}
		if a[i].value != b[i].value {
			out = append(out, a[i].class+": value")
		}
		if a[i].zone != b[i].zone {
			out = append(out, a[i].class+": zone name")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tokens appends the canonical form of row i of arr to dst: what two
// readers of the same value agree on whatever Arrow type each gives it.
func tokens(dst []token, arr arrow.Array, i int) []token {
	class := typeClass(arr.DataType())
	if arr.IsNull(i) {
		return append(dst, token{class: class, value: "null"})
	}
	leaf := func(v string) []token { return append(dst, token{class: class, value: v}) }
	switch a := arr.(type) {
	case *array.Null:
		return leaf("null")
	case *array.Boolean:
		return leaf(strconv.FormatBool(a.Value(i)))
	case *array.Int8:
		return leaf("int " + strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Int16:
		return leaf("int " + strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Int32:
		return leaf("int " + strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Int64:
		return leaf("int " + strconv.FormatInt(a.Value(i), 10))
	case *array.Uint8:
		return leaf("int " + strconv.FormatUint(uint64(a.Value(i)), 10))
	case *array.Uint16:
		return leaf("int " + strconv.FormatUint(uint64(a.Value(i)), 10))
	case *array.Uint32:
		return leaf("int " + strconv.FormatUint(uint64(a.Value(i)), 10))
	case *array.Uint64:
		return leaf("int " + strconv.FormatUint(a.Value(i), 10))
	case *array.Float16:
		return leaf(float(float64(a.Value(i).Float32())))
	case *array.Float32:
		return leaf(float(float64(a.Value(i))))
	case *array.Float64:
		return leaf(float(a.Value(i)))
	case *array.String:
		return leaf(text([]byte(a.Value(i))))
	case *array.LargeString:
		return leaf(text([]byte(a.Value(i))))
	case *array.StringView:
		return leaf(text([]byte(a.Value(i))))
	case *array.Binary:
		return leaf(text(a.Value(i)))
	case *array.LargeBinary:
		return leaf(text(a.Value(i)))
	case *array.BinaryView:
		return leaf(text(a.Value(i)))
	case *array.FixedSizeBinary:
		return leaf(text(a.Value(i)))
	case *array.Date32:
		return leaf("date " + strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Date64:
		ms := int64(a.Value(i))
		if ms%86_400_000 == 0 {
			return leaf("date " + strconv.FormatInt(ms/86_400_000, 10))
		}
		return leaf("date64 ms " + strconv.FormatInt(ms, 10))
	case *array.Time32:
		return leaf("time " + nanos(int64(a.Value(i)), a.DataType().(*arrow.Time32Type).Unit))
	case *array.Time64:
		return leaf("time " + nanos(int64(a.Value(i)), a.DataType().(*arrow.Time64Type).Unit))
	case *array.Timestamp:
		ts := a.DataType().(*arrow.TimestampType)
		return append(dst, token{class: class, value: "instant " + nanos(int64(a.Value(i)), ts.Unit), zone: zoneOf(ts.TimeZone)})
	case *array.Duration:
		return leaf("duration " + nanos(int64(a.Value(i)), a.DataType().(*arrow.DurationType).Unit))
	case *array.MonthInterval:
		return leaf("months " + strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Decimal32:
		return leaf(decimalText(big.NewInt(int64(a.Value(i))), a.DataType().(arrow.DecimalType).GetScale()))
	case *array.Decimal64:
		return leaf(decimalText(big.NewInt(int64(a.Value(i))), a.DataType().(arrow.DecimalType).GetScale()))
	case *array.Decimal128:
		return leaf(decimalText(a.Value(i).BigInt(), a.DataType().(arrow.DecimalType).GetScale()))
	case *array.Decimal256:
		return leaf(decimalText(a.Value(i).BigInt(), a.DataType().(arrow.DecimalType).GetScale()))
	case *array.Dictionary:
		return tokens(dst, a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return tokens(dst, a.Values(), a.GetPhysicalIndex(i))
	case array.ExtensionArray:
		return tokens(dst, a.Storage(), i)
	case *array.Struct:
		dst = append(dst, token{value: fmt.Sprintf("{%d", a.NumField())})
		for f := range a.NumField() {
			dst = tokens(dst, a.Field(f), i)
		}
		return append(dst, token{value: "}"})
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		dst = append(dst, token{value: fmt.Sprintf("[%d", end-start)})
		for j := start; j < end; j++ {
			dst = tokens(dst, a.ListValues(), int(j))
		}
		return append(dst, token{value: "]"})
	}
	return leaf(fmt.Sprintf("unsupported %T", arr)) // differs from any value, and names itself
}

// typeClass is the class of dt a difference is listed under: the type's
// name, with the parameters that decide how DuckDB reads it.
func typeClass(dt arrow.DataType) string {
	switch dt := dt.(type) {
	case *arrow.TimestampType:
		return fmt.Sprintf("timestamp[%s, %s]", dt.Unit, zoneClass(dt.TimeZone))
	case arrow.DecimalType:
		if dt.GetPrecision() > 38 {
			return "decimal(39-76)"
		}
		return "decimal(1-38)"
	case *arrow.DictionaryType:
		return typeClass(dt.ValueType)
	case arrow.ExtensionType:
		return typeClass(dt.StorageType())
	}
	return dt.String()
}

func zoneOf(tz string) string {
	switch strings.ToUpper(tz) {
	case "":
		return "naive"
	case "UTC", "ETC/UTC", "Z", "+00:00", "+0000", "+00":
		return "UTC"
	}
	return tz
}

func zoneClass(tz string) string {
	if z := zoneOf(tz); z == "naive" || z == "UTC" {
		return z
	}
	return "zoned"
}

// float is a float's value exactly (float32 and float16 widen to float64
// exactly), every NaN the same.
func float(v float64) string {
	if math.IsNaN(v) {
		return "float NaN"
	}
	return "float " + strconv.FormatUint(math.Float64bits(v), 16)
}

// text is the bytes of a string or binary value, long ones by their hash.
func text(b []byte) string {
	if len(b) <= 64 {
		return "bytes " + strconv.Quote(string(b))
	}
	return fmt.Sprintf("bytes %d:%x", len(b), sha256.Sum256(b))
}

var unitNanos = map[arrow.TimeUnit]int64{arrow.Second: 1e9, arrow.Millisecond: 1e6, arrow.Microsecond: 1e3, arrow.Nanosecond: 1}

// nanos is v units in nanoseconds, exactly.
func nanos(v int64, unit arrow.TimeUnit) string {
	return new(big.Int).Mul(big.NewInt(v), big.NewInt(unitNanos[unit])).String()
}

// decimalText is unscaled × 10^-scale with no trailing zeros in its
// fraction: the same number at any scale reads the same.
func decimalText(unscaled *big.Int, scale int32) string {
	ten, r := big.NewInt(10), new(big.Int)
	for scale > 0 && unscaled.Sign() != 0 {
		q, m := new(big.Int).QuoRem(unscaled, ten, r)
		if m.Sign() != 0 {
			break
		}
		unscaled, scale = q, scale-1
	}
	if unscaled.Sign() == 0 {
		scale = 0
	}
	return fmt.Sprintf("decimal %se-%d", unscaled, scale)
}

// coverage is what the corpus holds, from the files' footers.
type coverage struct {
	codecs                                        map[compress.Compression]bool
	types                                         map[arrow.Type]bool // in the schemas written
	dictionaries, rowGroups, pages, nested, nulls int
	files                                         int
}

func (c *coverage) add(t *testing.T, path string) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	c.files++
	md := pf.MetaData()
	if pf.NumRowGroups() > 1 {
		c.rowGroups++
	}
	for g := range pf.NumRowGroups() {
		rg := md.RowGroup(g)
		for col := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(col)
			require.NoError(t, err)
			c.codecs[cc.Compression()] = true
			if cc.HasDictionaryPage() {
				c.dictionaries++
			}
			if ok, _ := cc.StatsSet(); ok {
				if st, err := cc.Statistics(); err == nil && st != nil && st.HasNullCount() && st.NullCount() > 0 {
					c.nulls++
				}
			}
			if dataPages(t, pf, g, col) > 1 {
				c.pages++
			}
		}
	}
	schema := writtenSchema(t, md)
	for _, f := range schema.Fields() {
		if c.walk(f.Type) {
			c.nested++
		}
	}
}

// dataPages is the number of data pages of a column chunk, counted up to 2.
func dataPages(t *testing.T, pf *file.Reader, g, col int) int {
	pr, err := pf.RowGroup(g).GetColumnPageReader(col)
	require.NoError(t, err)
	n := 0
	for n < 2 && pr.Next() {
		if _, ok := pr.Page().(file.DataPage); ok {
			n++
		}
	}
	require.NoError(t, pr.Err())
	return n
}

// writtenSchema is the Arrow schema a file says was written: arrowmap's
// (the Go type's, "arrowmap:schema") where it differs from the storage
// types pqarrow reads ("ARROW:schema").
func writtenSchema(t *testing.T, md *metadata.FileMetaData) *arrow.Schema {
	t.Helper()
	kv := md.KeyValueMetadata()
	v := kv.FindValue("arrowmap:schema")
	if v == nil {
		v = kv.FindValue("ARROW:schema")
	}
	require.NotNil(t, v, "a file of our writer stores its Arrow schema")
	b, err := base64.StdEncoding.DecodeString(*v)
	require.NoError(t, err)
	r, err := ipc.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	defer r.Release()
	return r.Schema()
}

// walk records dt's type and its children's, reporting whether dt nests.
func (c *coverage) walk(dt arrow.DataType) (nested bool) {
	c.types[dt.ID()] = true
	switch dt := dt.(type) {
	case *arrow.DictionaryType:
		c.walk(dt.IndexType)
		return c.walk(dt.ValueType)
	case *arrow.RunEndEncodedType:
		c.walk(dt.RunEnds())
		return c.walk(dt.Encoded())
	case arrow.ExtensionType:
		return c.walk(dt.StorageType())
	case arrow.NestedType:
		for _, f := range dt.Fields() {
			c.walk(f.Type)
		}
		return true
	}
	return false
}

func (c *coverage) check(t *testing.T) {
	codecs := reflect.ValueOf(compress.Codecs)
	for f := range codecs.NumField() {
		codec := codecs.Field(f).Interface().(compress.Compression)
		if _, err := compress.GetCodec(codec); err == nil {
			assert.True(t, c.codecs[codec], "no column chunk compressed with %s, which our writer offers", codec)
		}
	}
	assert.Positive(t, c.dictionaries, "no dictionary-encoded column chunk")
	assert.Positive(t, c.rowGroups, "no file of more than one row group")
	assert.Positive(t, c.pages, "no column chunk of more than one data page")
	assert.Positive(t, c.nested, "no nested (list, struct, map) column")
	assert.Positive(t, c.nulls, "no column chunk with nulls")
	for _, r := range arrowtype.Rows() {
		if !slices.Contains(notStorable, r.ID) {
			assert.True(t, c.types[r.ID], "no file stores a column of %s", r.Name)
		} else {
			assert.False(t, c.types[r.ID], "a file stores %s, listed as not storable", r.Name)
		}
	}
	t.Logf("coverage: %d files; %d of more than one row group; column chunks: %d dictionary-encoded, %d of more than one data page, %d with nulls; %d nested columns; codecs %v",
		c.files, c.rowGroups, c.dictionaries, c.pages, c.nulls, c.nested, c.codecs)
}
