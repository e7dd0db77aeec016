//go:build arrowmap_testhooks

package main

import (
	"fmt"
	"os"
	"strconv"
)

// The tests build the command with the tag arrowmap_testhooks, and
// ARROWMAP_TEST_PANIC_AFTER=N makes convert panic after its N-th record,
// as arrow-go would on a bug: what a panic leaves behind is tested.
func init() {
	n, err := strconv.Atoi(os.Getenv("ARROWMAP_TEST_PANIC_AFTER"))
	if err != nil {
		return
	}
	afterRecord = func(records int) {
		if records == n {
			panic(fmt.Sprintf("the panic the tests asked for, after record %d", n))
		}
	}
}
