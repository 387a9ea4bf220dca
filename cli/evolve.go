package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
)

const evolveUsage = `usage: marslab evolve CONFIG [flags]

Searches the parameters of CONFIG (a TOML file, e.g. configs/experiments/cmaes-all.toml: the
bot, the field of opponents, the [[param]] ranges and the [cmaes] table) with CMA-ES in the
normalised box of the ranges (log scale for log parameters, integers and choices rounded),
starting from the base values, with UH-CMA-ES re-evaluation on fresh blocks against noise.
Each generation also plays the distribution mean on its own blocks, and the last step plays
the final mean: the reported result, not the luckiest sample. Evaluations go to
DIR/log.jsonl (resume, shards and merge as marslab sweep); DIR/report.md, generations.csv,
best.toml and the figures are written at the end.

-method names another method of the config's tables: spsa ([spsa]: SPSA on paired blocks with
fishtest's gain sequences), surrogate ([surrogate]: a Gaussian process with expected
improvement under noise) or halving ([halving]: successive halving of blocks among the
candidates of a CMA-ES or random proposer); by default the config's one table of cmaes, spsa,
surrogate, halving. Each writes DIR/log.jsonl (resume, shards and merge alike), best.toml
(its recommendation) and report.md.`

// evolveFlags are evolve's flags: the search flags and -method.
type evolveFlags struct {
	searchFlags
	method *string
}

func evolveFlagSet(fs *flag.FlagSet) evolveFlags {
	return evolveFlags{addSearchFlags(fs), fs.String("method", "", "the search method: cmaes, spsa, surrogate or halving (default: the config's one table of them)")}
}

// cmdEvolve runs a CMA-ES search of a config file, or another method's.
func cmdEvolve(ctx context.Context, in *invocation, ef evolveFlags) error {
	f := ef.searchFlags
	setup, err := loadSearch(in)
	if err != nil {
		return err
	}
	cfg := setup.Config
	name, mk, err := setup.Recommender(*ef.method)
	if err != nil {
		return err
	}
	if name != "cmaes" {
		setup.Field.Workers = *f.workers
		dir := f.dir(cfg.Name)
		s := &search.Search[search.Recommender]{
			Dir:     dir,
			Config:  setup.Fingerprint(name),
			New:     mk,
			Eval:    setup.Field,
			Players: setup.Field.Players,
		}
		s.Report = func(m search.Recommender) error {
			return searchreport.WriteSearchResult(dir, setup, name, m)
		}
		return runSearch(ctx, in, f, s, "report.md", func(st *search.State[search.Recommender]) {
			fmt.Fprintf(in.stdout, "evolve %s (%s): recommendation %s (%d evaluations)\n",
				cfg.Name, name, setup.Space.Label(st.Method.Recommend()), st.Lines)
		})
	}
	ecfg, err := setup.EvolveConfig()
	if err != nil {
		return err
	}
	setup.Field.Workers = *f.workers
	dir := f.dir(cfg.Name)
	s := &search.Search[*search.Evolve]{
		Dir:     dir,
		Config:  setup.Fingerprint("cmaes"),
		New:     func() (*search.Evolve, error) { return search.NewEvolve(ecfg) },
		Eval:    setup.Field,
		Players: setup.Field.Players,
	}
	s.Report = func(e *search.Evolve) error {
		return searchreport.WriteEvolve(dir, setup, e, *f.figures)
	}
	return runSearch(ctx, in, f, s, "report.md", func(st *search.State[*search.Evolve]) {
		fin := st.Method.Final()
		iv := fin.Wilson()
		fmt.Fprintf(in.stdout, "evolve %s: final mean %s: win rate %.3f [%.3f, %.3f] over %d games (%d evaluations)\n",
			cfg.Name, setup.Space.Label(fin.Mean), float64(fin.Wins)/float64(fin.Games), iv.Lo, iv.Hi, fin.Games, st.Lines)
	})
}
