package mapper_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// TestUnionsOfArrowCPlusPlusRoundTrip reads Arrow C++'s integration file
// of unions (the project's testdata/arrow-integration, copied from apache/arrow-testing):
// two sparse and two dense union columns, with nulls, non-nullable
// children, a null child and codes that are not the children's indexes.
// Its columns have names twice, so each pair with distinct names goes
// through GoTypeOf's type on its own: decoded, encoded again, and equal to
// the original, schema and values.
func TestUnionsOfArrowCPlusPlusRoundTrip(t *testing.T) {
	f, err := os.Open("../testdata/arrow-integration/1.0.0-littleendian/generated_union.arrow_file")
	require.NoError(t, err)
	defer f.Close()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Close()
	rows := 0
	for b := range r.NumRecords() {
		whole, err := r.RecordBatch(b)
		require.NoError(t, err)
		for _, cols := range [][]int{{0, 1}, {2, 3}} {
			fields := []arrow.Field{whole.Schema().Field(cols[0]), whole.Schema().Field(cols[1])}
			rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), []arrow.Array{whole.Column(cols[0]), whole.Column(cols[1])}, whole.NumRows())
			typ, err := mapper.GoTypeOf(rec.Schema())
			require.NoError(t, err)
			schema, err := mapper.SchemaOfType(typ)
			require.NoError(t, err)
			require.True(t, schema.Equal(rec.Schema()), "SchemaOf(GoTypeOf) %s\nwant %s", schema, rec.Schema())

			decoded, err := mapper.DecodeTo(typ, rec)
			require.NoError(t, err)
			requireVariantsMatchArrowGo(t, rec, decoded)
			again, err := mapper.EncodeTo(decoded, mapper.Allocator(mem))
			require.NoError(t, err)
			require.True(t, again.Schema().Equal(rec.Schema()))
			require.True(t, array.RecordEqual(rec, again), "got %v\nwant %v", again, rec)
			rows += int(rec.NumRows())
			again.Release()
			rec.Release()
		}
	}
	assert.Equal(t, 22, rows, "two pairs of the file's 11 rows")
}

// requireVariantsMatchArrowGo checks each decoded row of a union column:
// its type code, and its one non-nil variant against arrow-go's value.
func requireVariantsMatchArrowGo(t *testing.T, rec arrow.RecordBatch, rows reflect.Value) {
	t.Helper()
	for c := range int(rec.NumCols()) {
		u := rec.Column(c).(array.Union)
		for i := range rows.Len() {
			v := rows.Index(i).Field(c)
			code := v.Field(v.NumField() - 1)
			require.Equal(t, int64(u.TypeCode(i)), code.Int(), "column %d row %d", c, i)
			child, at := u.Field(u.ChildID(i)), i
			if d, ok := u.(*array.DenseUnion); ok {
				at = int(d.ValueOffset(i))
			}
			for k := range v.NumField() - 1 {
				variant := v.Field(k)
				// arrow-go's null array says IsNull false: it has no bitmap.
				if k != u.ChildID(i) || child.IsNull(at) || child.DataType().ID() == arrow.NULL {
					require.True(t, variant.IsNil(), "column %d row %d variant %d", c, i, k)
					continue
				}
				require.False(t, variant.IsNil(), "column %d row %d variant %d", c, i, k)
				assert.EqualValues(t, child.GetOneForMarshal(at), variant.Elem().Interface(), "column %d row %d", c, i)
			}
		}
	}
}
