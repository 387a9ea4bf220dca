// Package bots holds the types every marslab bot family shares: Param
// (one tunable parameter: range, scale, named choices), Values (a set of
// parameter values), Factory (a bot family's entry: name, doc, parameters
// and constructor), Seat (a factory with values and a label), Explainer
// and StatReporter (a bot's own counts per game, with Stat).
//
// The bots themselves live in their own packages (bots/baseline,
// bots/example, bots/lux, bots/mission, mars), each exporting its
// factories; bots/registry collects them and parses seat
// specifications; bots/blocks holds the position queries and standard moves
// the bots compose. This package imports only sim.
package bots
