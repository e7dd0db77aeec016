// Package optsplit divides the options given to an entry point that both
// decodes and encodes (a query with parameters) between the two, by
// mapper's own kinds of option (internal/mapperhook): one rule for adbc
// and flightsql.
package optsplit

import (
	"github.com/arrowmap/arrowmap/internal/mapperhook"
	"github.com/arrowmap/arrowmap/mapper"
)

// Split divides the options of an entry point that decodes T and encodes
// P between them: each option goes where it acts, and SnakeCase and As,
// which act on both, go to both. An option neither takes goes to decoding,
// which reports it.
func Split(opts []mapper.Option) (decode, encode []mapper.Option) {
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		kind := mapperhook.Inspect(opt).Kind
		switch {
		case kind&mapperhook.BothWays != 0:
			decode = append(decode, opt)
			encode = append(encode, opt)
		case kind&mapperhook.Encode != 0:
			encode = append(encode, opt)
		default:
			decode = append(decode, opt)
		}
	}
	return decode, encode
}
