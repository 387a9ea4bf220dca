// Package searchreport renders the results of package search: the
// report.md, CSV tables, figures and parameter files of marslab sweep
// ([WriteNarrow]), evolve ([WriteEvolve]), validate ([WriteValidation])
// and run ([MainRun]), and the tables and sentences the calibration
// notebooks print ([Levels], [PaperTable], [Verdict], ...). Package search
// computes and returns numbers; every word and figure of its reports is
// written here, from those numbers.
package searchreport
