package main

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestRunDecodesTheOrdersAndEncodesThemBack(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	require.NoError(t, run(&out, mem))
	require.Equal(t, `order 1: tags ["gift" "express"], note null
order 2: tags null, note "leave at the door"
order 3: tags [], note null
schema:
  fields: 3
    - id: type=int64
    - tags: type=list<item: utf8>, nullable
    - note: type=utf8, nullable
id: [1 2 3]
tags: [["gift" "express"] (null) []]
note: [(null) "leave at the door" (null)]
`, out.String())
}
