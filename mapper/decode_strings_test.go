package mapper_test

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeStrings(t *testing.T) {
	dict := func(index arrow.DataType) arrow.DataType {
		return &arrow.DictionaryType{IndexType: index, ValueType: arrow.BinaryTypes.String}
	}
	fxRun(t, []fxCase{
		{"utf8 decodes into string", fxStringsCase(arrow.BinaryTypes.String)},
		{"large_utf8 decodes into string", fxStringsCase(arrow.BinaryTypes.LargeString)},
		{"utf8_view decodes into string, inline and out of line", fxStringsCase(arrow.BinaryTypes.StringView)},
		{"dictionary<int8, utf8> decodes into string", fxStringsCase(dict(arrow.PrimitiveTypes.Int8))},
		{"dictionary<int32, utf8> decodes into string", fxStringsCase(dict(arrow.PrimitiveTypes.Int32))},
		{"dictionary<uint16, utf8> decodes into string", fxStringsCase(dict(arrow.PrimitiveTypes.Uint16))},
		{"run_end_encoded<int32, utf8> decodes into string", fxStringsCase(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String))},
		{"run_end_encoded<int16, utf8_view> decodes into string", fxStringsCase(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.StringView))},
		{"utf8 decodes into string with ZeroCopy", fxStringsCase(arrow.BinaryTypes.String, mapper.ZeroCopy())},
		{"utf8_view decodes into string with ZeroCopy", fxStringsCase(arrow.BinaryTypes.StringView, mapper.ZeroCopy())},
		{"dictionary<int8, utf8> decodes into string with ZeroCopy", fxStringsCase(dict(arrow.PrimitiveTypes.Int8), mapper.ZeroCopy())},
	})
}

type fxBytesRow struct {
	V []byte  `arrow:"v"`
	P *[]byte `arrow:"p"`
}

func TestDecodeBytes(t *testing.T) {
	// hi, "", null, 20 bytes, "abc": base64 in JSON.
	const js = `["aGk=", "", null, "AAECAwQFBgcICQoLDA0ODxAREhM=", "YWJj"]`
	long := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	variable := []fxBytesRow{
		{V: []byte("hi"), P: fxPtr([]byte("hi"))},
		{V: []byte{}, P: fxPtr([]byte{})},
		{},
		{V: long, P: fxPtr(long)},
		{V: []byte("abc"), P: fxPtr([]byte("abc"))},
	}
	bytesCase := func(dt arrow.DataType, js string, want []fxBytesRow, opts ...mapper.ReadOption) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			got := fxDecodeAll[fxBytesRow](t, rec, opts...)
			require.Equal(t, want, got)
			for i, r := range got {
				// require.Equal tells nil from empty; say it outright too.
				require.Equal(t, want[i].V == nil, r.V == nil, "row %d: nil is null, empty is not", i)
			}
		}
	}
	fixed := []fxBytesRow{
		{V: []byte("abc"), P: fxPtr([]byte("abc"))},
		{},
		{V: []byte("xyz"), P: fxPtr([]byte("xyz"))},
		{V: []byte{0, 0, 0}, P: fxPtr([]byte{0, 0, 0})},
	}
	empty := []fxBytesRow{{V: []byte{}, P: fxPtr([]byte{})}, {}, {V: []byte{}, P: fxPtr([]byte{})}, {V: []byte{}, P: fxPtr([]byte{})}}
	fxRun(t, []fxCase{
		{"binary decodes into []byte", bytesCase(arrow.BinaryTypes.Binary, js, variable)},
		{"large_binary decodes into []byte", bytesCase(arrow.BinaryTypes.LargeBinary, js, variable)},
		{"binary_view decodes into []byte", bytesCase(arrow.BinaryTypes.BinaryView, js, variable)},
		{"binary decodes into []byte with ZeroCopy", bytesCase(arrow.BinaryTypes.Binary, js, variable, mapper.ZeroCopy())},
		{"binary_view decodes into []byte with ZeroCopy", bytesCase(arrow.BinaryTypes.BinaryView, js, variable, mapper.ZeroCopy())},
		{"dictionary<int8, binary> decodes into []byte", bytesCase(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.Binary}, js, variable)},
		{"fixed_size_binary(3) decodes into []byte", bytesCase(&arrow.FixedSizeBinaryType{ByteWidth: 3}, `["YWJj", null, "eHl6", "AAAA"]`, fixed)},
		{"fixed_size_binary(3) decodes into []byte with ZeroCopy", bytesCase(&arrow.FixedSizeBinaryType{ByteWidth: 3}, `["YWJj", null, "eHl6", "AAAA"]`, fixed, mapper.ZeroCopy())},
		{"fixed_size_binary(0) decodes into empty, non-nil []byte", bytesCase(&arrow.FixedSizeBinaryType{ByteWidth: 0}, `["", null, "", ""]`, empty)},
	})
}

// fxUUIDType is the arrow.uuid canonical extension, as
// arrow/extensions.NewUUIDType defines it: fixed_size_binary(16) storage.
// (arrow/extensions itself pulls in Parquet, which go.mod does not require.)
type fxUUIDType struct{ arrow.ExtensionBase }

type fxUUIDArray struct{ array.ExtensionArrayBase }

func newFxUUIDType() *fxUUIDType {
	return &fxUUIDType{ExtensionBase: arrow.ExtensionBase{Storage: &arrow.FixedSizeBinaryType{ByteWidth: 16}}}
}

func (*fxUUIDType) ArrayType() reflect.Type { return reflect.TypeOf(fxUUIDArray{}) }

func (*fxUUIDType) ExtensionName() string { return "arrow.uuid" }

func (*fxUUIDType) Serialize() string { return "" }

func (*fxUUIDType) Deserialize(arrow.DataType, string) (arrow.ExtensionType, error) {
	return newFxUUIDType(), nil
}

func (e *fxUUIDType) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == e.ExtensionName()
}

type fxByteArrayRow struct {
	V [16]byte  `arrow:"v,nullable"`
	P *[16]byte `arrow:"p"`
}

func TestDecodeByteArrays(t *testing.T) {
	ids := [][16]byte{
		{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00},
		{},
		{0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 0xf9, 0xf8, 0xf7, 0xf6, 0xf5, 0xf4, 0xf3, 0xf2, 0xf1, 0xf0},
		{1},
		{15: 1},
	}
	build := func(mem memory.Allocator) arrow.Array {
		b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
		defer b.Release()
		for i, id := range ids {
			if i == 1 {
				b.AppendNull()
			} else {
				b.Append(id[:])
			}
		}
		return b.NewArray()
	}
	want := make([]fxByteArrayRow, len(ids))
	for i, id := range ids {
		if i != 1 {
			want[i] = fxByteArrayRow{V: id, P: fxPtr(id)}
		}
	}
	fxRun(t, []fxCase{
		{"fixed_size_binary(16) decodes into [16]byte", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", build(mem)}, fxCol{"p", build(mem)})
			defer rec.Release()
			require.Equal(t, want, fxDecodeAll[fxByteArrayRow](t, rec))
		}},
		{"the arrow.uuid extension decodes into [16]byte", func(t *testing.T, mem memory.Allocator) {
			ext := func() arrow.Array {
				storage := build(mem)
				defer storage.Release()
				return array.NewExtensionArrayWithStorage(newFxUUIDType(), storage)
			}
			rec := fxRecord(t, fxCol{"v", ext()}, fxCol{"p", ext()})
			defer rec.Release()
			require.Equal(t, "arrow.uuid", rec.Schema().Field(0).Type.(arrow.ExtensionType).ExtensionName())
			require.Equal(t, want, fxDecodeAll[fxByteArrayRow](t, rec))
		}},
		{"fixed_size_binary(8) does not decode into [16]byte", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxByteArrayRow](fxSchema("v", &arrow.FixedSizeBinaryType{ByteWidth: 8}, "p", &arrow.FixedSizeBinaryType{ByteWidth: 16}))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},
	})
}

type fxAddrRow struct {
	V netip.Addr   `arrow:"v,nullable"`
	P *netip.Addr  `arrow:"p"`
	L []netip.Addr `arrow:"l"`
	S struct {
		A netip.Addr `arrow:"a"`
	} `arrow:"s"`
}

func TestDecodeTextUnmarshaler(t *testing.T) {
	addrs := []string{"192.0.2.1", "::1", "10.0.0.255", "2001:db8::68", "127.0.0.1"}
	addrType := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.BinaryTypes.String})
	build := func(t *testing.T, mem memory.Allocator, dt arrow.DataType, bad string, badRow int) arrow.RecordBatch {
		vals := make([]string, len(addrs))
		for i, a := range addrs {
			vals[i] = strconv.Quote(a)
		}
		if badRow >= 0 {
			vals[badRow] = strconv.Quote(bad)
		}
		lists := `[[` + vals[0] + `, ` + vals[1] + `], null, [], [` + vals[3] + `], [` + vals[4] + `, ` + vals[2] + `]]`
		structs := make([]string, len(vals))
		for i, v := range vals {
			structs[i] = `{"a": ` + v + `}`
		}
		return fxRecord(t,
			fxCol{"v", fxJSON(t, mem, dt, fxJSONList(vals, 1))},
			fxCol{"p", fxJSON(t, mem, dt, fxJSONList(vals, 1))},
			fxCol{"l", fxJSON(t, mem, arrow.ListOf(dt), lists)},
			fxCol{"s", fxJSON(t, mem, addrType, fxJSONList(structs))})
	}
	decodes := func(dt arrow.DataType) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, dt, "", -1)
			defer rec.Release()
			a := make([]netip.Addr, len(addrs))
			for i, s := range addrs {
				a[i] = netip.MustParseAddr(s)
			}
			want := []fxAddrRow{
				{V: a[0], P: &a[0], L: []netip.Addr{a[0], a[1]}},
				{},
				{V: a[2], P: &a[2], L: []netip.Addr{}},
				{V: a[3], P: &a[3], L: []netip.Addr{a[3]}},
				{V: a[4], P: &a[4], L: []netip.Addr{a[4], a[2]}},
			}
			for i := range want {
				want[i].S.A = a[i]
			}
			require.Equal(t, want, fxDecodeAll[fxAddrRow](t, rec))
		}
	}
	fails := func(column string, badRow int) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			type one struct {
				V netip.Addr  `arrow:"v,nullable"`
				P *netip.Addr `arrow:"p"`
			}
			good := `["::1", "::2", "::3", "::4", "::5"]`
			bad := strings.Replace(good, fmt.Sprintf(`"::%d"`, badRow+1), `"not an address"`, 1)
			cols := map[string]string{"v": good, "p": good}
			cols[column] = bad
			rec := fxRecord(t,
				fxCol{"v", fxJSON(t, mem, arrow.BinaryTypes.String, cols["v"])},
				fxCol{"p", fxJSON(t, mem, arrow.BinaryTypes.String, cols["p"])})
			defer rec.Release()
			m, err := mapper.New[one](rec.Schema())
			require.NoError(t, err)
			path := strings.ToUpper(column)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrInvalidData, path, column, badRow)
			require.Contains(t, err.Error(), "not an address")
			_, err = m.Decode(rec)
			fxRequireError(t, err, mapper.ErrInvalidData, path, column, badRow)
			sliced := rec.NewSlice(1, 5)
			defer sliced.Release()
			_, err = m.View(sliced)
			fxRequireError(t, err, mapper.ErrInvalidData, path, column, badRow-1)
		}
	}
	fxRun(t, []fxCase{
		{"utf8 decodes into netip.Addr through UnmarshalText", decodes(arrow.BinaryTypes.String)},
		{"large_utf8 decodes into netip.Addr through UnmarshalText", decodes(arrow.BinaryTypes.LargeString)},
		{"utf8_view decodes into netip.Addr through UnmarshalText", decodes(arrow.BinaryTypes.StringView)},
		{"dictionary<int16, utf8> decodes into netip.Addr through UnmarshalText", decodes(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String})},
		{"an UnmarshalText error is ErrInvalidData naming the row at View", fails("v", 3)},
		{"an UnmarshalText error behind a pointer names the row too", fails("p", 2)},
	})
}

// fxInsideAny reports whether p points into one of bufs.
func fxInsideAny(p unsafe.Pointer, bufs [][]byte) bool {
	for _, b := range bufs {
		if len(b) == 0 {
			continue
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if uintptr(p) >= start && uintptr(p) < start+uintptr(len(b)) {
			return true
		}
	}
	return false
}

func TestZeroCopy(t *testing.T) {
	type row struct {
		S string   `arrow:"s"`
		B []byte   `arrow:"b"`
		L []string `arrow:"l"`
	}
	encodings := []struct {
		name   string
		str    arrow.DataType
		binary arrow.DataType
	}{
		{"utf8 and binary", arrow.BinaryTypes.String, arrow.BinaryTypes.Binary},
		{"large_utf8 and large_binary", arrow.BinaryTypes.LargeString, arrow.BinaryTypes.LargeBinary},
		{"utf8_view and binary_view", arrow.BinaryTypes.StringView, arrow.BinaryTypes.BinaryView},
	}
	buffers := func(arr arrow.Array) [][]byte {
		var out [][]byte
		var walk func(d arrow.ArrayData)
		walk = func(d arrow.ArrayData) {
			for _, b := range d.Buffers() {
				if b != nil {
					out = append(out, b.Bytes())
				}
			}
			for _, c := range d.Children() {
				walk(c)
			}
		}
		walk(arr.Data())
		return out
	}
	for _, enc := range encodings {
		for _, zero := range []bool{true, false} {
			name := "strings and bytes of " + enc.name + " alias Arrow memory with ZeroCopy"
			if !zero {
				name = "strings and bytes of " + enc.name + " are copies without ZeroCopy"
			}
			t.Run(name, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				const strs = `["a string longer than twelve bytes", "short", null, "another string past twelve bytes", "x"]`
				rec := fxRecord(t,
					fxCol{"s", fxJSON(t, mem, enc.str, strings.ReplaceAll(strs, "null", `"n"`))},
					fxCol{"b", fxJSON(t, mem, enc.binary, `["AAECAwQFBgcICQoLDA0ODxAREhM=", "aGk=", null, "aGVsbG8gd29ybGQsIGhlbGxv", "eA=="]`)},
					fxCol{"l", fxJSON(t, mem, arrow.ListOf(enc.str), `[["a string longer than twelve bytes"], [], null, ["y", "another string past twelve bytes"], ["z"]]`)})
				defer rec.Release()
				var opts []mapper.ReadOption
				if zero {
					opts = append(opts, mapper.ZeroCopy())
				}
				got := fxDecodeAll[row](t, rec, opts...)
				require.Equal(t, "a string longer than twelve bytes", got[0].S)
				require.Equal(t, []string{"y", "another string past twelve bytes"}, got[3].L)
				sBufs, bBufs, lBufs := buffers(rec.Column(0)), buffers(rec.Column(1)), buffers(rec.Column(2))
				for i, r := range got {
					require.Equal(t, zero, fxInsideAny(unsafe.Pointer(unsafe.StringData(r.S)), sBufs), "row %d: %q", i, r.S)
					if len(r.B) > 0 {
						require.Equal(t, zero, fxInsideAny(unsafe.Pointer(unsafe.SliceData(r.B)), bBufs), "row %d: %x", i, r.B)
					}
					for _, s := range r.L {
						require.Equal(t, zero, fxInsideAny(unsafe.Pointer(unsafe.StringData(s)), lBufs), "row %d: %q", i, s)
					}
				}
			})
		}
	}
}

type fxStringRow struct {
	V string  `arrow:"v"`
	N string  `arrow:"n,nullable"`
	P *string `arrow:"p"`
}

var fxStringValues = []string{"", "short", "a value longer than twelve bytes", "a value longer than twelve bytes", "é∂ü", "short", "z"}

func fxStringsCase(dt arrow.DataType, opts ...mapper.ReadOption) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		quoted := make([]string, len(fxStringValues))
		want := make([]fxStringRow, len(fxStringValues))
		var odd []int
		for i, s := range fxStringValues {
			quoted[i] = strconv.Quote(s)
			want[i].V = s
			if i%2 == 1 {
				odd = append(odd, i)
				continue
			}
			want[i].N, want[i].P = s, fxPtr(s)
		}
		rec := fxRecord(t,
			fxCol{"v", fxJSON(t, mem, dt, fxJSONList(quoted))},
			fxCol{"n", fxJSON(t, mem, dt, fxJSONList(quoted, odd...))},
			fxCol{"p", fxJSON(t, mem, dt, fxJSONList(quoted, odd...))})
		defer rec.Release()
		require.Equal(t, want, fxDecodeAll[fxStringRow](t, rec, opts...))
	}
}

func TestJSONDecodesIntoRawMessageBytesAndString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	texts := []string{`{"a":1}`, `[1,2]`, ``, `"x"`, `null`}
	valid := []bool{true, true, false, true, true}
	storages := []struct {
		name string
		dt   arrow.DataType
		pin  string
	}{
		{"utf8", arrow.BinaryTypes.String, ""},
		{"large_utf8", arrow.BinaryTypes.LargeString, ",large_utf8"},
		{"utf8_view", arrow.BinaryTypes.StringView, ",utf8_view"},
	}
	for _, st := range storages {
		t.Run(st.name, func(t *testing.T) {
			b := array.NewBuilder(mem, st.dt)
			defer b.Release()
			for i, s := range texts {
				if !valid[i] {
					b.AppendNull()
					continue
				}
				require.NoError(t, b.AppendValueFromString(s))
			}
			rec := extRecord(t, jsonArray(t, b.NewArray()), true)
			defer rec.Release()

			// Each Go type alone: a column is one field's.
			raw, err := mapper.Decode[struct {
				C json.RawMessage `arrow:"c"`
			}](rec)
			require.NoError(t, err)
			bytes, err := mapper.Decode[struct {
				C []byte `arrow:"c,ext=arrow.json"`
			}](rec)
			require.NoError(t, err)
			text, err := mapper.Decode[struct {
				C *string `arrow:"c"`
			}](rec)
			require.NoError(t, err)
			for i, s := range texts {
				if !valid[i] {
					assert.Nil(t, raw[i].C, "row %d", i)
					assert.Nil(t, bytes[i].C, "row %d", i)
					assert.Nil(t, text[i].C, "row %d", i)
					continue
				}
				assert.Equal(t, json.RawMessage(s), raw[i].C, "row %d", i)
				assert.Equal(t, []byte(s), bytes[i].C, "row %d", i)
				assert.Equal(t, s, *text[i].C, "row %d", i)
			}

			t.Run("GoTypeOf's json.RawMessage encodes the record again", func(t *testing.T) {
				typ, err := mapper.GoTypeOf(rec.Schema())
				require.NoError(t, err)
				assert.Equal(t, `arrow:"c`+st.pin+`,ext=arrow.json" json:"c"`, string(typ.Field(0).Tag))
				assert.Equal(t, "json.RawMessage", typ.Field(0).Type.String())
				rows, err := mapper.DecodeTo(typ, rec)
				require.NoError(t, err)
				again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
				require.NoError(t, err)
				defer again.Release()
				assert.True(t, array.RecordEqual(rec, again), "re-encoded\n%v\nwant\n%v", again, rec)
			})
			t.Run("under Strict, a []byte reads it where its tag pins the layout", func(t *testing.T) {
				_, err := mapper.Decode[struct {
					C json.RawMessage `arrow:"c"`
				}](rec, mapper.Strict())
				if st.pin == "" {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, mapper.ErrTypeMismatch)
				typ, err := mapper.GoTypeOf(rec.Schema())
				require.NoError(t, err)
				_, err = mapper.DecodeTo(typ, rec, mapper.Strict())
				require.NoError(t, err)
			})
		})
	}
	t.Run("a plain utf8 into a []byte is refused", func(t *testing.T) {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Append("{}")
		rec := extRecord(t, b.NewArray(), false)
		defer rec.Release()
		_, err := mapper.Decode[struct {
			C []byte `arrow:"c"`
		}](rec)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
		_, err = mapper.Decode[struct {
			C []byte `arrow:"c,ext=arrow.json"`
		}](rec)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
		assert.Contains(t, err.Error(), "ext=arrow.json")
	})
	t.Run("an arrow.json into a []byte pinned another extension is refused", func(t *testing.T) {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Append("{}")
		rec := extRecord(t, jsonArray(t, b.NewArray()), false)
		defer rec.Release()
		_, err := mapper.Decode[struct {
			C []byte `arrow:"c,ext=arrow.opaque"`
		}](rec)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
	})
}
