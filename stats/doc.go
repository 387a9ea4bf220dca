// Package stats holds the statistics marslab reports with its results:
// confidence intervals for a binomial proportion (Wilson, Clopper-Pearson),
// the exact binomial test and its normal (z) approximation, Pearson's
// chi-square goodness-of-fit test, paired differences of two candidates
// measured on the same seeds (continuous and binary outcomes), Holm's
// correction of a family of p-values, and Spearman's rank correlation with
// its permutation p-value.
//
// The distributions underneath are gonum's (gonum.org/v1/gonum/stat/distuv).
// Every function checks its input and returns an error naming the argument
// and its allowed range instead of panicking or returning NaN.
//
// Confidence levels are given as a probability in (0, 1), e.g. 0.95 for a
// two-sided 95 % interval; p-values are two-sided unless a doc comment says
// otherwise.
package stats
