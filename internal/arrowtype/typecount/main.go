// Command typecount counts, for every Arrow type of the table, the non-test
// Go files of the library that name it (arrow.<ID>, arrow.<Name>Type,
// array.<Name>, array.<Name>Builder), and fails when one names a type the
// table does not let it name.
//
//	go run ./internal/arrowtype/typecount [-max 3] [-v]
//
// It reads the files of the module at the working directory, leaving out
// tests and the folders users do not import (conformance, bench, examples,
// integration).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/arrowmap/arrowmap/internal/arrowtype/typecount/count"
)

func main() {
	max := flag.Int("max", 3, "the most non-test files one type may be named in")
	verbose := flag.Bool("v", false, "list the files that name each type")
	flag.Parse()
	counts, err := count.Module(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "typecount:", err)
		os.Exit(2)
	}
	fmt.Println("| Arrow type | files | ")
	fmt.Println("| --- | ---: |")
	over := 0
	for _, c := range counts {
		fmt.Printf("| %s | %d |", c.Type, len(c.Files))
		if *verbose {
			fmt.Printf(" %v", c.Files)
		}
		fmt.Println()
		if len(c.Files) > *max {
			over++
		}
	}
	if over > 0 {
		fmt.Fprintf(os.Stderr, "typecount: %d types are named in more than %d files\n", over, *max)
		os.Exit(1)
	}
}
