package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// The decoding side of extension types: a Go type that declares its
// extension (an Extension) reads that extension or its bare storage, no
// other; encode_extension.go writes it.

// checkDeclaredExtension refuses a column of another extension than the
// one t declares (an Extension), where no tag's ext= pins another: a
// column of its storage alone is t's.
func checkDeclaredExtension(t reflect.Type, dt arrow.DataType, at where) error {
	want, err := declaredExtension(t, storageOf(dt), at)
	if err != nil || want == nil {
		return err
	}
	values, _ := arrowtype.Encoded(arrowtype.Storage(dt))
	for _, d := range [...]arrow.DataType{values, dt} {
		if name, md, ok := arrowtype.ExtensionName(d); ok {
			if name != want.ExtensionName() || md != want.Serialize() {
				return mismatchOf(t, dt, at, "%s is the Go form of %s %s", t, want.ExtensionName(), want.Serialize())
			}
			return nil
		}
	}
	return nil
}

// extensionNameOf is the name of the extension type of dt's values: of dt,
// or of its dictionary's or run-end encoding's values; "" for none.
func extensionNameOf(dt arrow.DataType) string {
	values, _ := arrowtype.Encoded(arrowtype.Storage(dt))
	for _, t := range [...]arrow.DataType{values, dt} {
		if name, _, ok := arrowtype.ExtensionName(t); ok {
			return name
		}
	}
	return ""
}
