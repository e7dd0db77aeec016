package main

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunPrintsEveryOrderPageByPage(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(&out, mem))
	require.Equal(t, `rows [0, 2):
  #1 Ada of Lyon 69001, items: 2×pen 1×ink, attrs: map[channel:web], gift to: null, notes: ["fragile" null]
  #2 Grace of Osaka, items: none, attrs: null, gift to: Perth 6000, notes: null
rows [2, 4):
  #3 Alan of Recife 50000, items: 5×pad, attrs: map[], gift to: null, notes: []
  #4 Edsger of Tromsø 9008, items: 1×pen 1×pad 3×cap, attrs: map[channel:store coupon:C42], gift to: Lyon, notes: ["call first"]
rows [4, 5):
  #5 Barbara of Perth 6000, items: 2×ink, attrs: null, gift to: null, notes: [null]
last: #5 Barbara of Perth 6000, items: 2×ink, attrs: null, gift to: null, notes: [null]
`, out.String())
}
