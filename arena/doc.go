// Package arena plays many games at once: a pool of workers (one per core
// by default), each with its own sim.Game and bots, plays a batch of games
// whose random streams depend only on (experiment seed, game index), and
// collects the results by game index, so that the output is byte-identical
// for any number of workers or shards.
//
// An output directory holds
//
//	config.json   the batch: seed, games, seats, rules, map (with SHA-256
//	              fingerprints) and the shard
//	games.jsonl   one Record per game, in index order
//	summary.json  one BotSummary per bot label, computed from games.jsonl
//	timing.json   measured speed (Timing): the only file that varies
//
// Seats rotate: game g seats the configured list rotated by g mod n. Shard
// i of n plays the games g with g % n == i; Merge joins the shards'
// directories into one identical to a one-shard run. A cancelled Run keeps
// every completed game before the first unfinished one; Config.Resume
// plays the rest.
package arena
