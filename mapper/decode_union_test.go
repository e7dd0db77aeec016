package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeUnionSelectsOneVariantARow(t *testing.T) {
	for _, mode := range []arrow.UnionMode{arrow.SparseMode, arrow.DenseMode} {
		t.Run(mode.String()+" union through a union tag", func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := unRecord(t, mem, mode)
			defer rec.Release()
			rows := fxDecodeAll[unAnyRow](t, rec)
			for i, want := range unWant() {
				assert.Equal(t, int32(i), rows[i].ID)
				assert.Equal(t, want, rows[i].V, "row %d", i)
			}
		})
	}
}

func TestDecodeUnionKeepsVariantsApart(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := unRecord(t, mem, arrow.DenseMode)
	defer rec.Release()
	rows, err := mapper.Decode[unAnyRow](rec)
	require.NoError(t, err)
	*rows[0].V.I = 99
	assert.Equal(t, int64(4), *rows[5].V.I, "rows own their values")
}

func TestDecodeUnionPlansCheckTheColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := unRecord(t, mem, arrow.SparseMode)
	defer rec.Release()
	schema := rec.Schema()

	type onlyInt struct {
		I *int64 `arrow:"i,nullable"`
	}
	_, err := mapper.New[struct {
		V onlyInt `arrow:"v,union"`
	}](schema)
	me := fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v.s", -1)
	assert.Contains(t, me.Error(), "would be lost")

	type wrongCode struct {
		I *int64  `arrow:"i,code=6,nullable"`
		S *string `arrow:"s,nullable"`
	}
	_, err = mapper.New[struct {
		V wrongCode `arrow:"v,union"`
	}](schema)
	me = fxRequireError(t, err, mapper.ErrTypeMismatch, "V.I", "v.i", -1)
	assert.Contains(t, me.Error(), "code=6")

	_, err = mapper.New[unDenseRow](schema)
	fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)

	_, err = mapper.New[struct {
		V unValue `arrow:"v"`
	}](schema)
	fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)

	type required struct {
		I *int64  `arrow:"i"`
		S *string `arrow:"s,nullable"`
	}
	_, err = mapper.Decode[struct {
		V required `arrow:"v,union"`
	}](rec)
	fxRequireError(t, err, mapper.ErrNull, "V.I", "v.i", 2)
}
