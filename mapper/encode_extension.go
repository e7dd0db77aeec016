package mapper

import (
	"errors"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// The names of the canonical extensions whose storage is not what the Go
// type encodes to by default.
const (
	extBool8 = "arrow.bool8" // storage int8: a bool is 0 or 1
	extJSON  = "arrow.json"  // storage utf8: a []byte holds the text
)

// extensionOf is the extension type `ext=` names over storage, the type
// the level encodes to: a registered extension (the mapper does not
// import arrow-go's extensions package, which links Parquet's variant code
// into every program: 3.5 MB; the parquet package and the CLI do), which reads its metadata
// from `ext_metadata=`. An unregistered one has no type to write; its
// storage with the field's metadata (`arrow-meta`, as the IPC reader
// returns an unregistered extension) keeps it.
func extensionOf(tag tags.Tag, storage arrow.DataType, at where) (arrow.DataType, error) {
	registered := arrow.GetExtensionType(tag.Extension)
	if registered == nil {
		return nil, newError(ErrUnsupported, at.path, at.column, -1,
			"the extension %q is not registered: import _ \"github.com/apache/arrow-go/v18/arrow/extensions\" for arrow-go's canonical ones, register others with arrow.RegisterExtensionType, or keep the storage with its name in arrow-meta", tag.Extension)
	}
	ext, err := registered.Deserialize(storage, tag.ExtensionMetadata)
	if err != nil {
		return nil, newError(ErrTag, at.path, at.column, -1, "ext=%s over %s: %v", tag.Extension, storage, err)
	}
	return ext, nil
}

// Extension is implemented by a Go type that is the Go form of an Arrow
// extension type: a vendor's 128-bit integer held in a [16]byte, say.
// ArrowExtension returns that extension over storage, the Arrow type the Go
// type's own kind encodes to (fixed_size_binary(16) for a [16]byte). Such a
// type encodes as its extension wherever it is, as a field tagged ext= does
// (a tag's ext= wins), and decodes from a column of that extension (name
// and metadata equal) or of its storage alone, never from another
// extension over the same storage.
type Extension interface {
	ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error)
}

var extensionIface = reflect.TypeFor[Extension]()

// declaredExtension is the Extension t declares over storage, nil when t
// declares none. A method of the pointer is called on a new zero value.
func declaredExtension(t reflect.Type, storage arrow.DataType, at where) (arrow.ExtensionType, error) {
	var e Extension
	switch {
	case t.Implements(extensionIface):
		e = reflect.Zero(t).Interface().(Extension)
	case reflect.PointerTo(t).Implements(extensionIface):
		e = reflect.New(t).Interface().(Extension)
	default:
		return nil, nil
	}
	ext, err := e.ArrowExtension(storage)
	if err == nil && ext == nil {
		err = errNoExtension
	}
	if err != nil {
		return nil, newError(ErrUnsupported, at.path, at.column, -1, "%s over %s: its ArrowExtension: %v", t, storage, err)
	}
	return ext, nil
}

var errNoExtension = errors.New("no extension type")

// extensionBuilder builds an extension array: its storage, by the builder
// of the storage type, then wrapped.
type extensionBuilder struct {
	columnBuilder                // the storage's
	dt            arrow.DataType // an extension type
}

// newExtensionBuilder is the builder of extension type dt.
func newExtensionBuilder(mem memory.Allocator, dt arrow.DataType, newStorage func(memory.Allocator, arrow.DataType) columnBuilder) *extensionBuilder {
	storage, _ := arrowtype.ExtensionStorage(dt)
	return &extensionBuilder{columnBuilder: newStorage(mem, storage), dt: dt}
}

func (b *extensionBuilder) NewArray() arrow.Array {
	storage := b.columnBuilder.NewArray()
	defer storage.Release()
	arr, _ := arrowtype.WithStorage(b.dt, storage) // b.dt is an extension type
	return arr
}

// extensionAdapter adapts arrow-go's builder of an extension type, below
// another arrow-go builder, which makes the extension array itself; the
// writers write to its storage builder.
type extensionAdapter struct {
	columnBuilder // the storage builder's adapter
	b             array.Builder
	own           bool
}

func (a *extensionAdapter) NewArray() arrow.Array { return a.b.NewArray() }
func (a *extensionAdapter) Len() int              { return a.b.Len() }

func (a *extensionAdapter) Release() {
	a.columnBuilder.Release()
	if a.own {
		a.b.Release()
	}
}
