// Package conformance tests arrowmap on Apache Arrow's integration files
// (testdata/arrow-integration: files other implementations wrote, with
// golden JSON): for every file of every folder, the type arrowmap gen
// prints for it decodes every record, through a Reader in pages too,
// encodes back to the same record and schema, and every decoded value
// agrees with the golden JSON, read by package golden, which shares no code
// with arrowmap or arrow-go. The package has tests only:
//
//	go test ./conformance
//
// After adding a folder of files, regenerate the types:
//
//	go generate ./conformance
package conformance

//go:generate go run regen.go
