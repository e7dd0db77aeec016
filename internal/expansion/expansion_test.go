package expansion_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

func TestSourceEndTellsAnEndFromASourceCutShort(t *testing.T) {
	cutShort := fmt.Errorf("arrow/ipc: could not read continuation indicator: %w", io.EOF)
	midMessage := fmt.Errorf("arrow/ipc: could not read message body: %w", io.ErrUnexpectedEOF)
	errSource := errors.New("the source failed")
	joined := errors.Join(errSource, io.EOF)
	for _, tc := range []struct {
		name string
		err  error
		// same: SourceEnd returns err itself; else, when err is not nil
		// or io.EOF, an io.ErrUnexpectedEOF error with err's text.
		same, end bool
	}{
		{"no error is the end", nil, false, true},
		{"io.EOF itself is the end", io.EOF, false, true},
		{"an error wrapping io.EOF is a source cut short", cutShort, false, false},
		{"an error joined with io.EOF is a source cut short", joined, false, false},
		{"an error wrapping io.ErrUnexpectedEOF stays as it is", midMessage, true, false},
		{"io.ErrUnexpectedEOF itself stays as it is", io.ErrUnexpectedEOF, true, false},
		{"any other error stays as it is", errSource, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := expansion.SourceEnd(tc.err)
			switch {
			case tc.end:
				require.NoError(t, got)
			case tc.same:
				require.Equal(t, tc.err, got)
			default:
				require.ErrorIs(t, got, io.ErrUnexpectedEOF)
				require.NotErrorIs(t, got, io.EOF)
				require.NotErrorIs(t, got, tc.err, "the source's error is not wrapped: it wraps io.EOF")
				require.Contains(t, got.Error(), tc.err.Error(), "the source's text is kept")
			}
		})
	}
}
