// Package mapper decodes Arrow record batches into Go structs, driven by
// struct tags, through a plan compiled once per Go type and schema.
//
// New walks the struct type once, matches each field to its column, and
// checks every type before any data is read. View validates a record once;
// after that, slicing its Batch and decoding rows cannot fail and allocate
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
// Build a Mapper with New to decode many records of one schema, and use
// Batch.Slice to decode a record page by page without validating it again.
package mapper
