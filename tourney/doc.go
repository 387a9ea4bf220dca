// Package tourney runs round-robin tournaments of Risk bots and reports them
// the way Johansson & Olsson (2006) report theirs: every k-subset of a field
// of bots plays r games (arena.Subsets), seating and deal random per game,
// and the records become the paper's Table 5 (placements per bot and
// stalemates), Table 6 (win %, time per match, turns per match, time per
// turn, win % per time per turn), mean placement and win % with 95 %
// intervals, and a head-to-head table of every pair.
//
// A tournament is described by a TOML file (Load, Parse):
//
//	bots         = ["mars", "angry", "communist", ...]  # seat specs, >= players
//	players      = 6                  # players per game, 2..6
//	replications = 1                  # games per line-up, >= 1
//	rules        = "mars2006"         # embedded rule set or TOML file
//	map          = ""                 # optional: embedded map or file (default: the rules' map)
//	seed         = 2006               # experiment seed
//	out          = "results/paper-tournament"   # output directory
//
// Placements come from the engine (sim.Result.Placement, recorded in
// arena.Record.Placements): the winner is first, eliminated bots rank in
// reverse order of elimination, and at a stalemate the survivors rank by
// territories, then armies, then seat.
package tourney
