package mapper_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeAs(t *testing.T) {
	opts := []mapper.ReadOption{mapper.As[FxCents, float64](fxCentsOf, nil), mapper.As[FxMoney, string](fxMoneyOf, nil)}
	build := func(t *testing.T, mem memory.Allocator, price, history, total string) arrow.RecordBatch {
		return fxRecord(t,
			fxCol{"price", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, price)},
			fxCol{"maybe", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, `[null, 0.5, null, 2, 3]`)},
			fxCol{"history", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Float64), history)},
			fxCol{"total", fxJSON(t, mem, arrow.BinaryTypes.String, total)})
	}
	fxRun(t, []fxCase{
		{"As decodes a float64 into FxCents and a string into FxMoney", func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, `[1.25, 0, 10, 0.01, 99.99]`, `[[1, 2.5], [], null, [0.07], [3]]`,
				`["1.00 EUR", "2.50 USD", "0 JPY", "12.34 EUR", "0.01 GBP"]`)
			defer rec.Release()
			require.Equal(t, []fxPriceRow{
				{Price: 125, History: []FxCents{100, 250}, Total: FxMoney{100, "EUR"}},
				{Price: 0, Maybe: fxPtr(FxCents(50)), History: []FxCents{}, Total: FxMoney{250, "USD"}},
				{Price: 1000, Total: FxMoney{0, "JPY"}},
				{Price: 1, Maybe: fxPtr(FxCents(200)), History: []FxCents{7}, Total: FxMoney{1234, "EUR"}},
				{Price: 9999, Maybe: fxPtr(FxCents(300)), History: []FxCents{300}, Total: FxMoney{1, "GBP"}},
			}, fxDecodeAll[fxPriceRow](t, rec, opts...))
		}},
		{"an As decode error is ErrInvalidData naming the row, wrapping the error", func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, `[1, 2, 3, -4, 5]`, `[[1], [], null, [2], [3]]`, `["1 EUR", "2 EUR", "3 EUR", "4 EUR", "5 EUR"]`)
			defer rec.Release()
			m, err := mapper.New[fxPriceRow](rec.Schema(), opts...)
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrInvalidData, "Price", "price", 3)
			require.ErrorIs(t, err, errFxNegative)
			_, err = mapper.Decode[fxPriceRow](rec, opts...)
			fxRequireError(t, err, mapper.ErrInvalidData, "Price", "price", 3)
		}},
		{"an As decode error in a string column names its row", func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, `[1, 2, 3, 4, 5]`, `[[1], [], null, [2], [3]]`, `["1 EUR", "2 EUR", "3EUR", "4 EUR", "5 EUR"]`)
			defer rec.Release()
			_, err := mapper.Decode[fxPriceRow](rec, opts...)
			fxRequireError(t, err, mapper.ErrInvalidData, "Total", "total", 2)
			require.Contains(t, err.Error(), `no currency in "3EUR"`)
		}},
	})
}

// FxCents is money as a whole number of cents, read from a float64 of units.
type FxCents int64

var errFxNegative = errors.New("negative amount")

func fxCentsOf(f float64) (FxCents, error) {
	if f < 0 {
		return 0, errFxNegative
	}
	return FxCents(math.Round(f * 100)), nil
}

// FxMoney is an amount and its currency, read from text such as "12.34 EUR".
type FxMoney struct {
	Cents    int64
	Currency string
}

func fxMoneyOf(s string) (FxMoney, error) {
	amount, currency, ok := strings.Cut(s, " ")
	if !ok {
		return FxMoney{}, fmt.Errorf("no currency in %q", s)
	}
	f, err := strconv.ParseFloat(amount, 64)
	if err != nil {
		return FxMoney{}, err
	}
	return FxMoney{Cents: int64(math.Round(f * 100)), Currency: currency}, nil
}

type fxPriceRow struct {
	Price   FxCents   `arrow:"price"`
	Maybe   *FxCents  `arrow:"maybe"`
	History []FxCents `arrow:"history"`
	Total   FxMoney   `arrow:"total"`
}
