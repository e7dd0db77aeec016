package ipcschema_test

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testSchema() *arrow.Schema {
	meta := arrow.NewMetadata([]string{"k"}, []string{"v"})
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "point", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64})},
		{Name: "city", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
	}, &meta)
}

func TestDecodeReadsTheSchemaFlightSerializes(t *testing.T) {
	b := flight.SerializeSchema(testSchema(), memory.DefaultAllocator)
	got, err := ipcschema.Decode(b, nil)
	require.NoError(t, err)
	want, err := flight.DeserializeSchema(b, memory.DefaultAllocator)
	require.NoError(t, err)
	assert.True(t, want.Equal(got), "%s\n%s", got, want)
	assert.True(t, testSchema().Equal(got))
}

func TestASchemaClaimingBillionsOfFieldsIsMalformedWithoutAllocatingThem(t *testing.T) {
	b := arrowtest.ClaimFields(flight.SerializeSchema(testSchema(), memory.DefaultAllocator), 4, 1<<31-1)
	require.NotNil(t, b)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ipcschema.Decode(b, nil)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ipcschema.ErrMalformed)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
}

func TestEveryPrefixAndEveryFlippedByteOfASchemaIsASchemaOrAnError(t *testing.T) {
	b := flight.SerializeSchema(testSchema(), memory.DefaultAllocator)
	// The schema message: the continuation, its length and its metadata;
	// after it, the end-of-stream marker.
	message := 8 + int(binary.LittleEndian.Uint32(b[4:]))
	require.Less(t, message, len(b))
	for n := range message {
		_, err := ipcschema.Decode(b[:n], nil)
		require.ErrorIs(t, err, ipcschema.ErrMalformed, "the first %d bytes", n)
	}
	_, err := ipcschema.Decode(b[:message], nil)
	require.NoError(t, err, "the message without the end-of-stream marker")
	for at := range b {
		for _, v := range []byte{0, 0xFF, b[at] ^ 0x01, b[at] ^ 0x80} {
			d := bytes.Clone(b)
			d[at] = v
			if _, err := ipcschema.Decode(d, nil); err != nil {
				require.ErrorIs(t, err, ipcschema.ErrMalformed, "byte %d set to %#x", at, v)
			}
		}
	}
}

func TestAStreamWhoseFirstMessageIsNoSchemaIsMalformed(t *testing.T) {
	_, err := ipcschema.Decode([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}, nil)
	require.ErrorIs(t, err, ipcschema.ErrMalformed)
}
