package lux

import "marslab/bots"

// factoriesA returns the entries of the first group of bots.
func factoriesA() []bots.Factory { return nil }
