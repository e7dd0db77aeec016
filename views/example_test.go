package views_test

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/views"
)

// A list<int64> column [[1, 2], [], [3]], viewed as a list of integers.
func ExampleNew() {
	b := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64)
	defer b.Release()
	items := b.ValueBuilder().(*array.Int64Builder)
	b.Append(true)
	items.AppendValues([]int64{1, 2}, nil)
	b.Append(true)
	b.Append(true)
	items.Append(3)
	arr := b.NewArray()
	defer arr.Release()

	elem := views.Type{Accept: views.AcceptOf(arrow.INT64)}
	v, err := views.New(arr, views.Type{Accept: views.Lists, Elem: &elem})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range v.Len() {
		fmt.Println(i, v.Value(i))
	}

	// The typed node reads without boxing: the offsets of the rows, and the
	// child rows they reach.
	list := v.Node().(*views.List[int32])
	fmt.Println(list.Offsets())
	fmt.Println(list.Child(v.Window()).Node().(*views.Primitive[int64]).Values())
	// Output:
	// 0 [1 2]
	// 1 []
	// 2 [3]
	// [0 2 2 3]
	// [1 2 3]
}

// A slice of a slice counts from the start of the slice it is taken from,
// like a Go slice, and validates nothing again.
func ExampleView_Slice() {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int64{10, 11, 12, 13, 14, 15, 16, 17}, nil)
	arr := b.NewArray()
	defer arr.Release()

	v, err := views.New(arr, views.Type{Accept: views.AcceptOf(arrow.INT64)})
	if err != nil {
		fmt.Println(err)
		return
	}
	page := v.Slice(2, 7) // rows 2..6: 12 13 14 15 16
	row := page.Slice(1, 3)
	fmt.Println(page.Len(), page.Value(0), page.Window())
	fmt.Println(row.Len(), row.Value(0), row.Value(1), row.Window())
	// Output:
	// 5 12 {2 5}
	// 2 13 14 {3 2}
}

// A null where the Type is not nullable fails New with ErrNull and the
// first row that holds one; the same array passes as nullable.
func ExampleNew_nulls() {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int64{1, 0, 3}, []bool{true, false, true})
	arr := b.NewArray()
	defer arr.Release()

	_, err := views.New(arr, views.Type{Accept: views.AcceptOf(arrow.INT64), Label: "Order.Qty"})
	var verr *views.Error
	if errors.As(err, &verr) {
		fmt.Println(errors.Is(err, views.ErrNull), verr.Row, verr.Label)
		fmt.Println(err)
	}

	v, err := views.New(arr, views.Type{Accept: views.AcceptOf(arrow.INT64), Nullable: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Value(0), v.Value(1), v.IsNull(1))
	// Output:
	// true 1 Order.Qty
	// arrowmap/views: row 1: unexpected null: a null where the type is not nullable
	// 1 <nil> true
}

// A utf8 array whose offsets go backwards, as a corrupt IPC stream could
// hold: arrow-go builds the array, and its Value(1) would panic; New
// rejects it before anything reads it.
func ExampleNew_malformed() {
	data := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{
		nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 3, 1})),
		memory.NewBufferBytes([]byte("abc")),
	}, nil, 0, 0)
	defer data.Release()
	arr := array.NewStringData(data)
	defer arr.Release()

	_, err := views.New(arr, views.Type{Accept: views.Strings})
	fmt.Println(errors.Is(err, views.ErrInvalidData))
	fmt.Println(err)
	// Output:
	// true
	// arrowmap/views: row 1: invalid data: offsets go backwards: 3 then 1
}
