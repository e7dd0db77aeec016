package ipc_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func arrayOf(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

// TestRecordWriterRefusesEveryValueTheSpecForbidsAndGoesOn writes, to a
// file and to a stream, a good record, a record with a forbidden value
// (refused, naming it), and the good record again: arrow-go reads back
// the two good records.
func TestRecordWriterRefusesEveryValueTheSpecForbidsAndGoesOn(t *testing.T) {
	d128 := &arrow.Decimal128Type{Precision: 3, Scale: 2}
	pastPrecision := func() arrow.Array {
		b := array.NewDecimal128Builder(memory.DefaultAllocator, d128)
		defer b.Release()
		b.Append(decimal128.FromI64(999))
		b.Append(decimal128.FromI64(-12810))
		a := b.NewArray()
		t.Cleanup(a.Release)
		return a
	}
	notUTF8 := func() arrow.Array {
		a := arrayOf(t, arrow.BinaryTypes.String, `["ok", "ÿ"]`)
		data := a.Data().Buffers()[2].Bytes()
		copy(data, bytes.ReplaceAll(data, []byte("ÿ"), []byte{0xff, 0xff}))
		return a
	}
	required := arrow.StructOf(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32})
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.FixedWidthTypes.Date64}
	tests := []struct {
		name     string
		field    arrow.Field
		good     string // two rows
		bad      func() arrow.Array
		column   string
		row      int // in bad
		sentinel error
	}{
		{"text that is not UTF-8", arrow.Field{Name: "c", Type: arrow.BinaryTypes.String, Nullable: true},
			`["a", "b"]`, notUTF8, "c", 1, mapper.ErrInvalidData},
		{"a decimal past its precision", arrow.Field{Name: "c", Type: d128, Nullable: true},
			`["1.00", "-9.99"]`, pastPrecision, "c", 1, mapper.ErrInvalidData},
		{"a date64 between days", arrow.Field{Name: "c", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
			`[0, 86400000]`, func() arrow.Array { return arrayOf(t, arrow.FixedWidthTypes.Date64, `[null, 86400001]`) },
			"c", 1, mapper.ErrInvalidData},
		{"a null in a column that is not nullable", arrow.Field{Name: "c", Type: arrow.PrimitiveTypes.Int32},
			`[1, 2]`, func() arrow.Array { return arrayOf(t, arrow.PrimitiveTypes.Int32, `[1, null]`) },
			"c", 1, mapper.ErrNull},
		{"a null in a struct's child that is not nullable", arrow.Field{Name: "c", Type: required, Nullable: true},
			`[{"n": 1}, null]`, func() arrow.Array { return arrayOf(t, required, `[null, {"n": null}]`) },
			"c.n", 1, mapper.ErrNull},
		{"a null list element that is not nullable", arrow.Field{Name: "c", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), Nullable: true},
			`[[1], null]`, func() arrow.Array {
				return arrayOf(t, arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), `[[1, 2], [3, null]]`)
			},
			"c.item", 1, mapper.ErrNull},
		{"a dictionary's date64 between days that a row refers to", arrow.Field{Name: "c", Type: dict, Nullable: true},
			`[0, 86400000]`, func() arrow.Array {
				d := array.NewDictionaryArray(dict, arrayOf(t, arrow.PrimitiveTypes.Int8, `[0, 1]`), arrayOf(t, arrow.FixedWidthTypes.Date64, `[0, 1]`))
				t.Cleanup(d.Release)
				return d
			},
			"c", 1, mapper.ErrInvalidData},
		{"a run-end encoded date64 between days", arrow.Field{Name: "c", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Date64), Nullable: true},
			`[0, 86400000]`, func() arrow.Array {
				a := array.NewRunEndEncodedArray(arrayOf(t, arrow.PrimitiveTypes.Int32, `[1, 3]`), arrayOf(t, arrow.FixedWidthTypes.Date64, `[0, 1]`), 3, 0)
				t.Cleanup(a.Release)
				return a
			},
			"c", 1, mapper.ErrInvalidData},
	}
	for _, file := range []bool{true, false} {
		newWriter, format := ipc.NewRecordStreamWriter, "stream"
		if file {
			newWriter, format = ipc.NewRecordFileWriter, "file"
		}
		for _, tt := range tests {
			t.Run(format+"/"+tt.name, func(t *testing.T) {
				schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, tt.field}, nil)
				good := array.NewRecordBatch(schema, []arrow.Array{arrayOf(t, arrow.PrimitiveTypes.Int64, `[0, 1]`), arrayOf(t, tt.field.Type, tt.good)}, 2)
				defer good.Release()
				col := tt.bad()
				ids := array.MakeArrayOfNull(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, col.Len())
				defer ids.Release()
				bad := array.NewRecordBatch(schema, []arrow.Array{ids, col}, int64(col.Len()))
				defer bad.Release()

				var buf bytes.Buffer
				w, err := newWriter(&buf, schema, ipc.WriteConfig{})
				require.NoError(t, err)
				require.NoError(t, w.Write(good))
				err = w.Write(bad)
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				require.ErrorIs(t, err, tt.sentinel)
				assert.Equal(t, tt.column, me.Column)
				assert.Equal(t, 2+tt.row, me.Row, "counted from the first row written")
				require.NoError(t, w.Write(good), "the writer goes on")
				require.NoError(t, w.Close())

				_, recs := ipcRecords(t, buf.Bytes(), file)
				defer releaseAll(recs)
				require.Len(t, recs, 2, "the good records, and nothing of the refused one")
				for _, rec := range recs {
					assert.Equal(t, recordJSON(t, good), recordJSON(t, rec))
				}
			})
		}
	}
}
