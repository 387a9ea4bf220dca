// Package learn wraps the Risk engine in a Gym-style environment, after
// Sciberras (2022), sections 3 and 4. The learners, their training and
// evaluation, the experiment of marslab learn and its reports are package
// internal/strategist.
//
// One seat of a game is the learner's. At the start of each of its turns
// (a decision point, one environment step) the learner picks an action: one
// of a list of bots (by default the paper's three strategies, passive,
// pacifist and aggressive), which then plays that whole turn. The other
// seats are opponents, each drawn per episode from a list of bots (by
// default the same three simple agents, which keep their strategy for the
// whole game, as in the paper's section 4.2). Config, read from TOML, says
// all of this; [DefaultConfig] is the paper's set-up.
//
// Two ways to drive an episode:
//
//   - Runner.Run plays one whole game and calls a decide function at each
//     decision point, on the game's own goroutine. In-process learners
//     (internal/strategist's QTable, DQN, Train) use it: no goroutine, no
//     channel, nothing allocated per step.
//   - Env offers Reset(seed) and Step(action), the Gym interface, for a
//     caller that wants to drive the game from outside (marslab env serve,
//     Serve). It runs the Runner on a goroutine of its own and hands the
//     observation and the action over two unbuffered channels; Close ends
//     that goroutine. BenchmarkEnvEpisode and BenchmarkRunnerEpisode measure
//     what the bridge costs per step beside a step's game time.
//
// The observation (Features) holds the paper's, the share of the board the
// seat owns, and richer features, all computed from what the seat is shown
// ([sim.State] of its seat: no other seat's cards or mission). The reward
// (Rewards) is the paper's scheme by default: a cost per turn, a reward for
// a win, for a loss while alive and for elimination, and at the round limit
// a reward by the seat's rank in territories (250, 100, 0, -50).
package learn
