package tourney

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/stats"
)

// Figure is one figure of the report.
type Figure struct {
	// Name is the base of its file names.
	Name string
	// Chart draws it (plots.Save writes it to a .png, .svg or .pdf file).
	Chart plots.Chart
}

// Figures returns the report's figures: wins per bot (the paper's
// Figure 3), decision time per turn per bot (Figure 4, only when the run
// was timed), the placement distribution as stacked bars, and win % with
// Wilson interval whiskers.
func (r *Results) Figures() []Figure {
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
