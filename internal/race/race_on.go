//go:build race

package race

// Enabled reports a -race build.
const Enabled = true
