package tags

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Encoding is an explicit encoding pin: the one Arrow layout a column must
// have. Without a pin (EncodingDefault), decoding accepts every layout of the
// logical type and encoding uses the default one.
type Encoding uint8

// The encoding pins, each named after its tag spelling.
const (
	EncodingDefault Encoding = iota // no pin
	List                            // `list`
	LargeList                       // `large_list`
	ListView                        // `list_view` or `listview`
	LargeListView                   // `large_list_view`
	FixedSizeList                   // `fixed_size_list`
	Utf8                            // `utf8`
	LargeUtf8                       // `large_utf8`
	Utf8View                        // `utf8_view`
	Binary                          // `binary`
	LargeBinary                     // `large_binary`
	BinaryView                      // `binary_view`
	FixedSizeBinary                 // `fixed_size_binary`
	Map                             // `map`
)

// String returns the tag spelling of e ("large_list"), "default" for
// EncodingDefault, which has none.
func (e Encoding) String() string {
	if e == EncodingDefault {
		return "default"
	}
	if name, ok := memberName(encodings, e); ok {
		return name
	}
	return "Encoding(" + strconv.Itoa(int(e)) + ")"
}

// ID is the Arrow type e pins (large_list for LargeList), and false
// for EncodingDefault.
func (e Encoding) ID() (arrow.Type, bool) { return pinnedID(encodings, e) }
