// Package mcts holds a search-based reference bot: information-set Monte
// Carlo tree search over the engine (package sim), with macro-actions and
// UCT.
//
// At each decision worth searching (the placement of a turn's armies,
// each attack, the fortification) the bot plays Playouts simulated
// continuations of the game from the position it is shown. Each playout
// first fills in what the seat cannot see (the other hands, the deck and
// the discard pile, and under mission rules the others' missions) with a
// random deal consistent with what it can (a determinisation, as
// information-set MCTS samples it), then plays on with the engine
// (sim.Game.PlayFrom): the dice are the engine's own, so chance is
// sampled, not enumerated. The tree is open-loop: its edges are the bot's
// macro-actions in the rest of its turn, and a node's statistics average
// over the dice and deals that led to it.
//
// Macro-actions keep the branching to at most Width per decision:
//
//   - placement: all of the turn's armies on one border territory (the
//     Width territories with the best ratio to a weak enemy neighbour, and
//     the most threatened one);
//   - attack: "attack from A to B until B falls or A holds StopAt armies or
//     fewer" (the Width−1 attacks with the best ratio of armies), or stop;
//   - fortification: no move, or one of the Width−1 moves of all spare
//     armies from a territory to a more threatened one.
//
// Inside the tree the bot picks by UCT (UCB1 with availability counts, as
// information-set MCTS does when an action is not legal in every
// determinisation) with exploration constant Explore; the first untried
// action is expanded. After the expansion, and for every other seat, a
// rollout policy plays (Policy: greedy or random), for Depth more
// player-turns after the bot's own; the position is then scored for the
// bot (1 for a win, 0 for a loss or a stalemate at the round limit, 0
// when out, otherwise a mix of its share of the armies
// and of the income, EvalMix). The bot plays the most visited action; the
// subtree under it is kept for the next decision of the same turn (Reuse).
//
// The default budget is 400 playouts per searched decision: 8 to 10 ms
// of CPU per decision and 2.3 s per six-player game under the rules
// mars2006 against the five strongest Lux bots, about 236 searched
// decisions a game
// (BenchmarkDecision, BenchmarkGame; docs/bots.md gives the strength at
// each budget).
//
// The bot's random numbers (the deals and the playouts' seeds) come from
// the stream the engine gives the seat, so a game is the same for a seed
// whatever the number of workers. Trades (the best set whenever one is
// held), the move-in after a conquest and the initial placement are
// heuristics, not searched.
package mcts
