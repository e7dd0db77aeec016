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

type entry struct {
	Key   string `arrow:"key"`
	Value *int64 `arrow:"value"`
}

type orderedMap struct {
	M []entry `arrow:"m"`
}

func i64(v int64) *int64 { return &v }

// TestAMapDecodesIntoItsEntriesInOrder: a slice of key/value structs reads
// a map's entries as they are stored, in order and with every duplicate
// key, so nothing a Go map would drop is lost.
func TestAMapDecodesIntoItsEntriesInOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	schema := arrow.NewSchema([]arrow.Field{{Name: "m", Type: dt, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[
		{"m": [{"key": "b", "value": 3}, {"key": "a", "value": null}, {"key": "b", "value": 5}]},
		{"m": null},
		{"m": []},
		{"m": [{"key": "z", "value": 1}]}]`))
	require.NoError(t, err)
	defer rec.Release()
	want := []orderedMap{
		{M: []entry{{"b", i64(3)}, {"a", nil}, {"b", i64(5)}}},
		{M: nil},
		{M: []entry{}},
		{M: []entry{{"z", i64(1)}}},
	}
	got, err := mapper.Decode[orderedMap](rec)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	for i := 0; i <= len(want); i++ {
		for j := i; j <= len(want); j++ {
			window := rec.NewSlice(int64(i), int64(j))
			got, err := mapper.Decode[orderedMap](window)
			window.Release()
			require.NoError(t, err, "rows [%d, %d)", i, j)
			require.Len(t, got, j-i)
			if j > i {
				assert.Equal(t, want[i:j], got, "rows [%d, %d)", i, j)
			}
		}
	}
	// The same column into a Go map is refused for the duplicate key: the
	// entries are the shape that holds it.
	_, err = mapper.Decode[struct {
		M map[string]*int64 `arrow:"m"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrDuplicateKey)
}

func TestMapEntriesNeedAKeyAndAValueByName(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	schema := arrow.NewSchema([]arrow.Field{{Name: "m", Type: dt, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"m": [{"key": "b", "value": 3}]}]`))
	require.NoError(t, err)
	defer rec.Release()
	type wrongNames struct {
		K string `arrow:"k"`
		V int64  `arrow:"value"`
	}
	_, err = mapper.Decode[struct {
		M []wrongNames `arrow:"m"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrMissingColumn)
	assert.Contains(t, err.Error(), `"m.entries.k"`)
	type nonNullValue struct {
		Key   string
		Value int64 // no null in the data: decodes
	}
	got, err := mapper.Decode[struct {
		M []nonNullValue `arrow:"m"`
	}](rec)
	require.NoError(t, err)
	assert.Equal(t, []nonNullValue{{"b", 3}}, got[0].M)
}
