package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// defaultPaper is the file whose [paper] table holds the MARS paper's
// Table 6, relative to the repository root.
const defaultPaper = "notebooks/paper-tournament/config.toml"

// cmdCompare compares two tournament output folders that played the same
// games, bot by bot, as paired differences.
func cmdCompare(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", `usage: marslab compare BEFORE AFTER [flags]

Compares two tournament (or batch) output folders that played the same games: the same
seed, schedule, games and map, the same rule set (unless -allow-rules) and the same seats,
each seat the same bot (its parameters, label or code may differ), every game with the same
seed and seating. Prints per bot the win % in each run, the paired difference of winning
(after - before, in points) with its 95 % normal interval and the games won in one run
only; then the rules, the stalemates, Spearman's rho of each run's win % against the
paper's Table 6 (-paper) and the rank of the -focus bot. Runs that did not play the same
games are refused, naming the first difference.`, stderr)
	paper := fs.String("paper", defaultPaper, `file whose [paper] table holds the paper's win % (a tournament notebook's config); "" for none`)
	focus := fs.String("focus", "mars", `registered name (or label) of the bot whose rank is reported; "" for none`)
	allowRules := fs.Bool("allow-rules", false, "accept runs played under different rule sets (same line-ups, seatings and game seeds)")
	csv := fs.Bool("csv", false, "print one CSV table at full precision instead of Markdown")
	perms := fs.Int("permutations", 100_000, "random permutations behind the Spearman p-value for more than 9 bots, >= 1000")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("want two output folders BEFORE AFTER, have %d arguments (marslab compare -h)", len(pos))
	}
	if *perms < 1000 {
		return fmt.Errorf("-permutations %d: want >= 1000", *perms)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o := tourney.PairOptions{Focus: *focus, AllowRules: *allowRules, Permutations: *perms}
	if *paper != "" {
		path := *paper
		if !set["paper"] {
			// The default is the repository's file wherever in it the
			// command runs.
			root, ok := outdir.RepoRoot(".")
			if !ok {
				return fmt.Errorf("-paper: the default %s is a file of the marslab repository, and the working directory is outside one: give -paper FILE, or -paper \"\" for none", defaultPaper)
			}
			path = filepath.Join(root, defaultPaper)
		}
		if o.Paper, err = tourney.LoadPublished(path); err != nil {
			return fmt.Errorf("-paper: %w", err)
		}
	}
	var runs [2]*tourney.Output
	for i, dir := range pos {
		if runs[i], err = tourney.ReadOutput(dir); err != nil {
			return err
		}
	}
	if !set["focus"] && !runs[0].Plays(o.Focus) {
		o.Focus = "" // the default names MARS, and no seat plays it
	}
	c, err := tourney.ComparePaired(runs[0], runs[1], o)
	if err != nil {
		return err
	}
	if *csv {
		t := c.CSV()
		return t.WriteCSV(stdout)
	}
	for i, t := range []table.Table{c.Table(), c.Summary()} {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := t.WriteMarkdown(stdout); err != nil {
			return err
		}
	}
	return nil
}
