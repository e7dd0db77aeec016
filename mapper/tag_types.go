package mapper

import (
	"reflect"

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

// timestampRow and durationRow are the rows of a time.Time and a
// time.Duration whose tag pins no temporal type, as impliedTemporal
// implies them.
var (
	timestampRow = temporalRow(tags.Timestamp)
	durationRow  = temporalRow(tags.Duration)
)

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

// impliedTemporal is tag with the temporal type that unit= (and tz= or
// naive, which the tags package lets go with it) imply where the tag pins
// none: a timestamp on a time.Time, a duration on a time.Duration, each
// the type a field of that Go type encodes to by default. On any other Go
// type they imply nothing, which is an ErrTag: an int64 tagged unit=ms
// would otherwise be a plain int64, its unit dropped.
func impliedTemporal(t reflect.Type, tag tags.Tag, at where) (tags.Tag, error) {
	if tag.Temporal != tags.TemporalDefault || (tag.Unit == tags.UnitDefault && tag.TZ == "" && !tag.Naive) {
		return tag, nil
	}
	switch kindOf(t) {
	case kindTime:
		tag.Temporal = tags.Timestamp
		return tag, nil
	case kindDuration:
		if tag.TZ == "" && !tag.Naive {
			tag.Temporal = tags.Duration
			return tag, nil
		}
	}
	option := "unit=" + tag.Unit.String()
	switch {
	case tag.TZ != "":
		option = "tz=" + tag.TZ
	case tag.Naive:
		option = "naive"
	}
	return tag, newError(ErrTag, at.path, at.column, -1, "%s does not apply to %s without a temporal type: tag it timestamp, time32, time64 or duration (unit= alone is a timestamp on a time.Time, a duration on a time.Duration)", option, t)
}
