// Package lux holds Lux-style opponent bots: re-implementations, from the
// descriptions in the project's shared notes, of the bots that ship with
// the Lux Delux game (Angry, Communist, Stinky, Cluster, Pixie, Shaft,
// Yakool, Boscoe, Bort, EvilPixie, Quo) and Vulture, which stands in for the
// unpublished Nefarious. They are composed from the shared building blocks
// of package blocks; each bot's doc comment gives its behaviour and every
// choice made where the description is silent.
package lux

import "github.com/marslab-risk/marslab/bots"

// Factories returns the registry entries of every Lux-style bot.
func Factories() []bots.Factory {
	return append(factoriesA(), factoriesB()...)
}
