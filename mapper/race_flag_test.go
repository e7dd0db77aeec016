//go:build race

package mapper_test

// raceEnabled: the race detector slows decoding tenfold, so the tests
// that decode tens of millions of rows skip under it.
const raceEnabled = true
