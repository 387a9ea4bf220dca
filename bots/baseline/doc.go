// Package baseline holds marslab's baseline Risk bots.
//
// Random is a uniformly random legal player that exercises every corner of
// the engine. Sciberras plays one of the three fixed strategies of
// Sciberras (2022), section 4.2: Passive, Pacifist and Aggressive.
//
// Factories returns the registry entries of all four (random, passive,
// pacifist, aggressive); package bots/registry collects them.
package baseline

import "github.com/marslab-risk/marslab/bots"

// Factories returns the registry entries of the baseline bots: random,
// passive, pacifist and aggressive (fresh values on every call).
func Factories() []bots.Factory {
	return []bots.Factory{
		randomFactory(),
		sciberrasFactory(Passive),
		sciberrasFactory(Pacifist),
		sciberrasFactory(Aggressive),
	}
}
