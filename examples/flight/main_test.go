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

func TestRunReadsBothEndpoints(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, mem))
	require.Equal(t, []string{
		"serving 2 endpoints of 5000 trades",
		"read 10000 trades in 10 pages from 2 endpoints",
		"total price 497500.00, highest id 9999",
	}, strings.Split(strings.TrimSpace(out.String()), "\n"))
}
