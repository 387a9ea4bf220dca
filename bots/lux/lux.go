// Package lux holds Lux-style opponent bots: re-implementations of the
// bots that ship with the Lux Delux game (Angry, Communist, Stinky,
// Cluster, Pixie, Shaft, Yakool, Boscoe, Bort, EvilPixie, Quo) and
// Vulture, which stands in for the unpublished Nefarious. Cluster, Shaft,
// Quo, Yakool, Boscoe, Bort and Vulture follow the published Java source
// (sillysoft/LuxSDK) on blocks.Lux; the others follow the descriptions in
// the project's shared notes, composed from the other building blocks of
// package blocks. Each bot's doc comment gives its behaviour and every
// choice made where its source is silent.
package lux

import "github.com/marslab-risk/marslab/bots"

// Factories returns the registry entries of every Lux-style bot.
func Factories() []bots.Factory {
	return append(factoriesA(), factoriesB()...)
}
