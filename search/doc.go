// Package search calibrates a bot's parameters under noise: it plays
// candidates (sets of named parameter values over a base set) against a
// field of opponents defined in TOML, and looks for the values with which
// the bot wins most.
//
// # Evaluations
//
// A candidate's score is its win rate. Games come in blocks: block b is one
// random stream (sim.GameSeed(seed, stream of b)) played Players times with
// the candidate rotated through every seat, the opponents keeping their
// order around it. Every candidate meets the same blocks (common random
// numbers), so comparisons between candidates are paired by block. One
// evaluation is one (candidate, block) pair; its result (wins out of
// Players games, placements) never depends on the worker or shard that
// played it. An Evaluator plays evaluations: Games over an arena.Pool, or
// Bernoulli, a synthetic objective with a known optimum for tests.
//
// # Steps, log, resume and shards
//
// A search (Narrowing, CMAES) is a sequence of steps; a step is the set of
// evaluations that the config and the results of the earlier steps decide
// (a racing round of a narrowing level, a CMA-ES generation). Run writes one
// line per evaluation to DIR/log.jsonl in canonical order (step, candidate,
// block), so the log is byte-identical for any number of workers, resumed
// runs and shards: RunShard plays a stride of the current step's
// evaluations into DIR/shards/step-S/shard-i-of-n.jsonl and MergeShards
// appends them to the log in canonical order.
//
// # Statistics
//
// Racing drops the candidates that a one-sided paired t-test over the
// common blocks, Holm-corrected over the candidates alive, shows worse than
// the best; Validate compares two parameter sets on fresh blocks with a
// paired interval and p-value, or with Wald's sequential probability ratio
// test.
package search
