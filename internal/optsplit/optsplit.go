// Package optsplit divides the options given to an entry point that both
// decodes and encodes (a query with parameters, an ingest) between the
// two, by mapper's own kinds of option: one rule for adbc and flightsql.
package optsplit

import "github.com/arrowmap/arrowmap/mapper"

// Probes of the kinds of options, compared with mapper.RefuseOptions,
// which compares an option's kind and not its value.
var (
	// encodingOnly is the kind of option that only encoding takes.
	encodingOnly = []mapper.Option{mapper.Allocator(nil)}
	// bothWays is the kinds of option that decoding and encoding both take.
	bothWays = []mapper.Option{mapper.SnakeCase(), mapper.As[struct{}, struct{}](nil, nil)}
)

func isKind(opt mapper.Option, kinds []mapper.Option) bool {
	return mapper.RefuseOptions("", []mapper.Option{opt}, kinds...) != nil
}

// Split divides the options of an entry point that decodes T and encodes
// P between them: each option goes where it acts, and SnakeCase and As,
// which act on both, go to both. An option neither takes goes to decoding,
// which reports it.
func Split(opts []mapper.Option) (decode, encode []mapper.Option) {
	for _, opt := range opts {
		switch {
		case opt == nil:
		case isKind(opt, encodingOnly):
			encode = append(encode, opt)
		case isKind(opt, bothWays):
			decode = append(decode, opt)
			encode = append(encode, opt)
		default:
			decode = append(decode, opt)
		}
	}
	return decode, encode
}

// EncodeOnly reports, as mapper's ErrUnsupported *Error naming entry, an
// option of opts that encoding does not take.
func EncodeOnly(entry string, opts []mapper.Option) error {
	for _, opt := range opts {
		if opt != nil && !isKind(opt, encodingOnly) && !isKind(opt, bothWays) {
			return mapper.RefuseOptions(entry, []mapper.Option{opt}, opt)
		}
	}
	return nil
}
