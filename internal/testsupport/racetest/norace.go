//go:build !race

package racetest

// enabled is false: the test binary was built without -race.
const enabled = false
