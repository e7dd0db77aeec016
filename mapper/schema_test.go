package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
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

func TestSchemaOfGivesTheMetadataOfItsOwnOptions(t *testing.T) {
	typeMeta := arrow.NewMetadata([]string{"from"}, []string{"type"})
	empty := arrow.Metadata{}
	check := func(t *testing.T, got *arrow.Schema, err error, want arrow.Metadata) {
		t.Helper()
		require.NoError(t, err)
		assert.True(t, got.Metadata().Equal(want), "metadata %v, want %v", got.Metadata(), want)
	}
	t.Run("without SchemaMetadata then with an empty one: the type's metadata, then none", func(t *testing.T) {
		s, err := mapper.SchemaOf[metaFirstDefault]()
		check(t, s, err, typeMeta)
		s, err = mapper.SchemaOf[metaFirstDefault](mapper.SchemaMetadata(empty))
		check(t, s, err, empty)
	})
	t.Run("with an empty SchemaMetadata then without: none, then the type's metadata", func(t *testing.T) {
		s, err := mapper.SchemaOf[metaFirstGiven](mapper.SchemaMetadata(empty))
		check(t, s, err, empty)
		s, err = mapper.SchemaOf[metaFirstGiven]()
		check(t, s, err, typeMeta)
	})
	t.Run("a SchemaMetadata of other keys in another order is its own", func(t *testing.T) {
		ab := arrow.NewMetadata([]string{"a", "b"}, []string{"1", "2"})
		ba := arrow.NewMetadata([]string{"b", "a"}, []string{"2", "1"})
		for _, md := range []arrow.Metadata{ab, ba, ab} {
			s, err := mapper.SchemaOf[metaFirstGiven](mapper.SchemaMetadata(md))
			require.NoError(t, err)
			assert.Equal(t, md.Keys(), s.Metadata().Keys())
			assert.Equal(t, md.Values(), s.Metadata().Values())
		}
	})
}

// Each order of the SchemaOf calls below gets a type of its own, so that
// neither finds the plans of the other in the cache.
type metaFirstDefault struct {
	ID int64 `arrow:"id"`
}

func (metaFirstDefault) ArrowSchemaMetadata() arrow.Metadata {
	return arrow.NewMetadata([]string{"from"}, []string{"type"})
}

type metaFirstGiven struct {
	ID int64 `arrow:"id"`
}

func (metaFirstGiven) ArrowSchemaMetadata() arrow.Metadata {
	return arrow.NewMetadata([]string{"from"}, []string{"type"})
}
