package figures

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/plot/vg"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/tourney"
)

// Tournament returns the figures of a tournament's report: wins per bot
// (the paper's Figure 3), decision time per turn per bot (Figure 4, only
// when the run was timed), the placement distribution as stacked bars,
// and win % with Wilson interval whiskers.
func Tournament(r *tourney.Results) []Figure {
	names := make([]string, len(r.Bots))
	wins := make([]float64, len(r.Bots))
	tturn := make([]float64, len(r.Bots))
	winPct, lo, hi := make([]float64, len(r.Bots)), make([]float64, len(r.Bots)), make([]float64, len(r.Bots))
	for i, b := range r.Bots {
		names[i] = b.Bot
		wins[i] = float64(b.Wins)
		tturn[i] = 1000 * b.SecondsPerTurn
		winPct[i], lo[i], hi[i] = 100*b.WinRate, 100*b.WinLo, 100*b.WinHi
	}
	layers := make([]plots.BarGroup, r.Players)
	for k := range layers {
		layers[k] = plots.BarGroup{Name: textfmt.Ordinal(k + 1), Values: make([]float64, len(r.Bots))}
		for i, b := range r.Bots {
			layers[k].Values[i] = float64(b.Placements[k])
		}
	}
	// 1.5 cm per bot, at least 16 cm, so that 13 names fit.
	width := max(16*vg.Centimeter, vg.Length(len(r.Bots))*1.5*vg.Centimeter)
	fig3 := &plots.StackedBarChart{Width: width, SlantLabels: true, Title: fmt.Sprintf("Wins per bot (%d games)", r.Games), YLabel: "wins",
		Categories: names, Layers: []plots.BarGroup{{Values: wins}}}
	place := &plots.StackedBarChart{Width: width, SlantLabels: true, Title: "Placements per bot", YLabel: "games", Categories: names, Layers: layers}
	winrate := &plots.IntervalBarChart{Width: width, SlantLabels: true, Title: fmt.Sprintf("Win %% with %g %% Wilson intervals", 100*stats.Level), YLabel: "win %",
		Categories: names, Values: winPct, Lo: lo, Hi: hi}
	figs := []Figure{{"figure3-wins", fig3}}
	if r.Timed {
		fig4 := &plots.StackedBarChart{Width: width, SlantLabels: true, Title: "Decision time per turn", YLabel: "ms per turn (" + arena.ClockName(r.Clock) + ")",
			Categories: names, Layers: []plots.BarGroup{{Values: tturn}}}
		figs = append(figs, Figure{"figure4-time-per-turn", fig4})
	}
	return append(figs, Figure{"placements", place}, Figure{"winrate", winrate})
}

// WriteTournament draws the figures of the tournament r into dir, each as
// NAME.png and NAME.svg (tourney.Options.Figures).
func WriteTournament(dir string, r *tourney.Results) error {
	for _, fig := range Tournament(r) {
		for _, ext := range []string{".png", ".svg"} {
			if err := plots.Save(filepath.Join(dir, fig.Name+ext), fig.Chart); err != nil {
				return fmt.Errorf("tourney: figure %s: %w", fig.Name, err)
			}
		}
	}
	return nil
}

// Paired is the chart of the seats' paired differences from the
// reference with their intervals (nil with a single run).
func Paired(c *tourney.SeatComparison) *plots.EffectChart {
	if len(c.Paired) == 0 {
		return nil
	}
	chart := &plots.EffectChart{Title: "win rate against " + c.Reference + ", same games", YLabel: "change in win rate", SlantLabels: true}
	for k, pp := range c.Paired {
		chart.Categories = append(chart.Categories, c.Runs[k+1].Name)
		chart.Values = append(chart.Values, pp.Diff)
		chart.Lo = append(chart.Lo, pp.Interval.Lo)
		chart.Hi = append(chart.Hi, pp.Interval.Hi)
	}
	return chart
}
