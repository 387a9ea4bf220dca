// Package report runs marslab's experiments from their configs and writes
// each as a notebook: a folder holding the experiment's TOML config
// (config.toml), the generated report (README.md), its figures (PNG for
// viewing, SVG for papers) and its data as CSV.
//
// A notebook's config names its kind, which selects the experiment and the
// report template embedded in this package:
//
//	dice    exact dice odds (package dice) beside the MARS paper's Table 4,
//	        the P(win) table and heat map, expected losses, chain odds and a
//	        test of the engine's dice against the exact odds (dice/dicetest)
//	engine  the speed of the engine and of each bot (package arena), game
//	        length and stalemates per rule set, memory per game and MARS's
//	        cost per turn against the paper's
//	calibration
//	        a parameter search of a bot (package search): a narrowing
//	        of two parameters with racing, CMA-ES over many, the named
//	        options' effects and the validation of the results against a
//	        reference on fresh deals, with the surface figures
//	recognition
//	        mission-card recognition (package internal/recognition): PHATT, PHATT
//	        with state-dependent weights and a data-driven recogniser on
//	        mission-mode games of mission bots, beside Khan & Rovatsos's
//	        appendix tables
//	strategist
//	        a strategy-switching learner (package learn, marslab learn):
//	        training curves, its greedy and exploring policies against every
//	        fixed strategy and a uniform choice on common fresh seeds
//	tournament
//	        a round-robin tournament (package tourney) beside the MARS
//	        paper's Tables 5 and 6
//
// The same config and seed give byte-identical CSV files and the same README,
// except for measured timings: those are kept in timings.csv and, in the
// README, between the lines timingBegin and timingEnd, where the heading of
// each such block says "(timing, varies)". StripTimings removes them for
// comparison. The prose interpreting a result lives in the config's [notes]
// table and is printed beside the numbers it speaks of; every number in a
// report comes from the run that wrote it (or, for a paper's value, from the
// config that cites it).
//
// The config gives two sizes, [full] and [quick]: Options.Quick runs the
// reduced one, for continuous integration.
package report
