package mapper_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

var customerType = arrow.StructOf(
	arrow.Field{Name: "name", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "age", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String)},
	arrow.Field{Name: "points", Type: arrow.PrimitiveTypes.Int64},
	arrow.Field{Name: "address", Type: arrow.StructOf(arrow.Field{Name: "city", Type: arrow.BinaryTypes.LargeString})},
)

var ordersSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "customer", Type: customerType, Nullable: true},
}, nil)

// ordersBatch is n rows of ordersSchema: the customer's age is null at
// every third row, and with nullCustomer, the whole customer at row 4.
func ordersBatch(t *testing.T, mem memory.Allocator, n int, nullCustomer bool) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, ordersSchema)
	defer b.Release()
	customer := b.Field(1).(*array.StructBuilder)
	name := customer.FieldBuilder(0).(*array.StringBuilder)
	age := customer.FieldBuilder(1).(*array.Int32Builder)
	tags := customer.FieldBuilder(2).(*array.ListBuilder)
	points := customer.FieldBuilder(3).(*array.Int64Builder)
	address := customer.FieldBuilder(4).(*array.StructBuilder)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(100 + i))
		if nullCustomer && i == 4 {
			customer.AppendNull()
			continue
		}
		customer.Append(true)
		name.Append(fmt.Sprintf("customer %d", i))
		if i%3 == 0 {
			age.AppendNull()
		} else {
			age.Append(int32(20 + i))
		}
		tags.Append(true)
		for k := range i % 3 {
			tags.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("tag %d.%d", i, k))
		}
		points.Append(int64(i * i))
		address.Append(true)
		address.FieldBuilder(0).(*array.LargeStringBuilder).Append(fmt.Sprintf("city %d", i%4))
	}
	return b.NewRecordBatch()
}

// orderColumns reads the customer struct column as a struct of columns,
// with a struct of columns inside it and a plain arrow.Array among them.
type orderColumns struct {
	ID       views.PrimitiveColumn[int64] `arrow:"id"`
	Customer struct {
		Points  arrow.Array                          `arrow:"points"` // not in the struct's order
		Name    views.StringColumn                   `arrow:"name"`
		Age     views.PrimitiveColumn[int32]         `arrow:"age,nullable"`
		Tags    views.ListColumn[views.StringColumn] `arrow:"tags"`
		Address struct {
			City views.StringColumn `arrow:"city"`
		} `arrow:"address"`
	} `arrow:"customer"`
}

// orderRow is how Decode reads ordersBatch.
type orderRow struct {
	ID       int64 `arrow:"id"`
	Customer struct {
		Name    string   `arrow:"name"`
		Age     *int32   `arrow:"age"`
		Tags    []string `arrow:"tags"`
		Points  int64    `arrow:"points"`
		Address struct {
			City string `arrow:"city"`
		} `arrow:"address"`
	} `arrow:"customer"`
}

// requireOrderColumns checks that c reads rows, as Decode reads them.
func requireOrderColumns(t *testing.T, c orderColumns, rows []orderRow) {
	t.Helper()
	cu := c.Customer
	require.Equal(t, len(rows), c.ID.Len())
	require.Equal(t, len(rows), cu.Points.Len())
	for i, want := range rows {
		assert.Equal(t, want.ID, c.ID.Value(i))
		assert.Equal(t, want.Customer.Name, cu.Name.Value(i))
		require.Equal(t, want.Customer.Age == nil, cu.Age.IsNull(i), "row %d", i)
		if want.Customer.Age != nil {
			assert.Equal(t, *want.Customer.Age, cu.Age.Value(i))
		}
		tags := []string{}
		for _, tag := range cu.Tags.Value(i).All() {
			tags = append(tags, tag)
		}
		assert.Equal(t, append([]string{}, want.Customer.Tags...), tags)
		assert.Equal(t, want.Customer.Points, cu.Points.(*array.Int64).Value(i))
		assert.Equal(t, want.Customer.Address.City, cu.Address.City.Value(i))
	}
}

func TestColumnsBindStructsOfColumnsToStructColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := ordersBatch(t, mem, 20, false)
	defer whole.Release()

	for _, win := range [][2]int64{{0, 20}, {3, 17}, {19, 20}, {5, 5}} {
		t.Run(fmt.Sprintf("rows %d to %d of the record", win[0], win[1]), func(t *testing.T) {
			rec := whole.NewSlice(win[0], win[1]) // every array at an offset
			defer rec.Release()
			cols, err := mapper.Columns[orderColumns](rec)
			require.NoError(t, err)
			rows, err := mapper.Decode[orderRow](rec)
			require.NoError(t, err)
			requireOrderColumns(t, cols, rows)
		})
	}

	t.Run("pages cut every column of the struct to the page", func(t *testing.T) {
		rr, err := array.NewRecordReader(ordersSchema, []arrow.RecordBatch{whole, whole})
		require.NoError(t, err)
		defer rr.Release()
		r, err := mapper.NewColumnsReader[orderColumns](rr)
		require.NoError(t, err)
		defer r.Release()
		rows, err := mapper.Decode[orderRow](whole)
		require.NoError(t, err)
		rows = append(rows, rows...)
		at := 0
		for page, err := range r.Windows(6) {
			require.NoError(t, err)
			n := page.ID.Len()
			requireOrderColumns(t, page, rows[at:at+n])
			at += n
		}
		assert.Equal(t, len(rows), at)
	})
}

func TestColumnsOfStructsErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := ordersBatch(t, mem, 9, false)
	defer rec.Release()
	withNull := ordersBatch(t, mem, 9, true)
	defer withNull.Release()

	bind := func(rec arrow.RecordBatch, bind func(arrow.RecordBatch) error) func() error {
		return func() error { return bind(rec) }
	}
	for _, tc := range []struct {
		name   string
		bind   func() error
		kind   error
		path   string
		column string
		row    int
	}{{
		name: "a null struct row, where the field is not nullable, is an unexpected null",
		bind: bind(withNull, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[orderColumns](rec)
			return err
		}),
		kind: mapper.ErrNull, path: "Customer", column: "customer", row: 4,
	}, {
		name: "a struct of columns cannot be nullable",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Name views.StringColumn `arrow:"name"`
				} `arrow:"customer,nullable"`
			}](rec)
			return err
		}),
		kind: mapper.ErrUnsupported, path: "Customer", column: "customer", row: -1,
	}, {
		name: "a null in a field of the struct not tagged nullable is an unexpected null at its row",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Age views.PrimitiveColumn[int32] `arrow:"age"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrNull, path: "Customer.Age", column: "customer.age", row: 0,
	}, {
		name: "a struct of columns from a column that is not a struct is a type mismatch",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				ID struct {
					Name views.StringColumn `arrow:"name"`
				} `arrow:"id"`
			}](rec)
			return err
		}),
		kind: mapper.ErrTypeMismatch, path: "ID", column: "id", row: -1,
	}, {
		name: "a field of the struct of another type is a type mismatch, named by both paths",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Address struct {
						City views.PrimitiveColumn[int64] `arrow:"city"`
					} `arrow:"address"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrTypeMismatch, path: "Customer.Address.City", column: "customer.address.city", row: -1,
	}, {
		name: "a field the struct does not have is a missing column",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Email views.StringColumn `arrow:"email"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrMissingColumn, path: "Customer.Email", column: "customer.email", row: -1,
	}, {
		name: "Strict holds down the struct's fields",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Address struct {
						City views.StringColumn `arrow:"city"`
					} `arrow:"address"`
				} `arrow:"customer"`
			}](rec, mapper.Strict())
			return err
		}),
		kind: mapper.ErrTypeMismatch, path: "Customer.Address.City", column: "customer.address.city", row: -1,
	}, {
		name: "a field of the struct that is no column is unsupported",
		bind: bind(rec, func(rec arrow.RecordBatch) error {
			_, err := mapper.Columns[struct {
				Customer struct {
					Name string `arrow:"name"`
				} `arrow:"customer"`
			}](rec)
			return err
		}),
		kind: mapper.ErrUnsupported, path: "Customer.Name", column: "customer.name", row: -1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.bind()
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.ErrorIs(t, err, tc.kind)
			assert.Equal(t, tc.path, me.Path)
			assert.Equal(t, tc.column, me.Column)
			assert.Equal(t, tc.row, me.Row)
		})
	}

	t.Run("AllowMissing leaves a field the struct does not have unbound", func(t *testing.T) {
		cols, err := mapper.Columns[struct {
			Customer struct {
				Name  views.StringColumn `arrow:"name"`
				Email views.StringColumn `arrow:"email"`
			} `arrow:"customer"`
		}](rec, mapper.AllowMissing())
		require.NoError(t, err)
		assert.Equal(t, 9, cols.Customer.Name.Len())
		assert.Zero(t, cols.Customer.Email.Len())
	})
	t.Run("a views.StructColumn reads a nullable struct's nulls", func(t *testing.T) {
		cols, err := mapper.Columns[struct {
			Customer views.StructColumn `arrow:"customer,nullable"`
		}](withNull)
		require.NoError(t, err)
		names, err := views.FieldOf[views.StringColumn](cols.Customer, "name")
		require.NoError(t, err)
		for i, row := range cols.Customer.All() {
			require.Equal(t, i == 4, row.IsNull(), "row %d", i)
			if !row.IsNull() {
				assert.Equal(t, fmt.Sprintf("customer %d", i), names.Value(i))
			}
		}
	})
}
