package stats

// Level is the confidence level of every interval and test marslab reports
// with its results: 0.95, a two-sided 95 % interval (z = 1.959963984540054).
const Level = 0.95
