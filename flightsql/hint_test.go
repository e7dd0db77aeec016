package flightsql

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hinted is a record reader that claims rows rows.
type hinted struct {
	array.RecordReader
	rows int64
}

func (h hinted) RowsHint() int64 { return h.rows }

func TestThePreparedResultHandsOnTheRowsHint(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	plain, err := array.NewRecordReader(schema, nil)
	require.NoError(t, err)
	defer plain.Release()
	cases := []struct {
		name string
		rr   array.RecordReader
		want int64
	}{
		{"the hint of records that have one", hinted{RecordReader: plain, rows: 12345}, 12345},
		{"an unknown hint as it is", hinted{RecordReader: plain, rows: -1}, -1},
		{"no hint (-1) for records that have none", plain, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rr array.RecordReader = &preparedRecords{RecordReader: tc.rr}
			h, ok := rr.(mapper.RowsHinter)
			require.True(t, ok, "a prepared result is a mapper.RowsHinter")
			assert.Equal(t, tc.want, h.RowsHint())
		})
	}
}
