package lux

import "marslab/bots"

// factoriesB returns the entries of the second group of bots.
func factoriesB() []bots.Factory { return nil }
