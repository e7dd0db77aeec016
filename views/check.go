package views

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// Storage is dt with extension types replaced by their storage type: what
// a view reads an extension array as.
func Storage(dt arrow.DataType) arrow.DataType { return arrowtype.Storage(dt) }

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
	switch r := arrowtype.OfType(dt); r.Layout {
	case arrowtype.Dictionary:
		if indices, _ := arrowtype.DictionaryIndices(dt); dictionaryOf(indices) == nil {
			return p.fail(ErrInvalidData, -1, "dictionary index type %s is not an integer", indices)
		}
		values, _ := arrowtype.Encoded(dt)
		return checkType(values, t, p, false)
	case arrowtype.RunEnd:
		if ends, _ := arrowtype.RunEnds(dt); runEndOf(ends) == nil {
			return p.fail(ErrInvalidData, -1, "run end type %s is not int16, int32 or int64", ends)
		}
		values, _ := arrowtype.Encoded(dt)
		return checkType(values, t, p, false)
	case arrowtype.FixedBinary:
		if width := arrowtype.ByteWidth(dt); t.Size != 0 && width != t.Size {
			return p.fail(ErrTypeMismatch, -1, "got %s, want fixed_size_binary(%d)", dt, t.Size)
		}
	case arrowtype.FixedList:
		if size, _ := arrowtype.ListSize(dt); t.Size != 0 && size != t.Size {
			return p.fail(ErrTypeMismatch, -1, "got %s, want fixed_size_list(%d)", dt, t.Size)
		}
		return checkElem(dt, t, p)
	case arrowtype.List, arrowtype.ListView:
		if !r.Map || t.Elem != nil && t.Key == nil && t.Value == nil {
			return checkElem(dt, t, p) // a list, or a map read as its list of entries
		}
		if t.Key == nil || t.Value == nil {
			return p.fail(ErrTypeMismatch, -1, "got %s, but the type has no key and value types, nor entries", dt)
		}
		entries := p.child(dt.(arrow.ListLikeType).ElemField().Name, nil)
		mp, _ := arrowtype.MapParts(dt)
		key, item := mp.Key, mp.Item
		kp, vp := entries.child(key.Name, t.Key), entries.child(item.Name, t.Value)
		if err := checkType(key.Type, t.Key, &kp, true); err != nil {
			return err
		}
		return checkType(item.Type, t.Value, &vp, true)
	case arrowtype.Union:
		return checkUnion(dt.(arrow.UnionType), t, p)
	case arrowtype.Struct:
		st := dt.(arrowtype.StructLike)
		for i := range t.Fields {
			f := &t.Fields[i]
			fp := p.child(f.Name, &f.Type)
			idx, why := childIndex(st, f)
			if idx < 0 {
				return fp.fail(ErrTypeMismatch, -1, "%s", why)
			}
			if err := checkType(st.Field(idx).Type, &f.Type, &fp, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkElem checks the element of a list-like dt against t's Elem.
func checkElem(dt arrow.DataType, t *Type, p *path) *Error {
	elem := dt.(arrow.ListLikeType).ElemField()
	if t.Elem == nil {
		return p.fail(ErrTypeMismatch, -1, "got a list, but the type has no element type")
	}
	ep := p.child(elem.Name, t.Elem)
	return checkType(elem.Type, t.Elem, &ep, true)
}
