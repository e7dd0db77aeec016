package optsplit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/optsplit"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type unitRow struct {
	ID   int64
	Name *string
	At   time.Time
}

func unitRows(n int) []unitRow {
	rows := make([]unitRow, n)
	for i := range rows {
		rows[i] = unitRow{ID: int64(i), At: time.Unix(int64(i), 0).UTC()}
		if i%2 == 0 {
			name := strings.Repeat("x", i)
			rows[i].Name = &name
		}
	}
	return rows
}

func TestSplitSendsEachOptionWhereItActs(t *testing.T) {
	schema, err := mapper.SchemaOf[unitRow]()
	require.NoError(t, err)
	asString := mapper.As[time.Time, string](
		func(s string) (time.Time, error) { return time.Parse(time.RFC3339, s) },
		func(t time.Time) (string, error) { return t.Format(time.RFC3339), nil })
	for _, tc := range []struct {
		name           string
		opt            mapper.Option
		decode, encode bool
	}{
		{"Strict goes to decoding only", mapper.Strict(), true, false},
		{"AllowMissing goes to decoding only", mapper.AllowMissing(), true, false},
		{"RejectExtraColumns goes to decoding only", mapper.RejectExtraColumns(), true, false},
		{"LastKeyWins goes to decoding only", mapper.LastKeyWins(), true, false},
		{"ZeroCopy goes to decoding only", mapper.ZeroCopy(), true, false},
		{"Parallelism goes to decoding only", mapper.Parallelism(2), true, false},
		{"Allocator goes to encoding only", mapper.Allocator(memory.NewGoAllocator()), false, true},
		{"SnakeCase goes to both", mapper.SnakeCase(), true, true},
		{"As goes to both", asString, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decode, encode := optsplit.Split([]mapper.Option{nil, tc.opt})
			assert.Len(t, decode, b2i(tc.decode))
			assert.Len(t, encode, b2i(tc.encode))
			// Each side takes what it was given: neither refuses an option.
			_, err := mapper.New[unitRow](schema, decode...)
			if tc.name != "As goes to both" { // As makes At a string column
				require.NoError(t, err)
			}
			rec, err := mapper.Encode(unitRows(2), encode...)
			require.NoError(t, err)
			rec.Release()
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSplitSendsTheAllocatorToTheParameters(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	_, encode := optsplit.Split([]mapper.Option{mapper.Strict(), mapper.Allocator(mem)})
	rec, err := mapper.Encode(unitRows(3), encode...)
	require.NoError(t, err)
	assert.Positive(t, mem.CurrentAlloc(), "the parameters are allocated from the Allocator given")
	rec.Release()
}
