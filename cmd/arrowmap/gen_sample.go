//go:build ignore

// Writes sample.arrow for the command line to embed: go generate ./cmd/arrowmap
package main

import (
	"log"
	"os"

	"github.com/arrowmap/arrowmap/cmd/arrowmap/internal/sample"
)

func main() {
	f, err := os.Create("sample.arrow")
	if err != nil {
		log.Fatal(err)
	}
	if err := sample.Write(f, sample.Rows); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
