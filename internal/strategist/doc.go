// Package strategist holds learners for the environment of package learn
// and the experiment that trains, evaluates and compares them (marslab
// learn, the strategist notebooks), after Sciberras (2022), section 4.
//
// The learners are QTable (tabular Q-learning over a discretised
// observation) and DQN (a multilayer perceptron with a replay memory and a
// target network); Train plays batches of episodes on every core with the
// policy frozen and hands each batch to Learner.Learn in episode order, so
// that a result depends on the seed, not on the number of workers.
// The evaluation plays the same episodes with each Policy (Greedy, Fixed,
// Uniform), paired by episode.
//
// A trained QTable or DQN is saved as a JSON policy file (SavePolicy,
// LoadPolicy). Experiment.RunWith can write a checkpoint of
// the whole training state after each block of the curve and resume from
// it, with the results of an uninterrupted run.
//
// An experiment's Result is rendered once, by the functions of render.go
// (EvalTables, PairedTables, Verdicts, Behaviour,
// CompareArms and its tables): marslab learn's README.md and the
// strategist notebooks of package report print the same tables and
// sentences, each sentence made from the numbers.
package strategist
