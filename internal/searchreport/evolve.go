package searchreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/table"
)

// WriteEvolve writes the report of a finished CMA-ES search (marslab
// evolve) to dir:
// generations.csv (per generation the distribution mean's values and win
// rate with its 95 % Wilson interval, the best sample's score, the step
// size, blocks per candidate and the uncertainty measure), best.toml (the
// final mean), the figures convergence.png (the mean's win rate with its
// band, and the best sample's) and traces.png (the mean of each parameter
// with ± one standard deviation), and report.md.
func WriteEvolve(dir string, setup *search.Setup, e *search.Evolve, figures bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	cfg := e.Config()
	sp := cfg.Space
	gens := e.Generations()
	f := e.Final()
	if f == nil {
		return fmt.Errorf("search: evolve report: the final mean is not evaluated yet")
	}
	if err := writeCSV(filepath.Join(dir, "generations.csv"), Generations(e)); err != nil {
		return err
	}
	fiv := f.Wilson()
	rate := float64(f.Wins) / float64(f.Games)
	comment := fmt.Sprintf("The final distribution mean of the CMA-ES search %s (marslab evolve): %s,\nwin rate %.3f, 95 %% Wilson interval [%.3f, %.3f] over %d games of its own blocks\n(not validated: see marslab validate).", setup.Config.Name, sp.Label(f.Mean), rate, fiv.Lo, fiv.Hi, f.Games)
	if err := writeParamFile(filepath.Join(dir, "best.toml"), setup.Field, f.Mean, comment); err != nil {
		return err
	}
	var figs []string
	if figures && len(gens) > 0 {
		for _, f := range EvolveFigures(e, setup.Config.Name) {
			file := f.Name + ".png"
			if err := plots.Save(filepath.Join(dir, file), f.Fig); err != nil {
				return fmt.Errorf("search: %s: %w", file, err)
			}
			figs = append(figs, file)
		}
	}
	var m bytes.Buffer
	c := setup.Config
	fmt.Fprintf(&m, "# CMA-ES search %s\n\n", c.Name)
	fmt.Fprintf(&m, "Bot `%s`, %d parameters searched from the base values, %d generations of %d candidates (UH-CMA-ES re-evaluation: %v), seed %d. Field: %s.\n\n",
		c.Base, len(sp), len(gens), cfg.Lambda, cfg.Reeval, c.Seed, FieldText(setup))
	fmt.Fprintf(&m, "**%s.** The best sample of each generation is the luckiest draw, not an estimate; the mean is what the search reports.\n\n", FinalText(e))
	m.WriteString(Params(e, "base").Markdown())
	m.WriteString("\nPer generation: [generations.csv](generations.csv). The final mean's parameter file: [best.toml](best.toml).\n")
	for _, fig := range figs {
		fmt.Fprintf(&m, "\n![%s](%s)\n", fig, fig)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "report.md"), m.Bytes(), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// EvolveFigures returns the figures of the CMA-ES search e titled with
// name: the
// distribution mean's win rate per generation with its 95 % band and the
// best sample's score (convergence), and the mean of each parameter with
// ± one standard deviation of the distribution (traces).
func EvolveFigures(e *search.Evolve, name string) []Figure {
	gens := e.Generations()
	if len(gens) == 0 {
		return nil
	}
	sp := e.Config().Space
	x := make([]float64, len(gens))
	mean := plots.Series{Name: "distribution mean (95 % Wilson)"}
	best := plots.Series{Name: "best sample (luckiest: not an estimate)"}
	for k := range gens {
		g := &gens[k]
		x[k] = float64(k + 1)
		iv := g.Wilson()
		mean.Y = append(mean.Y, float64(g.Wins)/float64(g.Games))
		mean.Lo, mean.Hi = append(mean.Lo, iv.Lo), append(mean.Hi, iv.Hi)
		best.Y = append(best.Y, g.BestScore)
	}
	mean.X, best.X = x, x
	conv := &plots.LineChart{Series: []plots.Series{mean, best}, Title: name + ": CMA-ES convergence", XLabel: "generation", YLabel: "win rate", Bands: true}
	tr := &plots.TraceChart{Title: name + ": distribution mean ± one standard deviation", XLabel: "generation"}
	for i, d := range sp {
		s := plots.Series{Name: "mean", X: x}
		for k := range gens {
			g := &gens[k]
			u := d.Unit(g.Mean[i])
			s.Y = append(s.Y, g.Mean[i])
			s.Lo = append(s.Lo, valueAt(d, max(0, u-g.StdDevs[i])))
			s.Hi = append(s.Hi, valueAt(d, min(1, u+g.StdDevs[i])))
		}
		tr.Panels = append(tr.Panels, plots.TracePanel{YLabel: d.Param.Name, Series: []plots.Series{s}, LogY: d.Param.Log, YMin: d.Lo, YMax: d.Hi})
	}
	return []Figure{{"convergence", conv}, {"traces", tr}}
}

// Generations returns one row per generation of e: the distribution
// mean's values, its
// games, wins and win rate with the 95 % Wilson interval, the best
// sample's score, the step size, blocks per candidate and the smoothed
// uncertainty measure (the rows of generations.csv).
func Generations(e *search.Evolve) table.Table {
	var rows [][]string
	sp := e.Config().Space
	gens := e.Generations()
	head := []string{"generation"}
	head = append(head, names(sp)...)
	head = append(head, "mean_games", "mean_wins", "mean_win_rate", "wilson_lo", "wilson_hi", "best_sample_score", "sigma", "blocks_per_candidate", "uncertainty")
	for k := range gens {
		g := &gens[k]
		iv := g.Wilson()
		row := []string{strconv.Itoa(k + 1)}
		for i, d := range sp {
			row = append(row, d.Param.Format(g.Mean[i]))
		}
		row = append(row, strconv.Itoa(g.Games), strconv.Itoa(g.Wins), textfmt.Fixed(float64(g.Wins)/float64(g.Games), 4), textfmt.Fixed(iv.Lo, 4), textfmt.Fixed(iv.Hi, 4),
			textfmt.Fixed(g.BestScore, 4), textfmt.Fixed(g.Sigma, 4), strconv.Itoa(g.Evals), textfmt.Fixed(g.Uncertainty, 4))
		rows = append(rows, row)
	}
	return table.Table{Header: head, Rows: rows}
}
