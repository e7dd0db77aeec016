package expansion_test

import (
	"math"
	"testing"

	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/stretchr/testify/assert"
)

func TestLimit(t *testing.T) {
	for _, tt := range []struct {
		name            string
		received, ratio int64
		want            int64
	}{
		{"nothing received is the floor", 0, 0, 64 << 20},
		{"the default ratio is 64 bytes a byte", 1000, 0, 64<<20 + 64*1000},
		{"a negative ratio is the default", 1000, -3, 64<<20 + 64*1000},
		{"a ratio of 1 is a byte a byte", 1000, 1, 64<<20 + 1000},
		{"a negative count received is none", -5, 0, 64 << 20},
		{"a product past int64 saturates", 1 << 40, 1 << 30, math.MaxInt64},
		{"a ratio of math.MaxInt64 lifts the limit, even for nothing received", 0, math.MaxInt64, math.MaxInt64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, expansion.Limit(tt.received, tt.ratio))
		})
	}
}
