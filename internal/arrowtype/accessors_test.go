package arrowtype_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

func TestTheAccessorsOfNestedAndEncodedTypesReadWhatArrowGosTypesHold(t *testing.T) {
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String, Ordered: true}
	ree := arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float32)
	ree.ValueNullable = false
	mt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int8)
	mt.KeysSorted = true
	fsl := arrow.FixedSizeListOf(5, arrow.PrimitiveTypes.Int32)
	uuid := extensions.NewUUIDType()
	others := []arrow.DataType{arrow.PrimitiveTypes.Int32, arrow.ListOf(arrow.PrimitiveTypes.Int8), arrow.StructOf()}

	t.Run("a dictionary's index, values and order", func(t *testing.T) {
		index, values, ordered, ok := arrowtype.DictionaryParts(dict)
		require.True(t, ok)
		assert.Equal(t, dict.IndexType, index)
		assert.Equal(t, dict.ValueType, values)
		assert.True(t, ordered)
		encoded, _ := arrowtype.Encoded(dict)
		assert.Equal(t, encoded, values, "Encoded agrees")
	})
	t.Run("a run-end encoding's run ends, values and their nullability", func(t *testing.T) {
		runEnds, values, nullable, ok := arrowtype.RunEndParts(ree)
		require.True(t, ok)
		assert.Equal(t, ree.RunEnds(), runEnds)
		assert.Equal(t, ree.Encoded(), values)
		assert.False(t, nullable)
		_, _, nullable, _ = arrowtype.RunEndParts(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8))
		assert.True(t, nullable, "arrow.RunEndEncodedOf's values are nullable")
	})
	t.Run("a map's entries, key, item and sortedness", func(t *testing.T) {
		m, ok := arrowtype.MapParts(mt)
		require.True(t, ok)
		assert.Equal(t, mt.ElemField(), m.Entries)
		assert.Equal(t, mt.KeyField(), m.Key)
		assert.Equal(t, mt.ItemField(), m.Item)
		assert.True(t, m.KeysSorted)
		assert.True(t, arrowtype.OfType(mt).Map)
	})
	t.Run("a fixed-size list's size", func(t *testing.T) {
		n, ok := arrowtype.ListSize(fsl)
		require.True(t, ok)
		assert.Equal(t, int(fsl.Len()), n)
	})
	t.Run("an extension's name, metadata and storage, and its array", func(t *testing.T) {
		name, md, ok := arrowtype.ExtensionName(uuid)
		require.True(t, ok)
		assert.Equal(t, uuid.ExtensionName(), name)
		assert.Equal(t, uuid.Serialize(), md)
		storage, ok := arrowtype.ExtensionStorage(uuid)
		require.True(t, ok)
		assert.True(t, arrow.TypeEqual(uuid.StorageType(), storage))

		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		b := array.NewFixedSizeBinaryBuilder(mem, storage.(*arrow.FixedSizeBinaryType))
		defer b.Release()
		b.Append(make([]byte, 16))
		s := b.NewArray()
		defer s.Release()
		arr, ok := arrowtype.WithStorage(uuid, s)
		require.True(t, ok)
		defer arr.Release()
		assert.True(t, arrow.TypeEqual(uuid, arr.DataType()))
		assert.Equal(t, 1, arr.Len())
		assert.Same(t, s.Data().Buffers()[1], arr.(array.ExtensionArray).Storage().Data().Buffers()[1], "over storage's memory")
	})
	t.Run("every other type has none of them", func(t *testing.T) {
		for _, dt := range append(others, dict, ree, mt, fsl, uuid) {
			_, _, _, isDict := arrowtype.DictionaryParts(dt)
			assert.Equal(t, dt.ID() == arrow.DICTIONARY, isDict, dt)
			_, _, _, isREE := arrowtype.RunEndParts(dt)
			assert.Equal(t, dt.ID() == arrow.RUN_END_ENCODED, isREE, dt)
			_, isMap := arrowtype.MapParts(dt)
			assert.Equal(t, dt.ID() == arrow.MAP, isMap, dt)
			_, isFSL := arrowtype.ListSize(dt)
			assert.Equal(t, dt.ID() == arrow.FIXED_SIZE_LIST, isFSL, dt)
			_, _, isExt := arrowtype.ExtensionName(dt)
			assert.Equal(t, dt.ID() == arrow.EXTENSION, isExt, dt)
			same, isExt := arrowtype.ExtensionStorage(dt)
			if !isExt {
				assert.Equal(t, dt, same)
			}
		}
	})
}

func TestATimeUnitsDayAndInstantsAreArrowGos(t *testing.T) {
	for _, unit := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		t.Run(unit.String(), func(t *testing.T) {
			day := arrow.Timestamp(arrowtype.PerDay(unit))
			assert.Equal(t, time.Unix(arrowtype.SecondsPerDay, 0).UTC(), day.ToTime(unit), "a day of units is a day")
			for _, x := range []int64{0, 1, -1, 1_700_000_000_123, -86_400_000_001} {
				assert.True(t, arrow.Timestamp(x).ToTime(unit).Equal(arrowtype.InstantOf(unit)(x)), "%d%s", x, unit)
			}
		})
	}
}

func TestTheRowPredicatesSelectTheTypesTheyName(t *testing.T) {
	names := func(accept func(r *arrowtype.Row) bool) []string {
		var out []string
		for _, r := range arrowtype.Rows() {
			if accept(r) {
				out = append(out, r.Name)
			}
		}
		return out
	}
	assert.Equal(t, []string{"date64"}, names((*arrowtype.Row).MillisecondDate))
	assert.ElementsMatch(t, []string{"date32", "date64", "timestamp", "time32", "time64", "duration"}, names((*arrowtype.Row).Counts))
	assert.ElementsMatch(t, []string{"large_utf8", "utf8_view", "large_binary", "binary_view", "fixed_size_binary",
		"large_list", "large_list_view"}, names((*arrowtype.Row).Variant))
	assert.ElementsMatch(t, []string{"utf8_view", "binary_view", "list_view", "large_list_view"}, names((*arrowtype.Row).Viewed))
	assert.ElementsMatch(t, []string{"utf8", "binary", "list"}, names((*arrowtype.Row).PlainLayout))
	for _, r := range arrowtype.Rows() {
		if r.Counts() {
			dt := sample(t, r)
			_, isInt := dt.(arrow.FixedWidthDataType)
			require.True(t, isInt, r.Name)
			assert.Contains(t, []arrowtype.Value{arrowtype.Int32, arrowtype.Int64}, r.Value, "%s counts in an integer", r.Name)
		}
	}
}
