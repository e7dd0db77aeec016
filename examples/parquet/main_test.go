package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunReadsEveryOrderFromTwoColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, mem, t.TempDir()))
	require.Equal(t, []string{
		"orders.parquet: 3 row groups, columns read: [id items]",
		"order 0: []",
		"order 1: [{SKU:sku-1 Qty:1}]",
		"order 2: [{SKU:sku-2 Qty:1} {SKU:sku-3 Qty:2}]",
		"order 2499: [{SKU:sku-49 Qty:1} {SKU:sku-0 Qty:2} {SKU:sku-1 Qty:3}]",
		"read 2500 orders, 3750 items",
	}, strings.Split(strings.TrimSpace(out.String()), "\n"))
}
