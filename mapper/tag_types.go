package mapper

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// The one place where a tag's pins become Arrow types, for both
// directions: the tag's spelling of a type is the table's name of it.

// pinnedRow is the row of the layout a tag's encoding pins (`utf8_view`,
// `large_list`, `fixed_size_binary`), nil when it pins none.
func pinnedRow(e tags.Encoding) *arrowtype.Row {
	id, ok := e.ID()
	if !ok {
		return nil
	}
	return arrowtype.Of(id)
}

// temporalRow is the row of the temporal type a tag pins, nil when it
// pins none.
func temporalRow(t tags.Temporal) *arrowtype.Row {
	id, ok := t.ID()
	if !ok {
		return nil
	}
	return arrowtype.Of(id)
}

// temporalOf is the type of r as tag gives it: its unit, else r's default,
// and for a timestamp its zone, UTC unless the tag says naive or names
// another.
func temporalOf(r *arrowtype.Row, tag tags.Tag) (arrow.DataType, error) {
	if len(r.Units) == 0 {
		return r.Make(), nil
	}
	unit := r.DefaultUnit
	if tag.Unit != tags.UnitDefault {
		unit = tag.Unit.TimeUnit()
	}
	return r.WithUnit(unit, zoneOf(tag))
}

// zoneOf is the zone of a timestamp a tag pins: tz=, else UTC unless naive.
func zoneOf(tag tags.Tag) string {
	if tag.TZ == "" && !tag.Naive {
		return defaultZone
	}
	return tag.TZ
}

// defaultZone is the zone of a timestamp whose tag names none and is not
// naive, as zoneOf gives it.
const defaultZone = "UTC"
