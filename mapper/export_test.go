package mapper

import (
	"cmp"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewArrowGoBuilder is NewBuilder, but the Builder writes through
// arrow-go's builders at every level instead of this package's own: the
// reference the builders of encode_columns.go are checked against, through
// the same writers.
func NewArrowGoBuilder[T any](mem memory.Allocator) (*Builder[T], error) {
	o, err := optionsFor[WriteOption]("NewArrowGoBuilder", encodeOptions, nil)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(reflect.TypeFor[T](), o)
	if err != nil {
		return nil, err
	}
	return &Builder[T]{newRecordWriterWith(p, mem, newArrowGoColumn)}, nil
}

// newArrowGoColumn is arrow-go's builder of dt behind columnBuilder, with
// arrow-go's builders at every level, the values of dictionaries included.
func newArrowGoColumn(mem memory.Allocator, dt arrow.DataType) columnBuilder {
	return adaptArrowGo(mem, array.NewBuilder(mem, dt), newArrowGoColumn, true)
}

// SetMaxOffset32 lowers the largest offset of 32-bit layouts, so that tests
// reach it without gigabytes; the returned func restores it.
func SetMaxOffset32(n int) (restore func()) {
	old := maxOffset32
	maxOffset32 = n
	return func() { maxOffset32 = old }
}

// TileRows is an option of the decoders, for tests only: the in-place
// columns decode n rows at a time.
func TileRows(n int) ReadOption { return tileRows{n: n} }

type tileRows struct {
	readOnly
	n int
}

func (tileRows) String() string     { return "TileRows" }
func (tileRows) kind() optionSet    { return 0 }
func (o tileRows) apply(x *options) { x.tileRows = o.n }

// TileRowsOf is how many rows the in-place columns of m decode at a time.
func TileRowsOf[T any](m *Mapper[T]) int { return cmp.Or(m.run.tileRows, defaultTileRows) }
