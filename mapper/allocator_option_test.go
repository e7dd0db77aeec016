package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitAllocatorTakesOutTheAllocatorOptions(t *testing.T) {
	first := memory.NewCheckedAllocator(memory.DefaultAllocator)
	last := memory.NewGoAllocator()
	for _, tc := range []struct {
		name     string
		opts     []mapper.Option
		mem      memory.Allocator
		passedOn int
	}{
		{"no option gives no allocator", nil, nil, 0},
		{"other options are passed on, in order", []mapper.Option{mapper.ZeroCopy(), nil, mapper.Strict()}, nil, 2},
		{"the allocator is taken out", []mapper.Option{mapper.ZeroCopy(), mapper.Allocator(first), mapper.Strict()}, first, 2},
		{"the last allocator wins", []mapper.Option{mapper.Allocator(first), mapper.WithAllocator(last)}, last, 0},
		{"Allocator(nil) is no allocator", []mapper.Option{mapper.Allocator(nil)}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem, rest := mapper.SplitAllocator(tc.opts)
			assert.Equal(t, tc.mem, mem)
			require.Len(t, rest, tc.passedOn)
			// What is passed on is what NewReader takes: no Allocator left.
			assert.NoError(t, mapper.RefuseOptions("test", rest, mapper.Allocator(nil)))
		})
	}
}
