// Package sourceerr is the one rule by which every reader of arrowmap
// reports the error its source stopped with. It imports nothing of
// arrowmap's, so that mapper and the IO packages share it.
package sourceerr

import (
	"errors"
	"fmt"
	"io"
)

// Of is how a reader reports err, the error its source stopped with (an
// array.RecordReader's Err once Next reports false, a stream's receive
// error): nil for a clean end, when err is nil or io.EOF itself.
//
// An err that wraps io.EOF without being it is a source that ran out of
// bytes where it should not have: arrow-go's ipc reader reports one for a
// stream cut right after its schema or inside its dictionaries. It becomes
// an error that is io.ErrUnexpectedEOF, with err's text, and that does not
// wrap err: so the end of the rows is io.EOF itself, whether a caller tests
// it with == or errors.Is. Any other err is returned unchanged.
func Of(err error) error {
	switch {
	case err == nil || err == io.EOF:
		return nil
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w: %s", io.ErrUnexpectedEOF, err.Error())
	default:
		return err
	}
}
