package integration

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// sameRow, which every Parquet test and benchmark of bench's rows checks
// reads with, tells apart rows that differ in any one field and only those.
func TestSameRowTellsBenchRowsApart(t *testing.T) {
	note := "n"
	flat := benchFlat{ID: 1, Qty: 2, Price: 3, OK: true, Name: "a", Note: &note, At: time.Unix(5, 6).UTC(), Score: float32(math.NaN())}
	other := "n"
	same := flat
	same.Note, same.At = &other, flat.At.In(time.FixedZone("x", 3600))
	assert.True(t, sameRow(flat, same), "the same note elsewhere, the same instant in another zone, NaN")
	for name, change := range map[string]func(*benchFlat){
		"id": func(r *benchFlat) { r.ID++ }, "qty": func(r *benchFlat) { r.Qty++ }, "price": func(r *benchFlat) { r.Price++ },
		"ok": func(r *benchFlat) { r.OK = false }, "name": func(r *benchFlat) { r.Name = "b" }, "no note": func(r *benchFlat) { r.Note = nil },
		"note": func(r *benchFlat) { s := "m"; r.Note = &s }, "at": func(r *benchFlat) { r.At = r.At.Add(1) }, "score": func(r *benchFlat) { r.Score = 0 },
	} {
		r := flat
		change(&r)
		assert.False(t, sameRow(flat, r), name)
	}

	nested := benchNested{ID: 1, Tags: []string{"a"}, Items: []benchItem{{"s", 1}}, Scores: []float32{1}}
	assert.True(t, sameRow(benchNested{ID: 1}, benchNested{ID: 1, Tags: []string{}, Items: []benchItem{}, Scores: []float32{}}), "empty lists as nil")
	for name, r := range map[string]benchNested{
		"id":     {ID: 2, Tags: nested.Tags, Items: nested.Items, Scores: nested.Scores},
		"tags":   {ID: 1, Tags: []string{"b"}, Items: nested.Items, Scores: nested.Scores},
		"sku":    {ID: 1, Tags: nested.Tags, Items: []benchItem{{"t", 1}}, Scores: nested.Scores},
		"price":  {ID: 1, Tags: nested.Tags, Items: []benchItem{{"s", 2}}, Scores: nested.Scores},
		"items":  {ID: 1, Tags: nested.Tags, Scores: nested.Scores},
		"scores": {ID: 1, Tags: nested.Tags, Items: nested.Items, Scores: []float32{1, 2}},
		"score":  {ID: 1, Tags: nested.Tags, Items: nested.Items, Scores: []float32{2}},
	} {
		assert.False(t, sameRow(nested, r), name)
	}
}
