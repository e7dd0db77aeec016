package main

import (
	"strings"
	"testing"

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
