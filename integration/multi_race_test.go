//go:build race

package integration

// raceDetector says whether the tests run with -race.
const raceDetector = true
