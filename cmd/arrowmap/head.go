package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/mapper"
)

// head prints the first n rows of in as JSON lines, decoded through the
// mapper into a struct type built at run time from the schema.
func head(in *input, n int, stdout, stderr io.Writer) error {
	if n < 0 {
		return fmt.Errorf("head: -n %d is negative", n)
	}
	typ, err := rowType(in.schema)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	progress := newProgress(stderr)
	defer progress.done()
	printed := 0
	for printed < n && in.records.Next() {
		rec := in.records.RecordBatch()
		if rows := int(rec.NumRows()); rows > n-printed {
			rec = rec.NewSlice(0, int64(n-printed))
			defer rec.Release()
		}
		rows, err := mapper.DecodeTo(typ, rec)
		if err != nil {
			out.Flush() // the rows before the bad record are good
			return err
		}
		for i := range rows.Len() {
			line, err := json.Marshal(rows.Index(i).Interface())
			if err != nil {
				return fmt.Errorf("row %d: %w", printed+i, err)
			}
			out.Write(line)
			out.WriteByte('\n')
		}
		printed += rows.Len()
		progress.rows(printed)
	}
	if err := in.records.Err(); err != nil && err != io.EOF {
		out.Flush()
		return fmt.Errorf("%s: %w", in.name, err)
	}
	return out.Flush()
}

// rowType is a struct type with one field per column, tagged with the
// column's name for both arrow and JSON.
func rowType(schema *arrow.Schema) (reflect.Type, error) {
	return structType(schema.Fields(), "")
}

func structType(fields []arrow.Field, path string) (reflect.Type, error) {
	sf := make([]reflect.StructField, len(fields))
	for i, f := range fields {
		t, err := goType(f.Type, f.Nullable, joinPath(path, f.Name))
		if err != nil {
			return nil, err
		}
		sf[i] = reflect.StructField{
			Name: fmt.Sprintf("F%d", i),
			Type: t,
			Tag:  reflect.StructTag(fmt.Sprintf("arrow:%q json:%q", tagName(f.Name), f.Name)),
		}
		if t.Kind() != reflect.Pointer && f.Nullable && !nullableByNature(t) {
			sf[i].Tag = reflect.StructTag(fmt.Sprintf("arrow:%q json:%q", tagName(f.Name)+",nullable", f.Name))
		}
	}
	return reflect.StructOf(sf), nil
}

// tagName is a column name as a tag's first item: "-" alone would skip the
// field, so it is written "-," as in encoding/json.
func tagName(name string) string {
	if name == "-" {
		return "-,"
	}
	return name
}

func nullableByNature(t reflect.Type) bool {
	return t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Pointer
}

// goType is the Go type head decodes a column of dt into: a pointer when
// nullable, decimals as their exact text, dictionaries and run-end arrays
// as their values.
func goType(dt arrow.DataType, nullable bool, path string) (reflect.Type, error) {
	t, err := valueType(dt, path)
	if err != nil || !nullable || nullableByNature(t) {
		return t, err
	}
	return reflect.PointerTo(t), nil
}

func valueType(dt arrow.DataType, path string) (reflect.Type, error) {
	switch dt := dt.(type) {
	case arrow.ExtensionType:
		return valueType(dt.StorageType(), path)
	case *arrow.DictionaryType:
		return valueType(dt.ValueType, path)
	case *arrow.RunEndEncodedType:
		return valueType(dt.Encoded(), path)
	case *arrow.MapType:
		key, err := valueType(dt.KeyType(), path+".key")
		if err != nil {
			return nil, err
		}
		if !key.Comparable() {
			return nil, fmt.Errorf("column %s: map keys of type %s cannot key a Go map", path, dt.KeyType())
		}
		val, err := goType(dt.ItemType(), dt.ItemField().Nullable, path+".value")
		if err != nil {
			return nil, err
		}
		return reflect.MapOf(key, val), nil
	case arrow.ListLikeType:
		elem := dt.ElemField()
		t, err := goType(elem.Type, elem.Nullable, joinPath(path, elem.Name))
		if err != nil {
			return nil, err
		}
		return reflect.SliceOf(t), nil
	case *arrow.StructType:
		return structType(dt.Fields(), path)
	}
	if t, ok := scalarTypes[dt.ID()]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("column %s: %s is not supported", path, dt)
}

var scalarTypes = map[arrow.Type]reflect.Type{
	arrow.NULL:              reflect.TypeFor[struct{}](),
	arrow.BOOL:              reflect.TypeFor[bool](),
	arrow.INT8:              reflect.TypeFor[int8](),
	arrow.INT16:             reflect.TypeFor[int16](),
	arrow.INT32:             reflect.TypeFor[int32](),
	arrow.INT64:             reflect.TypeFor[int64](),
	arrow.UINT8:             reflect.TypeFor[uint8](),
	arrow.UINT16:            reflect.TypeFor[uint16](),
	arrow.UINT32:            reflect.TypeFor[uint32](),
	arrow.UINT64:            reflect.TypeFor[uint64](),
	arrow.FLOAT16:           reflect.TypeFor[float32](),
	arrow.FLOAT32:           reflect.TypeFor[float32](),
	arrow.FLOAT64:           reflect.TypeFor[float64](),
	arrow.STRING:            reflect.TypeFor[string](),
	arrow.LARGE_STRING:      reflect.TypeFor[string](),
	arrow.STRING_VIEW:       reflect.TypeFor[string](),
	arrow.BINARY:            reflect.TypeFor[[]byte](),
	arrow.LARGE_BINARY:      reflect.TypeFor[[]byte](),
	arrow.BINARY_VIEW:       reflect.TypeFor[[]byte](),
	arrow.FIXED_SIZE_BINARY: reflect.TypeFor[[]byte](),
	arrow.DATE32:            reflect.TypeFor[time.Time](),
	arrow.DATE64:            reflect.TypeFor[time.Time](),
	arrow.TIMESTAMP:         reflect.TypeFor[time.Time](),
	arrow.TIME32:            reflect.TypeFor[time.Duration](),
	arrow.TIME64:            reflect.TypeFor[time.Duration](),
	arrow.DURATION:          reflect.TypeFor[time.Duration](),
	arrow.DECIMAL32:         reflect.TypeFor[string](),
	arrow.DECIMAL64:         reflect.TypeFor[string](),
	arrow.DECIMAL128:        reflect.TypeFor[string](),
	arrow.DECIMAL256:        reflect.TypeFor[string](),
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
