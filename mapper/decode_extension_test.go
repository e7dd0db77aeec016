package mapper_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestATypeThatDeclaresItsExtensionRefusesAnotherOverTheSameStorage(t *testing.T) {
	// A UUID is 16 bytes too; a HUGEINT read from it would be a number made
	// of random bytes.
	type uuidRow struct {
		ID [16]byte `arrow:"id,ext=arrow.uuid"`
	}
	rec, err := mapper.Encode([]uuidRow{{ID: [16]byte{1}}})
	require.NoError(t, err)
	defer rec.Release()
	type asBig struct {
		ID vendorInt `arrow:"id"`
	}
	_, err = mapper.Decode[asBig](rec)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
	assert.Equal(t, "id", me.Column)
	assert.Contains(t, err.Error(), "hugeint")

	// Another type of the same vendor and storage is refused as well.
	big, err := mapper.Encode([]struct{ ID vendorInt }{{}})
	require.NoError(t, err)
	defer big.Release()
	_, err = mapper.Decode[struct{ ID vendorUint }](big)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)

	// Its storage alone, from a source that does not know the extension,
	// is read.
	plain, err := mapper.Encode([]struct{ ID [16]byte }{{ID: [16]byte{9}}})
	require.NoError(t, err)
	defer plain.Release()
	got, err := mapper.Decode[struct{ ID vendorInt }](plain)
	require.NoError(t, err)
	assert.Equal(t, vendorInt{9}, got[0].ID)
}
