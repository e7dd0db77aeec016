package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

// TestEveryOptionWhereItDoesNotApplyIsAnError passes every option to every
// entry point: one of the other direction is of a type the entry point's
// parameter cannot hold (it does not compile), one that the entry point
// takes works, any other is an ErrOption naming the entry point and the
// option.
func TestEveryOptionWhereItDoesNotApplyIsAnError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := cacheRecord(t, mem, 1, "extra")
	defer rec.Release()
	rows := []cacheRow{{1, "n1"}}

	options := []struct {
		name string
		opt  any
	}{
		{"Strict", mapper.Strict()},
		{"AllowMissing", mapper.AllowMissing()},
		{"SnakeCase", mapper.SnakeCase()},
		{"RejectExtraColumns", mapper.RejectExtraColumns()},
		{"LastKeyWins", mapper.LastKeyWins()},
		{"As", mapper.As(func(s string) (cacheName, error) { return cacheName(s), nil }, func(n cacheName) (string, error) { return string(n), nil })},
		{"Allocator", mapper.Allocator(mem)},
		{"ZeroCopy", mapper.ZeroCopy()},
		{"Parallelism", mapper.Parallelism(2)},
		{"MaxExpansion", mapper.MaxExpansion(128)},
		{"SchemaMetadata", mapper.SchemaMetadata(arrow.NewMetadata([]string{"k"}, []string{"v"}))},
	}
	decode := []string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns", "LastKeyWins", "As", "ZeroCopy", "Parallelism"}
	columns := []string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns"}
	encode := []string{"SnakeCase", "As", "Allocator", "SchemaMetadata"}
	entries := []struct {
		name  string
		takes []string
		write bool // its options are WriteOptions, else ReadOptions
		call  func(opt any) error
	}{
		{"New", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.New[cacheRow](rec.Schema(), o)
			return err
		}},
		{"Decode", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.Decode[cacheRow](rec, o)
			return err
		}},
		{"DecodeTo", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)

			_, err := mapper.DecodeTo(reflectTypeOf[cacheRow](), rec, o)
			return err
		}},
		{"NewReader", append(decode, "MaxExpansion"), false, func(opt any) error {
			o := opt.(mapper.ReadOption)

			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewReader[cacheRow](rr, o)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"Columns", columns, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.Columns[cacheColumns](rec, o)
			return err
		}},
		{"NewColumnsReader", columns, false, func(opt any) error {
			o := opt.(mapper.ReadOption)

			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewColumnsReader[cacheColumns](rr, o)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"DecodeArray", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.DecodeArray[string](rec.Column(1), o)
			return err
		}},
		{"EncodeArray", encode, true, func(opt any) error {
			o := opt.(mapper.WriteOption)

			arr, err := mapper.EncodeArray([]string{"a"}, o)
			if err == nil {
				arr.Release()
			}
			return err
		}},
		{"SchemaOf", []string{"SnakeCase", "As", "SchemaMetadata"}, true, func(opt any) error {
			o := opt.(mapper.WriteOption)
			_, err := mapper.SchemaOf[cacheRow](o)
			return err
		}},
		{"Encode", encode, true, func(opt any) error {
			o := opt.(mapper.WriteOption)

			out, err := mapper.Encode(rows, o)
			if err == nil {
				out.Release()
			}
			return err
		}},
		{"NewBuilder", encode, true, func(opt any) error {
			o := opt.(mapper.WriteOption)

			b, err := mapper.NewBuilder[cacheRow](o)
			if err == nil {
				b.Release()
			}
			return err
		}},
	}
	for _, e := range entries {
		for _, o := range options {
			_, read := o.opt.(mapper.ReadOption)
			_, write := o.opt.(mapper.WriteOption)
			if e.write && !write || !e.write && !read {
				continue // of the other direction: a call with it does not compile
			}
			takes := false
			for _, name := range e.takes {
				takes = takes || name == o.name
			}
			if takes {
				t.Run(e.name+" takes "+o.name, func(t *testing.T) {
					err := e.call(o.opt)
					if err != nil { // the option may fail on this data, but never as not taken
						require.NotErrorIs(t, err, mapper.ErrOption, "%v", err)
					}
				})
				continue
			}
			t.Run(e.name+" refuses "+o.name, func(t *testing.T) {
				err := e.call(o.opt)
				fxRequireError(t, err, mapper.ErrOption, "", "", -1)
				require.ErrorContains(t, err, e.name+" does not take "+o.name)
			})
		}
	}
}
