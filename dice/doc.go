// Package dice computes exact odds of Risk battles.
//
// A battle is an absorbing Markov chain (Tan 1997, corrected by Osborne
// 2003): its state is (a, d), where a is the number of attacking armies and
// d the number of defending armies, and every roll removes at least one
// army, so the states form an acyclic graph. The package evaluates that
// graph by dynamic programming, never by matrix inversion: a whole table of
// P(win) for 0 <= a, d <= n costs Θ(n²) multiply-adds.
//
// Conventions:
//
//   - a counts the attacking armies only, not the army that must stay
//     behind: a territory holding T armies attacks with a = T-1.
//   - d counts all the defending armies.
//   - Each roll uses min(Rules.AttackerDice, a) attacking dice and
//     min(Rules.DefenderDice, d) defending dice; the dice are compared
//     highest with highest, second with second; ties go to the defender
//     (unless Rules.TiesToAttacker).
//   - The attacker wins (conquers) when d reaches 0 and loses when a
//     reaches 0. By convention P(win) is 1 for d = 0 (even for a = 0) and
//     0 for a = 0, d > 0.
//   - A chain is a path of territories with d1, ..., dk defenders attacked
//     in order. After conquering territory i with s surviving attacking
//     armies, the s armies move into it and one of them must stay there,
//     so the battle for territory i+1 starts with s-1 attacking armies.
//
// The float64 results agree with the exact math/big.Rat results
// (RollOdds.rat, [BattleStopExact], [WinExact], [ChainExact], [NewTableExact]) to
// 1e-14 for all a, d <= 60, where a float64 x agrees with an exact value e
// to 1e-14 when
//
//	|x - e| <= 1e-14 * max(1, |e|)
//
// (an absolute error for values up to 1, a relative one above). The tests
// check this for P(win) of every table entry, and for every start of
// Battle and [BattleStop] (stop levels 0 and 3) for P(win), every end-state
// probability and the means and variances of both sides' losses.
//
// The exact results grow long fractions: [ChainExact],
// [BattleStopExact] and [NewTableExact] take a context and stop with the context's
// error when it is done (a command's Ctrl-C or a deadline), checking it every
// few cells.
//
// Beyond the odds, Stop finds the optimal stopping policy of an attack
// along a path under a Utility (backward induction over the chain's
// states; [StopExact] in [big.Rat]) and compares it with the threshold rules
// "attack while the win probability is at least W"; Defend finds the
// allocation of a defender's armies along a path that minimises the
// attacker's chance (Glass and Neller 2015), by branch and bound. [Rules.Sides]
// rolls dice of other numbers of faces.
//
// The MARS paper (Johansson & Olsson 2006) lists rounded single-roll odds
// in its Table 4 (Table4 reproduces them) and uses battle and chain odds as
// the p_i, "probability to reach goal i", of its territory agents.
package dice
