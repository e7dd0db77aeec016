//go:build race

package integration

const raceDetector = true
