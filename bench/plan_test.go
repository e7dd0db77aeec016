package bench

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/mapper"
)

// BenchmarkNew measures building a Mapper for the 8-field Flat struct
// after the type's first plan: "same_schema" asks again for a schema
// already planned (the plan cache answers), "new_schema" for one whose
// columns come in an order not planned recently, so a plan is compiled
// each time from the type's cached fields and tags.
func BenchmarkNew(b *testing.B) {
	b.Run("same_schema", func(b *testing.B) {
		if _, err := mapper.New[Flat](flatSchema); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := mapper.New[Flat](flatSchema); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("new_schema", func(b *testing.B) {
		schemas := rotatedSchemas(flatSchema, 64)
		if _, err := mapper.New[Flat](schemas[0]); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := mapper.New[Flat](schemas[i%len(schemas)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// rotatedSchemas is n schemas with s's columns, each in another order (a
// rotation, then adjacent swaps): every one plans its columns at other
// indexes.
func rotatedSchemas(s *arrow.Schema, n int) []*arrow.Schema {
	out := make([]*arrow.Schema, 0, n)
	fields := s.Fields()
	for k := 0; len(out) < n; k++ {
		f := make([]arrow.Field, len(fields))
		for i := range f {
			f[i] = fields[(i+k)%len(fields)]
		}
		if j := (k / len(fields)) % (len(fields) - 1); k >= len(fields) {
			f[j], f[j+1] = f[j+1], f[j]
		}
		out = append(out, arrow.NewSchema(f, nil))
	}
	return out
}
