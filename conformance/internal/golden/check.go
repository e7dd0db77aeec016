package golden

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Mismatch is a decoded value that disagrees with the golden one.
type Mismatch struct {
	Batch  int
	Column string // the value's path: "struct_nullable.f2", "list_nullable[3]", "map[key 2]"
	Row    int    // the row of the batch, -1 when about the whole batch
	Msg    string
}

func (m Mismatch) String() string {
	return fmt.Sprintf("batch %d, column %s, row %d: %s", m.Batch, m.Column, m.Row, m.Msg)
}

// maxMismatches bounds what Check reports: past the first few, more say
// nothing new.
const maxMismatches = 20

// Check compares rows, the values of batch b decoded into a slice of
// structs, with the golden values. The struct's fields are the columns in
// order (exported fields not tagged `arrow:"-"`): a pointer is nullable,
// nil for a null; a slice or array is a list (nil for a null list); a map a
// map; a struct a struct, field by field in the order of its children.
// Check reports at most 20 mismatches.
func (f *File) Check(b int, rows any) []Mismatch {
	return f.check(b, -1, 0, rows)
}

// CheckColumn is Check for column k only, rows[r] being row first+r of
// the batch: the values of a column decoded from a window of its rows.
func (f *File) CheckColumn(b, k, first int, rows any) []Mismatch {
	return f.check(b, k, first, rows)
}

// check compares column only (every column if -1) of rows, row first on.
func (f *File) check(b, only, first int, rows any) []Mismatch {
	if b < 0 || b >= len(f.Batches) {
		return []Mismatch{{Batch: b, Row: -1, Msg: fmt.Sprintf("the file has %d batches", len(f.Batches))}}
	}
	batch := &f.Batches[b]
	v := reflect.ValueOf(rows)
	if v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Struct {
		return []Mismatch{{Batch: b, Row: -1, Msg: fmt.Sprintf("rows are a %T, want a slice of structs", rows)}}
	}
	if first < 0 || first+v.Len() > batch.Count || (only < 0 && v.Len() != batch.Count) {
		return []Mismatch{{Batch: b, Row: -1, Msg: fmt.Sprintf("%d rows from row %d, the batch has %d", v.Len(), first, batch.Count)}}
	}
	fields := columnFields(v.Type().Elem())
	if len(fields) != len(f.Schema.Fields) {
		return []Mismatch{{Batch: b, Row: -1, Msg: fmt.Sprintf("%s has %d column fields, want %d", v.Type().Elem(), len(fields), len(f.Schema.Fields))}}
	}
	var out []Mismatch
	for r := range v.Len() {
		for k, fi := range fields {
			if only >= 0 && k != only {
				continue
			}
			field, col := &f.Schema.Fields[k], &batch.Columns[k]
			if err := f.value(v.Index(r).Field(fi), field, col, first+r, field.Name); err != nil {
				m := Mismatch{Batch: b, Column: field.Name, Row: first + r, Msg: err.Error()}
				if pe, ok := err.(*pathError); ok {
					m.Column, m.Msg = pe.path, pe.msg
				}
				if out = append(out, m); len(out) == maxMismatches {
					return out
				}
			}
		}
	}
	return out
}

// columnFields are the indexes of the fields of struct type t that hold
// columns.
func columnFields(t reflect.Type) []int {
	var out []int
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() || sf.Tag.Get("arrow") == "-" {
			continue
		}
		out = append(out, i)
	}
	return out
}

// pathError is a mismatch at a value's path.
type pathError struct{ path, msg string }

func (e *pathError) Error() string { return e.path + ": " + e.msg }

func mismatchf(path, format string, args ...any) error {
	return &pathError{path: path, msg: fmt.Sprintf(format, args...)}
}

// value checks v against row i of column c of field f, at path.
func (f *File) value(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if i < 0 || i >= c.Count {
		return mismatchf(path, "row %d outside the column's %d", i, c.Count)
	}
	null := !c.valid(i)
	switch fd.Type.Name {
	case "null":
		null = true
	case "union", "runendencoded":
		null = false // their nulls are their children's
	}
	if fd.Dictionary != nil && !null {
		// The value, null or not, is the dictionary's.
		d := f.dicts[fd.Dictionary.ID]
		if d == nil {
			return mismatchf(path, "dictionary %d is missing", fd.Dictionary.ID)
		}
		k, err := index(c.Data, i)
		if err != nil {
			return mismatchf(path, "dictionary index: %v", err)
		}
		values := *fd
		values.Dictionary = nil
		return f.value(v, &values, d, k, path)
	}
	if v.Kind() == reflect.Pointer {
		switch {
		case null && !v.IsNil():
			return mismatchf(path, "got %s, want null", show(v.Elem()))
		case null:
			return nil
		case v.IsNil():
			return mismatchf(path, "got nil, want a value")
		}
		v = v.Elem()
	}
	if null {
		// A non-pointer level holds a null as its zero value; a slice or
		// map as nil.
		if !v.IsZero() {
			return mismatchf(path, "got %s, want null (the zero value)", show(v))
		}
		return nil
	}
	switch fd.Type.Name {
	case "null":
		return nil
	case "bool":
		return checkBool(v, c, i, path)
	case "int":
		want, err := integer(c.Data, i)
		if err != nil {
			return mismatchf(path, "%v", err)
		}
		return checkInteger(v, want, path)
	case "floatingpoint":
		return checkFloat(v, fd, c, i, path)
	case "utf8", "largeutf8", "binary", "largebinary", "fixedsizebinary", "utf8view", "binaryview":
		return checkBytes(v, fd, c, i, path)
	case "decimal":
		return checkDecimal(v, fd, c, i, path)
	case "date", "time", "timestamp", "duration":
		return checkTemporal(v, fd, c, i, path)
	case "interval":
		return checkInterval(v, fd, c, i, path)
	case "list", "largelist", "fixedsizelist", "listview", "largelistview":
		return f.checkList(v, fd, c, i, path)
	case "struct":
		return f.checkStruct(v, fd, c, i, path)
	case "map":
		return f.checkMap(v, fd, c, i, path)
	case "union":
		return f.checkUnion(v, fd, c, i, path)
	case "runendencoded":
		return f.checkRunEnd(v, fd, c, i, path)
	}
	return mismatchf(path, "no check for Arrow type %q", fd.Type.Name)
}

func show(v reflect.Value) string {
	if !v.IsValid() {
		return "nothing"
	}
	if v.CanInterface() {
		if t, ok := v.Interface().(time.Time); ok {
			return t.Format(time.RFC3339Nano) + " " + t.Location().String()
		}
		return fmt.Sprintf("%#v", v.Interface())
	}
	return v.String()
}

func checkBool(v reflect.Value, c *Column, i int, path string) error {
	if i >= len(c.Data) {
		return mismatchf(path, "no DATA at %d", i)
	}
	var want bool
	switch s := string(c.Data[i]); s {
	case "true", "1":
		want = true
	case "false", "0":
	default:
		return mismatchf(path, "DATA %s is not a bool", s)
	}
	if v.Kind() != reflect.Bool {
		return mismatchf(path, "a bool into Go %s", v.Type())
	}
	if v.Bool() != want {
		return mismatchf(path, "got %v, want %v", v.Bool(), want)
	}
	return nil
}

// checkInteger compares an integer Go value (of any width, signed or not,
// a named type too: a time.Duration, a decimal.Decimal32) with want.
func checkInteger(v reflect.Value, want *big.Int, path string) error {
	var got *big.Int
	switch {
	case v.Kind() >= reflect.Int && v.Kind() <= reflect.Int64:
		got = big.NewInt(v.Int())
	case v.Kind() >= reflect.Uint && v.Kind() <= reflect.Uintptr:
		got = new(big.Int).SetUint64(v.Uint())
	default:
		return mismatchf(path, "an integer into Go %s", v.Type())
	}
	if got.Cmp(want) != 0 {
		return mismatchf(path, "got %s, want %s", got, want)
	}
	return nil
}

func checkFloat(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if i >= len(c.Data) {
		return mismatchf(path, "no DATA at %d", i)
	}
	want, err := strconv.ParseFloat(strings.Trim(string(c.Data[i]), `"`), 64)
	if err != nil {
		return mismatchf(path, "DATA %s is not a number", c.Data[i])
	}
	precision := strings.Trim(string(fd.Type.Precision), `"`)
	var got float64
	switch {
	case v.Kind() == reflect.Float32 || v.Kind() == reflect.Float64:
		got = v.Float()
	case v.CanInterface():
		h, ok := v.Interface().(interface{ Float32() float32 }) // float16.Num
		if !ok {
			return mismatchf(path, "a float into Go %s", v.Type())
		}
		got = float64(h.Float32())
	default:
		return mismatchf(path, "a float into Go %s", v.Type())
	}
	switch precision {
	case "HALF":
		// The JSON prints a half float in decimal: within half a step of
		// its 11 significant bits.
		if math.Abs(got-want) > math.Abs(want)*0x1p-11+0x1p-24 {
			return mismatchf(path, "got %v, want %v", got, want)
		}
	case "SINGLE":
		if float32(got) != float32(want) {
			return mismatchf(path, "got %v, want %v", float32(got), float32(want))
		}
	default:
		if got != want {
			return mismatchf(path, "got %v, want %v", got, want)
		}
	}
	return nil
}

// checkBytes checks strings and binaries, offset, fixed-size and view
// layouts alike: a string or a []byte or [N]byte Go value holding the
// bytes.
func checkBytes(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	binary := !strings.Contains(fd.Type.Name, "utf8")
	var want []byte
	if fd.Type.Name == "utf8view" || fd.Type.Name == "binaryview" {
		w, err := viewBytes(c, i, binary)
		if err != nil {
			return mismatchf(path, "%v", err)
		}
		want = w
	} else {
		s, err := text(c.Data, i)
		if err != nil {
			return mismatchf(path, "%v", err)
		}
		want = []byte(s)
		if binary {
			if want, err = hex.DecodeString(s); err != nil {
				return mismatchf(path, "DATA %q is not hex", s)
			}
		}
	}
	if fd.Type.Name == "fixedsizebinary" && len(want) != fd.Type.ByteWidth {
		return mismatchf(path, "golden value of %d bytes for byteWidth %d", len(want), fd.Type.ByteWidth)
	}
	var got []byte
	switch {
	case v.Kind() == reflect.String:
		got = []byte(v.String())
	case (v.Kind() == reflect.Slice || v.Kind() == reflect.Array) && v.Type().Elem().Kind() == reflect.Uint8:
		got = make([]byte, v.Len())
		for k := range got {
			got[k] = byte(v.Index(k).Uint())
		}
		if v.Kind() == reflect.Slice && v.IsNil() {
			return mismatchf(path, "got nil, want %q", want)
		}
	default:
		return mismatchf(path, "%s into Go %s", fd.Type.Name, v.Type())
	}
	if !bytes.Equal(got, want) {
		return mismatchf(path, "got %q, want %q", got, want)
	}
	return nil
}

// viewBytes is row i of a view column: inlined, or a window of one of the
// variadic buffers.
func viewBytes(c *Column, i int, binary bool) ([]byte, error) {
	if i >= len(c.Views) {
		return nil, fmt.Errorf("no VIEWS at %d", i)
	}
	vw := c.Views[i]
	decode := func(s string) ([]byte, error) {
		if binary {
			return hex.DecodeString(s)
		}
		return []byte(s), nil
	}
	if vw.Size <= 12 {
		return decode(vw.Inlined)
	}
	if vw.BufferIndex < 0 || vw.BufferIndex >= len(c.Variadic) {
		return nil, fmt.Errorf("view buffer %d of %d", vw.BufferIndex, len(c.Variadic))
	}
	buf, err := hex.DecodeString(c.Variadic[vw.BufferIndex]) // variadic buffers are hex, strings too
	if err != nil {
		return nil, err
	}
	if vw.Offset < 0 || vw.Size < 0 || vw.Offset+vw.Size > len(buf) {
		return nil, fmt.Errorf("view [%d, +%d) outside a buffer of %d", vw.Offset, vw.Size, len(buf))
	}
	return buf[vw.Offset : vw.Offset+vw.Size], nil
}

// checkDecimal compares a decimal's unscaled integer with a Go value that
// has a BigInt method (decimal128.Num, decimal256.Num), an integer kind
// (decimal.Decimal32, Decimal64), or a string holding its text.
func checkDecimal(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	want, err := integer(c.Data, i)
	if err != nil {
		return mismatchf(path, "%v", err)
	}
	if v.Kind() == reflect.String {
		if w := DecimalText(want, fd.Type.Scale); v.String() != w {
			return mismatchf(path, "got %q, want %q", v.String(), w)
		}
		return nil
	}
	if v.CanInterface() {
		if b, ok := v.Interface().(interface{ BigInt() *big.Int }); ok {
			if got := b.BigInt(); got.Cmp(want) != 0 {
				return mismatchf(path, "got unscaled %s, want %s", got, want)
			}
			return nil
		}
	}
	return checkInteger(v, want, path)
}

// DecimalText is the plain text of unscaled·10^-scale: "-1.50" for -150
// at scale 2.
func DecimalText(unscaled *big.Int, scale int) string {
	if scale <= 0 {
		return new(big.Int).Mul(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil)).String()
	}
	digits := new(big.Int).Abs(unscaled).String()
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	sign := ""
	if unscaled.Sign() < 0 {
		sign = "-"
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
)

// checkTemporal compares a date, time of day, timestamp or duration with a
// time.Time (an instant, in the column's zone; a time of day on 1970-01-01
// UTC), a time.Duration, or any integer holding the stored value.
func checkTemporal(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	raw, err := integer(c.Data, i)
	if err != nil {
		return mismatchf(path, "%v", err)
	}
	if v.Type() != timeType && v.Type() != durationType {
		return checkInteger(v, raw, path)
	}
	if !raw.IsInt64() {
		return mismatchf(path, "golden value %s is not an int64", raw)
	}
	n := raw.Int64()
	unit := fd.Type.Unit
	if fd.Type.Name == "date" {
		unit = map[string]string{"DAY": "", "MILLISECOND": "MILLISECOND"}[fd.Type.Unit]
		if unit == "" {
			n, unit = n*86400, "SECOND"
		}
	}
	per, err := unitNanos(unit)
	if err != nil {
		return mismatchf(path, "%v", err)
	}
	if v.Type() == durationType {
		if fd.Type.Name != "duration" && fd.Type.Name != "time" {
			return mismatchf(path, "%s into time.Duration", fd.Type.Name)
		}
		if n > math.MaxInt64/per || n < math.MinInt64/per {
			return mismatchf(path, "got %v for %d × %dns, which no time.Duration holds", time.Duration(v.Int()), n, per)
		}
		if want := time.Duration(n * per); time.Duration(v.Int()) != want {
			return mismatchf(path, "got %v, want %v", time.Duration(v.Int()), want)
		}
		return nil
	}
	if fd.Type.Name == "duration" {
		return mismatchf(path, "a duration into time.Time")
	}
	want := time.Unix(n/(1e9/per), n%(1e9/per)*per)
	got := v.Interface().(time.Time)
	if !got.Equal(want) {
		return mismatchf(path, "got %s, want %s", got.UTC().Format(time.RFC3339Nano), want.UTC().Format(time.RFC3339Nano))
	}
	zone := "UTC"
	if fd.Type.Name == "timestamp" && fd.Type.Timezone != "" {
		zone = fd.Type.Timezone
	}
	if strings.HasPrefix(zone, "+") || strings.HasPrefix(zone, "-") {
		if _, off := got.Zone(); off != zoneOffset(zone) {
			return mismatchf(path, "got offset %ds, want zone %s", off, zone)
		}
	} else if got.Location().String() != zone {
		return mismatchf(path, "got zone %s, want %s", got.Location(), zone)
	}
	return nil
}

// zoneOffset is the seconds east of UTC of "+05:30"; 1 (never an offset of
// whole minutes) when malformed, so that the comparison fails.
func zoneOffset(s string) int {
	h, m, ok := strings.Cut(s[1:], ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil {
		return 1
	}
	off := hh*3600 + mm*60
	if s[0] == '-' {
		off = -off
	}
	return off
}

// checkInterval compares an interval with an integer (months) or a struct
// with the fields of its parts (Days and Milliseconds; Months, Days and
// Nanoseconds), as arrow-go's interval types have.
func checkInterval(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if i >= len(c.Data) {
		return mismatchf(path, "no DATA at %d", i)
	}
	if fd.Type.Unit == "YEAR_MONTH" {
		want, err := integer(c.Data, i)
		if err != nil {
			return mismatchf(path, "%v", err)
		}
		return checkInteger(v, want, path)
	}
	parts := map[string][]string{
		"DAY_TIME":       {"days", "milliseconds"},
		"MONTH_DAY_NANO": {"months", "days", "nanoseconds"},
	}[fd.Type.Unit]
	if parts == nil {
		return mismatchf(path, "unknown interval unit %q", fd.Type.Unit)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(c.Data[i], &obj); err != nil {
		return mismatchf(path, "DATA %s is not an interval object", c.Data[i])
	}
	if v.Kind() != reflect.Struct {
		return mismatchf(path, "interval %s into Go %s", fd.Type.Unit, v.Type())
	}
	for _, p := range parts {
		want, err := integer([]json.RawMessage{obj[p]}, 0)
		if err != nil {
			return mismatchf(path, "%s: %v", p, err)
		}
		fv := v.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, p) })
		if !fv.IsValid() {
			return mismatchf(path, "Go %s has no field %s", v.Type(), p)
		}
		if err := checkInteger(fv, want, path+"."+p); err != nil {
			return err
		}
	}
	return nil
}

// span is the child rows [start, end) of list row i.
func span(fd *Field, c *Column, i int) (start, end int, err error) {
	switch fd.Type.Name {
	case "fixedsizelist":
		return i * fd.Type.ListSize, (i + 1) * fd.Type.ListSize, nil
	case "listview", "largelistview":
		if start, err = index(c.Offset, i); err != nil {
			return 0, 0, err
		}
		size, err := index(c.Size, i)
		return start, start + size, err
	}
	if start, err = index(c.Offset, i); err != nil {
		return 0, 0, err
	}
	end, err = index(c.Offset, i+1)
	if err == nil && end < start {
		err = fmt.Errorf("offsets %d > %d", start, end)
	}
	return start, end, err
}

func (f *File) checkList(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if len(fd.Children) != 1 || len(c.Children) != 1 {
		return mismatchf(path, "a list without one child")
	}
	start, end, err := span(fd, c, i)
	if err != nil {
		return mismatchf(path, "%v", err)
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return mismatchf(path, "got nil, want a list of %d", end-start)
		}
	case reflect.Array:
	default:
		return mismatchf(path, "a list into Go %s", v.Type())
	}
	if v.Len() != end-start {
		return mismatchf(path, "got %d elements, want %d", v.Len(), end-start)
	}
	for k := range v.Len() {
		if err := f.value(v.Index(k), &fd.Children[0], &c.Children[0], start+k, fmt.Sprintf("%s[%d]", path, k)); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) checkStruct(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if v.Kind() != reflect.Struct {
		return mismatchf(path, "a struct into Go %s", v.Type())
	}
	fields := columnFields(v.Type())
	if len(fields) != len(fd.Children) || len(c.Children) != len(fd.Children) {
		return mismatchf(path, "Go %s has %d fields for %d children", v.Type(), len(fields), len(fd.Children))
	}
	for k, fi := range fields {
		if err := f.value(v.Field(fi), &fd.Children[k], &c.Children[k], i, path+"."+fd.Children[k].Name); err != nil {
			return err
		}
	}
	return nil
}

// checkMap compares a Go map with row i of a map column: as many entries,
// each key found among the Go keys with the entry's value; or a slice of
// entries, with the column's in order (checkEntries).
func (f *File) checkMap(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if len(fd.Children) != 1 || len(fd.Children[0].Children) != 2 || len(c.Children) != 1 || len(c.Children[0].Children) != 2 {
		return mismatchf(path, "a map without an entries struct of two children")
	}
	entries := v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct && v.Type().Elem().NumField() == 2
	if v.Kind() != reflect.Map && !entries {
		return mismatchf(path, "a map into Go %s", v.Type())
	}
	start, end, err := span(fd, c, i)
	if err != nil {
		return mismatchf(path, "%v", err)
	}
	if entries {
		return f.checkEntries(v, fd, c, start, end, path)
	}
	if v.IsNil() {
		return mismatchf(path, "got nil, want a map of %d", end-start)
	}
	if v.Len() != end-start {
		return mismatchf(path, "got %d entries, want %d", v.Len(), end-start)
	}
	keyField, valueField := &fd.Children[0].Children[0], &fd.Children[0].Children[1]
	keys, values := &c.Children[0].Children[0], &c.Children[0].Children[1]
	for j := start; j < end; j++ {
		entry := fmt.Sprintf("%s[entry %d]", path, j-start)
		var found reflect.Value
		for _, k := range v.MapKeys() {
			if f.value(k, keyField, keys, j, entry) == nil {
				found = k
				break
			}
		}
		if !found.IsValid() {
			return mismatchf(entry, "no Go key is the golden one")
		}
		if err := f.value(v.MapIndex(found), valueField, values, j, fmt.Sprintf("%s[%s]", path, show(found))); err != nil {
			return err
		}
	}
	return nil
}

// checkEntries compares a Go slice of entries, structs of a key and a
// value field, with the entries start to end of a map column: in order,
// every duplicate key in its place.
func (f *File) checkEntries(v reflect.Value, fd *Field, c *Column, start, end int, path string) error {
	if v.IsNil() {
		return mismatchf(path, "got nil, want %d entries", end-start)
	}
	if v.Len() != end-start {
		return mismatchf(path, "got %d entries, want %d", v.Len(), end-start)
	}
	for j := start; j < end; j++ {
		entry := fmt.Sprintf("%s[entry %d]", path, j-start)
		e := v.Index(j - start)
		for k := range 2 {
			if err := f.value(e.Field(k), &fd.Children[0].Children[k], &c.Children[0].Children[k], j, entry+"."+fd.Children[0].Children[k].Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkUnion compares a union with a struct holding one field per variant,
// in the order of the union's children, and maybe an int8 for the type id
// after them: the field of row i's variant holds its value, every other is
// its zero value (nil for a pointer).
func (f *File) checkUnion(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if i >= len(c.TypeID) {
		return mismatchf(path, "no TYPE_ID at %d", i)
	}
	variant := -1
	for k, id := range fd.Type.TypeIDs {
		if id == c.TypeID[i] {
			variant = k
		}
	}
	if fd.Type.TypeIDs == nil {
		variant = c.TypeID[i]
	}
	if variant < 0 || variant >= len(fd.Children) || variant >= len(c.Children) {
		return mismatchf(path, "type id %d names no child", c.TypeID[i])
	}
	row := i
	if fd.Type.Mode == "DENSE" {
		var err error
		if row, err = index(c.Offset, i); err != nil {
			return mismatchf(path, "%v", err)
		}
	}
	if v.Kind() != reflect.Struct {
		return mismatchf(path, "a union into Go %s", v.Type())
	}
	fields := columnFields(v.Type())
	if len(fields) == len(fd.Children)+1 {
		// The last field, an int8, holds the row's type id.
		code := v.Field(fields[len(fields)-1])
		if code.Kind() != reflect.Int8 {
			return mismatchf(path, "Go %s: the field after the variants is %s, not the int8 of the type id", v.Type(), code.Type())
		}
		if code.Int() != int64(c.TypeID[i]) {
			return mismatchf(path, "type id %d, want %d", code.Int(), c.TypeID[i])
		}
		fields = fields[:len(fields)-1]
	}
	if len(fields) != len(fd.Children) {
		return mismatchf(path, "Go %s has %d fields for %d variants", v.Type(), len(fields), len(fd.Children))
	}
	for k, fi := range fields {
		fv := v.Field(fi)
		if k != variant {
			if !fv.IsZero() {
				return mismatchf(path, "variant %s is set (%s), want variant %s", fd.Children[k].Name, show(fv), fd.Children[variant].Name)
			}
			continue
		}
		if err := f.value(fv, &fd.Children[k], &c.Children[k], row, path+"."+fd.Children[k].Name); err != nil {
			return err
		}
	}
	return nil
}

// checkRunEnd compares the value of the run row i falls in.
func (f *File) checkRunEnd(v reflect.Value, fd *Field, c *Column, i int, path string) error {
	if len(fd.Children) != 2 || len(c.Children) != 2 {
		return mismatchf(path, "run-end encoded without run ends and values")
	}
	ends := &c.Children[0]
	for k := range ends.Count {
		end, err := integer(ends.Data, k)
		if err != nil {
			return mismatchf(path, "run end: %v", err)
		}
		if end.Cmp(big.NewInt(int64(i))) > 0 {
			return f.value(v, &fd.Children[1], &c.Children[1], k, path)
		}
	}
	return mismatchf(path, "row %d past the last run end", i)
}
