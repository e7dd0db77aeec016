// Package typecount counts, for every Arrow type of arrowmap's table, the
// Go files of the repository that name it in any way, so that adding a
// type is seen to be one row plus what is truly new about it.
//
// A file names a type when its code (comments left out: files are parsed,
// not grepped) refers to one of the type's names through a package it
// imports:
//   - arrow-go's: arrow.DECIMAL128, arrow.Decimal128Type, arrow.Decimal128
//     and its traits, arrow.PrimitiveTypes.Int8, array.Decimal128,
//     array.Decimal128Builder and their constructors, read from arrow-go's
//     own source (the types' ID methods, array's makeArrayFn and
//     NewBuilder);
//   - the table's: arrowtype.Decimal128, the Value the type's buffers
//     hold (counted for the rows that own it: int32's, not date32's);
//   - the Go types of its values, where they are no Go built-in:
//     decimal.Decimal128 and its alias decimal128.Num, float16.Num,
//     arrow.MonthInterval;
//   - the view nodes of package views that only its layout has
//     (views.BinaryView for utf8_view and binary_view).
//
// The table's Layout and Temporal constants (arrowtype.Struct,
// arrowtype.Timestamp) name a family of rows, and are counted by family
// ([Family]).
//
// Every module of the repository is read (the root, duckdb, integration);
// each file is production code, a test (a _test.go file, test support,
// examples, benchmarks and conformance programs) or generated (a "Code
// generated ... DO NOT EDIT." header), and the counts keep them apart.
package typecount

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// Kind is what a file is to the count.
type Kind uint8

const (
	Production Kind = iota
	Test
	Generated
	Table // a file under internal/arrowtype: the table, its generator (gen) and this count
)

// Count is the files that name one type of the table, by kind.
type Count struct {
	Type  string // the table's name: decimal128
	Files map[Kind][]string
}

// Beyond is the production files that name the type, outside the table
// and generated code.
func (c Count) Beyond() []string { return c.Files[Production] }

// A Family is one constant of the table's Layout or Temporal enums
// (arrowtype.Struct, arrowtype.Timestamp) and the files that name it. A
// family names every row of its layout or temporal kind: where it has one
// row (struct, timestamp, duration), it is that type's name as surely as
// arrow.STRUCT; where it has several (List: list, large_list, map), a file
// that names it handles the family, and a row added to it changes no such
// file.
type Family struct {
	Name  string   // the constant: Struct, Timestamp
	Rows  []string // the table's rows of the family
	Files map[Kind][]string
}

// Beyond is the production files that name the family, outside the table
// and generated code.
func (f Family) Beyond() []string { return f.Files[Production] }

// name is a package path and a name in it: a selector's meaning.
type name struct{ pkg, name string }

const (
	arrowPkg = "github.com/apache/arrow-go/v18/arrow"
	arrayPkg = arrowPkg + "/array"
	tablePkg = "github.com/arrowmap/arrowmap/internal/arrowtype"
	// copyPkg is the duckdb module's generated copy of the table: a name of
	// it is the table's.
	copyPkg    = "github.com/arrowmap/arrowmap/duckdb/internal/arrowtype"
	viewsPkg   = "github.com/arrowmap/arrowmap/views"
	arrowGoMod = "github.com/apache/arrow-go/v18"
)

// testSupport are the folders whose code serves tests only.
var testSupport = regexp.MustCompile(`(^|/)(examples|bench|conformance|testdata|internal/(testsupport|mutant))(/|$)`)

var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// Repository counts every row of the table, and every family, over the
// Go files under root.
func Repository(root string) ([]Count, []Family, error) {
	names, err := namesOf()
	if err != nil {
		return nil, nil, err
	}
	families, familyNames, err := familiesOf()
	if err != nil {
		return nil, nil, err
	}
	counts := make([]Count, len(arrowtype.Rows()))
	for i, r := range arrowtype.Rows() {
		counts[i] = Count{Type: r.Name, Files: map[Kind][]string{}}
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root))
		rel = strings.TrimPrefix(rel, "/")
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		kind := kindOf(rel, src, f)
		for _, row := range named(f, names) {
			counts[row].Files[kind] = append(counts[row].Files[kind], rel)
		}
		for _, k := range named(f, familyNames) {
			families[k].Files[kind] = append(families[k].Files[kind], rel)
		}
		return nil
	})
	return counts, families, err
}

// familiesOf is the table's Layout and Temporal constants that name rows,
// in the order they are declared, and their names.
func familiesOf() ([]Family, map[name][]int, error) {
	var families []Family
	names := map[name][]int{}
	for _, enum := range []struct {
		typ string
		of  func(*arrowtype.Row) int
	}{
		{"Layout", func(r *arrowtype.Row) int { return int(r.Layout) }},
		{"Temporal", func(r *arrowtype.Row) int { return int(r.Temporal) }},
	} {
		consts, err := constsOf(enum.typ)
		if err != nil {
			return nil, nil, err
		}
		for v, c := range consts[1:] { // the zero constant (Unsupported, NotTemporal) names no kind
			v++
			var rows []string
			for _, r := range arrowtype.Rows() {
				if enum.of(r) == v {
					rows = append(rows, r.Name)
				}
			}
			if len(rows) == 0 {
				continue
			}
			names[name{tablePkg, c}] = []int{len(families)}
			families = append(families, Family{Name: c, Rows: rows, Files: map[Kind][]string{}})
		}
	}
	return families, names, nil
}

func kindOf(rel string, src []byte, f *ast.File) Kind {
	switch {
	case strings.HasSuffix(rel, "_test.go") || testSupport.MatchString(rel):
		return Test
	case generated.Match(src):
		return Generated
	case strings.HasPrefix(rel, "internal/arrowtype/"): // the table, its generator and its count
		return Table
	}
	return Production
}

// named is the rows a file names, each once, by index in the table.
func named(f *ast.File, names map[name][]int) []int {
	imports := map[string]string{}
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		if p == copyPkg {
			p = tablePkg
		}
		local := p[strings.LastIndex(p, "/")+1:]
		if is.Name != nil {
			local = is.Name.Name
		}
		imports[local] = p
	}
	seen := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		s, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		var key name
		switch x := s.X.(type) {
		case *ast.Ident: // pkg.Name
			key = name{imports[x.Name], s.Sel.Name}
		case *ast.SelectorExpr: // arrow.PrimitiveTypes.Int8
			if id, ok := x.X.(*ast.Ident); ok {
				key = name{imports[id.Name], x.Sel.Name + "." + s.Sel.Name}
			}
		}
		for _, row := range names[key] {
			seen[row] = true
		}
		return true
	})
	var rows []int
	for row := range seen {
		rows = append(rows, row)
	}
	slices.Sort(rows)
	return rows
}

// namesOf is every name of every row, read from arrow-go's source and the
// table.
func namesOf() (map[name][]int, error) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", arrowGoMod).Output()
	if err != nil {
		return nil, err
	}
	src := filepath.Join(strings.TrimSpace(string(dir)), "arrow")
	arrowIDs, err := typesByID(src)
	if err != nil {
		return nil, err
	}
	arrays, builders, err := arraysByID(filepath.Join(src, "array"))
	if err != nil {
		return nil, err
	}
	arrowNames, err := declared(src)
	if err != nil {
		return nil, err
	}
	names := map[name][]int{}
	add := func(pkg, n string, row int) {
		k := name{pkg, n}
		if !slices.Contains(names[k], row) {
			names[k] = append(names[k], row)
		}
	}
	owner := map[arrowtype.Value]int{} // the row that owns each Value
	for i, r := range arrowtype.Rows() {
		if r.Value != arrowtype.NoValue && (r.Integer || r.Float || r.Decimal || r.Temporal == arrowtype.Interval) {
			if _, ok := owner[r.Value]; !ok {
				owner[r.Value] = i
			}
		}
	}
	for i, r := range arrowtype.Rows() {
		id := idName(r.ID)
		add(arrowPkg, id, i)
		if t, ok := arrowIDs[id]; ok {
			add(arrowPkg, t, i)
			base := strings.TrimSuffix(t, "Type")
			for _, n := range []string{base, base + "Traits", base + "SizeBytes"} {
				if arrowNames[n] {
					add(arrowPkg, n, i)
				}
			}
		}
		for _, a := range arrays[id] {
			add(arrayPkg, a, i)
			add(arrayPkg, "New"+a+"Data", i)
		}
		for _, b := range builders[id] {
			add(arrayPkg, b, i)
			add(arrayPkg, "New"+b, i)
		}
		for _, n := range viewNodes(r) {
			add(viewsPkg, n, i)
		}
	}
	for group, v := range map[string]any{"PrimitiveTypes": arrow.PrimitiveTypes, "FixedWidthTypes": arrow.FixedWidthTypes, "BinaryTypes": arrow.BinaryTypes} {
		rv := reflect.ValueOf(v)
		for f := range rv.NumField() {
			if dt, ok := rv.Field(f).Interface().(arrow.DataType); ok {
				for i, r := range arrowtype.Rows() {
					if r.ID == dt.ID() {
						add(arrowPkg, group+"."+rv.Type().Field(f).Name, i)
					}
				}
			}
		}
	}
	valueNames, err := constsOf("Value")
	if err != nil {
		return nil, err
	}
	consts := map[arrowtype.Value]string{}
	for i, c := range valueNames {
		consts[arrowtype.Value(i)] = c
	}
	aliases, err := aliasesOf(filepath.Join(src, "decimal"))
	if err != nil {
		return nil, err
	}
	for v, row := range owner {
		add(tablePkg, consts[v], row)
		t := v.GoType()
		if t.PkgPath() == "" {
			continue // a Go built-in: int32 is no Arrow name
		}
		add(t.PkgPath(), t.Name(), row)
		for _, a := range aliases[name{t.PkgPath(), t.Name()}] {
			add(a.pkg, a.name, row)
		}
	}
	return names, nil
}

// viewNodes is the node types of package views that only r's layout has.
func viewNodes(r *arrowtype.Row) []string {
	switch {
	case r.Layout == arrowtype.View:
		return []string{"BinaryView"}
	case r.Layout == arrowtype.FixedBinary:
		return []string{"FixedSizeBinary"}
	case r.Layout == arrowtype.ListView:
		return []string{"ListView", "ListViewColumn"}
	case r.Layout == arrowtype.FixedList:
		return []string{"FixedSizeList", "FixedSizeListColumn"}
	case r.Layout == arrowtype.List && r.Map:
		return []string{"Map", "MapColumn", "MapEntries"}
	case r.Layout == arrowtype.Boolean:
		return []string{"Bool", "BoolColumn"}
	case r.Temporal == arrowtype.Timestamp:
		return []string{"TimestampColumn"}
	case r.Layout == arrowtype.Union:
		return []string{"Union", "UnionColumn"}
	case r.Layout == arrowtype.Dictionary:
		return []string{"Dictionary", "DictionaryColumn"}
	case r.Layout == arrowtype.RunEnd:
		return []string{"RunEnd", "RunEndColumn"}
	case r.Layout == arrowtype.Struct:
		return []string{"Struct", "StructColumn", "StructRow"}
	case r.Layout == arrowtype.Null:
		return []string{"Null"}
	}
	return nil
}

// idName is the name of id's constant in package arrow.
func idName(id arrow.Type) string { return id.String() }

// typesByID reads arrow-go's `func (*XType) ID() Type { return X }`.
func typesByID(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := eachFile(dir, func(f *ast.File) {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "ID" || fn.Body == nil || len(fn.Body.List) != 1 {
				continue
			}
			ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			id, ok := ret.Results[0].(*ast.Ident)
			if !ok {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if t, ok := recv.(*ast.Ident); ok && strings.HasSuffix(t.Name, "Type") {
				out[id.Name] = t.Name
			}
		}
	})
	return out, err
}

// arraysByID reads array's makeArrayFn (arrow.X: NewYData) and
// NewBuilder (case arrow.X: NewYBuilder) for the arrays and builders of
// each ID.
func arraysByID(dir string) (arrays, builders map[string][]string, err error) {
	arrays, builders = map[string][]string{}, map[string][]string{}
	calls := func(n ast.Node, prefix, suffix string, into []string) []string {
		ast.Inspect(n, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && strings.HasPrefix(id.Name, prefix) && strings.HasSuffix(id.Name, suffix) {
					t := strings.TrimSuffix(strings.TrimPrefix(id.Name, prefix), strings.TrimSuffix(suffix, "Builder"))
					if !slices.Contains(into, t) {
						into = append(into, t)
					}
				}
			}
			return true
		})
		return into
	}
	err = eachFile(dir, func(f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id := arrowID(n.Key); id != "" {
					arrays[id] = calls(n.Value, "New", "Data", arrays[id])
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if id := arrowID(e); id != "" {
						builders[id] = calls(&ast.BlockStmt{List: n.Body}, "New", "Builder", builders[id])
					}
				}
			}
			return true
		})
	})
	return arrays, builders, err
}

func arrowID(e ast.Expr) string {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if x, ok := s.X.(*ast.Ident); ok && x.Name == "arrow" && strings.ToUpper(s.Sel.Name) == s.Sel.Name {
		return s.Sel.Name
	}
	return ""
}

// declared is the exported top-level names of the package in dir.
func declared(dir string) (map[string]bool, error) {
	out := map[string]bool{}
	err := eachFile(dir, func(f *ast.File) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = true
					}
				}
			}
		}
	})
	return out, err
}

// aliasesOf reads the aliases `type X = pkg.Y` of arrow-go's decimal
// package, both ways: decimal.Decimal128 is decimal128.Num.
func aliasesOf(dir string) (map[name][]name, error) {
	out := map[name][]name{}
	err := eachFile(dir, func(f *ast.File) {
		imports := map[string]string{}
		for _, is := range f.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			imports[p[strings.LastIndex(p, "/")+1:]] = p
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || !ts.Assign.IsValid() {
					continue
				}
				sel, ok := ts.Type.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					continue
				}
				alias, target := name{arrowPkg + "/decimal", ts.Name.Name}, name{imports[x.Name], sel.Sel.Name}
				out[alias] = append(out[alias], target)
				out[target] = append(out[target], alias)
			}
		}
	})
	return out, err
}

func eachFile(dir string, fn func(*ast.File)) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		fn(f)
	}
	return nil
}

// constsOf is the names of the table's constants of type typ (Value,
// Layout, Temporal) in the order of their values, read from the table's
// source: each is an iota block of its own.
func constsOf(typ string) ([]string, error) {
	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", tablePkg).Output()
	if err != nil {
		return nil, err
	}
	var out []string
	err = eachFile(strings.TrimSpace(string(dir)), func(f *ast.File) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST || len(g.Specs) == 0 {
				continue
			}
			if id, ok := g.Specs[0].(*ast.ValueSpec).Type.(*ast.Ident); !ok || id.Name != typ {
				continue
			}
			for _, s := range g.Specs {
				out = append(out, s.(*ast.ValueSpec).Names[0].Name)
			}
		}
	})
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("no constants of type %s in %s", typ, tablePkg)
	}
	return out, err
}
