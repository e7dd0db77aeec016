package views

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Storage is dt with extension types replaced by their storage type: what
// a view reads an extension array as.
func Storage(dt arrow.DataType) arrow.DataType {
	for {
		ext, ok := dt.(arrow.ExtensionType)
		if !ok {
			return dt
		}
		dt = ext.StorageType()
	}
}

// checkType checks a datatype against t, recursively, before any buffer is
// looked at, so that a datatype error is reported before a data error.
// encodedOK is false for the values of a dictionary or run-end array:
// encodings do not nest.
func checkType(dt arrow.DataType, t *Type, p *path, encodedOK bool) *Error {
	if dt == nil {
		return p.fail(ErrInvalidData, -1, "nil datatype")
	}
	dt = Storage(dt)
	id := dt.ID()
	if !t.Accept.Has(id) || (!encodedOK && Encodings.Has(id)) {
		return p.fail(ErrTypeMismatch, -1, "got %s, want %s", dt, t.Accept.Without(id))
	}
	switch dt := dt.(type) {
	case *arrow.DictionaryType:
		if !SignedInts.Has(dt.IndexType.ID()) && !UnsignedInts.Has(dt.IndexType.ID()) {
			return p.fail(ErrInvalidData, -1, "dictionary index type %s is not an integer", dt.IndexType)
		}
		return checkType(dt.ValueType, t, p, false)
	case *arrow.RunEndEncodedType:
		switch dt.RunEnds().ID() {
		case arrow.INT16, arrow.INT32, arrow.INT64:
		default:
			return p.fail(ErrInvalidData, -1, "run end type %s is not int16, int32 or int64", dt.RunEnds())
		}
		return checkType(dt.Encoded(), t, p, false)
	case *arrow.FixedSizeBinaryType:
		if t.Size != 0 && dt.ByteWidth != t.Size {
			return p.fail(ErrTypeMismatch, -1, "got %s, want fixed_size_binary(%d)", dt, t.Size)
		}
	case *arrow.FixedSizeListType:
		if t.Size != 0 && int(dt.Len()) != t.Size {
			return p.fail(ErrTypeMismatch, -1, "got %s, want fixed_size_list(%d)", dt, t.Size)
		}
		return checkElem(dt.ElemField(), t, p)
	case *arrow.MapType:
		if t.Elem != nil && t.Key == nil && t.Value == nil {
			return checkElem(dt.ElemField(), t, p) // read as its list of entries
		}
		if t.Key == nil || t.Value == nil {
			return p.fail(ErrTypeMismatch, -1, "got %s, but the type has no key and value types, nor entries", dt)
		}
		entries := p.child(dt.ElemField().Name, nil)
		key, item := dt.KeyField(), dt.ItemField()
		kp, vp := entries.child(key.Name, t.Key), entries.child(item.Name, t.Value)
		if err := checkType(key.Type, t.Key, &kp, true); err != nil {
			return err
		}
		return checkType(item.Type, t.Value, &vp, true)
	case arrow.ListLikeType:
		return checkElem(dt.ElemField(), t, p)
	case arrow.UnionType:
		return checkUnion(dt, t, p)
	case *arrow.StructType:
		for i := range t.Fields {
			f := &t.Fields[i]
			fp := p.child(f.Name, &f.Type)
			idx, why := childIndex(dt, f)
			if idx < 0 {
				return fp.fail(ErrTypeMismatch, -1, "%s", why)
			}
			if err := checkType(dt.Field(idx).Type, &f.Type, &fp, true); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkElem(elem arrow.Field, t *Type, p *path) *Error {
	if t.Elem == nil {
		return p.fail(ErrTypeMismatch, -1, "got a list, but the type has no element type")
	}
	ep := p.child(elem.Name, t.Elem)
	return checkType(elem.Type, t.Elem, &ep, true)
}
