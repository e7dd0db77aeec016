package ipc_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

// code implements encoding.TextMarshaler, so it is a utf8 column.
type code struct{ Major, Minor uint8 }

func (c code) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "%d.%d", c.Major, c.Minor), nil }

func (c *code) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%d.%d", &c.Major, &c.Minor)
	return err
}

type level int16 // a named type, encoded by its kind

type leaf struct {
	SKU   string   `arrow:"sku"`
	Qty   int32    `arrow:"qty"`
	Price *float64 `arrow:"price"`
}

type base struct {
	BaseID int64  `arrow:"base_id"`
	Label  string `arrow:"label"`
}

// everything has a field of each row of docs/types.md's table, with the
// encodings a tag pins, nulls at every level that takes them, nesting,
// dictionaries, run-end encoding, zoned timestamps and decimals.
type everything struct {
	base
	Bool     bool
	Int      int
	Int8     int8
	Int16    int16
	Int32    int32
	Int64    int64
	Uint     uint
	Uint8    uint8
	Uint16   uint16
	Uint32   uint32
	Uint64   uint64
	Float32  float32
	Float64  float64
	Half     float16.Num
	Level    level
	Str      string
	LargeStr string `arrow:"large_str,large_utf8"`
	ViewStr  string `arrow:"view_str,utf8_view"`
	Bytes    []byte
	LargeBin []byte `arrow:"large_bin,large_binary"`
	ViewBin  []byte `arrow:"view_bin,binary_view"`
	Fixed    [4]byte
	Code     code
	Nullable int32 `arrow:"nullable_int,nullable"`
	PtrInt   *int32
	PtrStr   *string

	At      time.Time
	Milli   time.Time `arrow:"milli,timestamp,unit=ms,tz=Asia/Tokyo"`
	Sec     time.Time `arrow:"sec,timestamp,unit=s,tz=+05:30"`
	Day     time.Time `arrow:"day,date32"`
	Day64   time.Time `arrow:"day64,date64"`
	PtrAt   *time.Time
	Took    time.Duration
	TookUS  time.Duration `arrow:"took_us,duration,unit=us"`
	Clock   time.Duration `arrow:"clock,time32,unit=ms"`
	Clock64 time.Duration `arrow:"clock64,time64,unit=us"`

	D32     decimal.Decimal32   `arrow:"d32,decimal(9,2)"`
	D64     decimal.Decimal64   `arrow:"d64,decimal(12,3)"`
	D128    decimal.Decimal128  `arrow:"d128,decimal(30,10)"`
	D256    decimal.Decimal256  `arrow:"d256,decimal(60,20)"`
	DecText string              `arrow:"dec_text,decimal(20,4)"`
	PtrDec  *decimal.Decimal128 `arrow:"ptr_dec,decimal(10,2)"`

	Ints      []int64
	PtrStrs   []*string
	NullElems []int32 `arrow-elem:"nullable"`
	Nested    [][]int32
	LargeList []string  `arrow:"large_list,large_list"`
	ListView  []int16   `arrow:"list_view,list_view"`
	LargeView []float64 `arrow:"large_view,large_list_view"`
	Fixed3    [3]float64
	PtrList   *[]int8

	Leaf    leaf
	Leaves  []leaf
	PtrLeaf *leaf
	Counts  map[string]int64
	ByID    map[int32]*string
	Lists   map[string][]float64

	Region   string   `arrow:"region,dict"`
	DictInt  int32    `arrow:"dict_int,dict"`
	DictPtr  *string  `arrow:"dict_ptr,dict"`
	ListDict []string `arrow:"list_dict" arrow-elem:"dict"`
	Run      string   `arrow:"run,ree"`
	RunInt   int64    `arrow:"run_int,ree"`
}

func ptr[T any](v T) *T { return &v }

var regions = []string{"north", "south", "east", "west", "centre", "far-north", "far-south"}

// rowOf is row i of the rows the tests write: every value a function of i,
// nulls and empty values every few rows, new dictionary values appearing
// as i grows (so that later records add to the dictionaries).
func rowOf(i int) everything {
	tokyo := time.FixedZone("JST", 9*3600)
	at := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(i) * 1234567891 * time.Nanosecond)
	r := everything{
		base:     base{BaseID: int64(i) * 1000, Label: fmt.Sprintf("label-%d", i)},
		Bool:     i%3 == 0,
		Int:      i * 7,
		Int8:     int8(i),
		Int16:    int16(-i * 3),
		Int32:    int32(i * 100000),
		Int64:    int64(i) << 40,
		Uint:     uint(i) * 11,
		Uint8:    uint8(i * 5),
		Uint16:   uint16(i * 300),
		Uint32:   uint32(i) * 70000,
		Uint64:   uint64(i) << 50,
		Float32:  float32(i) / 3,
		Float64:  float64(i) * 1.25,
		Half:     float16.New(float32(i%50) / 4),
		Level:    level(i % 5),
		Str:      fmt.Sprintf("row %d — ünïcode", i),
		LargeStr: fmt.Sprintf("large %d", i),
		ViewStr:  fmt.Sprintf("a view string longer than twelve bytes %d", i),
		Bytes:    []byte(fmt.Sprintf("b%d", i)),
		LargeBin: bytes.Repeat([]byte{byte(i)}, i%5),
		ViewBin:  []byte(fmt.Sprintf("view-bytes-%d", i)),
		Fixed:    [4]byte{byte(i), byte(i >> 8), 1, 2},
		Code:     code{uint8(i % 7), uint8(i % 11)},
		Nullable: int32(i % 4),

		At:      at,
		Milli:   at.Truncate(time.Millisecond).In(tokyo),
		Sec:     at.Truncate(time.Second),
		Day:     time.Date(2000, 1, 1+i, 0, 0, 0, 0, time.UTC),
		Day64:   time.Date(1999, 12, 31-i%20, 0, 0, 0, 0, time.UTC),
		Took:    time.Duration(i) * time.Millisecond,
		TookUS:  time.Duration(i) * time.Second,
		Clock:   time.Duration(i%86400) * time.Second,
		Clock64: time.Duration(i%3600) * time.Microsecond * 997,

		D32:     decimal.Decimal32(i * 101),
		D64:     decimal.Decimal64(-i * 123456),
		D128:    decimal128.FromI64(int64(i) * 1_000_000_007),
		D256:    decimal256.FromI64(int64(i) * -99),
		DecText: fmt.Sprintf("%d.%04d", i, i%10000),

		Ints:      []int64{int64(i), int64(-i)},
		NullElems: []int32{int32(i)},
		Nested:    [][]int32{{int32(i)}, {}, {1, 2, 3}},
		LargeList: []string{"x", fmt.Sprint(i)},
		ListView:  []int16{int16(i), 7},
		LargeView: []float64{float64(i) / 8},
		Fixed3:    [3]float64{float64(i), 0.5, -1},

		Leaf:   leaf{SKU: fmt.Sprintf("sku-%d", i), Qty: int32(i % 9)},
		Leaves: []leaf{{SKU: "a", Qty: 1, Price: ptr(1.5)}, {SKU: fmt.Sprint(i), Qty: int32(i)}},
		Counts: map[string]int64{"k": int64(i), fmt.Sprintf("k%d", i%3): 3},
		ByID:   map[int32]*string{int32(i): ptr("v"), -1: nil},
		Lists:  map[string][]float64{"l": {float64(i)}, "empty": {}},

		// Regions come in as i grows: the first records see fewer of them.
		Region:   regions[(i/40)%len(regions)],
		DictInt:  int32(i % (3 + i/50)),
		ListDict: []string{regions[i%len(regions)], "always"},
		Run:      fmt.Sprintf("run-%d", i/10),
		RunInt:   int64(i / 25),
	}
	switch i % 5 {
	case 0: // nulls and empty values
		r.NullElems = []int32{}
		r.Nested = nil
		r.Leaves = []leaf{}
		r.Counts = nil
		r.Lists = map[string][]float64{}
	case 1:
		r.PtrInt = ptr(int32(-i))
		r.PtrStr = ptr(fmt.Sprintf("ptr %d", i))
		r.PtrAt = ptr(at.Add(time.Hour))
		r.PtrDec = ptr(decimal128.FromI64(int64(i) * 25))
		r.PtrStrs = []*string{ptr("p"), nil, ptr(fmt.Sprint(i))}
		r.PtrList = ptr([]int8{int8(i), -1})
		r.PtrLeaf = &leaf{SKU: "ptr", Qty: int32(i), Price: ptr(float64(i))}
		r.DictPtr = ptr(regions[i%3])
	case 2:
		r.PtrStrs = []*string{}
		r.PtrList = ptr([]int8{})
		r.DictPtr = ptr("")
		r.Ints = nil
	}
	return r
}

func rowsOf(from, to int) []everything {
	rows := make([]everything, 0, to-from)
	for i := from; i < to; i++ {
		rows = append(rows, rowOf(i))
	}
	return rows
}

// throughMemory is what the mapper gives back of rows without IPC: the
// rows an IPC round trip must give back too, normalised as Decode
// normalises (zones, units, decimal text).
func throughMemory[T any](t *testing.T, rows []T) []T {
	t.Helper()
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	got, err := mapper.Decode[T](rec)
	require.NoError(t, err)
	return got
}

// ipcRecords reads data, an IPC file or stream, with arrow-go's own
// readers, and returns its schema and records (retained).
func ipcRecords(t *testing.T, data []byte, file bool) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	var recs []arrow.RecordBatch
	if file {
		fr, err := arrowipc.NewFileReader(bytes.NewReader(data))
		require.NoError(t, err)
		defer fr.Close()
		for i := range fr.NumRecords() {
			rec, err := fr.RecordBatchAt(i)
			require.NoError(t, err)
			recs = append(recs, rec)
		}
		return fr.Schema(), recs
	}
	sr, err := arrowipc.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer sr.Release()
	for sr.Next() {
		rec := sr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, sr.Err())
	return sr.Schema(), recs
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// recordJSON is rec as arrow-go marshals it: dictionaries as their values,
// so that records equal in value compare equal whatever their dictionary
// holds besides.
func recordJSON(t *testing.T, rec arrow.RecordBatch) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, array.RecordToJSON(rec, &buf))
	return buf.String()
}

// messages lists the types of the messages of an IPC stream, with the
// body length of each.
func messages(t *testing.T, stream []byte) (types []arrowipc.MessageType, bodies []int64) {
	t.Helper()
	mr := arrowipc.NewMessageReader(bytes.NewReader(stream))
	defer mr.Release()
	for {
		msg, err := mr.Message()
		if errors.Is(err, io.EOF) {
			return types, bodies
		}
		require.NoError(t, err)
		types = append(types, msg.Type())
		bodies = append(bodies, msg.BodyLen())
	}
}

func count[E comparable](s []E, e E) int {
	n := 0
	for _, v := range s {
		if v == e {
			n++
		}
	}
	return n
}

// tempPath is a path for a file in a temporary directory of the test.
func tempPath(t *testing.T, name string) string { return filepath.Join(t.TempDir(), name) }

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := tempPath(t, name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// checked is a CheckedAllocator that the test asserts empty at its end.
func checked(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// errOf is the error of a Writer's Write, for the assertions on it.
func errOf(_ int, err error) error { return err }
