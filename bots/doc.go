// Package bots holds the types every marslab bot family shares: Param
// (one tunable parameter: range, scale, named choices), Values (a set of
// parameter values), Factory (a bot family's entry: name, doc, parameters
// and constructor), Seat (a factory with values and a label), Explainer
// and [StatReporter] (a bot's own counts per game, with Stat).
//
// Registry maps bot names to factories and parses seat specifications
// ("mars@paper(W_p=0.8)"), -param overrides, parameter files and the
// embedded parameter sets of package configs into Seats; Table seats them
// at a game. The experiment packages (search, tourney, learn,
// internal/recognition, report) take a *Registry from their caller, so they
// import this package and none of the bot families.
//
// The bots themselves live in their own packages (bots/baseline,
// bots/example, bots/lux, bots/mission, mars), each exporting its
// factories; bots/registry lists them (Default) for cmd/marslab;
// bots/blocks holds the position queries and standard moves the bots
// compose. This package imports only sim, configs and internal/fileread.
package bots
