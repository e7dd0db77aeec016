package bench

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/array/arreflect"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// handEncodeFlat is the builder loop a careful developer writes by hand:
// typed builders, reserved once, one Append per value.
func handEncodeFlat(schema *arrow.Schema, rows []Flat) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Reserve(len(rows))
	ids := b.Field(0).(*array.Int64Builder)
	qty := b.Field(1).(*array.Int32Builder)
	price := b.Field(2).(*array.Float64Builder)
	ok := b.Field(3).(*array.BooleanBuilder)
	name := b.Field(4).(*array.StringBuilder)
	note := b.Field(5).(*array.StringBuilder)
	at := b.Field(6).(*array.TimestampBuilder)
	score := b.Field(7).(*array.Float32Builder)
	for i := range rows {
		r := &rows[i]
		ids.Append(r.ID)
		qty.Append(r.Qty)
		price.Append(r.Price)
		ok.Append(r.OK)
		name.Append(r.Name)
		if r.Note == nil {
			note.AppendNull()
		} else {
			note.Append(*r.Note)
		}
		at.Append(arrow.Timestamp(r.At.UnixNano()))
		score.Append(r.Score)
	}
	return b.NewRecordBatch()
}

// handEncodeNested builds the nested record by hand, row by row.
func handEncodeNested(schema *arrow.Schema, rows []Nested) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Reserve(len(rows))
	ids := b.Field(0).(*array.Int64Builder)
	tags := b.Field(1).(*array.ListBuilder)
	tag := tags.ValueBuilder().(*array.StringBuilder)
	items := b.Field(2).(*array.ListBuilder)
	item := items.ValueBuilder().(*array.StructBuilder)
	sku := item.FieldBuilder(0).(*array.StringBuilder)
	price := item.FieldBuilder(1).(*array.Float64Builder)
	scores := b.Field(3).(*array.ListBuilder)
	score := scores.ValueBuilder().(*array.Float32Builder)
	for i := range rows {
		r := &rows[i]
		ids.Append(r.ID)
		if r.Tags == nil {
			tags.AppendNull()
		} else {
			tags.Append(true)
			for _, t := range r.Tags {
				tag.Append(t)
			}
		}
		if r.Items == nil {
			items.AppendNull()
		} else {
			items.Append(true)
			for _, it := range r.Items {
				item.Append(true)
				sku.Append(it.SKU)
				price.Append(it.Price)
			}
		}
		if r.Scores == nil {
			scores.AppendNull()
		} else {
			scores.Append(true)
			score.AppendValues(r.Scores, nil)
		}
	}
	return b.NewRecordBatch()
}

// encoders are the ways of encoding []T into a record that the benchmarks
// compare, by variant name.
func encoders[T any](b *testing.B, rows []T, hand func(*arrow.Schema, []T) arrow.RecordBatch) map[string]func() arrow.RecordBatch {
	schema, err := mapper.SchemaOf[T]()
	if err != nil {
		b.Fatal(err)
	}
	builder, err := mapper.NewBuilder[T]()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(builder.Release)
	return map[string]func() arrow.RecordBatch{
		"hand": func() arrow.RecordBatch { return hand(schema, rows) },
		"mapper": func() arrow.RecordBatch {
			rec, err := mapper.Encode(rows)
			if err != nil {
				b.Fatal(err)
			}
			return rec
		},
		"builder": func() arrow.RecordBatch {
			if err := builder.Append(rows...); err != nil {
				b.Fatal(err)
			}
			return builder.NewRecordBatch()
		},
		"arreflect": func() arrow.RecordBatch {
			rec, err := arreflect.RecordFromSlice(rows, memory.DefaultAllocator)
			if err != nil {
				b.Fatal(err)
			}
			return rec
		},
	}
}

// runEncode benchmarks each variant after checking that it builds the
// record the hand-written loop does, so that the figures compare equal work.
func runEncode(b *testing.B, n int, variants map[string]func() arrow.RecordBatch) {
	want := variants["hand"]()
	defer want.Release()
	for _, name := range []string{"hand", "mapper", "builder", "arreflect"} {
		encode := variants[name]
		b.Run(name, func(b *testing.B) {
			got := encode()
			if name == "arreflect" {
				checkArreflect(b, got, want)
			} else if !array.RecordEqual(got, want) {
				b.Fatalf("%s encodes differently from the hand-written loop", name)
			}
			got.Release()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				encode().Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	const n = 100_000
	b.Run(fmt.Sprintf("flat_%s", rows(n)), func(b *testing.B) {
		data := handFlat(record("flat", n))
		runEncode(b, n, encoders(b, data, handEncodeFlat))
	})
	b.Run(fmt.Sprintf("nested_%s", rows(n)), func(b *testing.B) {
		data := handNested(record("nested", n))
		runEncode(b, n, encoders(b, data, handEncodeNested))
	})
}

// checkArreflect checks arreflect's record against the hand-written loop's.
// arreflect makes list elements nullable where SchemaOf does not (the same
// data, typed differently: compared after retyping), and writes time.Time
// fields as empty structs, losing them (those columns are skipped, and
// named in the log).
func checkArreflect(b *testing.B, got, want arrow.RecordBatch) {
	if got.NumCols() != want.NumCols() || got.NumRows() != want.NumRows() {
		b.Fatalf("arreflect builds %d×%d, the hand-written loop %d×%d", got.NumRows(), got.NumCols(), want.NumRows(), want.NumCols())
	}
	for i, col := range got.Columns() {
		wantCol := want.Column(i)
		if col.DataType().ID() != wantCol.DataType().ID() {
			b.Logf("arreflect writes column %q as %s, not %s: skipped", want.ColumnName(i), col.DataType(), wantCol.DataType())
			continue
		}
		data := retype(col.Data(), wantCol.DataType())
		retyped := array.MakeFromData(data)
		equal := array.Equal(retyped, wantCol)
		retyped.Release()
		data.Release()
		if !equal {
			b.Fatalf("arreflect encodes column %q differently from the hand-written loop", want.ColumnName(i))
		}
	}
}

// retype is array data d with type dt, which differs from d's at most in
// the nullability of children.
func retype(d arrow.ArrayData, dt arrow.DataType) arrow.ArrayData {
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, child := range d.Children() {
		childType := child.DataType()
		switch t := dt.(type) {
		case arrow.ListLikeType:
			childType = t.ElemField().Type
		case *arrow.StructType:
			childType = t.Field(i).Type
		}
		children[i] = retype(child, childType)
	}
	out := array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, child := range children {
		child.Release()
	}
	return out
}

// textRow is a string-heavy row: the strings are most of the bytes a
// Builder copies, and every one of them is checked to be UTF-8.
type textRow struct {
	ID   int64    `arrow:"id"`
	Name string   `arrow:"name"`
	Text string   `arrow:"text"`
	Tags []string `arrow:"tags"`
}

// textRows is n rows whose text is ASCII, or, with wide, mostly runes of
// two to four bytes.
func textRows(n int, wide bool) []textRow {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}
	if wide {
		words = []string{"héllo", "wörld", "世界", "日本語", "🙂🙃", "Ωμέγα"}
	}
	rows := make([]textRow, n)
	for i := range rows {
		w := words[i%len(words)]
		rows[i] = textRow{
			ID:   int64(i),
			Name: fmt.Sprintf("%s-%d", w, i),
			Text: w + " " + words[(i+1)%len(words)] + " " + words[(i+2)%len(words)] + " " + w,
			Tags: []string{w, words[(i+3)%len(words)]},
		}
	}
	return rows
}

// BenchmarkEncodeStrings measures a reused Builder on string-heavy rows:
// the cost of the UTF-8 check of every value of a utf8 column.
func BenchmarkEncodeStrings(b *testing.B) {
	const n = 20_000
	for _, wide := range []bool{false, true} {
		name := "ascii"
		if wide {
			name = "multibyte"
		}
		b.Run(fmt.Sprintf("%s_%s", name, rows(n)), func(b *testing.B) {
			data := textRows(n, wide)
			builder, err := mapper.NewBuilder[textRow]()
			if err != nil {
				b.Fatal(err)
			}
			defer builder.Release()
			// The record holds the rows: they decode back as they were.
			if err := builder.Append(data...); err != nil {
				b.Fatal(err)
			}
			rec := builder.NewRecordBatch()
			back, err := mapper.Decode[textRow](rec)
			rec.Release()
			if err != nil || !reflect.DeepEqual(back, data) {
				b.Fatalf("the rows do not decode back as they were (%v)", err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := builder.Append(data...); err != nil {
					b.Fatal(err)
				}
				builder.NewRecordBatch().Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
		})
	}
}
