package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// TestInlineOnAFieldThatIsNoStructIsRefused: inline flattens a struct's
// fields into its parent; on anything else it was silently ignored.
func TestInlineOnAFieldThatIsNoStructIsRefused(t *testing.T) {
	type onString struct {
		S string `arrow:"s,inline"`
	}
	type onTime struct {
		At time.Time `arrow:"at,inline"` // a leaf struct: one column, not fields
	}
	type onPointer struct {
		P *struct{ A int32 } `arrow:"p,inline"`
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	for name, check := range map[string]func() error{
		"a string, encoding": func() error { _, err := mapper.SchemaOf[onString](); return err },
		"a string, decoding": func() error { _, err := mapper.New[onString](schema); return err },
		"a time.Time":        func() error { _, err := mapper.SchemaOf[onTime](); return err },
		"a pointer":          func() error { _, err := mapper.SchemaOf[onPointer](); return err },
	} {
		err := check()
		require.ErrorIs(t, err, mapper.ErrTag, name)
		assert.ErrorContains(t, err, "inline does not apply to", name)
	}

	type inner struct{ A, B int32 }
	type flattened struct {
		In inner `arrow:",inline"`
	}
	s, err := mapper.SchemaOf[flattened]()
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, []string{s.Field(0).Name, s.Field(1).Name}, "a struct's fields, flattened")
}
