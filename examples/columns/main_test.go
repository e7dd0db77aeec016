package main

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunSumsAndCountsThroughColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(&out, mem))
	require.Equal(t, `baskets: 3, total: 55.75
ada: 2 items [101 102] (gift)
grace: 0 items []
linus: 3 items [103 104 105] ()
items: 5
north: 52.50
south: 3.25
express to Lisbon
express to Quito
last 2 totals: [3.25 40]
page of 2: totals [12.5 3.25]
page of 1: totals [40]
page of 2: totals [12.5 3.25]
page of 1: totals [40]
`, out.String())
}
