package mapper_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThePackageDocNamesEveryEntryPoint reads the package's own source: its
// doc must name every exported function, type and constructor that is not
// deprecated, so that go doc of the package is the way in to all of it.
func TestThePackageDocNamesEveryEntryPoint(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			require.NoError(t, err)
			files = append(files, f)
		}
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/arrowmap/arrowmap/mapper")
	require.NoError(t, err)
	deprecated := func(text string) bool { return strings.Contains(text, "\nDeprecated: ") }
	named := func(name string) bool {
		return strings.Contains(p.Doc, "["+name+"]") || strings.Contains(p.Doc, "[*"+name+"]")
	}
	var names []string
	for _, f := range p.Funcs {
		if !deprecated(f.Doc) {
			names = append(names, f.Name)
		}
	}
	for _, typ := range p.Types {
		if deprecated(typ.Doc) {
			continue
		}
		names = append(names, typ.Name)
		for _, f := range typ.Funcs {
			if !deprecated(f.Doc) {
				names = append(names, f.Name)
			}
		}
	}
	for _, v := range p.Vars {
		for _, n := range v.Names {
			if strings.HasPrefix(n, "Err") {
				names = append(names, n)
			}
		}
	}
	require.NotEmpty(t, names)
	for _, n := range names {
		assert.True(t, named(n), "the package doc does not name %s", n)
	}
}
