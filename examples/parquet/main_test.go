package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunWritesReadsInPagesAndProjectsTwoColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(&out, mem, t.TempDir()))
	require.Equal(t, []string{
		"order 0: customer-0 []",
		"order 1: customer-1 [{SKU:sku-1 Qty:1}]",
		"order 2: customer-2 [{SKU:sku-2 Qty:1} {SKU:sku-3 Qty:2}]",
		"read 2500 orders, 250 with a note",
		"columns read: [id items]",
		"first basket: {ID:2000 Items:[]}",
		"read 500 baskets, 750 items",
	}, strings.Split(strings.TrimSpace(out.String()), "\n"))
}
