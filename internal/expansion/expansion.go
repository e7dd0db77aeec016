// Package expansion is the rules by which arrowmap's readers take what
// their input claims. How far they trust a size it claims: the bytes an
// IPC body claims to decompress to, the rows a record claims that ReadAll
// would hold. A claim may make a reader allocate at most Floor plus a
// ratio (DefaultRatio unless the caller's mapper.MaxExpansion says
// otherwise) times the bytes received behind it; past that, the read is
// an error wrapping ErrTooLarge, and nothing was allocated for it. And
// where it ends (SourceEnd). It imports nothing of arrowmap's, so that
// mapper, internal/ipcschema and the IO packages share it.
package expansion

import (
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrTooLarge is wrapped by the error of input that claims more memory
// than a reader allows for the bytes behind the claim: a compressed IPC
// buffer claiming terabytes, a record claiming trillions of rows in a few
// bytes. mapper.ErrTooLarge is this error.
var ErrTooLarge = errors.New("larger than the reader allows")

const (
	// Floor is what any claim may make a reader allocate, however few the
	// bytes behind it: 64 MiB, as the Parquet readers allow a page.
	Floor = 64 << 20
	// DefaultRatio is the bytes a reader allocates at most per byte
	// received, past Floor, unless the caller says otherwise: 64, as the
	// Parquet readers allow a page's size per byte of the file.
	DefaultRatio = 64
)

// Limit is the most bytes a claim backed by received bytes may make a
// reader allocate, with ratio bytes per byte received (DefaultRatio when
// ratio is not positive): Floor + ratio × received, saturating at
// math.MaxInt64, which a ratio of math.MaxInt64 is whatever was received
// (a record of null columns has no bytes at all).
func Limit(received, ratio int64) int64 {
	switch {
	case ratio <= 0:
		ratio = DefaultRatio
	case ratio == math.MaxInt64:
		return math.MaxInt64
	}
	received = max(received, 0)
	if received > (math.MaxInt64-Floor)/ratio {
		return math.MaxInt64
	}
	return Floor + ratio*received
}

// SourceEnd is how a reader reports err, the error its source stopped with
// (an array.RecordReader's Err once Next reports false, a stream's receive
// error): nil for a clean end, when err is nil or io.EOF itself.
//
// An err that wraps io.EOF without being it is a source that ran out of
// bytes where it should not have: arrow-go's ipc reader reports one for a
// stream cut right after its schema or inside its dictionaries. It becomes
// an error that is io.ErrUnexpectedEOF, with err's text, and that does not
// wrap err: so the end of the rows is io.EOF itself, whether a caller tests
// it with == or errors.Is. Any other err is returned unchanged.
func SourceEnd(err error) error {
	switch {
	case err == nil || err == io.EOF:
		return nil
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w: %s", io.ErrUnexpectedEOF, err.Error())
	default:
		return err
	}
}
