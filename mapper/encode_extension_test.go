package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// extRecord is a one-column record of arr, named c; it takes arr.
func extRecord(t *testing.T, arr arrow.Array, nullable bool) arrow.RecordBatch {
	t.Helper()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: arr.DataType(), Nullable: nullable}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

// bool8Array is an arrow.bool8 array of storage values, null where valid
// is false.
func bool8Array(mem memory.Allocator, values []int8, valid []bool) arrow.Array {
	b := array.NewInt8Builder(mem)
	defer b.Release()
	b.AppendValues(values, valid)
	storage := b.NewArray()
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(extensions.NewBool8Type(), storage)
}

// jsonArray is an arrow.json array over storage, a string array.
func jsonArray(t *testing.T, storage arrow.Array) arrow.Array {
	t.Helper()
	defer storage.Release()
	dt, err := extensions.NewJSONType(storage.DataType())
	require.NoError(t, err)
	return array.NewExtensionArrayWithStorage(dt, storage)
}

func decodeErr[T any](rec arrow.RecordBatch, opts ...mapper.ReadOption) error {
	_, err := mapper.Decode[T](rec, opts...)
	return err
}

// vendorInt is a 128-bit integer of a vendor's, as DuckDB exports its
// HUGEINT: arrow.opaque over fixed_size_binary(16).
type vendorInt [16]byte

func (vendorInt) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "hugeint", "DuckDB"), nil
}

// vendorUint is another type of the same vendor over the same storage.
type vendorUint [16]byte

func (*vendorUint) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "uhugeint", "DuckDB"), nil
}

type vendorRow struct {
	Big   vendorInt              `arrow:"big"`
	Bigs  []vendorInt            `arrow:"bigs"`
	Maybe *vendorUint            `arrow:"maybe"`
	Plain [16]byte               `arrow:"plain"`
	ByTag vendorInt              `arrow:"by_tag,ext=arrow.uuid"`
	Inner struct{ U vendorUint } `arrow:"inner"`
}

func TestATypeThatDeclaresItsExtensionEncodesAsItWhereverItIs(t *testing.T) {
	schema, err := mapper.SchemaOf[vendorRow]()
	require.NoError(t, err)
	hugeint := extensions.NewOpaqueType(&arrow.FixedSizeBinaryType{ByteWidth: 16}, "hugeint", "DuckDB")
	uhugeint := extensions.NewOpaqueType(&arrow.FixedSizeBinaryType{ByteWidth: 16}, "uhugeint", "DuckDB")
	assert.True(t, arrow.TypeEqual(hugeint, schema.Field(0).Type), "%s", schema.Field(0).Type)
	assert.True(t, arrow.TypeEqual(hugeint, schema.Field(1).Type.(*arrow.ListType).Elem()), "%s", schema.Field(1).Type)
	assert.True(t, arrow.TypeEqual(uhugeint, schema.Field(2).Type), "a pointer method declares it too: %s", schema.Field(2).Type)
	assert.True(t, arrow.TypeEqual(&arrow.FixedSizeBinaryType{ByteWidth: 16}, schema.Field(3).Type), "a [16]byte declares none: %s", schema.Field(3).Type)
	assert.Equal(t, "arrow.uuid", schema.Field(4).Type.(arrow.ExtensionType).ExtensionName(), "the tag's ext= wins")
	assert.True(t, arrow.TypeEqual(arrow.StructOf(arrow.Field{Name: "U", Type: uhugeint}), schema.Field(5).Type), "%s", schema.Field(5).Type)

	rows := []vendorRow{{Big: vendorInt{1, 2}, Bigs: []vendorInt{{3}, {4}}, Maybe: &vendorUint{0xff}, Plain: [16]byte{5}, ByTag: vendorInt{6}}, {}}
	rows[1].Inner.U = vendorUint{7}
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	assert.True(t, arrow.TypeEqual(hugeint, rec.Column(0).DataType()))
	back, err := mapper.Decode[vendorRow](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, back)
}
