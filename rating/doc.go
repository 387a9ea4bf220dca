// Package rating rates players from the placements of games of any number
// of players: the Bayesian approximation of Weng and Lin (2011, "A Bayesian
// approximation method for online ranking", JMLR 12:267-300) under the
// Plackett-Luce model (their Algorithm 4, the model OpenSkill implements)
// or the full-pair Bradley-Terry model (their Algorithm 1).
//
// Each player's skill is a Gaussian belief N(μ, σ²); a game's placements
// move every μ toward what the model did not expect and shrink every σ.
// The conservative ordinal μ − 3σ ranks players by a skill they have with
// probability 99.87 %, so a player with few games stands low. Defaults are
// the paper's and OpenSkill's: μ = 25, σ = 25/3, β = σ/2, κ = 0.0001, no
// dynamics (τ = 0).
//
// Players of one game may tie (equal ranks): the models count a tie as the
// paper's equations do (A_q in Algorithm 4, s = 1/2 in Algorithm 1).
//
// Model.Fit rates a sequence of games of named players in order,
// Model.Holdout measures how well ratings fitted on the first games of a
// sequence predict the placements of the rest, and HeadToHead counts how
// often each player finished ahead of each other.
package rating
