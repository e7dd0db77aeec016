//go:build race

package racetest

// enabled is true: the test binary was built with -race.
const enabled = true
