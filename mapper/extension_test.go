package mapper_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extRecord is a one-column record of arr, named c; it takes arr.
func extRecord(t *testing.T, arr arrow.Array, nullable bool) arrow.RecordBatch {
	t.Helper()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: arr.DataType(), Nullable: nullable}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

// bool8Array is an arrow.bool8 array of storage values, null where valid
// is false.
func bool8Array(mem memory.Allocator, values []int8, valid []bool) arrow.Array {
	b := array.NewInt8Builder(mem)
	defer b.Release()
	b.AppendValues(values, valid)
	storage := b.NewArray()
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(extensions.NewBool8Type(), storage)
}

// jsonArray is an arrow.json array over storage, a string array.
func jsonArray(t *testing.T, storage arrow.Array) arrow.Array {
	t.Helper()
	defer storage.Release()
	dt, err := extensions.NewJSONType(storage.DataType())
	require.NoError(t, err)
	return array.NewExtensionArrayWithStorage(dt, storage)
}

func TestBool8DecodesIntoBoolAsArrowGoReadsIt(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	values := []int8{0, 1, -3, 0, 127, 2}
	valid := []bool{true, true, true, false, true, true}
	rec := extRecord(t, bool8Array(mem, values, valid), true)
	defer rec.Release()
	ref := rec.Column(0).(*extensions.Bool8Array)

	type pointers struct {
		C *bool `arrow:"c,ext=arrow.bool8"`
	}
	type plain struct {
		C bool `arrow:"c,nullable"`
	}
	for _, opts := range [][]mapper.ReadOption{nil, {mapper.Strict()}} {
		for lo := range len(values) + 1 {
			for hi := lo; hi <= len(values); hi++ {
				part := rec.NewSlice(int64(lo), int64(hi))
				rows, err := mapper.Decode[pointers](part, opts...)
				require.NoError(t, err)
				flat, err := mapper.Decode[plain](part, opts...)
				part.Release()
				require.NoError(t, err)
				for i := range rows {
					if ref.IsNull(lo + i) {
						assert.Nil(t, rows[i].C, "row %d", lo+i)
						assert.False(t, flat[i].C, "row %d: a null is the zero value", lo+i)
						continue
					}
					require.NotNil(t, rows[i].C, "row %d", lo+i)
					assert.Equal(t, ref.Value(lo+i), *rows[i].C, "row %d (%d)", lo+i, values[lo+i])
					assert.Equal(t, ref.Value(lo+i), flat[i].C, "row %d (%d)", lo+i, values[lo+i])
				}
			}
		}
	}

	t.Run("an int8 field reads its storage as written", func(t *testing.T) {
		rows, err := mapper.Decode[struct {
			C *int8 `arrow:"c"`
		}](rec)
		require.NoError(t, err)
		for i, v := range values {
			if valid[i] {
				assert.Equal(t, v, *rows[i].C)
			}
		}
	})
	t.Run("encoding the rows writes the extension again, true as 1", func(t *testing.T) {
		typ, err := mapper.GoTypeOf(rec.Schema())
		require.NoError(t, err)
		assert.Equal(t, `arrow:"c,ext=arrow.bool8" json:"c"`, string(typ.Field(0).Tag))
		rows, err := mapper.DecodeTo(typ, rec)
		require.NoError(t, err)
		again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
		require.NoError(t, err)
		defer again.Release()
		require.True(t, again.Schema().Equal(rec.Schema()), "%s", again.Schema())
		got := again.Column(0).(*extensions.Bool8Array)
		for i := range values {
			assert.Equal(t, ref.IsNull(i), got.IsNull(i), "row %d", i)
			if ref.IsValid(i) {
				assert.Equal(t, ref.Value(i), got.Value(i), "row %d", i)
				assert.Contains(t, []int8{0, 1}, got.Storage().(*array.Int8).Value(i), "row %d", i)
			}
		}
	})
}

func TestBoolRefusesWhatIsNotBoolOrBool8(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ints := func() arrow.Array {
		b := array.NewInt8Builder(mem)
		defer b.Release()
		b.AppendValues([]int8{0, 1}, nil)
		return b.NewArray()
	}
	bools := func() arrow.Array {
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.AppendValues([]bool{true, false}, nil)
		return b.NewArray()
	}
	type plain struct {
		C bool `arrow:"c"`
	}
	type pinned struct {
		C bool `arrow:"c,ext=arrow.bool8"`
	}
	cases := []struct {
		name   string
		arr    func() arrow.Array
		decode func(arrow.RecordBatch, ...mapper.ReadOption) error
		opts   []mapper.ReadOption
	}{
		{"a plain int8 into a bool", ints, decodeErr[plain], nil},
		{"a plain int8 into a bool under Strict", ints, decodeErr[plain], []mapper.ReadOption{mapper.Strict()}},
		{"a plain int8 into a bool pinned arrow.bool8", ints, decodeErr[pinned], nil},
		{"a bool into a bool pinned arrow.bool8", bools, decodeErr[pinned], nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := extRecord(t, c.arr(), false)
			defer rec.Release()
			err := c.decode(rec, c.opts...)
			require.ErrorIs(t, err, mapper.ErrTypeMismatch)
			var e *mapper.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, "C", e.Path)
			assert.Equal(t, "c", e.Column)
		})
	}
}

func decodeErr[T any](rec arrow.RecordBatch, opts ...mapper.ReadOption) error {
	_, err := mapper.Decode[T](rec, opts...)
	return err
}

func TestJSONDecodesIntoRawMessageBytesAndString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	texts := []string{`{"a":1}`, `[1,2]`, ``, `"x"`, `null`}
	valid := []bool{true, true, false, true, true}
	storages := []struct {
		name string
		dt   arrow.DataType
		pin  string
	}{
		{"utf8", arrow.BinaryTypes.String, ""},
		{"large_utf8", arrow.BinaryTypes.LargeString, ",large_utf8"},
		{"utf8_view", arrow.BinaryTypes.StringView, ",utf8_view"},
	}
	for _, st := range storages {
		t.Run(st.name, func(t *testing.T) {
			b := array.NewBuilder(mem, st.dt)
			defer b.Release()
			for i, s := range texts {
				if !valid[i] {
					b.AppendNull()
					continue
				}
				require.NoError(t, b.AppendValueFromString(s))
			}
			rec := extRecord(t, jsonArray(t, b.NewArray()), true)
			defer rec.Release()

			// Each Go type alone: a column is one field's.
			raw, err := mapper.Decode[struct {
				C json.RawMessage `arrow:"c"`
			}](rec)
			require.NoError(t, err)
			bytes, err := mapper.Decode[struct {
				C []byte `arrow:"c,ext=arrow.json"`
			}](rec)
			require.NoError(t, err)
			text, err := mapper.Decode[struct {
				C *string `arrow:"c"`
			}](rec)
			require.NoError(t, err)
			for i, s := range texts {
				if !valid[i] {
					assert.Nil(t, raw[i].C, "row %d", i)
					assert.Nil(t, bytes[i].C, "row %d", i)
					assert.Nil(t, text[i].C, "row %d", i)
					continue
				}
				assert.Equal(t, json.RawMessage(s), raw[i].C, "row %d", i)
				assert.Equal(t, []byte(s), bytes[i].C, "row %d", i)
				assert.Equal(t, s, *text[i].C, "row %d", i)
			}

			t.Run("GoTypeOf's json.RawMessage encodes the record again", func(t *testing.T) {
				typ, err := mapper.GoTypeOf(rec.Schema())
				require.NoError(t, err)
				assert.Equal(t, `arrow:"c`+st.pin+`,ext=arrow.json" json:"c"`, string(typ.Field(0).Tag))
				assert.Equal(t, "json.RawMessage", typ.Field(0).Type.String())
				rows, err := mapper.DecodeTo(typ, rec)
				require.NoError(t, err)
				again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
				require.NoError(t, err)
				defer again.Release()
				assert.True(t, array.RecordEqual(rec, again), "re-encoded\n%v\nwant\n%v", again, rec)
			})
			t.Run("under Strict, a []byte reads it where its tag pins the layout", func(t *testing.T) {
				_, err := mapper.Decode[struct {
					C json.RawMessage `arrow:"c"`
				}](rec, mapper.Strict())
				if st.pin == "" {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, mapper.ErrTypeMismatch)
				typ, err := mapper.GoTypeOf(rec.Schema())
				require.NoError(t, err)
				_, err = mapper.DecodeTo(typ, rec, mapper.Strict())
				require.NoError(t, err)
			})
		})
	}
	t.Run("a plain utf8 into a []byte is refused", func(t *testing.T) {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Append("{}")
		rec := extRecord(t, b.NewArray(), false)
		defer rec.Release()
		_, err := mapper.Decode[struct {
			C []byte `arrow:"c"`
		}](rec)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
		_, err = mapper.Decode[struct {
			C []byte `arrow:"c,ext=arrow.json"`
		}](rec)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
		assert.Contains(t, err.Error(), "ext=arrow.json")
	})
	t.Run("an arrow.json into a []byte pinned another extension is refused", func(t *testing.T) {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Append("{}")
		rec := extRecord(t, jsonArray(t, b.NewArray()), false)
		defer rec.Release()
		_, err := mapper.Decode[struct {
			C []byte `arrow:"c,ext=arrow.opaque"`
		}](rec)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
	})
}

// vendorInt is a 128-bit integer of a vendor's, as DuckDB exports its
// HUGEINT: arrow.opaque over fixed_size_binary(16).
type vendorInt [16]byte

func (vendorInt) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "hugeint", "DuckDB"), nil
}

// vendorUint is another type of the same vendor over the same storage.
type vendorUint [16]byte

func (*vendorUint) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "uhugeint", "DuckDB"), nil
}

type vendorRow struct {
	Big   vendorInt              `arrow:"big"`
	Bigs  []vendorInt            `arrow:"bigs"`
	Maybe *vendorUint            `arrow:"maybe"`
	Plain [16]byte               `arrow:"plain"`
	ByTag vendorInt              `arrow:"by_tag,ext=arrow.uuid"`
	Inner struct{ U vendorUint } `arrow:"inner"`
}

func TestATypeThatDeclaresItsExtensionEncodesAsItWhereverItIs(t *testing.T) {
	schema, err := mapper.SchemaOf[vendorRow]()
	require.NoError(t, err)
	hugeint := extensions.NewOpaqueType(&arrow.FixedSizeBinaryType{ByteWidth: 16}, "hugeint", "DuckDB")
	uhugeint := extensions.NewOpaqueType(&arrow.FixedSizeBinaryType{ByteWidth: 16}, "uhugeint", "DuckDB")
	assert.True(t, arrow.TypeEqual(hugeint, schema.Field(0).Type), "%s", schema.Field(0).Type)
	assert.True(t, arrow.TypeEqual(hugeint, schema.Field(1).Type.(*arrow.ListType).Elem()), "%s", schema.Field(1).Type)
	assert.True(t, arrow.TypeEqual(uhugeint, schema.Field(2).Type), "a pointer method declares it too: %s", schema.Field(2).Type)
	assert.True(t, arrow.TypeEqual(&arrow.FixedSizeBinaryType{ByteWidth: 16}, schema.Field(3).Type), "a [16]byte declares none: %s", schema.Field(3).Type)
	assert.Equal(t, "arrow.uuid", schema.Field(4).Type.(arrow.ExtensionType).ExtensionName(), "the tag's ext= wins")
	assert.True(t, arrow.TypeEqual(arrow.StructOf(arrow.Field{Name: "U", Type: uhugeint}), schema.Field(5).Type), "%s", schema.Field(5).Type)

	rows := []vendorRow{{Big: vendorInt{1, 2}, Bigs: []vendorInt{{3}, {4}}, Maybe: &vendorUint{0xff}, Plain: [16]byte{5}, ByTag: vendorInt{6}}, {}}
	rows[1].Inner.U = vendorUint{7}
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	assert.True(t, arrow.TypeEqual(hugeint, rec.Column(0).DataType()))
	back, err := mapper.Decode[vendorRow](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, back)
}

func TestATypeThatDeclaresItsExtensionRefusesAnotherOverTheSameStorage(t *testing.T) {
	// A UUID is 16 bytes too; a HUGEINT read from it would be a number made
	// of random bytes.
	type uuidRow struct {
		ID [16]byte `arrow:"id,ext=arrow.uuid"`
	}
	rec, err := mapper.Encode([]uuidRow{{ID: [16]byte{1}}})
	require.NoError(t, err)
	defer rec.Release()
	type asBig struct {
		ID vendorInt `arrow:"id"`
	}
	_, err = mapper.Decode[asBig](rec)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
	assert.Equal(t, "id", me.Column)
	assert.Contains(t, err.Error(), "hugeint")

	// Another type of the same vendor and storage is refused as well.
	big, err := mapper.Encode([]struct{ ID vendorInt }{{}})
	require.NoError(t, err)
	defer big.Release()
	_, err = mapper.Decode[struct{ ID vendorUint }](big)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)

	// Its storage alone, from a source that does not know the extension,
	// is read.
	plain, err := mapper.Encode([]struct{ ID [16]byte }{{ID: [16]byte{9}}})
	require.NoError(t, err)
	defer plain.Release()
	got, err := mapper.Decode[struct{ ID vendorInt }](plain)
	require.NoError(t, err)
	assert.Equal(t, vendorInt{9}, got[0].ID)
}

func TestATagsTZOfUTCReadsAColumnInAnotherNameOfUTC(t *testing.T) {
	type stamped struct {
		At time.Time `arrow:"at,timestamp,unit=us,tz=Etc/UTC"`
	}
	at := time.Date(2024, 3, 31, 1, 2, 3, 4000, time.UTC)
	rec, err := mapper.Encode([]stamped{{At: at}})
	require.NoError(t, err)
	defer rec.Release()
	type asUTC struct {
		At time.Time `arrow:"at,timestamp,tz=UTC"`
	}
	got, err := mapper.Decode[asUTC](rec)
	require.NoError(t, err, "DuckDB's TIMESTAMPTZ is tz=Etc/UTC")
	assert.True(t, at.Equal(got[0].At))
	type asTokyo struct {
		At time.Time `arrow:"at,timestamp,tz=Asia/Tokyo"`
	}
	_, err = mapper.Decode[asTokyo](rec)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
}
