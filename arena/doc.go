// Package arena plays many games at once: a Pool of workers (one per core
// by default), each with its own [sim.Game] and bots, plays games whose
// random streams depend only on (experiment seed, game index), and
// delivers their outcomes by game index, so that the results are
// byte-identical for any number of workers or shards. Run is the output
// layer over the pool: it writes a batch to a directory, resumes it and
// summarises it; a caller with its own storage uses Pool directly.
//
// A Schedule says who plays each game: game g seats entries of a pool of
// bots in an order it gives, and names the random stream of the game.
// Rotation (the default) seats a fixed list rotated by g mod n; Subsets
// plays every k-subset of a larger pool with a random seating per game.
// [GameObserver] hooks attach to each worker's game and report per game.
//
// An output directory holds
//
//	config.json   the batch: seed, games, seats, schedule, rules, map (with
//	              SHA-256 fingerprints), round limit and the shard
//	games.jsonl   one Record per game, in index order
//	summary.json  one BotSummary per bot label, computed from games.jsonl
//	timing.json   measured speed (Timing): the only file that varies
//
// Shard i of n plays the games g with g % n == i; Merge joins the shards'
// directories into one identical to a one-shard run. A cancelled Run keeps
// every completed game before the first unfinished one; [Config.Resume]
// plays the rest. Resume and Merge check every line of games.jsonl against
// config.json (order, seed, line-up, a possible result under the rules, the
// canonical encoding) before they use it.
package arena
