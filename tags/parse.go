package tags

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-viper/mapstructure/v2"
)

// Parse decodes the value of an `arrow` struct tag: a column name, then
// options, as described in the package documentation. "-" alone skips the
// field; "-," names a column "-"; a name in double quotes is a Go string
// literal.
func Parse(tag string) (Tag, error) {
	if quoted := strings.TrimLeftFunc(tag, unicode.IsSpace); strings.HasPrefix(quoted, `"`) {
		return parseQuoted(quoted)
	}
	name, options, hasOptions := strings.Cut(tag, ",")
	name = strings.TrimSpace(name)
	if name == "-" && !hasOptions {
		return Tag{Skip: true}, nil
	}
	t, err := ParseOptions(options)
	if err != nil {
		return Tag{}, err
	}
	if opt, ok := optionWithKey(options, "name"); ok {
		return Tag{}, &Error{Option: opt, Err: errNoNames}
	}
	t.Name = name
	return t, nil
}

// parseQuoted decodes a tag whose name is a Go string literal: "\"a,b\",pos=1".
func parseQuoted(tag string) (Tag, error) {
	literal, err := strconv.QuotedPrefix(tag)
	if err != nil {
		return Tag{}, &Error{Option: tag, Err: errors.New("a quoted name must be a Go string literal")}
	}
	name, _ := strconv.Unquote(literal) // QuotedPrefix checked it
	rest := strings.TrimSpace(tag[len(literal):])
	if rest != "" && rest[0] != ',' {
		return Tag{}, &Error{Option: tag, Err: errors.New("want a comma after the quoted name")}
	}
	t, err := ParseOptions(strings.TrimPrefix(rest, ","))
	if err != nil {
		return Tag{}, err
	}
	t.Name, t.Quoted = name, true
	return t, nil
}

// ParseOptions decodes an option list without a name: the value of an
// `arrow-elem`, `arrow-key` or `arrow-value` struct tag. Empty options are
// ignored, so a leading comma as parquet-go users write it (",nullable")
// means the same as none ("nullable").
func ParseOptions(opts string) (Tag, error) {
	options := splitOptions(opts)
	if len(options) == 0 {
		return Tag{}, nil // the common case, a tag with a name only
	}
	set, err := collect(options)
	if err != nil {
		return Tag{}, err
	}
	raw, err := set.decode()
	if err != nil {
		return Tag{}, err
	}
	return set.resolve(raw)
}

// splitOptions splits s on the commas outside parentheses, so that
// "decimal(10,2)" stays one option, trims each option and drops empty ones.
func splitOptions(s string) []string {
	var options []string
	appendOption := func(o string) {
		if o = strings.TrimSpace(o); o != "" {
			options = append(options, o)
		}
	}
	depth, start, quoted := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++ // an escaped character, a quote maybe
		case c == '"' && (quoted || opensQuote(s[start:i])):
			quoted = !quoted // a Go-quoted value: commas inside do not split
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == ',':
			if depth == 0 {
				appendOption(s[start:i])
				start = i + 1
			}
		}
	}
	appendOption(s[start:])
	return options
}

// opensQuote reports whether a quote after before, the option so far,
// opens a Go-quoted value: at the start of the option or of its value
// (after "=" or "("). A quote elsewhere is a character of the value, which
// unquote refuses, and does not hide the commas after it.
func opensQuote(before string) bool {
	before = strings.TrimSpace(before)
	return before == "" || strings.HasSuffix(before, "=") || strings.HasSuffix(before, "(")
}

// written is an option as it appears in the tag, kept to name it in errors.
type written struct {
	text string // the option as written, trimmed: "unit=ms", "decimal(10,2)"
	pos  int    // its index among the tag's options
}

// optionSet is a tag's options split into the input of mapstructure.
type optionSet struct {
	// values maps an option key to true for a flag, the value string for
	// key=value, and the precision and scale strings for decimal(p,s).
	values map[string]any
	// written maps each key of values to the option that set it.
	written map[string]written
}

var (
	errMissingKey   = errors.New("missing option name before =")
	errDecimal      = errors.New("want decimal(precision,scale) with two integers")
	errUnknown      = errors.New("unknown option")
	errNeedsValue   = errors.New("needs a value, as in key=value")
	errUnitTemporal = errors.New("unit needs timestamp, time32, time64 or duration")
	errTZTimestamp  = errors.New("tz needs timestamp")
	errScaleAlone   = errors.New("scale needs precision")
)

// collect reads the options into an optionSet, rejecting malformed syntax
// and an option given twice.
func collect(options []string) (*optionSet, error) {
	s := &optionSet{values: map[string]any{}, written: map[string]written{}}
	for pos, text := range options {
		w := written{text: text, pos: pos}
		if strings.HasPrefix(text, "decimal(") {
			precision, scale, err := splitDecimal(text)
			if err != nil {
				return nil, &Error{Option: text, Err: err}
			}
			if err := s.add("precision", precision, w); err != nil {
				return nil, err
			}
			if err := s.add("scale", scale, w); err != nil {
				return nil, err
			}
			continue
		}
		if inner, ok := strings.CutPrefix(text, "elem("); ok {
			inner, closed := strings.CutSuffix(inner, ")")
			if !closed {
				return nil, &Error{Option: text, Err: errors.New("want elem(options) with its parenthesis closed")}
			}
			if err := s.add("elem", inner, w); err != nil {
				return nil, err
			}
			continue
		}
		key, value, hasValue := strings.Cut(text, "=")
		if !hasValue {
			if err := s.add(text, true, w); err != nil {
				return nil, err
			}
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case key == "":
			return nil, &Error{Option: text, Err: errMissingKey}
		case value == "":
			return nil, &Error{Option: text, Err: fmt.Errorf("missing value after %s=", key)}
		}
		value, err := unquote(value)
		if err != nil {
			return nil, &Error{Option: text, Err: err}
		}
		if err := s.add(key, value, w); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// add records one key, rejecting a key set before: "nullable,nullable" or
// "decimal(10,2),precision=12".
func (s *optionSet) add(key string, value any, w written) error {
	if prev, ok := s.written[key]; ok {
		if isDecimal(prev.text) != isDecimal(w.text) {
			return &Error{Option: w.text, Err: fmt.Errorf("conflicts with %q", prev.text)}
		}
		return &Error{Option: w.text, Err: fmt.Errorf("repeats %q", prev.text)}
	}
	s.values[key] = value
	s.written[key] = w
	return nil
}

func isDecimal(text string) bool { return strings.HasPrefix(text, "decimal(") }

// splitDecimal returns the precision and scale text of "decimal(p,s)"; the
// decoder checks that they are integers.
func splitDecimal(text string) (precision, scale string, err error) {
	inner, closed := strings.CutSuffix(strings.TrimPrefix(text, "decimal("), ")")
	precision, scale, found := strings.Cut(inner, ",")
	precision, scale = strings.TrimSpace(precision), strings.TrimSpace(scale)
	if !closed || !found || precision == "" || scale == "" || strings.Contains(scale, ",") {
		return "", "", errDecimal
	}
	return precision, scale, nil
}

// rawOptions is what mapstructure decodes an optionSet into: one field per
// option key, before the options are checked against each other.
type rawOptions struct {
	Nullable bool `mapstructure:"nullable"`
	Inline   bool `mapstructure:"inline"`
	// Elem is the text inside elem(…), the options of a list's element
	// given where no struct tag of its own can: below another element.
	Elem  string `mapstructure:"elem"`
	View  bool   `mapstructure:"view"`
	Large bool   `mapstructure:"large"`
	Dict  bool   `mapstructure:"dict"`
	REE   bool   `mapstructure:"ree"`

	List            bool `mapstructure:"list"`
	LargeList       bool `mapstructure:"large_list"`
	ListView        bool `mapstructure:"list_view"`
	ListViewAlias   bool `mapstructure:"listview"`
	LargeListView   bool `mapstructure:"large_list_view"`
	FixedSizeList   bool `mapstructure:"fixed_size_list"`
	Utf8            bool `mapstructure:"utf8"`
	LargeUtf8       bool `mapstructure:"large_utf8"`
	Utf8View        bool `mapstructure:"utf8_view"`
	Binary          bool `mapstructure:"binary"`
	LargeBinary     bool `mapstructure:"large_binary"`
	BinaryView      bool `mapstructure:"binary_view"`
	FixedSizeBinary bool `mapstructure:"fixed_size_binary"`
	Map             bool `mapstructure:"map"`

	Timestamp bool `mapstructure:"timestamp"`
	Date32    bool `mapstructure:"date32"`
	Date64    bool `mapstructure:"date64"`
	Time32    bool `mapstructure:"time32"`
	Time64    bool `mapstructure:"time64"`
	Duration  bool `mapstructure:"duration"`

	pinOptions `mapstructure:",squash"`

	Unit      Unit  `mapstructure:"unit"`
	TZ        zone  `mapstructure:"tz"`
	Precision int32 `mapstructure:"precision"`
	Scale     int32 `mapstructure:"scale"`
	Pos       int32 `mapstructure:"pos"`

	// Unions.
	Union       bool  `mapstructure:"union"`
	SparseUnion bool  `mapstructure:"sparse_union"`
	DenseUnion  bool  `mapstructure:"dense_union"`
	Code        int32 `mapstructure:"code"`
	TypeCode    bool  `mapstructure:"type_code"`
}

func (r *rawOptions) unions() []choice[UnionMode] {
	return []choice[UnionMode]{
		{r.Union, AnyUnion, "union"},
		{r.SparseUnion, SparseUnion, "sparse_union"},
		{r.DenseUnion, DenseUnion, "dense_union"},
	}
}

// resolveUnion reads the union options into t: one mode at most, and a
// code= Arrow can hold (a type code is 0 to 127).
func (s *optionSet) resolveUnion(r rawOptions, t *Tag) error {
	modes := chosen(s, r.unions())
	if len(modes) > 1 {
		return s.conflict(modes[0].key, modes[1].key)
	}
	if len(modes) == 1 {
		t.Union = modes[0].value
	}
	t.TypeCode = r.TypeCode
	if _, ok := s.written["code"]; ok {
		if r.Code < 0 || r.Code > maxTypeCode {
			return s.invalid("code", fmt.Errorf("type code %d is outside 0 to %d", r.Code, maxTypeCode))
		}
		code := int8(r.Code)
		t.Code = &code
	}
	return nil
}

// maxTypeCode is the largest type code of an Arrow union.
const maxTypeCode = 127

// zone is the value of `tz=`, a type of its own so the decode hook can
// validate it.
type zone string

// choice is one of a group of mutually exclusive options.
type choice[T any] struct {
	set   bool
	value T
	key   string
}

func (r *rawOptions) encodings() []choice[Encoding] {
	return []choice[Encoding]{
		{r.List, List, "list"},
		{r.LargeList, LargeList, "large_list"},
		{r.ListView, ListView, "list_view"},
		{r.ListViewAlias, ListView, "listview"},
		{r.LargeListView, LargeListView, "large_list_view"},
		{r.FixedSizeList, FixedSizeList, "fixed_size_list"},
		{r.Utf8, Utf8, "utf8"},
		{r.LargeUtf8, LargeUtf8, "large_utf8"},
		{r.Utf8View, Utf8View, "utf8_view"},
		{r.Binary, Binary, "binary"},
		{r.LargeBinary, LargeBinary, "large_binary"},
		{r.BinaryView, BinaryView, "binary_view"},
		{r.FixedSizeBinary, FixedSizeBinary, "fixed_size_binary"},
		{r.Map, Map, "map"},
	}
}

func (r *rawOptions) temporals() []choice[Temporal] {
	return []choice[Temporal]{
		{r.Timestamp, Timestamp, "timestamp"},
		{r.Date32, Date32, "date32"},
		{r.Date64, Date64, "date64"},
		{r.Time32, Time32, "time32"},
		{r.Time64, Time64, "time64"},
		{r.Duration, Duration, "duration"},
	}
}

// layouts are the options that change the physical layout around the
// values; arreflect allows one at most.
func (r *rawOptions) layouts() []choice[struct{}] {
	return []choice[struct{}]{
		{set: r.Dict, key: "dict"},
		{set: r.REE, key: "ree"},
		{set: r.View, key: "view"},
	}
}

// optionKeys is the set of known option keys, read from rawOptions.
var optionKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, t := range []reflect.Type{reflect.TypeFor[rawOptions](), reflect.TypeFor[pinOptions]()} {
		for i := range t.NumField() {
			if key := t.Field(i).Tag.Get("mapstructure"); key != ",squash" {
				keys[key] = true
			}
		}
	}
	return keys
}()

var (
	unitType  = reflect.TypeFor[Unit]()
	zoneType  = reflect.TypeFor[zone]()
	int32Type = reflect.TypeFor[int32]()
)

// decodeHook turns option strings into typed values; a string into bool is
// left to WeaklyTypedInput ("nullable=false").
var decodeHook = mapstructure.ComposeDecodeHookFunc(
	mapstructure.DecodeHookFuncType(needsValue),
	mapstructure.DecodeHookFuncType(unitHook),
	mapstructure.DecodeHookFuncType(zoneHook),
	mapstructure.DecodeHookFuncType(int32Hook),
	mapstructure.DecodeHookFuncType(pinHook),
)

// needsValue rejects a key=value option written as a bare flag ("unit"),
// which would otherwise be weakly decoded from true.
func needsValue(from, to reflect.Type, data any) (any, error) {
	if from.Kind() == reflect.Bool && to.Kind() != reflect.Bool {
		return nil, errNeedsValue
	}
	return data, nil
}

func unitHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != unitType {
		return data, nil
	}
	return parseUnit(reflect.ValueOf(data).String())
}

func zoneHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != zoneType {
		return data, nil
	}
	tz := reflect.ValueOf(data).String()
	if _, err := ParseZone(tz); err != nil {
		return nil, err
	}
	return zone(tz), nil
}

func int32Hook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != int32Type {
		return data, nil
	}
	s := reflect.ValueOf(data).String()
	n, err := strconv.ParseInt(s, 10, 32)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return nil, fmt.Errorf("%q is out of range", s)
	case err != nil:
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	return int32(n), nil
}

// decode runs mapstructure over the options.
func (s *optionSet) decode() (rawOptions, error) {
	var raw rawOptions
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		DecodeHook:       decodeHook,
		ErrorUnused:      true,
		WeaklyTypedInput: true,
		// Option names are case-sensitive, as in arreflect.
		MatchName: func(mapKey, fieldName string) bool { return mapKey == fieldName },
		Result:    &raw,
	})
	if err != nil {
		return raw, &Error{Err: err} // unreachable: the configuration is fixed
	}
	if err := dec.Decode(s.values); err != nil {
		return raw, s.decodeError(err)
	}
	return raw, nil
}

// decodeError turns mapstructure's errors into an *Error naming the first
// offending option in tag order.
func (s *optionSet) decodeError(err error) error {
	var first *Error
	firstPos := 0
	blame := func(key string, detail error) {
		if w := s.written[key]; first == nil || w.pos < firstPos {
			first, firstPos = &Error{Option: w.text, Err: detail}, w.pos
		}
	}
	for _, de := range decodeErrors(err, nil) {
		if key := de.Name(); optionKeys[key] {
			if _, ok := s.written[key]; ok {
				blame(key, valueError(de.Unwrap()))
				continue
			}
		}
		// Not about one field: ErrorUnused's list of unknown keys.
		for key := range s.written {
			if !optionKeys[key] {
				blame(key, errUnknown)
			}
		}
	}
	if first == nil {
		return &Error{Err: fmt.Errorf("decoding options: %w", err)}
	}
	return first
}

// decodeErrors collects the mapstructure.DecodeErrors in err's tree.
func decodeErrors(err error, out []*mapstructure.DecodeError) []*mapstructure.DecodeError {
	switch e := err.(type) {
	case *mapstructure.DecodeError:
		return append(out, e)
	case interface{ Unwrap() []error }:
		for _, err := range e.Unwrap() {
			out = decodeErrors(err, out)
		}
	case interface{ Unwrap() error }:
		out = decodeErrors(e.Unwrap(), out)
	}
	return out
}

// valueError rewords mapstructure's error about one option's value; errors
// from the decode hooks are already worded for tags.
func valueError(err error) error {
	var parseErr *mapstructure.ParseError
	if errors.As(err, &parseErr) && parseErr.Expected.Kind() == reflect.Bool {
		return fmt.Errorf("%q is not true or false", fmt.Sprint(parseErr.Value))
	}
	var msErr mapstructure.Error
	if errors.As(err, &msErr) {
		return fmt.Errorf("invalid value: %w", err)
	}
	return err
}

// resolve turns decoded options into a Tag, rejecting options that
// contradict each other.
func (s *optionSet) resolve(r rawOptions) (Tag, error) {
	t := Tag{
		Nullable: r.Nullable,
		Inline:   r.Inline,
		View:     r.View,
		Large:    r.Large,
		Dict:     r.Dict,
		REE:      r.REE,
		Unit:     r.Unit,
		TZ:       string(r.TZ),
	}
	if err := s.resolveUnion(r, &t); err != nil {
		return Tag{}, err
	}
	if w, ok := s.written["elem"]; ok {
		elem, err := ParseOptions(r.Elem)
		if err != nil {
			return Tag{}, err
		}
		if elem.Pos != nil {
			return Tag{}, &Error{Option: w.text, Err: fmt.Errorf("pos=%d: only a column or a struct field has a position", *elem.Pos)}
		}
		t.Elem = &elem
	}

	pins := chosen(s, r.encodings())
	if len(pins) > 1 {
		return Tag{}, s.conflict(pins[0].key, pins[1].key)
	}
	if len(pins) == 1 {
		t.Encoding = pins[0].value
		if r.View {
			return Tag{}, s.conflict(pins[0].key, "view")
		}
		if r.Large {
			return Tag{}, s.conflict(pins[0].key, "large")
		}
	}
	if layouts := chosen(s, r.layouts()); len(layouts) > 1 {
		return Tag{}, s.conflict(layouts[0].key, layouts[1].key)
	}

	temporals := chosen(s, r.temporals())
	if len(temporals) > 1 {
		return Tag{}, s.conflict(temporals[0].key, temporals[1].key)
	}
	if len(temporals) == 1 {
		t.Temporal = temporals[0].value
	}
	if _, ok := s.written["unit"]; ok {
		switch {
		case t.Temporal == TemporalDefault:
			return Tag{}, s.invalid("unit", errUnitTemporal)
		case t.Temporal == Date32 || t.Temporal == Date64:
			return Tag{}, s.invalid("unit", fmt.Errorf("%s takes no unit", t.Temporal))
		case t.Temporal == Time32 && t.Unit > Millisecond:
			return Tag{}, s.invalid("unit", errors.New("time32 takes unit s or ms"))
		case t.Temporal == Time64 && t.Unit < Microsecond:
			return Tag{}, s.invalid("unit", errors.New("time64 takes unit us or ns"))
		}
	}
	if _, ok := s.written["tz"]; ok && t.Temporal != Timestamp {
		return Tag{}, s.invalid("tz", errTZTimestamp)
	}
	if err := s.resolvePins(r.pinOptions, &t); err != nil {
		return Tag{}, err
	}

	if _, ok := s.written["pos"]; ok {
		switch {
		case r.Pos < 0:
			return Tag{}, s.invalid("pos", fmt.Errorf("position %d is negative", r.Pos))
		case r.Inline:
			return Tag{}, s.conflict("pos", "inline")
		}
		pos := int(r.Pos)
		t.Pos = &pos
	}

	_, hasPrecision := s.written["precision"]
	_, hasScale := s.written["scale"]
	switch {
	case hasScale && !hasPrecision:
		return Tag{}, s.invalid("scale", errScaleAlone)
	case !hasPrecision:
		return t, nil
	case r.Precision < 1 || r.Precision > maxPrecision:
		return Tag{}, s.invalid("precision", fmt.Errorf("precision %d is outside 1 to %d", r.Precision, maxPrecision))
	case r.Scale < 0:
		return Tag{}, s.invalid("scale", fmt.Errorf("scale %d is negative", r.Scale))
	case r.Scale > r.Precision:
		return Tag{}, s.invalid("scale", fmt.Errorf("scale %d exceeds precision %d", r.Scale, r.Precision))
	case len(temporals) == 1:
		return Tag{}, s.conflict(temporals[0].key, "precision")
	}
	t.Decimal = &Decimal{Precision: r.Precision, Scale: r.Scale}
	return t, nil
}

// maxPrecision is the largest decimal precision Arrow has (decimal256).
const maxPrecision = 76

// chosen returns the options of a group that are set, in tag order.
func chosen[T any](s *optionSet, group []choice[T]) []choice[T] {
	var set []choice[T]
	for _, c := range group {
		if c.set {
			set = append(set, c)
		}
	}
	slices.SortFunc(set, func(a, b choice[T]) int { return s.written[a.key].pos - s.written[b.key].pos })
	return set
}

// invalid blames the option that set key.
func (s *optionSet) invalid(key string, detail error) error {
	return &Error{Option: s.written[key].text, Err: detail}
}

// conflict blames the later of two options that cannot be combined.
func (s *optionSet) conflict(key1, key2 string) error {
	a, b := s.written[key1], s.written[key2]
	if a.pos > b.pos {
		a, b = b, a
	}
	return &Error{Option: b.text, Err: fmt.Errorf("conflicts with %q", a.text)}
}
