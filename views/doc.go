// Package views holds typed, validated, zero-copy views over Arrow arrays.
//
// [New] checks an array against a logical [Type] once: its datatype, the
// integrity of its buffers (offsets, dictionary indexes, run ends, view
// buffers), and the nulls that can be reached at every level the type says
// cannot be null. After that, every read is infallible, and [View.Slice]
// narrows the rows without validating anything again: a list moves its own
// window and shares its child, a fixed-size list moves its child window too,
// a struct moves its children's windows, a dictionary or run-end view moves
// its index or run window and shares the values.
//
//	v, err := views.New(arr, views.PrimitiveColumn[float64]{}.ViewType(arr.DataType()))
//	if err != nil { … }
//	page := v.Slice(100, 200) // O(1), no allocation, no re-validation
//
// Typed columns read a view through the accessors of one encoding, with no
// error path and no allocation per row: [PrimitiveColumn], [BoolColumn],
// [StringColumn], [BinaryColumn], [TimestampColumn], [ListColumn],
// [FixedSizeListColumn], [ListViewColumn], [StructColumn], [MapColumn],
// [DictionaryColumn], [RunEndColumn] and, for a level left untyped,
// [ViewColumn], each bound with its constructor
// (PrimitivesOf, ListsOf, …) or, for a whole record, with mapper.Columns.
// Lists compose: a ListColumn[StringColumn] reads row i as the
// StringColumn of its elements; a StructColumn's fields bind as typed
// columns with [FieldOf].
//
//	prices, err := views.PrimitivesOf[float64](v)
//	if err != nil { … }
//	for _, p := range prices.Values() { total += p }
package views
