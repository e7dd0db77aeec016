//go:build !race

package integration

const raceDetector = false
