package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunPrintsTheSummaries(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, mem))
	require.Equal(t, []string{
		"the server has no bulk ingest; inserting through a prepared statement",
		"wrote 8 orders",
		"orders over 9.00, by region:",
		"  east   2 orders,  109.99",
		"  north  2 orders,   44.25",
		"  south  1 orders,   40.00",
	}, strings.Split(strings.TrimSpace(out.String()), "\n"))
}
