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
// entry point: one that the entry point takes works, any other is an
// ErrUnsupported naming the entry point and the option.
func TestEveryOptionWhereItDoesNotApplyIsAnError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := cacheRecord(t, mem, 1, "extra")
	defer rec.Release()
	rows := []cacheRow{{1, "n1"}}

	options := []struct {
		name string
		opt  mapper.Option
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
	}
	decode := []string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns", "LastKeyWins", "As", "ZeroCopy", "Parallelism"}
	columns := []string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns"}
	encode := []string{"SnakeCase", "As", "Allocator"}
	entries := []struct {
		name  string
		takes []string
		call  func(opt mapper.Option) error
	}{
		{"New", decode, func(opt mapper.Option) error { _, err := mapper.New[cacheRow](rec.Schema(), opt); return err }},
		{"Decode", decode, func(opt mapper.Option) error { _, err := mapper.Decode[cacheRow](rec, opt); return err }},
		{"DecodeTo", decode, func(opt mapper.Option) error {
			_, err := mapper.DecodeTo(reflectTypeOf[cacheRow](), rec, opt)
			return err
		}},
		{"NewReader", append(decode, "MaxExpansion"), func(opt mapper.Option) error {
			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewReader[cacheRow](rr, opt)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"Columns", columns, func(opt mapper.Option) error { _, err := mapper.Columns[cacheColumns](rec, opt); return err }},
		{"NewColumnsReader", columns, func(opt mapper.Option) error {
			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewColumnsReader[cacheColumns](rr, opt)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"DecodeArray", decode, func(opt mapper.Option) error { _, err := mapper.DecodeArray[string](rec.Column(1), opt); return err }},
		{"EncodeArray", encode, func(opt mapper.Option) error {
			arr, err := mapper.EncodeArray([]string{"a"}, opt)
			if err == nil {
				arr.Release()
			}
			return err
		}},
		{"SchemaOf", []string{"SnakeCase", "As"}, func(opt mapper.Option) error { _, err := mapper.SchemaOf[cacheRow](opt); return err }},
		{"Encode", encode, func(opt mapper.Option) error {
			out, err := mapper.Encode(rows, opt)
			if err == nil {
				out.Release()
			}
			return err
		}},
		{"NewBuilder", encode, func(opt mapper.Option) error {
			b, err := mapper.NewBuilder[cacheRow](opt)
			if err == nil {
				b.Release()
			}
			return err
		}},
	}
	for _, e := range entries {
		for _, o := range options {
			takes := false
			for _, name := range e.takes {
				takes = takes || name == o.name
			}
			if takes {
				t.Run(e.name+" takes "+o.name, func(t *testing.T) {
					err := e.call(o.opt)
					if err != nil { // the option may fail on this data, but never as not taken
						require.NotErrorIs(t, err, mapper.ErrUnsupported, "%v", err)
					}
				})
				continue
			}
			t.Run(e.name+" refuses "+o.name, func(t *testing.T) {
				err := e.call(o.opt)
				fxRequireError(t, err, mapper.ErrUnsupported, "", "", -1)
				require.ErrorContains(t, err, e.name+" does not take "+o.name)
			})
		}
	}
}
