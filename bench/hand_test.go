package bench

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// handFlat is what a careful developer writes by hand: typed arrays, one
// loop, strings copied out of Arrow memory.
func handFlat(rec arrow.RecordBatch) []Flat {
	ids := rec.Column(0).(*array.Int64)
	qty := rec.Column(1).(*array.Int32)
	price := rec.Column(2).(*array.Float64)
	ok := rec.Column(3).(*array.Boolean)
	name := rec.Column(4).(*array.String)
	note := rec.Column(5).(*array.String)
	at := rec.Column(6).(*array.Timestamp)
	unit := rec.Schema().Field(6).Type.(*arrow.TimestampType).Unit
	score := rec.Column(7).(*array.Float32)
	out := make([]Flat, rec.NumRows())
	for i := range out {
		r := &out[i]
		r.ID = ids.Value(i)
		r.Qty = qty.Value(i)
		r.Price = price.Value(i)
		r.OK = ok.Value(i)
		r.Name = strings.Clone(name.Value(i))
		if note.IsValid(i) {
			s := strings.Clone(note.Value(i))
			r.Note = &s
		}
		r.At = at.Value(i).ToTime(unit)
		r.Score = score.Value(i)
	}
	return out
}

// handNested decodes the nested record by hand, one slice per row and list.
func handNested(rec arrow.RecordBatch) []Nested {
	ids := rec.Column(0).(*array.Int64)
	tags := rec.Column(1).(*array.List)
	tagValues := tags.ListValues().(*array.String)
	items := rec.Column(2).(*array.List)
	itemValues := items.ListValues().(*array.Struct)
	skus := itemValues.Field(0).(*array.String)
	prices := itemValues.Field(1).(*array.Float64)
	scores := rec.Column(3).(*array.List)
	scoreValues := scores.ListValues().(*array.Float32).Float32Values()
	out := make([]Nested, rec.NumRows())
	for i := range out {
		r := &out[i]
		r.ID = ids.Value(i)
		start, end := tags.ValueOffsets(i)
		r.Tags = make([]string, end-start)
		for k := range r.Tags {
			r.Tags[k] = strings.Clone(tagValues.Value(int(start) + k))
		}
		start, end = items.ValueOffsets(i)
		r.Items = make([]Item, end-start)
		for k := range r.Items {
			j := int(start) + k
			r.Items[k] = Item{SKU: strings.Clone(skus.Value(j)), Price: prices.Value(j)}
		}
		start, end = scores.ValueOffsets(i)
		r.Scores = make([]float32, end-start)
		copy(r.Scores, scoreValues[start:end])
	}
	return out
}
