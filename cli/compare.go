package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// defaultPaper is the file whose [paper] table holds the MARS paper's
// Table 6, relative to the repository root.
const defaultPaper = "notebooks/paper-tournament/config.toml"

const compareUsage = `usage: marslab compare BEFORE AFTER [flags]

Compares two tournament (or batch) output folders that played the same games: the same
seed, schedule, games and map, the same rule set (unless -allow-rules) and the same seats,
each seat the same bot (its parameters, label or code may differ), every game with the same
seed and seating. Prints per bot the win % in each run, the paired difference of winning
(after - before, in points) with its 95 % normal interval and the games won in one run
only; then the rules, the stalemates, Spearman's rho of each run's win % against the
paper's Table 6 (-paper) and the rank of the -focus bot. Runs that did not play the same
games are refused, naming the first difference.`

// compareFlags are the flags of marslab compare.
type compareFlags struct {
	paper, focus    *string
	allowRules, csv *bool
	perms           *int
}

func compareFlagSet(fs *flag.FlagSet) *compareFlags {
	return &compareFlags{
		paper:      fs.String("paper", defaultPaper, `file whose [paper] table holds the paper's win % (a tournament notebook's config); "" for none`),
		focus:      fs.String("focus", "mars", `registered name (or label) of the bot whose rank is reported; "" for none`),
		allowRules: fs.Bool("allow-rules", false, "accept runs played under different rule sets (same line-ups, seatings and game seeds)"),
		csv:        fs.Bool("csv", false, "print one CSV table at full precision instead of Markdown"),
		perms:      fs.Int("permutations", 100_000, "random permutations behind the Spearman p-value for more than 9 bots, >= 1000"),
	}
}

// cmdCompare compares two tournament output folders that played the same
// games, bot by bot, as paired differences.
func cmdCompare(_ context.Context, in *invocation, f *compareFlags) error {
	if len(in.args) != 2 {
		return fmt.Errorf("want two output folders BEFORE AFTER, have %d arguments (marslab compare -h)", len(in.args))
	}
	if err := checkMin("permutations", *f.perms, 1000); err != nil {
		return err
	}
	set := in.set(false)
	o := tourney.PairOptions{Focus: *f.focus, AllowRules: *f.allowRules, Permutations: *f.perms}
	var err error
	if o.Paper, err = f.loadPaper(set["paper"]); err != nil {
		return err
	}
	var runs [2]*tourney.Output
	for i, dir := range in.args {
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
	if *f.csv {
		t := c.CSV()
		return t.WriteCSV(in.stdout)
	}
	for i, t := range []table.Table{c.Table(), c.Summary()} {
		if i > 0 {
			fmt.Fprintln(in.stdout)
		}
		if err := t.WriteMarkdown(in.stdout); err != nil {
			return err
		}
	}
	return nil
}

// loadPaper loads the paper's table of -paper (nil for ""); the default
// (given is false) is the repository's file wherever in it the command
// runs.
func (f *compareFlags) loadPaper(given bool) (*tourney.Published, error) {
	if *f.paper == "" {
		return nil, nil
	}
	path := *f.paper
	if !given {
		root, ok := outdir.RepoRoot(".")
		if !ok {
			return nil, fmt.Errorf("-paper: the default %s is a file of the marslab repository, and the working directory is outside one: give -paper FILE, or -paper \"\" for none", defaultPaper)
		}
		path = filepath.Join(root, defaultPaper)
	}
	p, err := tourney.LoadPublished(path)
	if err != nil {
		return nil, fmt.Errorf("-paper: %w", err)
	}
	return p, nil
}
