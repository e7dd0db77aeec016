package mapper_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPinsBelowAListElementComeBack: elem(…) carries the pins of the levels
// below a list's element, which have no struct tag of their own, so a
// schema of lists of lists is written back as it was read.
func TestPinsBelowAListElementComeBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		dt   arrow.DataType
		rows string
	}{
		{"a list of large lists of large strings",
			arrow.ListOfNonNullable(arrow.LargeListOfNonNullable(arrow.BinaryTypes.LargeString)),
			`[[["a"], []], null, [[]]]`},
		{"element names at every depth",
			arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), Nullable: true}),
			`[[[1, null], null], [], null]`},
		{"three levels, a dictionary at the bottom",
			arrow.ListOf(arrow.ListOf(arrow.ListOf(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}))),
			`[[[["x", "y"]], [null]], [[]]]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: tc.dt, Nullable: true}}, nil)
			typ, err := mapper.GoTypeOf(schema)
			require.NoError(t, err)
			again, err := mapper.SchemaOfType(typ)
			require.NoError(t, err)
			assert.Equal(t, schema.String(), again.String(), "the Go type %v", typ)
			assert.True(t, arrow.TypeEqual(schema.Field(0).Type, again.Field(0).Type), "%s, want %s", again.Field(0).Type, schema.Field(0).Type)

			rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"c": `+strings.Join(splitTop(tc.rows), `}, {"c": `)+`}]`))
			require.NoError(t, err)
			defer rec.Release()
			rows, err := mapper.DecodeTo(typ, rec)
			require.NoError(t, err)
			back, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
			require.NoError(t, err)
			defer back.Release()
			assert.True(t, array.RecordEqual(rec, back), "got\n%v\nwant\n%v", back, rec)
		})
	}
}

// splitTop splits a JSON array's text into its top-level elements.
func splitTop(js string) []string {
	js = strings.TrimSpace(js)
	js = js[1 : len(js)-1]
	var out []string
	depth, start := 0, 0
	for i, c := range js {
		switch c {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(js[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(js[start:]))
}
