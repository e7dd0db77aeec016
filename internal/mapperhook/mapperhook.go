// Package mapperhook is what package mapper shares with the IO packages
// without exporting it: the kinds of its options, the kinds each family
// of its entry points takes, and a look into what an option sets. It
// imports nothing of arrowmap's, so that mapper can import it; mapper
// installs Inspect when it is initialised.
package mapperhook

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Kinds is a set of kinds of mapper option, one bit each.
type Kinds uint16

// The kinds of mapper option, in the order of their names.
const (
	Strict Kinds = 1 << iota
	AllowMissing
	SnakeCase
	RejectExtraColumns
	LastKeyWins
	As
	Allocator
	ZeroCopy
	Parallelism
	SchemaMetadata
	Expansion
)

var names = [...]string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns", "LastKeyWins", "As", "Allocator", "ZeroCopy", "Parallelism", "SchemaMetadata", "MaxExpansion"}

// The kinds each family of mapper's entry points takes.
const (
	// Decode is what decoding rows takes: New, Decode, DecodeTo,
	// DecodeArray.
	Decode = Strict | AllowMissing | SnakeCase | RejectExtraColumns | LastKeyWins | As | ZeroCopy | Parallelism
	// Reader is what a Reader takes, NewReader and every reader of rows of
	// the IO packages: decoding's options and MaxExpansion, which bounds
	// what ReadAll holds.
	Reader = Decode | Expansion
	// Columns is what binding typed columns takes: Columns,
	// NewColumnsReader. Columns are always zero-copy and decode nothing,
	// so ZeroCopy, Parallelism, As and LastKeyWins have nothing to act on.
	Columns = Strict | AllowMissing | SnakeCase | RejectExtraColumns
	// Schema is what deriving a schema takes: SchemaOf.
	Schema = SnakeCase | As | SchemaMetadata
	// Encode is what encoding rows takes: Encode, NewBuilder, EncodeArray.
	Encode = Schema | Allocator
	// BothWays is the kinds that act on decoding and encoding alike.
	BothWays = Decode & Encode
)

// String lists the kinds of s by name: "ZeroCopy, Parallelism".
func (s Kinds) String() string {
	var out []string
	for i, name := range names {
		if s&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// Given is what one mapper option sets that an IO package acts on.
type Given struct {
	Kind     Kinds            // the option's kind: one bit
	Alloc    memory.Allocator // an Allocator option's allocator; nil for Allocator(nil)
	Metadata arrow.Metadata   // a SchemaMetadata option's metadata
	Ratio    int64            // a MaxExpansion option's bytes per byte received; 0 for the default
}

// Inspect reports what opt, a non-nil mapper.Option, sets; package mapper
// installs it when it is initialised (an option exists only once mapper
// is).
var Inspect func(opt any) Given
