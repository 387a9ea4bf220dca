package recognition

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/table"
)

// This file holds the CSV files and figures of a summary that marslab
// recognize and notebooks/recognition both write: one writer per file.

// tallyHeader appends to prefix the header of a Tally's columns in the
// CSV files: correct predictions, player-games counted, ties, accuracy
// and its 95 % Wilson interval (fractions in [0, 1]).
func tallyHeader(prefix ...string) []string {
	return append(prefix, "correct", "n", "ties", "accuracy", "wilson_lo", "wilson_hi")
}

// tallyRow appends t's columns (tallyHeader) to prefix, numbers as the
// shortest text that reads back to them.
func tallyRow(prefix []string, t Tally) []string {
	num := textfmt.Shortest
	return append(prefix, strconv.Itoa(t.Correct), strconv.Itoa(t.N), strconv.Itoa(t.Ties), num(t.Acc), num(t.CI.Lo), num(t.CI.Hi))
}

// csvTables returns the CSV files of a run by name, in the order
// WriteCSV writes them: length.csv (plain PHATT's accuracy per arm and
// minimum game length in turns, paper's counting), accuracy.csv (every
// recogniser that ran, per arm, player group and 5 % of the game, under
// the paper's counting from paper and under ours from ours), missions.csv
// (every recogniser that ran, per arm, player group and mission card at
// the end of the game, paper's counting) and pairs.csv (the paired
// comparisons of the recognisers, exact McNemar p and Holm's p). paper
// and ours summarise the same run (Summarize with Counting{} and Ours).
func csvTables(paper, ours *Summary) ([]string, []table.Table, error) {
	if len(paper.Arms) != len(ours.Arms) || len(paper.Recognisers) != len(ours.Recognisers) {
		return nil, nil, fmt.Errorf("recognition CSV: the two summaries differ: %d and %d arms, %d and %d recognisers",
			len(paper.Arms), len(ours.Arms), len(paper.Recognisers), len(ours.Recognisers))
	}
	const ph = 0 // plain PHATT, the paper's recogniser
	itoa, num := strconv.Itoa, textfmt.Shortest
	length := table.Table{Header: tallyHeader("arm", "min_turns")}
	for a, arm := range paper.Arms {
		for b, t := range paper.ByLength[ph][a] {
			length.Rows = append(length.Rows, tallyRow([]string{arm, itoa(lengthBins[b])}, t))
		}
	}
	pairs := table.Table{Header: []string{"arm", "x", "y", "both", "only_x", "only_y", "neither", "diff", "lo", "hi", "p_mcnemar", "p_holm"}}
	for _, pr := range paper.Pairs {
		r := pr.Result
		pairs.Rows = append(pairs.Rows, []string{pr.Arm, pr.X, pr.Y, itoa(r.Counts.Both), itoa(r.Counts.OnlyX), itoa(r.Counts.OnlyY),
			itoa(r.Counts.Neither), num(r.Diff), num(r.Interval.Lo), num(r.Interval.Hi), num(r.P), num(pr.PHolm)})
	}
	curve := table.Table{Header: tallyHeader("counting", "recogniser", "arm", "players", "percent_of_game")}
	missions := table.Table{Header: tallyHeader("recogniser", "arm", "players", "mission")}
	for r, rn := range paper.Recognisers {
		if !paper.Ran[r] {
			continue
		}
		for a, arm := range paper.Arms {
			for g := range numGroups {
				for _, v := range []struct {
					name string
					sum  *Summary
				}{{"paper", paper}, {"ours", ours}} {
					for k := range steps {
						curve.Rows = append(curve.Rows, tallyRow([]string{v.name, rn, arm, groupNames[g], itoa(5 * (k + 1))}, v.sum.Curve[r][a][g][k]))
					}
				}
				for ci, name := range paper.CardNames {
					missions.Rows = append(missions.Rows, tallyRow([]string{rn, arm, groupNames[g], name}, paper.PerMission[r][a][g][ci]))
				}
			}
		}
	}
	return []string{"length.csv", "accuracy.csv", "missions.csv", "pairs.csv"}, []table.Table{length, curve, missions, pairs}, nil
}

// WriteCSV writes the CSV files of csvTables into dir (which must exist)
// and returns their names in the order written.
func WriteCSV(dir string, paper, ours *Summary) ([]string, error) {
	names, tables, err := csvTables(paper, ours)
	if err != nil {
		return nil, err
	}
	for i, t := range tables {
		data, err := t.CSV()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, names[i]), data, 0o644); err != nil {
			return nil, err
		}
	}
	return names, nil
}
