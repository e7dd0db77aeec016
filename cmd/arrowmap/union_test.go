package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHeadPrintsAUnionRowAsItsSelectedVariant(t *testing.T) {
	stdout, stderr, status := arrowmap(t, nil, "head", testFiles.union)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	assert.Equal(t, `{"id":1,"either":5}`+"\n", stdout)
}

func TestGenDeclaresAUnionAsAStructOfPointerVariants(t *testing.T) {
	out, stderr, status := arrowmap(t, nil, "gen", testFiles.union)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	norm := strings.Join(lines, "\n")
	for _, want := range []string{
		"\"github.com/arrowmap/arrowmap/mapper\"",
		"Either Either `arrow:\"either,dense_union,nullable\"`",
		"type Either struct {\nN *int32 `arrow:\"n,code=0\"`\nTypeCode mapper.UnionCode `arrow:\",type_code\"`\n}",
	} {
		assert.Contains(t, norm, want)
	}
}

// A union's variants are printed as the same types are at the top: a
// timestamp past the year 9999, which a time.Time holds but encoding/json
// refuses, as RFC 3339's extended year; a decimal as its decimal string.
func TestHeadPrintsAUnionsVariantsAsItPrintsTheirTypesAtTheTop(t *testing.T) {
	mem := memory.DefaultAllocator
	ts := &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}
	dec := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "u", Type: arrow.SparseUnionOf([]arrow.Field{{Name: "t", Type: ts, Nullable: true}, {Name: "d", Type: dec, Nullable: true}}, []arrow.UnionTypeCode{0, 1}), Nullable: true},
		{Name: "t", Type: ts},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	ub := b.Field(0).(*array.SparseUnionBuilder)
	tb, db := ub.Child(0).(*array.TimestampBuilder), ub.Child(1).(*array.Decimal128Builder)
	const far = 300_000_000_000 // seconds: the year 11476
	ub.Append(0)
	tb.Append(far)
	db.AppendNull()
	ub.Append(1)
	tb.AppendNull()
	db.Append(decimal128.FromI64(12345))
	ft := b.Field(1).(*array.TimestampBuilder)
	ft.Append(far)
	ft.Append(0)
	rec := b.NewRecordBatch()
	defer rec.Release()
	file, err := ipcFileOf(mem, rec)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "variants.arrow")
	require.NoError(t, os.WriteFile(path, file, 0o644))

	stdout, stderr, status := arrowmap(t, nil, "head", path)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	assert.Equal(t, `{"u":"+11476-08-15T05:20:00Z","t":"+11476-08-15T05:20:00Z"}`+"\n"+`{"u":"123.45","t":"1970-01-01T00:00:00Z"}`+"\n", stdout)
}
