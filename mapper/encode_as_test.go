package mapper_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

type encAmount struct{ Cents int64 }

type encInvoice struct {
	Total encAmount
	Parts []encAmount
}

func TestEncodeAsConversions(t *testing.T) {
	conv := mapper.As(
		func(s string) (encAmount, error) {
			var a encAmount
			_, err := fmt.Sscanf(s, "%d¢", &a.Cents)
			return a, err
		},
		func(a encAmount) (string, error) { return fmt.Sprintf("%d¢", a.Cents), nil },
	)
	schema, err := mapper.SchemaOf[encInvoice](conv)
	require.NoError(t, err)
	assert.True(t, arrow.TypeEqual(arrow.BinaryTypes.String, schema.Field(0).Type))
	assert.True(t, arrow.TypeEqual(arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.BinaryTypes.String}), schema.Field(1).Type))
	rows := []encInvoice{{Total: encAmount{150}, Parts: []encAmount{{100}, {50}}}, {Parts: nil}}
	rec, err := mapper.Encode(rows, conv)
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, `["150¢" "0¢"]`, rec.Column(0).String())
	m, err := mapper.New[encInvoice](rec.Schema(), conv)
	require.NoError(t, err)
	got, err := m.Decode(rec)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}
