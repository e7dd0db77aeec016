package mapper_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

type encLine struct {
	SKU string
	At  time.Time
}

type encOrder struct {
	ID    int64
	Lines []encLine
}

type encPrice struct {
	Amount decimal.Decimal64 `arrow:"amount,decimal(4,2)"`
}

type encText struct {
	Amount string `arrow:"amount,decimal(6,2)"`
}

type encClock struct {
	D time.Duration `arrow:"d,time32,unit=ms"`
}

type encMoney struct{ Cents int64 }

type encWallet struct{ Balance encMoney }

type encFailing struct{}

func (encFailing) MarshalText() ([]byte, error) { return nil, errors.New("no text") }

type encFails struct{ F *encFailing }

func TestEncodeReportsValuesThatDoNotFit(t *testing.T) {
	year3000 := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		run  func(mem memory.Allocator) error
		kind error
		path string
		row  int
	}{
		{"a time.Time past the ns range, in a list", func(mem memory.Allocator) error {
			rows := []encOrder{{ID: 1, Lines: []encLine{{"a", now}}}, {ID: 2}, {ID: 3, Lines: []encLine{{"b", now}, {"c", year3000}}}}
			return encodeErr(rows, mem)
		}, mapper.ErrOverflow, "Lines[].At", 2},
		{"a decimal over its precision", func(mem memory.Allocator) error {
			return encodeErr([]encPrice{{1234}, {-9999}, {10000}}, mem)
		}, mapper.ErrOverflow, "Amount", 2},
		{"decimal text over its precision", func(mem memory.Allocator) error {
			return encodeErr([]encText{{"1234.5"}, {"12345.67"}}, mem)
		}, mapper.ErrOverflow, "Amount", 1},
		{"decimal text with more decimal places than the scale", func(mem memory.Allocator) error {
			return encodeErr([]encText{{"1.005"}}, mem)
		}, mapper.ErrOverflow, "Amount", 0},
		{"decimal text that is not a number", func(mem memory.Allocator) error {
			return encodeErr([]encText{{"1.5"}, {"-2"}, {"1.2.3"}}, mem)
		}, mapper.ErrInvalidData, "Amount", 2},
		{"a duration that is no time of day", func(mem memory.Allocator) error {
			return encodeErr([]encClock{{time.Hour}, {25 * time.Hour}}, mem)
		}, mapper.ErrOverflow, "D", 1},
		{"an As conversion that fails", func(mem memory.Allocator) error {
			conv := mapper.As[encMoney, string](nil, func(m encMoney) (string, error) {
				if m.Cents < 0 {
					return "", errors.New("negative")
				}
				return fmt.Sprint(m.Cents), nil
			})
			_, err := mapper.Encode([]encWallet{{encMoney{1}}, {encMoney{-1}}}, conv, mapper.Allocator(mem))
			return err
		}, mapper.ErrInvalidData, "Balance", 1},
		{"a TextMarshaler that fails", func(mem memory.Allocator) error {
			return encodeErr([]encFails{{nil}, {&encFailing{}}}, mem)
		}, mapper.ErrInvalidData, "F", 1},
		{"rows counted from the start of the batch", func(mem memory.Allocator) error {
			b, err := mapper.NewBuilder[encPrice](mapper.Allocator(mem))
			if err != nil {
				return err
			}
			defer b.Release()
			if err := b.Append(encPrice{1}, encPrice{2}); err != nil {
				return err
			}
			return b.Append(encPrice{3}, encPrice{100000})
		}, mapper.ErrOverflow, "Amount", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			err := c.run(mem)
			require.ErrorIs(t, err, c.kind)
			var e *mapper.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.path, e.Path)
			assert.Equal(t, c.row, e.Row)
			assert.Contains(t, err.Error(), fmt.Sprintf("row %d", c.row))
		})
	}
}

func encodeErr[T any](rows []T, mem memory.Allocator) error {
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	if err == nil {
		rec.Release()
	}
	return err
}

func TestEncodeUsesTheAllocator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec, err := mapper.Encode([]encOrder{{ID: 1, Lines: []encLine{{"a", time.Unix(0, 0)}}}}, mapper.Allocator(mem))
	require.NoError(t, err)
	assert.Positive(t, mem.CurrentAlloc(), "the record's buffers come from the allocator")
	rec.Release()
}

func TestEncodeWritesEmptyRecords(t *testing.T) {
	rec, err := mapper.Encode[encOrder](nil)
	require.NoError(t, err)
	defer rec.Release()
	assert.EqualValues(t, 0, rec.NumRows())
	want, err := mapper.SchemaOf[encOrder]()
	require.NoError(t, err)
	assert.True(t, rec.Schema().Equal(want))
}

func TestEncodeIsSafeForConcurrentUse(t *testing.T) {
	rows := make([]encOrder, 300)
	for i := range rows {
		rows[i] = encOrder{ID: int64(i), Lines: []encLine{{SKU: strings.Repeat("x", i%7), At: time.Unix(int64(i), 0)}}}
	}
	want, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer want.Release()
	done := make(chan error)
	for range 4 {
		go func() {
			for range 20 {
				rec, err := mapper.Encode(rows)
				if err != nil {
					done <- err
					return
				}
				equal := array.RecordEqual(rec, want)
				rec.Release()
				if !equal {
					done <- errors.New("a concurrent Encode differs")
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		require.NoError(t, <-done)
	}
}
