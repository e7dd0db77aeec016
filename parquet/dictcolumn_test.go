package parquet_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// dictName is a dict-tagged text column beside a plain one.
type dictName struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name,dict"`
}

func dictNames(n, distinct, size int) []dictName {
	rows := make([]dictName, n)
	for i := range rows {
		v := fmt.Sprintf("name-%d-", i%distinct)
		rows[i] = dictName{ID: int64(i), Name: v + strings.Repeat("x", max(0, size-len(v)))}
	}
	return rows
}

// skewedNames is n rows whose dictionary holds a short value and a long
// one, the long one in all rows but the first: more bytes than the mean
// dictionary value times the rows, which is what arrow-go's Take reserves
// first when pqarrow makes a dict column dense.
func skewedNames(n, long int) []dictName {
	rows := make([]dictName, n)
	for i := range rows {
		rows[i] = dictName{ID: int64(i), Name: strings.Repeat("l", long)}
	}
	rows[0].Name = "s"
	return rows
}

func TestADictColumnWrittenWithoutDictionariesReadsBack(t *testing.T) {
	off := false
	for _, c := range []struct {
		name  string
		rows  []dictName
		alloc memory.Allocator
	}{
		{"1,000 short values, the Writer's own pool", dictNames(1000, 10, 8), nil},
		{"1,000 rows of a long value and one short, the Writer's own pool", skewedNames(1000, 20), nil},
		{"20 rows of a 1,000-byte value and one short, the Writer's own pool", skewedNames(20, 1000), nil},
		{"1,000 rows of a long value and one short, Go's allocator", skewedNames(1000, 20), memory.NewGoAllocator()},
		{"10,000 distinct short values, the Writer's own pool", dictNames(10_000, 10_000, 20), nil},
		{"1,000 values of 1,000 bytes, the Writer's own pool", dictNames(1000, 1000, 1000), nil},
		{"20 values of 1,000 bytes, the Writer's own pool", dictNames(20, 3, 1000), nil},
		{"1,000 short values, Go's allocator", dictNames(1000, 10, 8), memory.NewGoAllocator()},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dict.parquet")
			require.NoError(t, amparquet.WriteFile(path, c.rows, amparquet.WriteConfig{Dictionary: &off, Alloc: c.alloc}))
			got, err := amparquet.ReadFile[dictName](path)
			require.NoError(t, err)
			require.Equal(t, c.rows, got)
		})
	}
}
