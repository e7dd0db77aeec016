package mapper_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// Strings are handed to arrow-go in chunks: nulls and empty values on both
// sides of every chunk boundary come back as they went in.
func TestEncodeStringsAcrossChunks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	type row struct {
		S    string   `arrow:"s"`
		P    *string  `arrow:"p"`
		B    []byte   `arrow:"b"`
		List []string `arrow:"list"`
	}
	rows := make([]row, 1000)
	for i := range rows {
		s := fmt.Sprintf("value-%d", i)
		rows[i].S = s[:i%len(s)]
		if i%3 != 0 && (i < 250 || i > 262) {
			rows[i].P = &s
		}
		if i%5 != 0 {
			rows[i].B = []byte(s)[:i%4]
		}
		if i%7 != 0 {
			rows[i].List = []string{s, "", s[:1]}[:i%4]
		}
	}
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	got, err := mapper.Decode[row](rec)
	require.NoError(t, err)
	require.Equal(t, rows, got)
}
