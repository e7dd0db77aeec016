package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// head prints the first n rows of in as JSON lines, decoded through the
// mapper into the struct type GoTypeOf builds for the schema as head reads
// it (jsonSchema), and written by appendJSON, which follows the file's own
// schema for the names and for what JSON has no number for. It reads no
// record past the one that holds the n-th row.
func head(in *input, n int, stdout io.Writer) error {
	typ, err := mapper.GoTypeOf(jsonSchema(in.schema))
	if err != nil {
		return fmt.Errorf("%s: %w", in.name, err)
	}
	out := bufio.NewWriter(stdout)
	printed := 0
	var line []byte
	row := arrow.StructOf(in.schema.Fields()...)
	for record := 0; printed < n && in.records.Next(); record++ {
		rec := in.records.RecordBatch()
		take := min(int(rec.NumRows()), n-printed)
		if take < int(rec.NumRows()) && wellFormed(rec) {
			// arrow-go's slice trusts the buffers: only a record that
			// views has checked is cut to the rows printed. Another is
			// decoded whole, which names its first faulty row.
			rec = rec.NewSlice(0, int64(take))
			defer rec.Release()
		}
		rows, err := mapper.DecodeTo(typ, rec)
		var me *mapper.Error
		if err != nil && errors.As(err, &me) && me.Row >= take {
			err = nil // past the rows printed, every one of which is good
		}
		// The rows before an error are good: each is printed.
		good := 0
		if rows.IsValid() {
			good = min(rows.Len(), take)
		}
		for i := range good {
			var jerr error
			if line, jerr = appendJSON(line[:0], rows.Index(i), row); jerr != nil {
				out.Flush()
				return fmt.Errorf("%s: row %d: %w", in.name, printed+i, jerr)
			}
			out.Write(line)
			out.WriteByte('\n')
		}
		if err != nil {
			out.Flush()
			return fmt.Errorf("%s: %w", in.name, mapper.InStream(err, record, int64(printed)))
		}
		printed += good
	}
	if err := in.records.Err(); err != nil && err != io.EOF {
		out.Flush()
		return fmt.Errorf("%s: %w", in.name, err)
	}
	return out.Flush()
}

// wellFormed reports whether every column of rec is what its type says:
// buffers long enough, offsets inside them, dictionary indexes inside the
// dictionary, as views checks them.
func wellFormed(rec arrow.RecordBatch) bool {
	for _, col := range rec.Columns() {
		t := views.WholeTypeOf(col.DataType())
		if _, err := views.Of(col, &t); err != nil {
			return false
		}
	}
	return true
}

// jsonSchema is schema as head reads it: the columns whose Go type has no
// JSON form worth printing retyped as one the decoder reads them into.
// Decimals are utf8, their exact text (a decimal.Decimal128 marshals as
// {}), a float whose Go type is no Go number (float16's, a struct) is
// float32, which holds every one, and fixed_size_binary is binary, base64
// as a []byte (a [N]byte is an array of numbers). Temporal
// columns are their storage integers, which appendJSON writes: a
// time.Time or time.Duration holds not every value they can, and
// encoding/json no year past 9999. The records keep their own types: only
// the Go type is taken from it.
func jsonSchema(schema *arrow.Schema) *arrow.Schema {
	return arrow.NewSchema(jsonFields(schema.Fields()), nil)
}

func jsonFields(fields []arrow.Field) []arrow.Field {
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		f.Type = jsonType(f.Type)
		out[i] = f
	}
	return out
}

func jsonType(dt arrow.DataType) arrow.DataType {
	if dt == nil {
		return nil // GoTypeOf refuses it
	}
	dt = arrowtype.Storage(dt)
	switch r := arrowtype.OfType(dt); {
	case r.Decimal:
		return arrow.BinaryTypes.String
	case r.Float && !r.Value.Ordered():
		return arrow.PrimitiveTypes.Float32
	case r.Counts():
		if integer, ok := arrowtype.IntegerOf(r.Value); ok {
			return integer
		}
	case r.Layout == arrowtype.FixedBinary:
		return arrow.BinaryTypes.Binary
	case len(arrowtype.Children(dt)) > 0:
		// Every child (a list's element, a struct's fields, a union's
		// variants, a dictionary's values) in its JSON type too.
		// arrow-go's constructors panic on a nil element type, a fixed
		// size below 1 or a map's entries of another shape: WithChildren
		// leaves such a type for GoTypeOf to refuse. A map's key is made
		// non-nullable (MapOfFields panics on one; GoTypeOf has none).
		children := jsonFields(arrowtype.Children(dt))
		retyped, _ := arrowtype.WithChildren(dt, children)
		return retyped
	}
	return dt
}
