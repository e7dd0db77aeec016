// Command mutant reads IPC files or streams, one after the other, through
// every reader of arrowmap/ipc and arrowmap/flight, and prints the verdict
// of each as one line of JSON as it is done: mutant FILE KIND [FILE KIND
// ...], each KIND one of mutant.Kinds. A panic that escapes on any
// goroutine, a fatal signal, or an allocation past its memory limit ends
// it with that exit, for the mutation test to see: the verdicts printed
// before are those of the files before the one that ended it.
package main

import (
	"fmt"
	"os"

	"github.com/arrowmap/arrowmap/ipc/internal/mutant"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || len(args)%2 != 0 {
		fmt.Fprintln(os.Stderr, "usage: mutant FILE KIND [FILE KIND ...]")
		os.Exit(64)
	}
	for ; len(args) > 0; args = args[2:] {
		v, err := mutant.Check(args[0], args[1])
		if err == nil {
			v.File = args[0]
			err = mutant.Print(v)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutant:", err)
			os.Exit(1)
		}
	}
}
