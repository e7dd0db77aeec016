package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunPrintsTenFullPages(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(&out, mem))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 11)
	require.True(t, strings.HasPrefix(lines[0], "wrote 10000 rows in 15 batches"), lines[0])
	for i, line := range lines[1:] {
		require.Equal(t, fmt.Sprintf("page %2d: 1000 rows, first id %d", i, i*1000), line)
	}
}
