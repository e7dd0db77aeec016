package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunReadsBackEveryTradeInFullPages(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(&out, mem))
	require.Equal(t, []string{
		"wrote 10000 trades",
		"page of 2500: first 0 AAPL 100.00 at 2024-03-01T09:30:00-05:00",
		"page of 2500: first 2500 AAPL 100.00 at 2024-03-01T10:11:40-05:00",
		"page of 2500: first 5000 GOOG 100.00 at 2024-03-01T10:53:20-05:00",
		"page of 2500: first 7500 AAPL 100.00 at 2024-03-01T11:35:00-05:00",
		"read 10000 trades, 10 with a note, symbols [AAPL MSFT GOOG AMZN NVDA]",
	}, strings.Split(strings.TrimSpace(out.String()), "\n"))
}
