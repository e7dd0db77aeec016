package docs_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "write docs/files.md anew")

// TestFilesListsEveryPackageAndFileWithOneLine keeps docs/files.md, the
// layout doc's list of every package and every production file, current:
// a package's line is the first sentence of its package doc, a file's the
// first sentence of its first comment that is not the package doc (the
// comment at its top, or the doc of its first declaration). A file or
// package added, renamed or removed, or a first comment changed, fails
// this test until `go test ./docs -run TestFiles -update` writes the list
// anew; a file with no comment to take fails it until it has one.
func TestFilesListsEveryPackageAndFileWithOneLine(t *testing.T) {
	out, err := exec.Command("git", "-C", "..", "ls-files", "*.go").Output()
	if err != nil {
		t.Skipf("git ls-files: %v: the list is of the files git tracks", err)
	}
	dirs := map[string][]string{}
	for _, f := range strings.Fields(string(out)) {
		if strings.HasSuffix(f, "_test.go") || strings.Contains(f, "/testdata/") || strings.HasPrefix(f, "docs/") {
			continue
		}
		dirs[path.Dir(f)] = append(dirs[path.Dir(f)], f)
	}
	var b bytes.Buffer
	b.WriteString("# Files\n\nEvery package and production file of the repository, with the first sentence of its\n" +
		"doc (made by `go test ./docs -run TestFiles -update`; see [layout.md](layout.md) for how they fit).\n")
	var missing []string
	for _, dir := range slices.Sorted(func(yield func(string) bool) {
		for d := range dirs {
			if !yield(d) {
				return
			}
		}
	}) {
		files := dirs[dir]
		slices.Sort(files)
		var pkgDoc string
		lines := make([]string, 0, len(files))
		for _, f := range files {
			doc, line := describe(t, filepath.Join("..", f))
			if doc != "" {
				pkgDoc = doc
			}
			if line == "" {
				missing = append(missing, f)
			}
			lines = append(lines, fmt.Sprintf("- `%s`: %s", path.Base(f), line))
		}
		fmt.Fprintf(&b, "\n## `%s/`\n\n", dir)
		if pkgDoc != "" {
			fmt.Fprintf(&b, "%s\n\n", pkgDoc)
		}
		b.WriteString(strings.Join(lines, "\n") + "\n")
	}
	require.Empty(t, missing, "files with no comment to describe them by: give each a doc comment")
	const doc = "files.md"
	if *update {
		require.NoError(t, os.WriteFile(doc, b.Bytes(), 0o644))
	}
	was, err := os.ReadFile(doc)
	require.NoError(t, err)
	require.Equal(t, b.String(), string(was), "docs/files.md is not the list of the files: go test ./docs -run TestFiles -update")
}

// describe is the first sentence of the package doc of the Go file at p
// ("" when it has none) and of the comment that says what the file holds:
// a comment of the file's own (not the doc of a declaration) before its
// first declaration, else the doc of its first exported declaration,
// else of its first declaration.
func describe(t *testing.T, p string) (pkgDoc, line string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
	require.NoError(t, err)
	if f.Doc != nil {
		pkgDoc = firstSentence(f.Doc.Text())
	}
	docs := map[*ast.CommentGroup]bool{}
	var exported, first *ast.CommentGroup
	for _, d := range f.Decls {
		doc, names := declDoc(d)
		if doc == nil || doc.Text() == "" { // none, or a directive alone
			continue
		}
		docs[doc] = true
		if first == nil {
			first = doc
		}
		if exported == nil && slices.ContainsFunc(names, ast.IsExported) {
			exported = doc
		}
	}
	for _, c := range f.Comments {
		if len(f.Decls) > 0 && c.Pos() > f.Decls[len(f.Decls)-1].End() {
			break
		}
		if c == f.Doc || c.Pos() < f.Name.Pos() || isDirective(c) || docs[c] {
			continue
		}
		if !slices.ContainsFunc(f.Decls, func(d ast.Decl) bool { return c.Pos() > d.Pos() && c.End() <= d.End() }) {
			return pkgDoc, firstSentence(c.Text())
		}
	}
	switch {
	case exported != nil:
		return pkgDoc, firstSentence(exported.Text())
	case first != nil:
		return pkgDoc, firstSentence(first.Text())
	case pkgDoc != "":
		return pkgDoc, "the package doc"
	}
	return "", ""
}

// declDoc is d's doc comment and the names it declares.
func declDoc(d ast.Decl) (*ast.CommentGroup, []string) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			return d.Doc, nil // a method says what its type is for
		}
		return d.Doc, []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
		doc := d.Doc
		if doc == nil && len(d.Specs) > 0 {
			switch s := d.Specs[0].(type) {
			case *ast.TypeSpec:
				doc = s.Doc
			case *ast.ValueSpec:
				doc = s.Doc
			}
		}
		return doc, names
	}
	return nil, nil
}

func isDirective(c *ast.CommentGroup) bool {
	return strings.HasPrefix(c.List[0].Text, "//go:") || strings.HasPrefix(c.List[0].Text, "// Code generated")
}

// firstSentence is text's first sentence, on one line.
func firstSentence(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	for i := 0; i < len(text); i++ {
		if text[i] == '.' && (i+1 == len(text) || text[i+1] == ' ') && (i == 0 || !unicode.IsUpper(rune(text[i-1])) || i < 2) {
			return text[:i+1]
		}
	}
	return text
}
