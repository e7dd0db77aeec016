package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type (
	nullScore struct {
		Score int64 `arrow:"v"`
	}
	nullScorePointer struct {
		Score *int64 `arrow:"v"`
	}
	nullScoreNullable struct {
		Score int64 `arrow:"v,nullable"`
	}
	nullTags struct {
		Tags []string `arrow:"v"`
	}
	nullTagsNullable struct {
		Tags []string `arrow:"v" arrow-elem:"nullable"`
	}
	nullGrid struct {
		Grid [][]int32 `arrow:"v"`
	}
	nullGridNullable struct {
		Grid [][]int32 `arrow:"v" arrow-elem:"elem(nullable)"`
	}
	nullAttrs struct {
		Attrs map[string]int32 `arrow:"v"`
	}
	nullAttrsNullable struct {
		Attrs map[string]int32 `arrow:"v" arrow-value:"nullable"`
	}
	nullCelsius float64
	nullTemp    struct {
		T nullCelsius `arrow:"v"`
	}
	nullScoreColumns struct {
		Score views.PrimitiveColumn[int64] `arrow:"v"`
	}
)

// TestANullTheFieldCannotHoldSaysHowToTakeIt checks the message of an
// ErrNull: the Go type that cannot hold the null and the two remedies,
// each of which, applied, decodes the record.
func TestANullTheFieldCannotHoldSaysHowToTakeIt(t *testing.T) {
	celsius := mapper.As[nullCelsius, float64](func(f float64) (nullCelsius, error) { return nullCelsius(f), nil }, nil)
	cases := []struct {
		name      string
		dt        arrow.DataType
		js        string
		decode    func(rec arrow.RecordBatch) error
		path, col string
		row       int
		says      string
		remedies  []func(rec arrow.RecordBatch) error
	}{
		{"a field", arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, null]`,
			decoding[nullScore](), "Score", "v", 4,
			"int64 cannot hold a null: make it a *int64, or tag it nullable to read a null as the zero value",
			[]func(arrow.RecordBatch) error{decoding[nullScorePointer](), decoding[nullScoreNullable]()}},
		{"a list element", arrow.ListOf(arrow.BinaryTypes.String), `[["a"], ["b", null]]`,
			decoding[nullTags](), "Tags[]", "v.item", 1,
			`string cannot hold a null: make it a *string, or tag it arrow-elem:"nullable" to read a null as the zero value`,
			[]func(arrow.RecordBatch) error{decoding[nullTagsNullable]()}},
		{"an element of an element", arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), `[[[1]], [[2, null]]]`,
			decoding[nullGrid](), "Grid[][]", "v.item.item", 1,
			`int32 cannot hold a null: make it a *int32, or tag it arrow-elem:"elem(nullable)" to read a null as the zero value`,
			[]func(arrow.RecordBatch) error{decoding[nullGridNullable]()}},
		{"a map value", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": null}]]`,
			decoding[nullAttrs](), "Attrs[value]", "v.entries.value", 0,
			`int32 cannot hold a null: make it a *int32, or tag it arrow-value:"nullable" to read a null as the zero value`,
			[]func(arrow.RecordBatch) error{decoding[nullAttrsNullable]()}},
		{"a field an As conversion reads names the field's type, not the conversion's", arrow.PrimitiveTypes.Float64, `[1.5, null]`,
			decoding[nullTemp](celsius), "T", "v", 1,
			"mapper_test.nullCelsius cannot hold a null: make it a *mapper_test.nullCelsius, or tag it nullable",
			nil},
		{"a typed column", arrow.PrimitiveTypes.Int64, `[1, null]`,
			func(rec arrow.RecordBatch) error { _, err := mapper.Columns[nullScoreColumns](rec); return err },
			"Score", "v", 1,
			`a typed column reads no null unless its field is tagged nullable`,
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, tc.dt, tc.js)})
			defer rec.Release()
			require.True(t, rec.Schema().Field(0).Nullable, "the column is nullable: the field is what is not")
			err := tc.decode(rec)
			fxRequireError(t, err, mapper.ErrNull, tc.path, tc.col, tc.row)
			assert.Contains(t, err.Error(), tc.says)
			assert.NotContains(t, err.Error(), "column that is not nullable")
			for _, remedy := range tc.remedies {
				assert.NoError(t, remedy(rec), "the remedy the message names decodes the record")
			}
		})
	}
}

// decodeErr is the error of mapper.Decode[T] on a record.
func decoding[T any](opts ...mapper.Option) func(rec arrow.RecordBatch) error {
	return func(rec arrow.RecordBatch) error {
		_, err := mapper.Decode[T](rec, opts...)
		return err
	}
}
