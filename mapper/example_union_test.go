package mapper_test

import (
	"fmt"

	"github.com/arrowmap/arrowmap/mapper"
)

// Shape is a union: each row is a circle, a square or a label. The one
// non-nil variant is the row's; Kind keeps the code of a null row.
type Shape struct {
	Circle *float64         `arrow:"circle,code=1"`
	Square *float64         `arrow:"square,code=2"`
	Label  *string          `arrow:"label,code=7,nullable"`
	Kind   mapper.UnionCode `arrow:",type_code"`
}

type Drawing struct {
	ID    int64 `arrow:"id"`
	Shape Shape `arrow:"shape,dense_union"`
}

func Example_union() {
	rec, err := mapper.Encode([]Drawing{
		{ID: 1, Shape: Shape{Circle: new(2.5)}},
		{ID: 2, Shape: Shape{Label: new("north")}},
		{ID: 3, Shape: Shape{Kind: 7}}, // a null label
	})
	if err != nil {
		panic(err)
	}
	defer rec.Release()
	fmt.Println(rec.Schema().Field(1).Type)

	rows, err := mapper.Decode[Drawing](rec)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		switch s := r.Shape; {
		case s.Circle != nil:
			fmt.Println(r.ID, "circle", *s.Circle)
		case s.Label != nil:
			fmt.Println(r.ID, "label", *s.Label)
		default:
			fmt.Println(r.ID, "null of code", s.Kind)
		}
	}

	_, err = mapper.Encode([]Drawing{{ID: 4, Shape: Shape{Circle: new(1.0), Square: new(1.0)}}})
	fmt.Println(err)
	// Output:
	// dense_union<circle: type=float64=1, square: type=float64=2, label: type=utf8, nullable=7>
	// 1 circle 2.5
	// 2 label north
	// 3 null of code 7
	// arrowmap: field Shape, column "shape", row 0: invalid data: two variants set (Shape.Circle and Shape.Square): a union row holds one
}
