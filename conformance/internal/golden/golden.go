// Package golden reads the golden values of Apache Arrow's integration
// files (Arrow's integration JSON format) and checks Go values decoded from
// the same data against them.
//
// It imports the standard library only: it shares no code with arrowmap or
// with arrow-go, so a bug there cannot hide by being repeated here.
//
//	f, err := golden.ReadFile("generated_datetime.json.gz")
//	mismatches := f.Check(0, rows) // rows: the []T decoded from batch 0
package golden

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
)

// File is an integration JSON file: a schema, its record batches and the
// dictionaries its dictionary-encoded fields index.
type File struct {
	Schema       Schema       `json:"schema"`
	Batches      []Batch      `json:"batches"`
	Dictionaries []Dictionary `json:"dictionaries"`

	dicts map[int64]*Column
}

// Schema is a File's schema.
type Schema struct {
	Fields   []Field    `json:"fields"`
	Metadata []KeyValue `json:"metadata"`
}

// Field is a field of a schema or of a nested type.
type Field struct {
	Name       string          `json:"name"`
	Nullable   bool            `json:"nullable"`
	Type       Type            `json:"type"`
	Children   []Field         `json:"children"`
	Dictionary *DictionaryInfo `json:"dictionary"`
	Metadata   []KeyValue      `json:"metadata"`
}

// KeyValue is one metadata entry.
type KeyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// DictionaryInfo says that a field is dictionary-encoded: which dictionary
// and the indices' type. The field's Type is the dictionary's value type.
type DictionaryInfo struct {
	ID        int64 `json:"id"`
	IndexType Type  `json:"indexType"`
	IsOrdered bool  `json:"isOrdered"`
}

// Type is a field's type: Name ("int", "utf8", "timestamp", …) and the
// parameters that type has.
type Type struct {
	Name      string `json:"name"`
	IsSigned  bool   `json:"isSigned"`
	BitWidth  int    `json:"bitWidth"`
	Unit      string `json:"unit"`
	Timezone  string `json:"timezone"`
	ByteWidth int    `json:"byteWidth"`
	ListSize  int    `json:"listSize"`
	Scale     int    `json:"scale"`
	Mode      string `json:"mode"`
	TypeIDs   []int  `json:"typeIds"`
	// Precision is "HALF", "SINGLE" or "DOUBLE" for a float, digits for a
	// decimal.
	Precision json.RawMessage `json:"precision"`
}

// Batch is a record batch: its row count and one Column per field.
type Batch struct {
	Count   int      `json:"count"`
	Columns []Column `json:"columns"`
}

// Dictionary is the values of one dictionary, as a batch of one column.
type Dictionary struct {
	ID   int64 `json:"id"`
	Data Batch `json:"data"`
}

// Column holds one array's buffers as the integration format writes them.
type Column struct {
	Name     string            `json:"name"`
	Count    int               `json:"count"`
	Validity []int             `json:"VALIDITY"`
	Data     []json.RawMessage `json:"DATA"`
	Offset   []json.RawMessage `json:"OFFSET"`
	Size     []json.RawMessage `json:"SIZE"`
	TypeID   []int             `json:"TYPE_ID"`
	Views    []View            `json:"VIEWS"`
	Variadic []string          `json:"VARIADIC_DATA_BUFFERS"`
	Children []Column          `json:"children"`
}

// View is one value of a binary or string view column.
type View struct {
	Size        int    `json:"SIZE"`
	Inlined     string `json:"INLINED"`
	BufferIndex int    `json:"BUFFER_INDEX"`
	Offset      int    `json:"OFFSET"`
}

// maxFile bounds what ReadFile inflates: the files are small, a larger one
// is not one of them.
const maxFile = 256 << 20

// ReadFile reads a .json or .json.gz integration file.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var r io.Reader = fh
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(fh)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxFile)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Parse reads an integration file from its JSON text.
func Parse(data []byte) (*File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	f.dicts = map[int64]*Column{}
	for i := range f.Dictionaries {
		d := &f.Dictionaries[i]
		if len(d.Data.Columns) != 1 {
			return nil, fmt.Errorf("dictionary %d has %d columns, want 1", d.ID, len(d.Data.Columns))
		}
		f.dicts[d.ID] = &d.Data.Columns[0]
	}
	for i, b := range f.Batches {
		if len(b.Columns) != len(f.Schema.Fields) {
			return nil, fmt.Errorf("batch %d has %d columns for %d fields", i, len(b.Columns), len(f.Schema.Fields))
		}
	}
	return &f, nil
}

// valid tells whether row i of c is not null. A column without VALIDITY
// (a union, or a writer that left it out) has no nulls.
func (c *Column) valid(i int) bool {
	return c.Validity == nil || (i < len(c.Validity) && c.Validity[i] != 0)
}

// integer is DATA[i] as an integer: a JSON number, or a string for 64-bit
// and decimal values.
func integer(raw []json.RawMessage, i int) (*big.Int, error) {
	if i < 0 || i >= len(raw) {
		return nil, fmt.Errorf("index %d outside %d values", i, len(raw))
	}
	s := string(raw[i])
	if uq, err := strconv.Unquote(s); err == nil {
		s = uq
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("%s is not an integer", raw[i])
	}
	return n, nil
}

// index is integer, as an int.
func index(raw []json.RawMessage, i int) (int, error) {
	n, err := integer(raw, i)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() || n.Int64() < 0 || n.Int64() > maxFile {
		return 0, fmt.Errorf("offset %s out of range", n)
	}
	return int(n.Int64()), nil
}

// text is DATA[i] as a string.
func text(raw []json.RawMessage, i int) (string, error) {
	if i < 0 || i >= len(raw) {
		return "", fmt.Errorf("index %d outside %d values", i, len(raw))
	}
	var s string
	if err := json.Unmarshal(raw[i], &s); err != nil {
		return "", fmt.Errorf("%s is not a string", raw[i])
	}
	return s, nil
}

// unitNanos is the nanoseconds in one unit of a temporal type.
func unitNanos(unit string) (int64, error) {
	switch unit {
	case "SECOND":
		return 1e9, nil
	case "MILLISECOND":
		return 1e6, nil
	case "MICROSECOND":
		return 1e3, nil
	case "NANOSECOND":
		return 1, nil
	}
	return 0, fmt.Errorf("unknown unit %q", unit)
}

// decimalPrecision is a decimal type's declared number of digits.
func (t *Type) decimalPrecision() (int, error) {
	var p int
	if err := json.Unmarshal(t.Precision, &p); err != nil {
		return 0, fmt.Errorf("decimal precision %s: %w", t.Precision, err)
	}
	return p, nil
}
