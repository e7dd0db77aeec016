package views_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/views"
)

// A struct of two children of one name, the second's offsets falling, in
// a list: TypeOf views children by name and leaves both out;
// WholeTypeOf views each by position, at every depth, and finds it.
func TestWholeTypeOfViewsEveryChildOfAStructByPosition(t *testing.T) {
	pair := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "x", Type: arrow.BinaryTypes.String})
	ints := array.NewData(arrow.PrimitiveTypes.Int32, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{7}))}, nil, 0, 0)
	defer ints.Release()
	text := array.NewData(arrow.BinaryTypes.String, 1, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{1, 0})), memory.NewBufferBytes([]byte("ab"))}, nil, 0, 0)
	defer text.Release()
	st := array.NewData(pair, 1, []*memory.Buffer{nil}, []arrow.ArrayData{ints, text}, 0, 0)
	defer st.Release()
	list := array.NewData(arrow.ListOf(pair), 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1}))},
		[]arrow.ArrayData{st}, 0, 0)
	defer list.Release()
	arr := array.MakeFromData(list)
	defer arr.Release()

	_, err := views.New(arr, views.TypeOf(arr.DataType()))
	require.NoError(t, err, "TypeOf leaves the children of one name out")

	whole := views.WholeTypeOf(arr.DataType())
	require.Len(t, whole.Elem.Fields, 2)
	for i, f := range whole.Elem.Fields {
		require.NotNil(t, f.Pos)
		assert.Equal(t, i, *f.Pos)
		assert.Equal(t, "x", f.Name)
	}
	_, err = views.New(arr, whole)
	require.ErrorIs(t, err, views.ErrInvalidData)
	var ve *views.Error
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "item.x", ve.Column)
}
