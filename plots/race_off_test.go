//go:build !race

package plots

const raceEnabled = false
