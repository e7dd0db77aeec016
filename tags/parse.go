package tags

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
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
	t, err := parseOptions(options, LevelColumn)
	if err != nil {
		return Tag{}, err
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
	t, err := parseOptions(strings.TrimPrefix(rest, ","), LevelColumn)
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
//
// ParseOptions takes the options of every level, pos= as well as name=;
// [Parse] refuses name= and [Of] refuses pos= where they do not belong.
func ParseOptions(opts string) (Tag, error) { return parseOptions(opts, anyLevel) }

// parseOptions reads an option list written at level: the options'
// syntax, then their values, then the rules between them.
func parseOptions(opts string, level Level) (Tag, error) {
	return parseNested(opts, level, 0)
}

// maxElemDepth is how deep elem(…) may nest: arrow-go's own nesting
// limit, past which no schema it reads has a level for the options.
// Each level is parsed from the text inside its parentheses, so a
// bound on the depth is what keeps a long tag (say, one GoTypeOf made
// from a hostile file's schema) from taking time of its length squared.
const maxElemDepth = 64

// parseNested is parseOptions for options depth elem(…) levels down.
func parseNested(opts string, level Level, depth int) (Tag, error) {
	options := splitOptions(opts)
	if len(options) == 0 {
		return Tag{}, nil // the common case, a tag with a name only
	}
	s, err := collect(options)
	if err != nil {
		return Tag{}, err
	}
	s.depth = depth
	if err := s.decode(); err != nil {
		return Tag{}, err
	}
	for _, rule := range rules {
		if err := rule(s); err != nil {
			return Tag{}, err
		}
	}
	if err := s.placed(level); err != nil {
		return Tag{}, err
	}
	return s.tag(), nil
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

// given is one option as the tag gives it.
type given struct {
	opt  *option // its row; nil for an unknown option
	text string  // the option as written, trimmed: "unit=ms", "decimal(10,2)"
	pos  int     // its index among the tag's options
	// via is the row of the syntax that gave it when that is not its own:
	// decimal(p,s) gives precision= and scale=.
	via *option
	// raw is true for a flag, the value text for key=value; value is raw
	// decoded into the row's Go type.
	raw, value any
}

// on reports whether o is given and, for a flag or a pin, set true; for
// a text value, not empty (ext="").
func (g *given) on() bool {
	if g == nil {
		return false
	}
	switch v := g.value.(type) {
	case bool:
		return v
	case string:
		return v != ""
	}
	return true
}

// optionSet is a tag's options by key, read then checked.
type optionSet struct {
	byKey map[string]*given
	order []*given // in tag order
	elem  *Tag     // what elem(…) holds, once parsed
	depth int      // the elem(…) levels above these options
}

// of is the option o as given, nil when the tag does not give it.
func (s *optionSet) of(o *option) *given { return s.byKey[o.name] }

var errMissingKey = errors.New("missing option name before =")

// collect reads the options into an optionSet, rejecting malformed syntax
// and an option given twice.
func collect(options []string) (*optionSet, error) {
	s := &optionSet{byKey: map[string]*given{}}
	for pos, text := range options {
		if o, inner, ok := parenthesized(text); ok {
			if err := s.addParenthesized(o, inner, text, pos); err != nil {
				return nil, err
			}
			continue
		}
		key, value, hasValue := strings.Cut(text, "=")
		if !hasValue {
			if err := s.add(key, true, text, pos, nil); err != nil {
				return nil, err
			}
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case key == "":
			return nil, &Error{Option: text, Err: errMissingKey}
		case value == "":
			return nil, &Error{Option: text, Err: errors.New("missing value after " + key + "=")}
		}
		value, err := unquote(value)
		if err != nil {
			return nil, &Error{Option: text, Err: err}
		}
		if err := s.add(key, value, text, pos, nil); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// parenthesized is the row of an option written name(…), decimal(p,s) or
// elem(…), and the text after its opening parenthesis.
func parenthesized(text string) (*option, string, bool) {
	for _, o := range grammar {
		if o.kind != KindDecimal && o.kind != KindOptions {
			continue
		}
		if inner, ok := strings.CutPrefix(text, o.name+"("); ok {
			return o, inner, true
		}
	}
	return nil, "", false
}

// addParenthesized records decimal(p,s) as its precision= and scale=, and
// elem(…) as the text inside.
func (s *optionSet) addParenthesized(o *option, inner, text string, pos int) error {
	inner, closed := strings.CutSuffix(inner, ")")
	if o.kind == KindOptions {
		if !closed {
			return &Error{Option: text, Err: errors.New("want " + o.name + "(options) with its parenthesis closed")}
		}
		return s.add(o.name, inner, text, pos, nil)
	}
	parts := strings.Split(inner, ",")
	if !closed || len(parts) != len(o.parts) {
		return &Error{Option: text, Err: errDecimal}
	}
	for i, part := range o.parts {
		v := strings.TrimSpace(parts[i])
		if v == "" {
			return &Error{Option: text, Err: errDecimal}
		}
		if err := s.add(part.name, v, text, pos, o); err != nil {
			return err
		}
	}
	return nil
}

// errDecimal is a decimal(p,s) of another shape; the decoder checks that
// p and s are integers.
var errDecimal = errors.New("want decimal(precision,scale) with two integers")

// add records one key, rejecting a key set before: "nullable,nullable" or
// "decimal(10,2),precision=12".
func (s *optionSet) add(key string, raw any, text string, pos int, via *option) error {
	if prev, ok := s.byKey[key]; ok {
		if prev.via != via {
			return &Error{Option: text, Err: errors.New("conflicts with " + strconv.Quote(prev.text))}
		}
		return &Error{Option: text, Err: errors.New("repeats " + strconv.Quote(prev.text))}
	}
	g := &given{opt: byName[key], text: text, pos: pos, via: via, raw: raw}
	s.byKey[key] = g
	s.order = append(s.order, g)
	return nil
}

var errUnknown = errors.New("unknown option")

// decode decodes each option's value into its row's Go type, in tag
// order, blaming the first unknown option or bad value.
func (s *optionSet) decode() error {
	for _, g := range s.order {
		if g.opt == nil {
			return &Error{Option: g.text, Err: errUnknown}
		}
		v, err := decodeValue(g.raw, g.opt.goType)
		if err != nil {
			return &Error{Option: g.text, Err: err}
		}
		g.value = v
	}
	return nil
}

// placed refuses an option written outside its levels: name= in the arrow
// tag, pos= below a field.
func (s *optionSet) placed(level Level) error {
	for _, g := range s.order {
		if g.opt.levels&level == 0 {
			return &Error{Option: g.text, Err: errors.New(g.opt.misplaced)}
		}
	}
	return nil
}

// tag is the Tag the options set.
func (s *optionSet) tag() Tag {
	var t Tag
	for _, g := range s.order {
		if g.opt.set != nil {
			g.opt.set(&t, g.value)
		}
	}
	t.Elem = s.elem
	return t
}
