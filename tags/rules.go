package tags

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// rules are the checks between options, in the order they run: the first
// broken rule is the error. Each names the rows it reads, so the message
// spells the options as the table does. (Set in init: nested parses
// option lists, which run the rules.)
var rules []func(*optionSet) error

func init() {
	rules = []func(*optionSet) error{
		atMostOne(unions),
		inRange(optCode, "type code", 0, arrow.MaxUnionTypeCode),
		nested(optElem),
		atMostOne(encodings), excludesGroup(encodings, optView), excludesGroup(encodings, optLarge),
		atMostOne(layouts),
		atMostOne(temporals),
		unitFits,
		needsTimestamp(optTZ),
		excludes(optNaive, optTZ), needsTimestamp(optNaive),
		excludes(optNotNull, optNullable),
		needs(optIndex, optDict), needs(optOrdered, optDict), needs(optKeysSorted, optMap),
		needs(optRunEnds, optREE), needs(optExtMeta, optExt),
		notNegative(optPos, "position"), excludes(optPos, optInline),
		needs(optScale, optPrecision),
		inRange(optPrecision, "precision", 1, maxPrecision),
		notNegative(optScale, "scale"), scaleFits,
		excludesGroup(temporals, optPrecision),
	}
}

// maxPrecision is the largest decimal precision Arrow has, decimal256's.
var maxPrecision = func() int32 {
	var most int32
	for _, r := range arrowtype.Decimals() {
		most = max(most, r.MaxPrecision)
	}
	return most
}()

// chosen is the members of g the tag sets, in tag order.
func (s *optionSet) chosen(g *group) []*given {
	var set []*given
	for _, o := range g.members {
		if o := s.of(o); o.on() {
			set = append(set, o)
		}
	}
	slices.SortFunc(set, func(a, b *given) int { return a.pos - b.pos })
	return set
}

// conflict blames the later of two options that cannot be combined.
func conflict(a, b *given) error {
	if a.pos > b.pos {
		a, b = b, a
	}
	return &Error{Option: b.text, Err: errors.New("conflicts with " + strconv.Quote(a.text))}
}

// atMostOne refuses two members of g.
func atMostOne(g *group) func(*optionSet) error {
	return func(s *optionSet) error {
		if set := s.chosen(g); len(set) > 1 {
			return conflict(set[0], set[1])
		}
		return nil
	}
}

// excludesGroup refuses o with a member of g.
func excludesGroup(g *group, o *option) func(*optionSet) error {
	return func(s *optionSet) error {
		if set, other := s.chosen(g), s.of(o); len(set) > 0 && other.on() {
			return conflict(set[0], other)
		}
		return nil
	}
}

// excludes refuses a with b.
func excludes(a, b *option) func(*optionSet) error {
	return func(s *optionSet) error {
		if ga, gb := s.of(a), s.of(b); ga.on() && gb.on() {
			return conflict(ga, gb)
		}
		return nil
	}
}

// needs refuses o without need.
func needs(o, need *option) func(*optionSet) error {
	return func(s *optionSet) error {
		if g := s.of(o); g.on() && !s.of(need).on() {
			return &Error{Option: g.text, Err: errors.New(o.name + " needs " + need.name)}
		}
		return nil
	}
}

// inRange refuses a value of o outside [least, most]; what names the
// value in the message.
func inRange[N ~int8 | ~int32](o *option, what string, least, most N) func(*optionSet) error {
	return func(s *optionSet) error {
		if g := s.of(o); g != nil {
			if v := g.value.(int32); v < int32(least) || v > int32(most) {
				return &Error{Option: g.text, Err: fmt.Errorf("%s %d is outside %d to %d", what, v, least, most)}
			}
		}
		return nil
	}
}

// notNegative refuses a negative value of o.
func notNegative(o *option, what string) func(*optionSet) error {
	return func(s *optionSet) error {
		if g := s.of(o); g != nil && g.value.(int32) < 0 {
			return &Error{Option: g.text, Err: fmt.Errorf("%s %d is negative", what, g.value)}
		}
		return nil
	}
}

// scaleFits refuses a scale past the precision.
func scaleFits(s *optionSet) error {
	p, sc := s.of(optPrecision), s.of(optScale)
	if p != nil && sc != nil && sc.value.(int32) > p.value.(int32) {
		return &Error{Option: sc.text, Err: fmt.Errorf("scale %d exceeds precision %d", sc.value, p.value)}
	}
	return nil
}

// unitFits refuses unit= with a temporal type that does not take that
// unit, as arrowtype's table lists the units of each. unit= alone is the
// mapper's to judge, which sees the Go type: on a time.Time it is a
// timestamp, on a time.Duration a duration, of that unit.
func unitFits(s *optionSet) error {
	g := s.of(optUnit)
	if g == nil {
		return nil
	}
	set := s.chosen(temporals)
	if len(set) == 0 {
		return nil
	}
	temporal := set[0].opt
	row := arrowtype.Of(temporal.id)
	if u := g.value.(Unit); !row.TakesUnit(u.TimeUnit()) {
		if len(row.Units) == 0 {
			return &Error{Option: g.text, Err: errors.New(temporal.name + " takes no unit")}
		}
		units := make([]string, len(row.Units))
		for i, u := range row.Units {
			units[i] = u.String()
		}
		return &Error{Option: g.text, Err: errors.New(temporal.name + " takes unit " + orList(units))}
	}
	return nil
}

// needsTimestamp refuses o, a timestamp's option, without timestamp or
// unit= alone (a timestamp on a time.Time, which the mapper checks).
func needsTimestamp(o *option) func(*optionSet) error {
	return func(s *optionSet) error {
		g := s.of(o)
		if !g.on() || s.of(optTimestamp).on() || s.of(optUnit) != nil && len(s.chosen(temporals)) == 0 {
			return nil
		}
		return &Error{Option: g.text, Err: errors.New(o.name + " needs " + optTimestamp.name + " (or " + optUnit.name + "= alone, on a time.Time)")}
	}
}

// nested parses the options inside o, elem(…), as a level below.
func nested(o *option) func(*optionSet) error {
	return func(s *optionSet) error {
		g := s.of(o)
		if g == nil {
			return nil
		}
		if s.depth >= maxElemDepth {
			return &Error{Option: o.name + "(…)", Err: fmt.Errorf("nested more than %d deep", maxElemDepth)}
		}
		elem, err := parseNested(g.value.(string), LevelChild, s.depth+1)
		if err != nil {
			return err
		}
		s.elem = &elem
		return nil
	}
}
