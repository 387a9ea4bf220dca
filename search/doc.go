// Package search calibrates a bot's parameters under noise: it plays
// candidates (sets of named parameter values over a base set) against a
// field of opponents defined in TOML ([LoadConfig], [Config.Resolve]), and
// looks for the values with which the bot wins most. It computes and
// returns numbers; the reports of its commands are written by package
// internal/searchreport.
//
// # Evaluations
//
// A candidate's score is its win rate. Games come in blocks: block b is one
// random stream (sim.GameSeed(seed, stream of b)) played Players times with
// the candidate rotated through every seat, the opponents keeping their
// order around it. Every candidate meets the same blocks (common random
// numbers), so comparisons between candidates are paired by block. One
// evaluation ([Eval]) is one (candidate, block) pair; its [Result] (wins
// out of Players games, placements) never depends on the worker or shard
// that played it. An [Evaluator] plays evaluations: [Games] over an
// arena.Pool, or [Bernoulli], a synthetic objective for tests and
// examples.
//
// # Steps, log, resume and shards
//
// A search method ([Narrowing], [Evolve] for CMA-ES, [Validation], [Panel],
// and SPSA, a Gaussian-process surrogate and successive halving behind
// [Setup.Recommender]) is a sequence of steps; a step is the set of evaluations that the config
// and the results of the earlier steps decide (a racing round of a
// narrowing level, a CMA-ES generation, a chunk of validation blocks). A
// [Search] runs a method: [Search.Run] writes one line per evaluation to
// DIR/log.jsonl in canonical order (step, candidate, block), so the log is
// byte-identical for any number of workers, resumed runs and shards:
// [Search.RunShard] plays a stride of the current step's evaluations into
// DIR/shards/step-S/shard-i-of-n.jsonl and [Search.Merge] appends them to
// the log in canonical order. Without a folder, Run plays in memory. The
// [State] it returns holds the method with its own type, its results read
// without a type assertion.
//
// # Statistics
//
// Racing drops the candidates that a one-sided paired t-test over the
// common blocks, Holm-corrected over the candidates alive, shows worse than
// the best; a [Validation] compares two parameter sets on fresh blocks with
// a paired interval and p-value ([Comparison]), or with Wald's sequential
// probability ratio test ([SPRT]); a [Panel] compares several with one
// reference on the same blocks; [Calibrate] chains a narrowing, a CMA-ES
// search and the validations of their results.
package search
