package bench

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array/arreflect"
	"github.com/arrowmap/arrowmap/mapper"
)

// decoders are the ways of decoding a record into []T that the benchmarks
// compare, by variant name.
type decoders[T any] struct {
	hand func(arrow.RecordBatch) []T
}

func (d decoders[T]) variants(b *testing.B, rec arrow.RecordBatch, withJSON bool) map[string]func() []T {
	m, err := mapper.New[T](rec.Schema())
	if err != nil {
		b.Fatal(err)
	}
	v := map[string]func() []T{
		"hand": func() []T { return d.hand(rec) },
		"mapper": func() []T {
			rows, err := m.Decode(rec)
			if err != nil {
				b.Fatal(err)
			}
			return rows
		},
		"decode": func() []T {
			rows, err := mapper.Decode[T](rec)
			if err != nil {
				b.Fatal(err)
			}
			return rows
		},
		"arreflect": func() []T {
			rows, err := arreflect.RecordToSlice[T](rec)
			if err != nil {
				b.Fatal(err)
			}
			return rows
		},
	}
	if withJSON {
		v["json"] = func() []T {
			text, err := rec.MarshalJSON()
			if err != nil {
				b.Fatal(err)
			}
			rows, err := fromJSON[T](text)
			if err != nil {
				b.Fatal(err)
			}
			return rows
		}
	}
	return v
}

// run benchmarks each variant after checking that it decodes what the
// hand-written loop does, so that the figures compare equal work.
func run[T any](b *testing.B, rec arrow.RecordBatch, variants map[string]func() []T, order ...string) {
	want := variants["hand"]()
	for _, name := range order {
		decode, ok := variants[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			if got := decode(); !equalRows(got, want) {
				b.Fatalf("%s decodes differently from the hand-written loop: %s", name, firstDifference(got, want))
			}
			b.ReportAllocs()
			b.SetBytes(0)
			b.ResetTimer()
			for b.Loop() {
				sink = decode()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rec.NumRows()), "ns/row")
		})
	}
}

var sink any

// fromJSON unmarshals the JSON of a record. Arrow writes timestamps without
// a zone, which time.Time does not parse, so Flat goes through a mirror.
func fromJSON[T any](text []byte) ([]T, error) {
	var rows []T
	if _, ok := any(rows).([]Flat); !ok {
		err := json.Unmarshal(text, &rows)
		return rows, err
	}
	type flatJSON struct {
		Flat
		At string `json:"at"`
	}
	var mirror []flatJSON
	if err := json.Unmarshal(text, &mirror); err != nil {
		return nil, err
	}
	flat := make([]Flat, len(mirror))
	for i, m := range mirror {
		at, err := time.Parse("2006-01-02T15:04:05.999999999", m.At)
		if err != nil {
			return nil, err
		}
		flat[i] = m.Flat
		flat[i].At = at
	}
	return any(flat).([]T), nil
}

func equalRows[T any](got, want []T) bool { return firstDifference(got, want) == "" }

// firstDifference describes the first row where got and want differ, or "".
func firstDifference[T any](got, want []T) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(normalize(got[i]), normalize(want[i])) {
			return fmt.Sprintf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	return ""
}

// normalize makes rows comparable across decoders that agree on values but
// not on representation: a time.Time's location pointer (UTC may be nil or
// &utcLoc), and an empty slice that one decoder leaves nil.
func normalize[T any](row T) any {
	switch r := any(row).(type) {
	case Flat:
		r.At = r.At.UTC()
		return r
	case Nested:
		if len(r.Tags) == 0 {
			r.Tags = nil
		}
		if len(r.Items) == 0 {
			r.Items = nil
		}
		if len(r.Scores) == 0 {
			r.Scores = nil
		}
		return r
	}
	return row
}

var order = []string{"hand", "mapper", "decode", "arreflect", "json"}

func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("flat_%s", rows(n)), func(b *testing.B) {
			rec := record("flat", n)
			run(b, rec, decoders[Flat]{hand: handFlat}.variants(b, rec, n <= 100_000), order...)
		})
		b.Run(fmt.Sprintf("nested_%s", rows(n)), func(b *testing.B) {
			rec := record("nested", n)
			run(b, rec, decoders[Nested]{hand: handNested}.variants(b, rec, n <= 100_000), order...)
		})
	}
	b.Run("flat_1M", func(b *testing.B) {
		rec := record("flat", 1_000_000)
		run(b, rec, decoders[Flat]{hand: handFlat}.variants(b, rec, false), "hand", "mapper", "arreflect")
	})
}

// BenchmarkParallel decodes 1M flat rows on one goroutine and on two, into
// a reused slice as a reader of many records does: a fresh 88 MB slice is
// zeroed by the Go allocator on one core, whatever the decoder does, which
// hides the decode's own scaling.
func BenchmarkParallel(b *testing.B) {
	rec := record("flat", 1_000_000)
	variants := map[string]func() []Flat{"hand": func() []Flat { return handFlat(rec) }}
	for _, p := range []int{1, 2} {
		m, err := mapper.New[Flat](rec.Schema(), mapper.Parallelism(p))
		if err != nil {
			b.Fatal(err)
		}
		var reused []Flat
		variants[fmt.Sprintf("parallel%d", p)] = func() []Flat {
			rows, err := m.Append(reused[:0], rec)
			if err != nil {
				b.Fatal(err)
			}
			reused = rows
			return rows
		}
	}
	b.Run("flat_1M", func(b *testing.B) { run(b, rec, variants, "parallel1", "parallel2") })
}

func rows(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000:
		return fmt.Sprintf("%dk", n/1_000)
	}
	return fmt.Sprint(n)
}
