package conformance

import (
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/conformance/internal/golden"
	"github.com/arrowmap/arrowmap/mapper"
)

// decodeBatch decodes batch b of a data set of 1.0.0-littleendian with T,
// and reads its golden JSON.
func decodeBatch[T any](t *testing.T, stem string, b int) ([]T, *golden.File) {
	t.Helper()
	base := root + "/1.0.0-littleendian/" + stem
	gold, err := golden.ReadFile(base + ".json.gz")
	require.NoError(t, err)
	fh, err := os.Open(base + ".arrow_file")
	require.NoError(t, err)
	defer fh.Close()
	r, err := ipc.NewFileReader(fh, ipc.WithAllocator(memory.DefaultAllocator))
	require.NoError(t, err)
	defer r.Close()
	rec, err := r.RecordBatchAt(b)
	require.NoError(t, err)
	defer rec.Release()
	rows, err := mapper.Decode[T](rec)
	require.NoError(t, err)
	require.Empty(t, gold.Check(b, rows), "the rows as decoded agree with the golden JSON")
	return rows, gold
}

func TestTheGoldenCheckerReportsACorruptedValue(t *testing.T) {
	type nested = Nested_1_0_0_littleendian
	for _, tc := range []struct {
		name    string
		corrupt func(rows []nested) (row int) // -1: no row of the batch fits
		column  string
	}{
		{"a list element changed is reported at its index", func(rows []nested) int {
			for i, r := range rows {
				if len(r.ListNullable) > 0 && r.ListNullable[0] != nil {
					*r.ListNullable[0]++
					return i
				}
			}
			return -1
		}, "list_nullable[0]"},
		{"a list one element short is reported", func(rows []nested) int {
			for i, r := range rows {
				if len(r.ListNullable) > 0 {
					rows[i].ListNullable = r.ListNullable[:len(r.ListNullable)-1]
					return i
				}
			}
			return -1
		}, "list_nullable"},
		{"a null list where the golden one has a value is reported", func(rows []nested) int {
			for i, r := range rows {
				if r.ListNullable != nil {
					rows[i].ListNullable = nil
					return i
				}
			}
			return -1
		}, "list_nullable"},
		{"a value where the golden one is null is reported", func(rows []nested) int {
			for i, r := range rows {
				if r.StructNullable == nil {
					rows[i].StructNullable = &Nested_1_0_0_littleendian_StructNullable{}
					return i
				}
			}
			return -1
		}, "struct_nullable"},
		{"a struct field changed is reported at its path", func(rows []nested) int {
			for i, r := range rows {
				if r.StructNullable != nil && r.StructNullable.F2 != nil {
					s := *r.StructNullable.F2 + "x"
					r.StructNullable.F2 = &s
					return i
				}
			}
			return -1
		}, "struct_nullable.f2"},
		{"a fixed-size list element changed is reported", func(rows []nested) int {
			for i, r := range rows {
				if r.FixedsizelistNullable != nil && r.FixedsizelistNullable[3] != nil {
					*r.FixedsizelistNullable[3] = -*r.FixedsizelistNullable[3] - 1
					return i
				}
			}
			return -1
		}, "fixedsizelist_nullable[3]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, gold := decodeBatch[nested](t, "generated_nested", 1)
			row := tc.corrupt(rows)
			require.GreaterOrEqual(t, row, 0, "batch 1 has a row to corrupt")
			got := gold.Check(1, rows)
			require.Len(t, got, 1, "one value corrupted, one mismatch: %v", got)
			assert.Equal(t, 1, got[0].Batch)
			assert.Equal(t, row, got[0].Row)
			assert.Equal(t, tc.column, got[0].Column)
			assert.True(t, strings.HasPrefix(got[0].String(), "batch 1, column "+tc.column), got[0].String())
		})
	}
}

func TestTheGoldenCheckerReportsCorruptedPrimitives(t *testing.T) {
	type primitive = Primitive_1_0_0_littleendian
	for _, tc := range []struct {
		name    string
		corrupt func(r *primitive)
		column  string
	}{
		{"a bool flipped", func(r *primitive) { r.BoolNonnullable = !r.BoolNonnullable }, "bool_nonnullable"},
		{"a uint64 off by one", func(r *primitive) { r.Uint64Nonnullable++ }, "uint64_nonnullable"},
		{"a float32 nudged", func(r *primitive) { r.Float32Nonnullable = r.Float32Nonnullable*2 + 1 }, "float32_nonnullable"},
		{"a byte of a binary changed", func(r *primitive) { r.BinaryNonnullable = append([]byte{1}, r.BinaryNonnullable...) }, "binary_nonnullable"},
		{"a fixed-size binary changed", func(r *primitive) { r.Fixedsizebinary19Nonnullable[0] ^= 1 }, "fixedsizebinary_19_nonnullable"},
		{"a string changed", func(r *primitive) { r.UTF8Nonnullable += "!" }, "utf8_nonnullable"},
	} {
		t.Run(tc.name+" is reported", func(t *testing.T) {
			rows, gold := decodeBatch[primitive](t, "generated_primitive", 0)
			tc.corrupt(&rows[4])
			got := gold.Check(0, rows)
			require.Len(t, got, 1, "one value corrupted, one mismatch: %v", got)
			assert.Equal(t, 4, got[0].Row)
			assert.Equal(t, tc.column, got[0].Column)
		})
	}
}

func TestTheGoldenCheckerReportsWrongShapes(t *testing.T) {
	rows, gold := decodeBatch[Primitive_1_0_0_littleendian](t, "generated_primitive", 0)
	for _, tc := range []struct {
		name string
		rows any
		msg  string
	}{
		{"a row too few", rows[1:], "rows from row 0"},
		{"rows that are no slice of structs", []int{1}, "want a slice of structs"},
		{"a struct of other columns", make([]struct{ A int }, 17), "column fields"},
	} {
		t.Run(tc.name+" is reported", func(t *testing.T) {
			got := gold.Check(0, tc.rows)
			require.Len(t, got, 1)
			assert.Equal(t, -1, got[0].Row)
			assert.Contains(t, got[0].Msg, tc.msg)
		})
	}
}
