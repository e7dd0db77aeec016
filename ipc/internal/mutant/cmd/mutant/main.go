// Command mutant reads one IPC file or stream through every reader of
// arrowmap/ipc and arrowmap/flight and prints its verdict as one line of
// JSON: mutant FILE KIND, KIND one of mutant.Kinds. A panic that escapes
// on any goroutine, a fatal signal, or an allocation past its memory
// limit ends it with that exit, for the mutation test to see.
package main

import (
	"fmt"
	"os"

	"github.com/arrowmap/arrowmap/ipc/internal/mutant"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mutant FILE KIND")
		os.Exit(64)
	}
	v, err := mutant.Check(os.Args[1], os.Args[2])
	if err == nil {
		err = mutant.Print(v)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutant:", err)
		os.Exit(1)
	}
}
