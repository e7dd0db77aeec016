// Command mutant reads one Parquet file through every reader of
// arrowmap/parquet and prints its verdict as one line of JSON: mutant
// FILE KIND BATCHROWS, KIND one of mutant.Kinds, BATCHROWS the
// ReadConfig.BatchRows of the paths that take one (see mutant.Paths). A panic that escapes on any
// goroutine, or an allocation past its memory limit, ends it with that
// exit, for the mutation test to see.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/arrowmap/arrowmap/parquet/internal/mutant"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: mutant FILE KIND BATCHROWS")
		os.Exit(64)
	}
	batch, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutant: BATCHROWS:", err)
		os.Exit(64)
	}
	v, err := mutant.Check(os.Args[1], os.Args[2], batch)
	if err == nil {
		err = mutant.Print(v)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutant:", err)
		os.Exit(1)
	}
}
