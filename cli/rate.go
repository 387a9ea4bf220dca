package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/rating"
	"github.com/marslab-risk/marslab/tourney"
)

const rateUsage = `usage: marslab rate [flags] DIR...

Rates every bot of the batch or tournament folders DIR (their config.json and
games.jsonl) from the placements of their games, in the order given and each
folder's game order: the Bayesian approximation of Weng and Lin (2011) under the
Plackett-Luce model (the one OpenSkill implements) or the full-pair Bradley-Terry
model. Prints the ratings by descending ordinal mu - 3 sigma; -out DIR also writes
them as DIR/ratings.csv and DIR/ratings.txt. -holdout F also holds out the fraction F of the
games (spread evenly), fits on the others and reports how well those ratings predict
the held-out placements against equal players and win % alone (mean log-likelihood
per game).`

// rateFlags are the flags of marslab rate.
type rateFlags struct {
	model                       *string
	mu, sigma, beta, kappa, tau *float64
	holdout                     *float64
	out                         *string
}

func rateFlagSet(fs *flag.FlagSet) *rateFlags {
	def := rating.Default()
	return &rateFlags{
		model:   fs.String("model", def.Kind.String(), "rating model: plackett-luce or bradley-terry-full"),
		mu:      fs.Float64("mu", def.Mu, "prior mean skill of a bot"),
		sigma:   fs.Float64("sigma", def.Sigma, "prior standard deviation of a bot's skill (> 0)"),
		beta:    fs.Float64("beta", def.Beta, "standard deviation of one game's performance around the skill (> 0)"),
		kappa:   fs.Float64("kappa", def.Kappa, "least factor one game may shrink a variance by, in (0, 1]"),
		tau:     fs.Float64("tau", def.Tau, "skill drift added to sigma before each game (>= 0)"),
		holdout: fs.Float64("holdout", 0, "fraction of the games (spread evenly) held out to test the ratings' predictions, in [0, 1); 0 = none"),
		out:     fs.String("out", "", "output folder for ratings.csv and ratings.txt (optional)"),
	}
}

// cmdRate rates the bots of batch and tournament folders from their
// games' placements.
func cmdRate(ctx context.Context, in *invocation, f *rateFlags) error {
	if len(in.args) == 0 {
		in.fs.Usage()
		return errors.New("no batch or tournament folders given")
	}
	m, err := f.modelOf()
	if err != nil {
		return err
	}
	games, err := ratingGames(ctx, in.args)
	if err != nil {
		return err
	}
	entries, err := m.Fit(games)
	if err != nil {
		return err
	}
	var text bytes.Buffer
	tab := tourney.RatingTable(m, entries, len(games))
	fmt.Fprintln(&text, tab.Title)
	if err := tab.WriteText(&text); err != nil {
		return err
	}
	if *f.holdout > 0 {
		h, err := m.Holdout(games, *f.holdout)
		if err != nil {
			return err
		}
		ht := tourney.HoldoutTable(h)
		fmt.Fprintln(&text, "\n"+ht.Title)
		if err := ht.WriteText(&text); err != nil {
			return err
		}
	}
	if _, err := in.stdout.Write(text.Bytes()); err != nil {
		return err
	}
	if *f.out == "" {
		return nil
	}
	csv, err := tab.CSV()
	if err != nil {
		return err
	}
	return writeRatings(*f.out, csv, text.Bytes())
}

// modelOf checks the flags of the model and returns it.
func (f *rateFlags) modelOf() (rating.Model, error) {
	if !(*f.holdout >= 0 && *f.holdout < 1) {
		return rating.Model{}, fmt.Errorf("-holdout %v: want a fraction in [0, 1)", *f.holdout)
	}
	kind, err := rating.ParseKind(*f.model)
	if err != nil {
		return rating.Model{}, fmt.Errorf("-model: %w", err)
	}
	m := rating.Model{Kind: kind, Mu: *f.mu, Sigma: *f.sigma, Beta: *f.beta, Kappa: *f.kappa, Tau: *f.tau}
	return m, m.Validate()
}

// ratingGames reads the games of the batch and tournament folders dirs.
func ratingGames(ctx context.Context, dirs []string) ([]rating.Game, error) {
	var games []rating.Game
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := arena.ReadHeader(dir)
		if err != nil {
			return nil, err
		}
		recs, err := tourney.ReadGames(filepath.Join(dir, "games.jsonl"), h.Schedule.Players)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, fmt.Errorf("%s: games.jsonl holds no games", dir)
		}
		games = append(games, tourney.RatingGames(recs)...)
	}
	return games, nil
}

// writeRatings writes ratings.csv and ratings.txt into the folder out,
// which it owns.
func writeRatings(out string, csv, text []byte) error {
	lock, err := ownDir(out)
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := refuseRun(out, "rate"); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(out, "ratings.csv"), csv, 0o644); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(out, "ratings.txt"), text, 0o644)
}
