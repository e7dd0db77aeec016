package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

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
