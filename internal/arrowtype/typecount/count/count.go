// Package count counts the non-test Go files of a module that name each
// Arrow type of arrowmap's table.
package count

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// A Count is the files that name one Arrow type.
type Count struct {
	Type  string // the table's name of the type
	Files []string
}

// skipped are the folders of the module users do not import.
var skipped = []string{"conformance", "bench", "examples", "integration", ".git", "testdata"}

// self is this tool, which names every type to find them.
const self = "internal/arrowtype/typecount"

// Module counts, for every row of the table, the non-test Go files under
// root that name its type, most named first.
func Module(root string) ([]Count, error) {
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if slices.Contains(skipped, d.Name()) || (rel != "." && isModule(path)) || filepath.ToSlash(rel) == self {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var counts []Count
	for _, r := range arrowtype.Rows() {
		re := pattern(r.ID)
		c := Count{Type: r.Name}
		for name, text := range files {
			if re.MatchString(text) {
				c.Files = append(c.Files, name)
			}
		}
		slices.Sort(c.Files)
		counts = append(counts, c)
	}
	slices.SortStableFunc(counts, func(a, b Count) int { return len(b.Files) - len(a.Files) })
	return counts, nil
}

func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// pattern matches the names of id in Go source: arrow.<ID>,
// arrow.<Name>Type, array.<Name> and array.<Name>Builder.
func pattern(id arrow.Type) *regexp.Regexp {
	name := goNames[id]
	return regexp.MustCompile(`\barrow\.` + id.String() + `\b|\barrow\.` + name + `Type\b|\barray\.` + name + `(Builder)?\b`)
}

// goNames are arrow-go's names of each type in its Go identifiers.
var goNames = map[arrow.Type]string{
	arrow.NULL: "Null", arrow.BOOL: "Boolean", arrow.UINT8: "Uint8", arrow.INT8: "Int8", arrow.UINT16: "Uint16",
	arrow.INT16: "Int16", arrow.UINT32: "Uint32", arrow.INT32: "Int32", arrow.UINT64: "Uint64", arrow.INT64: "Int64",
	arrow.FLOAT16: "Float16", arrow.FLOAT32: "Float32", arrow.FLOAT64: "Float64", arrow.STRING: "String",
	arrow.BINARY: "Binary", arrow.FIXED_SIZE_BINARY: "FixedSizeBinary", arrow.DATE32: "Date32", arrow.DATE64: "Date64",
	arrow.TIMESTAMP: "Timestamp", arrow.TIME32: "Time32", arrow.TIME64: "Time64",
	arrow.INTERVAL_MONTHS: "MonthInterval", arrow.INTERVAL_DAY_TIME: "DayTimeInterval",
	arrow.DECIMAL128: "Decimal128", arrow.DECIMAL256: "Decimal256", arrow.LIST: "List", arrow.STRUCT: "Struct",
	arrow.SPARSE_UNION: "SparseUnion", arrow.DENSE_UNION: "DenseUnion", arrow.DICTIONARY: "Dictionary",
	arrow.MAP: "Map", arrow.EXTENSION: "Extension", arrow.FIXED_SIZE_LIST: "FixedSizeList", arrow.DURATION: "Duration",
	arrow.LARGE_STRING: "LargeString", arrow.LARGE_BINARY: "LargeBinary", arrow.LARGE_LIST: "LargeList",
	arrow.INTERVAL_MONTH_DAY_NANO: "MonthDayNanoInterval", arrow.RUN_END_ENCODED: "RunEndEncoded",
	arrow.STRING_VIEW: "StringView", arrow.BINARY_VIEW: "BinaryView", arrow.LIST_VIEW: "ListView",
	arrow.LARGE_LIST_VIEW: "LargeListView", arrow.DECIMAL32: "Decimal32", arrow.DECIMAL64: "Decimal64",
}
