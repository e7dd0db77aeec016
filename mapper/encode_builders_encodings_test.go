package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// A pointer pinned notnull is not nullable: its schema says so, and Encode
// refuses a nil with ErrNull rather than write a null the schema forbids.
func TestNotNullPointerRefusesNil(t *testing.T) {
	type row struct {
		P *int32   `arrow:"p,notnull"`
		E []*uint8 `arrow:"e" arrow-elem:"notnull"`
	}
	schema, err := mapper.SchemaOf[row]()
	require.NoError(t, err)
	assert.False(t, schema.Field(0).Nullable)
	assert.Equal(t, arrow.ListOfNonNullable(arrow.PrimitiveTypes.Uint8).String(), schema.Field(1).Type.String())
	one := int32(1)
	u := uint8(2)
	rec, err := mapper.Encode([]row{{P: &one, E: []*uint8{&u}}})
	require.NoError(t, err)
	rec.Release()
	_, err = mapper.Encode([]row{{P: nil}})
	require.ErrorIs(t, err, mapper.ErrNull)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "P", e.Path)
	_, err = mapper.Encode([]row{{P: &one, E: []*uint8{nil}}})
	require.ErrorIs(t, err, mapper.ErrNull)
}

type encRuns struct {
	S string `arrow:"s,ree"`
	D string `arrow:"d,dict"`
}

func TestEncodeRunsAndDictionaries(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := []encRuns{{"a", "x"}, {"a", "y"}, {"b", "x"}, {"b", "x"}, {"b", "y"}, {"a", "x"}}
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	ree := rec.Column(0).(*array.RunEndEncoded)
	assert.Equal(t, []int32{2, 5, 6}, ree.RunEndsArr().(*array.Int32).Int32Values())
	assert.Equal(t, `["a" "b" "a"]`, ree.Values().String())
	dict := rec.Column(1).(*array.Dictionary)
	assert.Equal(t, `["x" "y"]`, dict.Dictionary().String())
	got, err := mapper.Decode[encRuns](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}
