// Package mapper maps Arrow record batches to Go structs and back, driven
// by struct tags, through plans compiled once per Go type and schema.
//
// New walks the struct type once, matches each field to its column, and
// checks every type before any data is read. View validates a record once;
// after that, slicing its Batch and decoding rows cannot fail, and allocate
// per column, not per value:
//
//	type Order struct {
//		ID    int64    `arrow:"id"`
//		Items []string `arrow:"items"`
//		Note  *string  `arrow:"note"`
//	}
//
//	rows, err := mapper.Decode[Order](rec)
//
// Build a Mapper with New to decode many records of one schema, use
// Batch.Slice to decode a record page by page without validating it again,
// and NewReader to read any array.RecordReader (IPC, Parquet, Flight) in
// exact-size pages. SchemaOf, Encode and Builder go the other way, from
// []T to Arrow.
package mapper
