// Package bots holds marslab's baseline Risk bots and the bot registry.
//
// The baseline bots are Random, a uniformly random legal player that
// exercises every corner of the engine, and the three fixed strategies of
// Sciberras (2022), section 4.2: Passive, Pacifist and Aggressive.
//
// The Registry maps bot names to Factories. A seat specification such as
// "aggressive", "random(stop=0.3)" or "mars@configs/bots/mars-paper.toml"
// is parsed into a Seat, which makes players with validated parameters.
// The registry's builtin table is immutable; a Registry value may be
// extended with Register without affecting any other Registry.
package bots
