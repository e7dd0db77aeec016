package mapper_test

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// fxNumberRow holds one value three ways: a column without nulls, and a
// nullable and a pointer field whose odd rows are null.
type fxNumberRow[V any] struct {
	V V  `arrow:"v"`
	N V  `arrow:"n,nullable"`
	P *V `arrow:"p"`
}

// fxNumbersCase decodes vals, written in columns of dt, into fields of type V.
func fxNumbersCase[V any](dt arrow.DataType, vals ...V) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		var odd []int
		want := make([]fxNumberRow[V], len(vals))
		for i, v := range vals {
			want[i].V = v
			if i%2 == 1 {
				odd = append(odd, i)
				continue
			}
			want[i].N, want[i].P = v, fxPtr(v)
		}
		rec := fxRecord(t,
			fxCol{"v", fxJSON(t, mem, dt, fxJSONList(vals))},
			fxCol{"n", fxJSON(t, mem, dt, fxJSONList(vals, odd...))},
			fxCol{"p", fxJSON(t, mem, dt, fxJSONList(vals, odd...))})
		defer rec.Release()
		require.Equal(t, want, fxDecodeAll[fxNumberRow[V]](t, rec))
	}
}

func TestDecodeNumbers(t *testing.T) {
	fxRun(t, []fxCase{
		{"int8 decodes into int8", fxNumbersCase(arrow.PrimitiveTypes.Int8, int8(math.MinInt8), -1, 0, math.MaxInt8, 7)},
		{"int16 decodes into int16", fxNumbersCase(arrow.PrimitiveTypes.Int16, int16(math.MinInt16), -1, 0, math.MaxInt16, 7)},
		{"int32 decodes into int32", fxNumbersCase(arrow.PrimitiveTypes.Int32, int32(math.MinInt32), -1, 0, math.MaxInt32, 7)},
		{"int64 decodes into int64", fxNumbersCase(arrow.PrimitiveTypes.Int64, int64(math.MinInt64), -1, 0, math.MaxInt64, 7)},
		{"int64 decodes into int", fxNumbersCase(arrow.PrimitiveTypes.Int64, math.MinInt64, -1, 0, math.MaxInt64, 7)},
		{"uint8 decodes into uint8", fxNumbersCase(arrow.PrimitiveTypes.Uint8, uint8(0), 1, 2, math.MaxUint8, 7)},
		{"uint16 decodes into uint16", fxNumbersCase(arrow.PrimitiveTypes.Uint16, uint16(0), 1, 2, math.MaxUint16, 7)},
		{"uint32 decodes into uint32", fxNumbersCase(arrow.PrimitiveTypes.Uint32, uint32(0), 1, 2, math.MaxUint32, 7)},
		{"uint64 decodes into uint64", fxNumbersCase(arrow.PrimitiveTypes.Uint64, uint64(0), 1, 2, math.MaxUint64, 7)},
		{"uint64 decodes into uint", fxNumbersCase(arrow.PrimitiveTypes.Uint64, uint(0), 1, 2, math.MaxUint64, 7)},
		{"float32 decodes into float32", fxNumbersCase(arrow.PrimitiveTypes.Float32, float32(-1.5), 0, math.MaxFloat32, math.SmallestNonzeroFloat32, 0.25)},
		{"float64 decodes into float64", fxNumbersCase(arrow.PrimitiveTypes.Float64, -1.5, 0, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1)},

		{"int8 widens into int64", fxNumbersCase(arrow.PrimitiveTypes.Int8, int64(math.MinInt8), -1, 0, math.MaxInt8, 7)},
		{"int16 widens into int32", fxNumbersCase(arrow.PrimitiveTypes.Int16, int32(math.MinInt16), -1, 0, math.MaxInt16, 7)},
		{"int32 widens into int64", fxNumbersCase(arrow.PrimitiveTypes.Int32, int64(math.MinInt32), -1, 0, math.MaxInt32, 7)},
		{"int32 widens into int", fxNumbersCase(arrow.PrimitiveTypes.Int32, math.MinInt32, -1, 0, math.MaxInt32, 7)},
		{"uint8 widens into int16", fxNumbersCase(arrow.PrimitiveTypes.Uint8, int16(0), 1, 2, math.MaxUint8, 7)},
		{"uint16 widens into int32", fxNumbersCase(arrow.PrimitiveTypes.Uint16, int32(0), 1, 2, math.MaxUint16, 7)},
		{"uint32 widens into int64", fxNumbersCase(arrow.PrimitiveTypes.Uint32, int64(0), 1, 2, math.MaxUint32, 7)},
		{"uint16 widens into uint64", fxNumbersCase(arrow.PrimitiveTypes.Uint16, uint64(0), 1, 2, math.MaxUint16, 7)},
		{"float32 widens into float64", fxNumbersCase(arrow.PrimitiveTypes.Float32, -1.5, 0, math.MaxFloat32, 0.25, 3)},
		{"float16 widens into float32", fxNumbersCase(arrow.FixedWidthTypes.Float16, float32(-1.5), 0, 65504, 6.1035156e-05, 0.25)},
		{"float16 widens into float64", fxNumbersCase(arrow.FixedWidthTypes.Float16, -1.5, 0, 65504, 0.00006103515625, 0.25)},
	})
}

func TestDecodeBool(t *testing.T) {
	fxRun(t, []fxCase{
		{"bool decodes into bool", fxNumbersCase(arrow.FixedWidthTypes.Boolean, true, true, false, true, false, true, true, true, false, true)},
	})
}

type fxCell[V any] struct {
	V V `arrow:"v"`
}

func TestStrictRejectsWidening(t *testing.T) {
	check := func(t *testing.T, err error) {
		fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
	}
	tests := []struct {
		name string
		run  func() (defaultErr, strictErr error)
	}{
		{"int32 into int64", func() (error, error) {
			s := fxSchema("v", arrow.PrimitiveTypes.Int32)
			_, a := mapper.New[fxCell[int64]](s)
			_, b := mapper.New[fxCell[int64]](s, mapper.Strict())
			return a, b
		}},
		{"uint16 into int32", func() (error, error) {
			s := fxSchema("v", arrow.PrimitiveTypes.Uint16)
			_, a := mapper.New[fxCell[int32]](s)
			_, b := mapper.New[fxCell[int32]](s, mapper.Strict())
			return a, b
		}},
		{"float32 into float64", func() (error, error) {
			s := fxSchema("v", arrow.PrimitiveTypes.Float32)
			_, a := mapper.New[fxCell[float64]](s)
			_, b := mapper.New[fxCell[float64]](s, mapper.Strict())
			return a, b
		}},
		{"float16 into float32", func() (error, error) {
			s := fxSchema("v", arrow.FixedWidthTypes.Float16)
			_, a := mapper.New[fxCell[float32]](s)
			_, b := mapper.New[fxCell[float32]](s, mapper.Strict())
			return a, b
		}},
		{"float16 into float64", func() (error, error) {
			s := fxSchema("v", arrow.FixedWidthTypes.Float16)
			_, a := mapper.New[fxCell[float64]](s)
			_, b := mapper.New[fxCell[float64]](s, mapper.Strict())
			return a, b
		}},
		{"decimal64 into decimal.Decimal128", func() (error, error) {
			s := fxSchema("v", &arrow.Decimal64Type{Precision: 10, Scale: 2})
			_, a := mapper.New[fxCell[decimal.Decimal128]](s)
			_, b := mapper.New[fxCell[decimal.Decimal128]](s, mapper.Strict())
			return a, b
		}},
		{"large_utf8 into string", func() (error, error) {
			s := fxSchema("v", arrow.BinaryTypes.LargeString)
			_, a := mapper.New[fxCell[string]](s)
			_, b := mapper.New[fxCell[string]](s, mapper.Strict())
			return a, b
		}},
		{"large_list into a slice", func() (error, error) {
			s := fxSchema("v", arrow.LargeListOf(arrow.PrimitiveTypes.Int64))
			_, a := mapper.New[fxCell[[]int64]](s)
			_, b := mapper.New[fxCell[[]int64]](s, mapper.Strict())
			return a, b
		}},
	}
	for _, tc := range tests {
		t.Run("Strict rejects "+tc.name+" that the default accepts", func(t *testing.T) {
			a, b := tc.run()
			require.NoError(t, a)
			check(t, b)
		})
	}
	t.Run("Strict accepts the encoding a tag pins", func(t *testing.T) {
		type pinned struct {
			S string        `arrow:"s,large_utf8"`
			L []int64       `arrow:"l,large_list"`
			B []byte        `arrow:"b,binary_view"`
			T time.Time     `arrow:"t,date32"`
			D time.Duration `arrow:"d,time64"`
			V []string      `arrow:"v,view"`
		}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		rec := fxRecord(t,
			fxCol{"s", fxJSON(t, mem, arrow.BinaryTypes.LargeString, `["a", "b", "c", "d"]`)},
			fxCol{"l", fxJSON(t, mem, arrow.LargeListOf(arrow.PrimitiveTypes.Int64), `[[1], [], null, [2, 3]]`)},
			fxCol{"b", fxJSON(t, mem, arrow.BinaryTypes.BinaryView, `["aGk=", "", null, "aGk="]`)},
			fxCol{"t", fxJSON(t, mem, arrow.FixedWidthTypes.Date32, `[0, 1, 2, 3]`)},
			fxCol{"d", fxJSON(t, mem, arrow.FixedWidthTypes.Time64us, `[0, 1, 2, 3]`)},
			fxCol{"v", fxJSON(t, mem, arrow.ListViewOf(arrow.BinaryTypes.String), `[["x"], [], null, ["y", "z"]]`)})
		defer rec.Release()
		got := fxDecodeAll[pinned](t, rec, mapper.Strict())
		require.Equal(t, pinned{S: "d", L: []int64{2, 3}, B: []byte("hi"), T: time.Unix(3*86400, 0).UTC(), D: 3 * time.Microsecond, V: []string{"y", "z"}}, got[3])
		_, err := mapper.New[pinned](rec.Schema(), mapper.Strict())
		require.NoError(t, err)
		// Strict still holds below the pin: a large_list of int32 does not widen.
		_, err = mapper.New[struct {
			L []int64 `arrow:"l,large_list"`
		}](fxSchema("l", arrow.LargeListOf(arrow.PrimitiveTypes.Int32)), mapper.Strict())
		fxRequireError(t, err, mapper.ErrTypeMismatch, "L[]", "l.item", -1)
	})
	t.Run("Strict accepts the exact types", func(t *testing.T) {
		_, err := mapper.New[fxNumberRow[int64]](fxSchema("v", arrow.PrimitiveTypes.Int64, "n", arrow.PrimitiveTypes.Int64, "p", arrow.PrimitiveTypes.Int64), mapper.Strict())
		require.NoError(t, err)
		_, err = mapper.New[fxNumberRow[float32]](fxSchema("v", arrow.PrimitiveTypes.Float32, "n", arrow.PrimitiveTypes.Float32, "p", arrow.PrimitiveTypes.Float32), mapper.Strict())
		require.NoError(t, err)
		_, err = mapper.New[fxCell[int]](fxSchema("v", arrow.PrimitiveTypes.Int64), mapper.Strict())
		require.NoError(t, err)
	})
}

type fxHalfRow struct {
	V float16.Num  `arrow:"v,nullable"`
	P *float16.Num `arrow:"p"`
}

func TestDecodeFloat16(t *testing.T) {
	fxRun(t, []fxCase{
		{"float16 decodes into float16.Num", func(t *testing.T, mem memory.Allocator) {
			const js = `[0.5, null, -2, 65504, 0.00006103515625]`
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.FixedWidthTypes.Float16, js)}, fxCol{"p", fxJSON(t, mem, arrow.FixedWidthTypes.Float16, js)})
			defer rec.Release()
			var want []fxHalfRow
			for i, f := range []float32{0.5, 0, -2, 65504, 0.00006103515625} {
				if i == 1 {
					want = append(want, fxHalfRow{})
					continue
				}
				want = append(want, fxHalfRow{V: float16.New(f), P: fxPtr(float16.New(f))})
			}
			got := fxDecodeAll[fxHalfRow](t, rec)
			require.Equal(t, want, got)
			require.Equal(t, float32(65504), got[3].V.Float32())
		}},
	})
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
