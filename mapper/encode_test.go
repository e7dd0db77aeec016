package mapper_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encSchemaCase is one row of the SchemaOf table: the schema of a struct
// with one field V, whose Arrow type and nullability are wanted.
type encSchemaCase struct {
	name     string
	schema   func() (*arrow.Schema, error)
	want     arrow.DataType
	nullable bool
}

func encField[T any](name string, want arrow.DataType, nullable bool) encSchemaCase {
	return encSchemaCase{name: name, schema: func() (*arrow.Schema, error) { return mapper.SchemaOf[T]() }, want: want, nullable: nullable}
}

type (
	encEnum   uint16
	encName   string
	encBytes  []byte
	encLeaf   struct{ A int32 }
	encInner  struct{ At time.Time }
	encDecs   struct{ D decimal.Decimal128 }
	encCoords struct{ X, Y float64 }
)

type encCode struct{ a, b byte }

func (c encCode) MarshalText() ([]byte, error) { return []byte{'0' + c.a, '.', '0' + c.b}, nil }

func TestSchemaOfMapsEveryGoType(t *testing.T) {
	ts := func(unit arrow.TimeUnit, tz string) arrow.DataType {
		return &arrow.TimestampType{Unit: unit, TimeZone: tz}
	}
	item := func(dt arrow.DataType, nullable bool) arrow.Field {
		return arrow.Field{Name: "item", Type: dt, Nullable: nullable}
	}
	mapOf := func(k, v arrow.DataType, vnull bool) arrow.DataType {
		return arrow.MapOfFields(arrow.Field{Name: "key", Type: k}, arrow.Field{Name: "value", Type: v, Nullable: vnull})
	}
	ree := func(dt arrow.DataType, nullable bool) arrow.DataType {
		r := arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, dt)
		r.ValueNullable = nullable
		return r
	}
	dict := func(dt arrow.DataType) arrow.DataType {
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: dt}
	}
	cases := []encSchemaCase{
		encField[struct{ V int }]("int is int64", arrow.PrimitiveTypes.Int64, false),
		encField[struct{ V uint }]("uint is uint64", arrow.PrimitiveTypes.Uint64, false),
		encField[struct{ V uintptr }]("uintptr is uint64", arrow.PrimitiveTypes.Uint64, false),
		encField[struct{ V int8 }]("int8 is int8", arrow.PrimitiveTypes.Int8, false),
		encField[struct{ V int16 }]("int16 is int16", arrow.PrimitiveTypes.Int16, false),
		encField[struct{ V int32 }]("int32 is int32", arrow.PrimitiveTypes.Int32, false),
		encField[struct{ V int64 }]("int64 is int64", arrow.PrimitiveTypes.Int64, false),
		encField[struct{ V uint8 }]("uint8 is uint8", arrow.PrimitiveTypes.Uint8, false),
		encField[struct{ V uint16 }]("uint16 is uint16", arrow.PrimitiveTypes.Uint16, false),
		encField[struct{ V uint32 }]("uint32 is uint32", arrow.PrimitiveTypes.Uint32, false),
		encField[struct{ V uint64 }]("uint64 is uint64", arrow.PrimitiveTypes.Uint64, false),
		encField[struct{ V float32 }]("float32 is float32", arrow.PrimitiveTypes.Float32, false),
		encField[struct{ V float64 }]("float64 is float64", arrow.PrimitiveTypes.Float64, false),
		encField[struct{ V float16.Num }]("float16.Num is float16", arrow.FixedWidthTypes.Float16, false),
		encField[struct{ V bool }]("bool is bool", arrow.FixedWidthTypes.Boolean, false),
		encField[struct{ V encEnum }]("a named integer is its kind", arrow.PrimitiveTypes.Uint16, false),
		encField[struct{ V string }]("string is utf8", arrow.BinaryTypes.String, false),
		encField[struct{ V encName }]("a named string is utf8", arrow.BinaryTypes.String, false),
		encField[struct {
			V string "arrow:\"v,large_utf8\""
		}]("large_utf8 pins a string", arrow.BinaryTypes.LargeString, false),
		encField[struct {
			V string "arrow:\"v,utf8_view\""
		}]("utf8_view pins a string", arrow.BinaryTypes.StringView, false),
		encField[struct {
			V string "arrow:\"v,large\""
		}]("large makes a string large_utf8", arrow.BinaryTypes.LargeString, false),
		encField[struct {
			V string "arrow:\"v,view\""
		}]("view makes a string utf8_view", arrow.BinaryTypes.StringView, false),
		encField[struct{ V []byte }]("[]byte is binary, nullable", arrow.BinaryTypes.Binary, true),
		encField[struct{ V encBytes }]("a named []byte is binary", arrow.BinaryTypes.Binary, true),
		encField[struct {
			V []byte "arrow:\"v,large_binary\""
		}]("large_binary pins []byte", arrow.BinaryTypes.LargeBinary, true),
		encField[struct {
			V []byte "arrow:\"v,binary_view\""
		}]("binary_view pins []byte", arrow.BinaryTypes.BinaryView, true),
		encField[struct{ V [16]byte }]("[N]byte is fixed_size_binary(N)", &arrow.FixedSizeBinaryType{ByteWidth: 16}, false),
		encField[struct {
			V [2]byte "arrow:\"v,fixed_size_list\""
		}]("fixed_size_list makes [N]byte a list of uint8", arrow.FixedSizeListOfField(2, item(arrow.PrimitiveTypes.Uint8, false)), false),
		encField[struct{ V time.Time }]("time.Time is timestamp[ns, UTC]", ts(arrow.Nanosecond, "UTC"), false),
		encField[struct {
			V time.Time "arrow:\"v,timestamp,unit=ms,tz=Asia/Tokyo\""
		}]("unit and tz set a timestamp's", ts(arrow.Millisecond, "Asia/Tokyo"), false),
		encField[struct {
			V time.Time "arrow:\"v,timestamp,unit=s,tz=+05:30\""
		}]("tz takes a fixed offset", ts(arrow.Second, "+05:30"), false),
		encField[struct {
			V time.Time "arrow:\"v,date32\""
		}]("date32 pins a time.Time", arrow.FixedWidthTypes.Date32, false),
		encField[struct {
			V time.Time "arrow:\"v,date64\""
		}]("date64 pins a time.Time", arrow.FixedWidthTypes.Date64, false),
		encField[struct {
			V time.Time "arrow:\"v,time32\""
		}]("time32 makes a time.Time its time of day in ms", &arrow.Time32Type{Unit: arrow.Millisecond}, false),
		encField[struct {
			V time.Time "arrow:\"v,time64,unit=us\""
		}]("time64 makes a time.Time its time of day", &arrow.Time64Type{Unit: arrow.Microsecond}, false),
		encField[struct{ V *time.Time }]("*time.Time is a nullable timestamp", ts(arrow.Nanosecond, "UTC"), true),
		encField[struct{ V time.Duration }]("time.Duration is duration[ns]", &arrow.DurationType{Unit: arrow.Nanosecond}, false),
		encField[struct {
			V time.Duration "arrow:\"v,duration,unit=ms\""
		}]("unit sets a duration's", &arrow.DurationType{Unit: arrow.Millisecond}, false),
		encField[struct {
			V time.Duration "arrow:\"v,time32,unit=s\""
		}]("time32 makes a time.Duration a time of day", &arrow.Time32Type{Unit: arrow.Second}, false),
		encField[struct {
			V time.Duration "arrow:\"v,time64\""
		}]("time64 makes a time.Duration a time of day in ns", &arrow.Time64Type{Unit: arrow.Nanosecond}, false),
		encField[struct{ V decimal.Decimal32 }]("Decimal32 is decimal32(9,0)", &arrow.Decimal32Type{Precision: 9}, false),
		encField[struct{ V decimal.Decimal64 }]("Decimal64 is decimal64(18,0)", &arrow.Decimal64Type{Precision: 18}, false),
		encField[struct{ V decimal.Decimal128 }]("Decimal128 is decimal128(38,0)", &arrow.Decimal128Type{Precision: 38}, false),
		encField[struct{ V decimal.Decimal256 }]("Decimal256 is decimal256(76,0)", &arrow.Decimal256Type{Precision: 76}, false),
		encField[struct {
			V decimal.Decimal64 "arrow:\"v,decimal(10,2)\""
		}]("decimal(p,s) sets a decimal's", &arrow.Decimal64Type{Precision: 10, Scale: 2}, false),
		encField[struct {
			V decimal.Decimal128 "arrow:\"v,precision=20,scale=5\""
		}]("precision= and scale= set a decimal's", &arrow.Decimal128Type{Precision: 20, Scale: 5}, false),
		encField[struct {
			V string "arrow:\"v,decimal(20,4)\""
		}]("a string tagged decimal is decimal128", &arrow.Decimal128Type{Precision: 20, Scale: 4}, false),
		encField[struct {
			V string "arrow:\"v,decimal(40,4)\""
		}]("a string tagged decimal past 38 digits is decimal256", &arrow.Decimal256Type{Precision: 40, Scale: 4}, false),
		encField[struct{ V encCode }]("a TextMarshaler is utf8", arrow.BinaryTypes.String, false),
		encField[struct{ V *encCode }]("a *TextMarshaler is nullable utf8", arrow.BinaryTypes.String, true),
		encField[struct{ V *int32 }]("a pointer is nullable", arrow.PrimitiveTypes.Int32, true),
		encField[struct{ V **string }]("a pointer to a pointer is nullable", arrow.BinaryTypes.String, true),
		encField[struct {
			V int32 "arrow:\"v,nullable\""
		}]("nullable makes a value nullable", arrow.PrimitiveTypes.Int32, true),
		encField[struct{ V []int32 }]("[]T is a nullable list of non-nullable T", arrow.ListOfField(item(arrow.PrimitiveTypes.Int32, false)), true),
		encField[struct{ V []*int32 }]("[]*T has nullable elements", arrow.ListOfField(item(arrow.PrimitiveTypes.Int32, true)), true),
		encField[struct {
			V []int32 "arrow-elem:\"nullable\""
		}]("arrow-elem:nullable makes elements nullable", arrow.ListOfField(item(arrow.PrimitiveTypes.Int32, true)), true),
		encField[struct{ V [][]string }]("[][]T has nullable list elements", arrow.ListOfField(item(arrow.ListOfField(item(arrow.BinaryTypes.String, false)), true)), true),
		encField[struct {
			V []int32 "arrow:\"v,large_list\""
		}]("large_list pins a slice", arrow.LargeListOfField(item(arrow.PrimitiveTypes.Int32, false)), true),
		encField[struct {
			V []int32 "arrow:\"v,list_view\""
		}]("list_view pins a slice", arrow.ListViewOfField(item(arrow.PrimitiveTypes.Int32, false)), true),
		encField[struct {
			V []int32 "arrow:\"v,large_list_view\""
		}]("large_list_view pins a slice", arrow.LargeListViewOfField(item(arrow.PrimitiveTypes.Int32, false)), true),
		encField[struct {
			V []int32 "arrow:\"v,large,view\""
		}]("large and view make a slice large_list_view", arrow.LargeListViewOfField(item(arrow.PrimitiveTypes.Int32, false)), true),
		encField[struct {
			V []string "arrow:\"v,large_list\" arrow-elem:\"large_utf8\""
		}]("arrow-elem pins the elements", arrow.LargeListOfField(item(arrow.BinaryTypes.LargeString, false)), true),
		encField[struct{ V [3]float64 }]("[N]T is fixed_size_list(N)", arrow.FixedSizeListOfField(3, item(arrow.PrimitiveTypes.Float64, false)), false),
		encField[struct{ V []time.Time }]("a time.Time in a list is a timestamp", arrow.ListOfField(item(ts(arrow.Nanosecond, "UTC"), false)), true),
		encField[struct{ V map[string]int64 }]("map[K]V is a nullable map", mapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64, false), true),
		encField[struct{ V map[int32]*string }]("a map of pointers has nullable values", mapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, true), true),
		encField[struct {
			V map[string]int64 "arrow-value:\"nullable\" arrow-key:\"large_utf8\""
		}]("arrow-key and arrow-value tag keys and values", mapOf(arrow.BinaryTypes.LargeString, arrow.PrimitiveTypes.Int64, true), true),
		encField[struct{ V map[string]encDecs }]("a decimal in a map is a decimal", mapOf(arrow.BinaryTypes.String,
			arrow.StructOf(arrow.Field{Name: "D", Type: &arrow.Decimal128Type{Precision: 38}}), false), true),
		encField[struct{ V encLeaf }]("a struct is a struct", arrow.StructOf(arrow.Field{Name: "A", Type: arrow.PrimitiveTypes.Int32}), false),
		encField[struct{ V *encLeaf }]("a *struct is a nullable struct", arrow.StructOf(arrow.Field{Name: "A", Type: arrow.PrimitiveTypes.Int32}), true),
		encField[struct{ V encInner }]("a time.Time in a struct is a timestamp", arrow.StructOf(arrow.Field{Name: "At", Type: ts(arrow.Nanosecond, "UTC")}), false),
		encField[struct {
			V struct{ W struct{ X []encCoords } }
		}]("structs nest at any depth", arrow.StructOf(arrow.Field{Name: "W", Type: arrow.StructOf(
			arrow.Field{Name: "X", Type: arrow.ListOfField(item(arrow.StructOf(
				arrow.Field{Name: "X", Type: arrow.PrimitiveTypes.Float64}, arrow.Field{Name: "Y", Type: arrow.PrimitiveTypes.Float64}), false)), Nullable: true})}), false),
		encField[struct {
			V string "arrow:\"v,dict\""
		}]("dict makes a dictionary<int32, value>", dict(arrow.BinaryTypes.String), false),
		encField[struct {
			V *int64 "arrow:\"v,dict\""
		}]("dict on a pointer is a nullable dictionary", dict(arrow.PrimitiveTypes.Int64), true),
		encField[struct {
			V string "arrow:\"v,ree\""
		}]("ree makes a run_end_encoded<int32, value>", ree(arrow.BinaryTypes.String, false), false),
		encField[struct {
			V *float64 "arrow:\"v,ree\""
		}]("ree on a pointer has nullable values", ree(arrow.PrimitiveTypes.Float64, true), true),
		encField[struct {
			V []string "arrow-elem:\"dict\""
		}]("dict pins list elements", arrow.ListOfField(item(dict(arrow.BinaryTypes.String), false)), true),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			schema, err := c.schema()
			require.NoError(t, err)
			require.Len(t, schema.Fields(), 1)
			f := schema.Field(0)
			assert.Truef(t, arrow.TypeEqual(f.Type, c.want), "type %s, want %s", f.Type, c.want)
			assert.Equal(t, c.nullable, f.Nullable, "nullable")
		})
	}
}

type encEmbedded struct{ Shared, Base int32 }

type encPromoted struct {
	encEmbedded
	Shared string // hides encEmbedded.Shared
	UserID int64
	Named  int8 `arrow:"Named_Col"`
	Skip   int  `arrow:"-"`
	hidden int
}

func TestSchemaOfNamesColumns(t *testing.T) {
	names := func(s *arrow.Schema) []string {
		var out []string
		for _, f := range s.Fields() {
			out = append(out, f.Name)
		}
		return out
	}
	t.Run("by tag, else by Go field, embedded fields promoted", func(t *testing.T) {
		s, err := mapper.SchemaOf[encPromoted]()
		require.NoError(t, err)
		assert.Equal(t, []string{"Base", "Shared", "UserID", "Named_Col"}, names(s))
	})
	t.Run("SnakeCase spells untagged fields in snake_case", func(t *testing.T) {
		s, err := mapper.SchemaOf[encPromoted](mapper.SnakeCase())
		require.NoError(t, err)
		assert.Equal(t, []string{"base", "shared", "user_id", "Named_Col"}, names(s))
	})
	_ = encPromoted{}.hidden
}

type (
	encNode     struct{ Children []encNode }
	encLinked   struct{ Next *encLinked }
	encCycleA   struct{ B *encCycleB }
	encCycleB   struct{ A []encCycleA }
	encSelfList []encSelfList
	encChan     struct{ C chan int }
	encFunc     struct{ F func() }
	encComplex  struct{ C complex128 }
	encIface    struct{ I any }
	encPtrKey   struct{ M map[*int]int }
	encBadDec   struct {
		D decimal.Decimal32 `arrow:"d,decimal(10,2)"`
	}
	encBadUnit struct {
		N int32 `arrow:"n,timestamp"` // a timestamp's storage is int64
	}
	encBadUnitUnsigned struct {
		N uint64 `arrow:"n,duration"` // a duration's storage is signed
	}
	encBadPin struct {
		S string `arrow:"s,large_list"`
	}
	encBadView struct {
		A [4]int32 `arrow:"a,view"`
	}
	encBadDict struct {
		B map[string][]int32 `arrow:"b" arrow-value:"dict"`
	}
	encBadKey struct {
		M map[string]int `arrow-key:"nullable"`
	}
	encBadElem struct {
		N int `arrow-elem:"nullable"`
	}
	encDupName struct {
		UserID int
		UserId int
	}
)

func TestSchemaOfRejects(t *testing.T) {
	cases := []struct {
		name   string
		schema func(...mapper.WriteOption) (*arrow.Schema, error)
		kind   error
		path   string
	}{
		{"a recursive struct", mapper.SchemaOf[encNode], mapper.ErrUnsupported, "Children[]"},
		{"a recursive pointer", mapper.SchemaOf[encLinked], mapper.ErrUnsupported, "Next"},
		{"mutually recursive structs", mapper.SchemaOf[encCycleA], mapper.ErrUnsupported, "B.A[]"},
		{"a recursive slice type", mapper.SchemaOf[struct{ L encSelfList }], mapper.ErrUnsupported, "L[]"},
		{"a channel", mapper.SchemaOf[encChan], mapper.ErrUnsupported, "C"},
		{"a function", mapper.SchemaOf[encFunc], mapper.ErrUnsupported, "F"},
		{"a complex number", mapper.SchemaOf[encComplex], mapper.ErrUnsupported, "C"},
		{"an interface", mapper.SchemaOf[encIface], mapper.ErrUnsupported, "I"},
		{"a map with pointer keys", mapper.SchemaOf[encPtrKey], mapper.ErrUnsupported, "M[key]"},
		{"a type that is not a struct", mapper.SchemaOf[int], mapper.ErrUnsupported, ""},
		{"a precision past the decimal type's", mapper.SchemaOf[encBadDec], mapper.ErrTag, "D"},
		{"a temporal tag on an integer narrower than its storage", mapper.SchemaOf[encBadUnit], mapper.ErrTag, "N"},
		{"a temporal tag on an unsigned integer", mapper.SchemaOf[encBadUnitUnsigned], mapper.ErrTag, "N"},
		{"a list pin on a string", mapper.SchemaOf[encBadPin], mapper.ErrTag, "S"},
		{"view on an array", mapper.SchemaOf[encBadView], mapper.ErrTag, "A"},
		{"a dictionary of lists below a map, whose levels arrow-go builds", mapper.SchemaOf[encBadDict], mapper.ErrUnsupported, "B[value]"},
		{"nullable map keys", mapper.SchemaOf[encBadKey], mapper.ErrTag, "M[key]"},
		{"arrow-elem on a non-list", mapper.SchemaOf[encBadElem], mapper.ErrTag, "N"},
		{"two fields with one snake_case column", func(...mapper.WriteOption) (*arrow.Schema, error) {
			return mapper.SchemaOf[encDupName](mapper.SnakeCase())
		}, mapper.ErrTag, "UserId"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.schema()
			require.ErrorIs(t, err, c.kind)
			var e *mapper.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.path, e.Path)
			assert.Equal(t, -1, e.Row)
		})
	}
}

type encLine struct {
	SKU string
	At  time.Time
}

type encOrder struct {
	ID    int64
	Lines []encLine
}

type encPrice struct {
	Amount decimal.Decimal64 `arrow:"amount,decimal(4,2)"`
}

type encText struct {
	Amount string `arrow:"amount,decimal(6,2)"`
}

type encClock struct {
	D time.Duration `arrow:"d,time32,unit=ms"`
}

type encMoney struct{ Cents int64 }

type encWallet struct{ Balance encMoney }

type encFailing struct{}

func (encFailing) MarshalText() ([]byte, error) { return nil, errors.New("no text") }

type encFails struct{ F *encFailing }

func TestEncodeReportsValuesThatDoNotFit(t *testing.T) {
	year3000 := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		run  func(mem memory.Allocator) error
		kind error
		path string
		row  int
	}{
		{"a time.Time past the ns range, in a list", func(mem memory.Allocator) error {
			rows := []encOrder{{ID: 1, Lines: []encLine{{"a", now}}}, {ID: 2}, {ID: 3, Lines: []encLine{{"b", now}, {"c", year3000}}}}
			return encodeErr(rows, mem)
		}, mapper.ErrOverflow, "Lines[].At", 2},
		{"a decimal over its precision", func(mem memory.Allocator) error {
			return encodeErr([]encPrice{{1234}, {-9999}, {10000}}, mem)
		}, mapper.ErrOverflow, "Amount", 2},
		{"decimal text over its precision", func(mem memory.Allocator) error {
			return encodeErr([]encText{{"1234.5"}, {"12345.67"}}, mem)
		}, mapper.ErrOverflow, "Amount", 1},
		{"decimal text with more decimal places than the scale", func(mem memory.Allocator) error {
			return encodeErr([]encText{{"1.005"}}, mem)
		}, mapper.ErrOverflow, "Amount", 0},
		{"decimal text that is not a number", func(mem memory.Allocator) error {
			return encodeErr([]encText{{"1.5"}, {"-2"}, {"1.2.3"}}, mem)
		}, mapper.ErrInvalidData, "Amount", 2},
		{"a duration that is no time of day", func(mem memory.Allocator) error {
			return encodeErr([]encClock{{time.Hour}, {25 * time.Hour}}, mem)
		}, mapper.ErrOverflow, "D", 1},
		{"an As conversion that fails", func(mem memory.Allocator) error {
			conv := mapper.As[encMoney, string](nil, func(m encMoney) (string, error) {
				if m.Cents < 0 {
					return "", errors.New("negative")
				}
				return fmt.Sprint(m.Cents), nil
			})
			_, err := mapper.Encode([]encWallet{{encMoney{1}}, {encMoney{-1}}}, conv, mapper.Allocator(mem))
			return err
		}, mapper.ErrInvalidData, "Balance", 1},
		{"a TextMarshaler that fails", func(mem memory.Allocator) error {
			return encodeErr([]encFails{{nil}, {&encFailing{}}}, mem)
		}, mapper.ErrInvalidData, "F", 1},
		{"rows counted from the start of the batch", func(mem memory.Allocator) error {
			b, err := mapper.NewBuilder[encPrice](mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer b.Release()
			if err := b.Append(encPrice{1}, encPrice{2}); err != nil {
				return err
			}
			return b.Append(encPrice{3}, encPrice{100000})
		}, mapper.ErrOverflow, "Amount", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			err := c.run(mem)
			require.ErrorIs(t, err, c.kind)
			var e *mapper.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.path, e.Path)
			assert.Equal(t, c.row, e.Row)
			assert.Contains(t, err.Error(), fmt.Sprintf("row %d", c.row))
		})
	}
}

func encodeErr[T any](rows []T, mem memory.Allocator) error {
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	if err == nil {
		rec.Release()
	}
	return err
}

func TestBuilderAppendIsAllOrNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b, err := mapper.NewBuilder[encOrder](mapper.Allocator(mem))
	require.NoError(t, err)
	defer b.Release()
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	good := []encOrder{{ID: 1, Lines: []encLine{{"a", now}}}, {ID: 2, Lines: []encLine{}}}
	require.NoError(t, b.Append(good...))
	bad := []encOrder{{ID: 3, Lines: []encLine{{"b", now}}}, {ID: 4, Lines: []encLine{{"c", time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)}}}}
	err = b.Append(bad...)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 3, e.Row, "the row in the batch")
	require.NoError(t, b.Append(encOrder{ID: 5}))

	rec := b.NewRecordBatch()
	defer rec.Release()
	got, err := mapper.Decode[encOrder](rec)
	require.NoError(t, err)
	assert.Equal(t, append(good, encOrder{ID: 5}), got, "the failed Append left nothing behind")

	// The Builder goes on with a new batch.
	require.NoError(t, b.Append(good[:1]...))
	next := b.NewRecordBatch()
	defer next.Release()
	assert.EqualValues(t, 1, next.NumRows())
	empty := b.NewRecordBatch()
	defer empty.Release()
	assert.EqualValues(t, 0, empty.NumRows())
	assert.True(t, empty.Schema().Equal(rec.Schema()))
}

func TestEncodeUsesTheAllocator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec, err := mapper.Encode([]encOrder{{ID: 1, Lines: []encLine{{"a", time.Unix(0, 0)}}}}, mapper.Allocator(mem))
	require.NoError(t, err)
	assert.Positive(t, mem.CurrentAlloc(), "the record's buffers come from the allocator")
	rec.Release()
}

type encInnerNN struct {
	N int32
	S string
	L []int8
	A [2]int16
	T time.Time
}

type encOuterNN struct {
	P *encInnerNN
	*encEmbedded
}

func TestEncodeWritesNullsOnlyWhereNullable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := []encOuterNN{{}, {P: &encInnerNN{N: 1, S: "x", L: []int8{1}, T: time.Unix(1, 0)}, encEmbedded: &encEmbedded{Shared: 7, Base: 8}}}
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	for i, f := range rec.Schema().Fields() {
		encCheckNulls(t, f.Name, f.Nullable, rec.Column(i))
	}
	p := rec.Column(0).(*array.Struct)
	assert.True(t, p.IsNull(0))
	assert.Equal(t, 1, p.NullN())

	got, err := mapper.Decode[encOuterNN](rec)
	require.NoError(t, err)
	assert.Nil(t, got[0].P)
	assert.Equal(t, &encEmbedded{}, got[0].encEmbedded, "a nil embedded pointer is written as zeros")
	assert.Equal(t, rows[1].encEmbedded, got[1].encEmbedded)
}

// encCheckNulls fails when a field that is not nullable has a null, at
// any depth.
func encCheckNulls(t *testing.T, name string, nullable bool, arr arrow.Array) {
	if !nullable {
		assert.Zero(t, arr.NullN(), "%s is not nullable", name)
	}
	switch a := arr.(type) {
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		for i := range a.NumField() {
			encCheckNulls(t, name+"."+st.Field(i).Name, st.Field(i).Nullable, a.Field(i))
		}
	case array.ListLike:
		elem := a.DataType().(arrow.ListLikeType).ElemField()
		encCheckNulls(t, name+"[]", elem.Nullable, a.ListValues())
	}
}

type encMapRow struct{ M map[string]int32 }

func TestEncodeSortsMapEntriesByKey(t *testing.T) {
	m := map[string]int32{}
	for i := range 50 {
		m[fmt.Sprintf("k%02d", 49-i)] = int32(i)
	}
	rec, err := mapper.Encode([]encMapRow{{m}, {nil}, {map[string]int32{}}})
	require.NoError(t, err)
	defer rec.Release()
	col := rec.Column(0).(*array.Map)
	keys := col.Keys().(*array.String)
	for i := 1; i < keys.Len(); i++ {
		require.Less(t, keys.Value(i-1), keys.Value(i))
	}
	assert.True(t, col.IsNull(1))
	assert.True(t, col.IsValid(2))
	again, err := mapper.Encode([]encMapRow{{m}, {nil}, {map[string]int32{}}})
	require.NoError(t, err)
	defer again.Release()
	assert.True(t, array.RecordEqual(rec, again), "equal maps encode equally")
}

type encRuns struct {
	S string `arrow:"s,ree"`
	D string `arrow:"d,dict"`
}

func TestEncodeRunsAndDictionaries(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := []encRuns{{"a", "x"}, {"a", "y"}, {"b", "x"}, {"b", "x"}, {"b", "y"}, {"a", "x"}}
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	ree := rec.Column(0).(*array.RunEndEncoded)
	assert.Equal(t, []int32{2, 5, 6}, ree.RunEndsArr().(*array.Int32).Int32Values())
	assert.Equal(t, `["a" "b" "a"]`, ree.Values().String())
	dict := rec.Column(1).(*array.Dictionary)
	assert.Equal(t, `["x" "y"]`, dict.Dictionary().String())
	got, err := mapper.Decode[encRuns](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}

type encAmount struct{ Cents int64 }

type encInvoice struct {
	Total encAmount
	Parts []encAmount
}

func TestEncodeAsConversions(t *testing.T) {
	conv := mapper.As(
		func(s string) (encAmount, error) {
			var a encAmount
			_, err := fmt.Sscanf(s, "%d¢", &a.Cents)
			return a, err
		},
		func(a encAmount) (string, error) { return fmt.Sprintf("%d¢", a.Cents), nil },
	)
	schema, err := mapper.SchemaOf[encInvoice](conv)
	require.NoError(t, err)
	assert.True(t, arrow.TypeEqual(arrow.BinaryTypes.String, schema.Field(0).Type))
	assert.True(t, arrow.TypeEqual(arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.BinaryTypes.String}), schema.Field(1).Type))
	rows := []encInvoice{{Total: encAmount{150}, Parts: []encAmount{{100}, {50}}}, {Parts: nil}}
	rec, err := mapper.Encode(rows, conv)
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, `["150¢" "0¢"]`, rec.Column(0).String())
	m, err := mapper.New[encInvoice](rec.Schema(), conv)
	require.NoError(t, err)
	got, err := m.Decode(rec)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}

type encDecimalText struct {
	V string `arrow:"v,decimal(8,3)"`
}

func TestEncodeDecimalTextExactly(t *testing.T) {
	cases := map[string]int64{
		"1": 1000, "-1": -1000, "+2.5": 2500, "0.001": 1, "-0.000": 0, "12345.678": 12345678,
		"1.500": 1500, ".5": 500, "5.": 5000, "1e3": 1000000, "1.5E-2": 15, "0e99": 0,
	}
	for text, want := range cases {
		rec, err := mapper.Encode([]encDecimalText{{text}})
		require.NoError(t, err, text)
		got := rec.Column(0).(*array.Decimal128).Value(0)
		assert.Equal(t, decimal128.FromI64(want), got, text)
		rec.Release()
	}
	for _, text := range []string{"", "-", ".", "1,5", " 1", "1e", "e5", "0x10", "1..2", "١"} {
		_, err := mapper.Encode([]encDecimalText{{text}})
		assert.ErrorIs(t, err, mapper.ErrInvalidData, "%q", text)
	}
	for _, text := range []string{"123456", "0.0001", "1e5", "99999.9999"} {
		_, err := mapper.Encode([]encDecimalText{{text}})
		assert.ErrorIs(t, err, mapper.ErrOverflow, "%q", text)
	}
}

type encTimes struct {
	NS   time.Time
	MS   time.Time     `arrow:"ms,timestamp,unit=ms"`
	Day  time.Time     `arrow:"day,date32"`
	Clk  time.Time     `arrow:"clk,time32,unit=s"`
	Dur  time.Duration `arrow:"dur,duration,unit=ms"`
	Clk2 time.Duration `arrow:"clk2,time64,unit=us"`
}

func TestEncodeTimesFloorToTheUnit(t *testing.T) {
	before := time.Unix(0, -1).In(time.FixedZone("+01:00", 3600)) // 1970-01-01 00:59:59.999999999 there
	rec, err := mapper.Encode([]encTimes{{NS: before, MS: before, Day: before, Clk: before, Dur: -1500 * time.Microsecond, Clk2: 90*time.Minute + 1}})
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, arrow.Timestamp(-1), rec.Column(0).(*array.Timestamp).Value(0))
	assert.Equal(t, arrow.Timestamp(-1), rec.Column(1).(*array.Timestamp).Value(0), "floored, as UnixMilli")
	assert.Equal(t, arrow.Date32(-1), rec.Column(2).(*array.Date32).Value(0), "the day in UTC")
	assert.Equal(t, arrow.Time32(86399), rec.Column(3).(*array.Time32).Value(0), "the time of day in UTC")
	assert.Equal(t, arrow.Duration(-1), rec.Column(4).(*array.Duration).Value(0), "truncated, as Milliseconds")
	assert.Equal(t, arrow.Time64(90*60*1e6), rec.Column(5).(*array.Time64).Value(0))

	edge := time.Unix(0, -1<<63) // the first instant timestamp[ns] holds
	rec2, err := mapper.Encode([]encTimes{{NS: edge, MS: edge}})
	require.NoError(t, err)
	assert.Equal(t, arrow.Timestamp(-1<<63), rec2.Column(0).(*array.Timestamp).Value(0))
	rec2.Release()
	_, err = mapper.Encode([]encTimes{{NS: edge.Add(-1)}})
	assert.ErrorIs(t, err, mapper.ErrOverflow)
	_, err = mapper.Encode([]encTimes{{NS: time.Unix(0, 1<<63-1).Add(1)}})
	assert.ErrorIs(t, err, mapper.ErrOverflow)
}

func TestEncodeWritesEmptyRecords(t *testing.T) {
	rec, err := mapper.Encode[encOrder](nil)
	require.NoError(t, err)
	defer rec.Release()
	assert.EqualValues(t, 0, rec.NumRows())
	want, err := mapper.SchemaOf[encOrder]()
	require.NoError(t, err)
	assert.True(t, rec.Schema().Equal(want))
}

func TestEncodeIsSafeForConcurrentUse(t *testing.T) {
	rows := make([]encOrder, 300)
	for i := range rows {
		rows[i] = encOrder{ID: int64(i), Lines: []encLine{{SKU: strings.Repeat("x", i%7), At: time.Unix(int64(i), 0)}}}
	}
	want, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer want.Release()
	done := make(chan error)
	for range 4 {
		go func() {
			for range 20 {
				rec, err := mapper.Encode(rows)
				if err != nil {
					done <- err
					return
				}
				equal := array.RecordEqual(rec, want)
				rec.Release()
				if !equal {
					done <- errors.New("a concurrent Encode differs")
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		require.NoError(t, <-done)
	}
}
