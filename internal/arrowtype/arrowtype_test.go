package arrowtype_test

import (
	"path"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// sample is a datatype of r's ID made by the table's own constructors.
func sample(t *testing.T, r *arrowtype.Row) arrow.DataType {
	t.Helper()
	switch {
	case r.Decimal:
		return r.DecimalOf(r.MaxPrecision, 2)
	case len(r.Units) > 0:
		dt, err := r.WithUnit(r.DefaultUnit, "")
		require.NoError(t, err)
		return dt
	case r.Layout == arrowtype.FixedBinary:
		return arrowtype.FixedSizeBinaryOf(7)
	}
	dt, ok := arrowtype.Plain(r.ID)
	if !ok {
		return nil
	}
	return dt
}

func TestEveryRowAgreesWithArrowGosLayoutOfItsType(t *testing.T) {
	for _, r := range arrowtype.Rows() {
		t.Run(r.Name, func(t *testing.T) {
			assert.Equal(t, r, arrowtype.Of(r.ID))
			dt := sample(t, r)
			if dt == nil {
				return // a type with children: its layout is its children's
			}
			require.Equal(t, r.ID, dt.ID())
			bufs := dt.Layout().Buffers
			switch r.Layout {
			case arrowtype.Fixed:
				require.Len(t, bufs, 2)
				assert.Equal(t, bufs[1].ByteWidth, r.Bytes, "byte width")
				assert.Equal(t, r.Bytes, int(r.Value.GoType().Size()), "the Go type of its values")
				assert.Equal(t, r.Bytes, dt.(arrow.FixedWidthDataType).Bytes())
				assert.Contains(t, arrowtype.Holding(r.Value), r.ID)
			case arrowtype.Binary:
				want := 4
				if r.Large {
					want = 8
				}
				assert.Equal(t, want, bufs[1].ByteWidth, "offsets")
				assert.Equal(t, r.Text, dt.(arrow.BinaryDataType).IsUtf8())
			case arrowtype.View:
				assert.Equal(t, arrow.ViewHeaderSizeBytes, bufs[1].ByteWidth)
			case arrowtype.FixedBinary:
				assert.Equal(t, 7, arrowtype.ByteWidth(dt))
			}
			if r.Layout != arrowtype.Fixed {
				assert.Equal(t, arrowtype.NoValue, r.Value)
			}
		})
	}
}

func TestTheUnitsOfATypeAreTheOnesArrowGoValidates(t *testing.T) {
	for _, r := range arrowtype.Rows() {
		for _, u := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
			dt, err := r.WithUnit(u, "")
			if !r.TakesUnit(u) {
				assert.Error(t, err, "%s[%s]", r.Name, u)
				continue
			}
			require.NoError(t, err)
			got, ok := arrowtype.Unit(dt)
			assert.True(t, ok)
			assert.Equal(t, u, got)
			if r.ID == arrow.TIME32 || r.ID == arrow.TIME64 {
				// arrow-go's IPC and C data readers refuse the others.
				assert.Equal(t, r.ID == arrow.TIME32, u == arrow.Second || u == arrow.Millisecond)
			}
		}
	}
}

func TestDecimalsGoNarrowestFirstAndHoldTheirPrecision(t *testing.T) {
	prev := int32(0)
	for _, r := range arrowtype.Decimals() {
		assert.Greater(t, r.MaxPrecision, prev)
		prev = r.MaxPrecision
		got, ok := arrowtype.DecimalFor(r.MaxPrecision)
		require.True(t, ok)
		assert.Equal(t, r, got)
		p, s, ok := arrowtype.Precision(r.DecimalOf(r.MaxPrecision, 3))
		assert.True(t, ok)
		assert.Equal(t, [2]int32{r.MaxPrecision, 3}, [2]int32{p, s})
		// Arrow's widths hold ⌊log10(2^(bits-1))⌋ digits.
		assert.Equal(t, map[int]int32{4: 9, 8: 18, 16: 38, 32: 76}[r.Bytes], r.MaxPrecision)
	}
	_, ok := arrowtype.DecimalFor(77)
	assert.False(t, ok)
}

func TestDecodedSeesThroughExtensionsAndEncodings(t *testing.T) {
	values := arrow.BinaryTypes.String
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: values}
	ree := arrowtype.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, dict)
	assert.Equal(t, values, arrowtype.Decoded(ree))
	got, ok := arrowtype.Encoded(ree)
	assert.True(t, ok)
	assert.Equal(t, dict, got)
	_, ok = arrowtype.Encoded(values)
	assert.False(t, ok)
	ends, ok := arrowtype.RunEnds(ree)
	assert.True(t, ok)
	assert.Equal(t, arrow.PrimitiveTypes.Int32, ends)
}

func TestAnIDOutsideTheTableIsUnsupported(t *testing.T) {
	assert.Equal(t, arrowtype.Unsupported, arrowtype.Of(arrow.Type(250)).Layout)
	assert.Equal(t, arrowtype.Unsupported, arrowtype.Of(arrow.INTERVAL_MONTHS-1000).Layout)
}

func TestValuesAreWhatArrowGosTypedArraysGive(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := array.NewBuilder(mem, arrowtype.Of(arrow.DATE64).Make())
	defer b.Release()
	b.UnmarshalJSON([]byte(`["1970-01-02", null, "2000-03-01", "1969-12-31"]`))
	a := b.NewArray()
	defer a.Release()
	s := array.NewSlice(a, 1, 4)
	defer s.Release()
	got := arrowtype.Values[int64](s.Data())
	require.Len(t, got, 3)
	assert.Equal(t, int64(951868800000), got[1], "2000-03-01 in ms")
	assert.Equal(t, int64(-86400000), got[2])
	short := array.NewData(s.DataType(), 5, s.Data().Buffers(), nil, 0, 0)
	defer short.Release()
	assert.Nil(t, arrowtype.Values[int64](short), "past the end of its buffer")
}

// GoSource spells a Value's Go type as code that imports its package
// writes it: the wide decimals by their aliases in package decimal, which
// reflect names by the types they stand for (decimal128.Num).
func TestGoSourceSpellsEveryValuesTypeFromThePackageItImports(t *testing.T) {
	const decimalPkg = "github.com/apache/arrow-go/v18/arrow/decimal"
	for _, c := range []struct {
		v         arrowtype.Value
		name, pkg string
	}{
		{arrowtype.Decimal128, "decimal.Decimal128", decimalPkg},
		{arrowtype.Decimal256, "decimal.Decimal256", decimalPkg},
		{arrowtype.Decimal32, "decimal.Decimal32", decimalPkg},
		{arrowtype.Float16, "float16.Num", "github.com/apache/arrow-go/v18/arrow/float16"},
		{arrowtype.MonthInterval, "arrow.MonthInterval", "github.com/apache/arrow-go/v18/arrow"},
		{arrowtype.Int64, "int64", ""},
	} {
		name, pkg := arrowtype.GoSource(c.v.GoType())
		assert.Equal(t, c.name, name)
		assert.Equal(t, c.pkg, pkg, c.name)
	}
	for _, v := range arrowtype.EveryValue() {
		name, pkg := arrowtype.GoSource(v.GoType())
		if qualifier, _, ok := strings.Cut(name, "."); ok {
			assert.Equal(t, path.Base(pkg), qualifier, "%s is named from the package it imports", name)
		} else {
			assert.Empty(t, pkg, "%s is predeclared", name)
		}
	}
	name, pkg := arrowtype.GoSource(reflect.TypeFor[time.Time]())
	assert.Equal(t, "time.Time", name, "a type of no Value is as reflect names it")
	assert.Equal(t, "time", pkg)
}

// The classes of layouts the engines ask of a row are arrow-go's own
// interfaces and types: bytes of any length each are arrow-go's binary
// types other than fixed-size binary; a list of any layout is a
// ListLikeType; a list of any length each is one that is no map and no
// fixed-size list; an encoding is a dictionary or a run-end encoding.
func TestTheClassesOfLayoutsAreArrowGosInterfaces(t *testing.T) {
	var types []arrow.DataType
	for _, r := range arrowtype.Rows() {
		if dt := sample(t, r); dt != nil {
			types = append(types, dt)
		}
	}
	types = append(types, nestedOfEveryLayout()...)
	seen := map[arrow.Type]bool{}
	for _, dt := range types {
		r := arrowtype.OfType(dt)
		seen[dt.ID()] = true
		_, binary := dt.(arrow.BinaryDataType)
		_, fixed := dt.(*arrow.FixedSizeBinaryType)
		assert.Equal(t, binary && !fixed, r.VarBinary(), "%s: VarBinary", dt)
		_, list := dt.(arrow.ListLikeType)
		assert.Equal(t, list, r.AnyList(), "%s: AnyList", dt)
		_, isMap := dt.(*arrow.MapType)
		_, fixedList := dt.(*arrow.FixedSizeListType)
		assert.Equal(t, list && !isMap && !fixedList, r.VarList(), "%s: VarList", dt)
		_, dict := dt.(*arrow.DictionaryType)
		_, ree := dt.(*arrow.RunEndEncodedType)
		assert.Equal(t, dict || ree, r.Encoding(), "%s: Encoding", dt)
	}
	for _, r := range arrowtype.Rows() {
		if r.Layout != arrowtype.Extension {
			assert.True(t, seen[r.ID], "a type of %s is tried", r.Name)
		}
	}
}
