package searchreport

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// WriteNarrow writes the report of a finished narrowing search (marslab
// sweep) to dir: cells.csv (every cell of every level with its games, win rate,
// 95 % Wilson interval, racing fate and p-value), for a search of two or
// more parameters the win-rate surface of the first two per level
// (surface-level-K.png, surface.png, halfwidth.png, slice-NAME.png), the best cell as a parameter file (best.toml) and
// report.md linking them. figures false skips
// the figures.
func WriteNarrow(dir string, setup *search.Setup, n *search.Narrowing, figures bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if err := writeCSV(filepath.Join(dir, "cells.csv"), Cells(n)); err != nil {
		return err
	}
	var figs []string
	if figures {
		ref := search.SeatValues(n.Config().Space, setup.Field.Base.Params)
		var err error
		if figs, err = narrowFigures(dir, setup.Config.Name, n, ref, setup.Config.Base); err != nil {
			return err
		}
	}
	best, _ := n.Best()
	iv := best.Wilson()
	comment := fmt.Sprintf("The best cell of the narrowing search %s (marslab sweep): %s,\nwin rate %.3f, 95 %% Wilson interval [%.3f, %.3f] over %d games of the search\n(not validated: see marslab validate).", setup.Config.Name, n.Config().Space.Label(best.X), winRate(&best), iv.Lo, iv.Hi, best.Games)
	if err := writeParamFile(filepath.Join(dir, "best.toml"), setup.Field, best.X, comment); err != nil {
		return err
	}
	var b bytes.Buffer
	writeNarrowMarkdown(&b, setup, n, figs)
	if err := atomicfile.WriteFile(filepath.Join(dir, "report.md"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// narrowFigures draws the figures of a narrowing search (see
// NarrowFigures) into dir and returns their file names.
func narrowFigures(dir string, name string, n *search.Narrowing, ref []float64, refLabel string) ([]string, error) {
	var files []string
	figs, err := NarrowFigures(n, name, ref, refLabel)
	if err != nil {
		return nil, err
	}
	for _, f := range figs {
		file := f.Name + ".png"
		if err := plots.Save(filepath.Join(dir, file), f.Fig); err != nil {
			return files, fmt.Errorf("search: %s: %w", file, err)
		}
		files = append(files, file)
	}
	return files, nil
}

// Figure is a named figure of a search's report.
type Figure struct {
	// Name is the file's base name, e.g. "surface" or "slice-W_p".
	Name string
	// Fig is the figure (plots.Save writes it to a file).
	Fig plots.Chart
}

// NarrowFigures returns the figures of the narrowing search n, titled
// with name:
// for two or more parameters, over the first two, the win-rate surface of
// each level with the windows so far and the next one and the level's best
// cell (surface-level-K), all levels combined with every window, contours
// and the best cell (surface), and the 95 % interval half-widths
// (halfwidth); and a slice through the best cell of the last level along
// each parameter (slice-NAME). ref, when not nil, holds reference values
// (e.g. the paper's) marked on every figure as refLabel.
//
// A level whose pooled counts stats.Wilson refuses (wins outside
// [0, games]) is an error naming the level.
func NarrowFigures(n *search.Narrowing, name string, ref []float64, refLabel string) ([]Figure, error) {
	sp := n.Config().Space
	levels := n.Levels()
	var figs []Figure
	best, _ := n.Best()
	if len(sp) >= 2 {
		var wins []plots.Window
		var all, half []plots.Cell
		for k := range levels {
			l := &levels[k]
			if levelGames(l) == 0 {
				continue
			}
			cells, halves, err := levelCells(l, sp)
			if err != nil {
				return nil, fmt.Errorf("search: level %d: %w", k+1, err)
			}
			all = append(all, cells...)
			half = append(half, halves...)
			lo, hi := sp.Values(l.Lo), sp.Values(l.Hi)
			wins = append(wins, plots.Window{Level: k + 1, X0: lo[0], X1: hi[0], Y0: lo[1], Y1: hi[1]})
			lb := &l.Cells[l.Best]
			fig := &plots.Surface{Cells: cells, Title: fmt.Sprintf("%s: level %d win rate", name, k+1),
				XLabel: sp[0].Param.Name, YLabel: sp[1].Param.Name, ColorLabel: "win rate", LogX: sp[0].Param.Log, LogY: sp[1].Param.Log,
				Windows: append([]plots.Window(nil), wins...), Best: &plots.Mark{X: lb.X[0], Y: lb.X[1], Label: "best of level " + strconv.Itoa(k+1)}}
			if k+1 < len(levels) {
				nl := &levels[k+1]
				lo, hi := sp.Values(nl.Lo), sp.Values(nl.Hi)
				fig.Windows = append(fig.Windows, plots.Window{Level: k + 2, X0: lo[0], X1: hi[0], Y0: lo[1], Y1: hi[1]})
			}
			addRef(fig, ref, refLabel)
			figs = append(figs, Figure{fmt.Sprintf("surface-level-%d", k+1), fig})
		}
		fig := &plots.Surface{Cells: all, Title: name + ": win rate, every level", XLabel: sp[0].Param.Name, YLabel: sp[1].Param.Name,
			ColorLabel: "win rate", LogX: sp[0].Param.Log, LogY: sp[1].Param.Log, Windows: wins, Contours: contours(all),
			Best: &plots.Mark{X: best.X[0], Y: best.X[1], Label: "best"}}
		if diffs := refDiffCells(n); diffs != nil {
			// Each level played other deals: only the differences from
			// the reference on each level's own deals are comparable.
			fig.Cells, fig.Contours = diffs, contours(diffs)
			fig.Title = name + ": difference from " + refLabel + ", every level on its own deals"
			fig.ColorLabel = "difference (points)"
		}
		addRef(fig, ref, refLabel)
		figs = append(figs, Figure{"surface", fig})
		hw := &plots.Surface{Cells: half, Title: name + ": 95 % interval half-width", XLabel: sp[0].Param.Name, YLabel: sp[1].Param.Name,
			ColorLabel: "half-width", Palette: "black-body", LogX: sp[0].Param.Log, LogY: sp[1].Param.Log, Windows: wins}
		figs = append(figs, Figure{"halfwidth", hw})
	}
	_, lvl := n.Best()
	for i, d := range sp {
		var xs, ys, lo, hi []float64
		for c := range lvl.Cells {
			cell := &lvl.Cells[c]
			same := cell.Games > 0
			for j := range sp {
				if j != i && cell.X[j] != best.X[j] {
					same = false
				}
			}
			if !same {
				continue
			}
			iv := cell.Wilson()
			xs, ys, lo, hi = append(xs, cell.X[i]), append(ys, winRate(cell)), append(lo, iv.Lo), append(hi, iv.Hi)
		}
		if len(xs) < 2 {
			continue
		}
		fig := &plots.SliceChart{Series: []plots.Series{{Name: "win rate (95 % Wilson)", X: xs, Y: ys, Lo: lo, Hi: hi}},
			Title: fmt.Sprintf("%s: slice along %s through the best cell", name, d.Param.Name), XLabel: d.Param.Name, YLabel: "win rate",
			LogX: d.Param.Log, Refs: []plots.RefLine{{X: best.X[i], Label: "best"}}}
		if ref != nil && ref[i] != best.X[i] {
			fig.Refs = append(fig.Refs, plots.RefLine{X: ref[i], Label: refLabel})
		}
		figs = append(figs, Figure{"slice-" + d.Param.Name, fig})
	}
	return figs, nil
}

func addRef(fig *plots.Surface, ref []float64, label string) {
	if ref != nil {
		fig.Marks = append(fig.Marks, plots.Mark{X: ref[0], Y: ref[1], Label: label})
	}
}

// contours returns two levels for a surface: a quarter and three quarters
// of the way from its lowest to its highest value.
func contours(cells []plots.Cell) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cells {
		if !math.IsNaN(c.Z) {
			lo, hi = math.Min(lo, c.Z), math.Max(hi, c.Z)
		}
	}
	if !(hi > lo) {
		return nil
	}
	return []float64{round4(lo + (hi-lo)/4), round4(lo + 3*(hi-lo)/4)}
}

// levelGames returns the games the cells of l played.
func levelGames(l *search.Level) int {
	n := 0
	for c := range l.Cells {
		n += l.Cells[c].Games
	}
	return n
}

// levelCells returns a level's cells as rectangles over its first two
// dimensions (each reaching half way to its neighbours, in the normalised
// coordinates), with the win rate and with the 95 % interval half-width;
// cells differing in further dimensions are pooled. Pooled counts that
// stats.Wilson refuses are an error naming the cell.
func levelCells(l *search.Level, sp search.Space) (rate, half []plots.Cell, err error) {
	edges := func(i int) []float64 {
		ax := l.Axes[i]
		e := make([]float64, len(ax)+1)
		us := make([]float64, len(ax))
		for k, v := range ax {
			us[k] = sp[i].Unit(v)
		}
		for k := range e {
			switch {
			case len(ax) == 1:
				e[k] = []float64{l.Lo[i], l.Hi[i]}[k]
			case k == 0:
				e[k] = math.Max(0, us[0]-(us[1]-us[0])/2)
			case k == len(ax):
				e[k] = math.Min(1, us[k-1]+(us[k-1]-us[k-2])/2)
			default:
				e[k] = (us[k-1] + us[k]) / 2
			}
			e[k] = valueAt(sp[i], e[k])
		}
		return e
	}
	ex, ey := edges(0), edges(1)
	nx := len(l.Axes[0])
	wins := make([]int, nx*len(l.Axes[1]))
	games := make([]int, len(wins))
	for c := range l.Cells {
		cell := &l.Cells[c]
		k := cell.Index[1]*nx + cell.Index[0]
		wins[k] += cell.Wins
		games[k] += cell.Games
	}
	for k := range wins {
		if games[k] == 0 {
			continue
		}
		ix, iy := k%nx, k/nx
		iv, err := stats.Wilson(wins[k], games[k], stats.Level)
		if err != nil {
			return nil, nil, fmt.Errorf("cell %s=%s, %s=%s: %w", sp[0].Param.Name, textfmt.Shortest(l.Axes[0][ix]), sp[1].Param.Name, textfmt.Shortest(l.Axes[1][iy]), err)
		}
		r := plots.Cell{X0: ex[ix], X1: ex[ix+1], Y0: ey[iy], Y1: ey[iy+1], Z: float64(wins[k]) / float64(games[k])}
		rate = append(rate, r)
		r.Z = iv.Width() / 2
		half = append(half, r)
	}
	return rate, half, nil
}

// valueAt is the continuous value at normalised coordinate u of d, the
// value search.Space.Values rounds.
func valueAt(d search.Dim, u float64) float64 {
	if d.Param.Log {
		return math.Exp(math.Log(d.Lo) + u*(math.Log(d.Hi)-math.Log(d.Lo)))
	}
	return d.Lo + u*(d.Hi-d.Lo)
}

// writeCSV writes t to path as CSV.
func writeCSV(path string, t table.Table) error {
	data, err := t.CSV()
	if err != nil {
		return fmt.Errorf("search: %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// Cells returns every cell of every level of n that played: level, cell
// index,
// the values, blocks, games, wins, win rate with its 95 % Wilson interval,
// the racing round after which it was dropped ("" if alive) and its last
// Holm-adjusted p-value against the best (the rows of cells.csv).
func Cells(n *search.Narrowing) table.Table {
	var rows [][]string
	sp := n.Config().Space
	levels := n.Levels()
	head := []string{"level", "cell"}
	head = append(head, names(sp)...)
	head = append(head, "blocks", "games", "wins", "win_rate", "wilson_lo", "wilson_hi", "dropped_after_round", "holm_p")
	halve := n.Config().Halve
	if halve {
		head = append(head, "halved")
	}
	for k := range levels {
		l := &levels[k]
		for c := range l.Cells {
			cell := &l.Cells[c]
			if cell.Games == 0 {
				continue
			}
			iv := cell.Wilson()
			row := []string{strconv.Itoa(k + 1), strconv.Itoa(c)}
			for i, d := range sp {
				row = append(row, d.Param.Format(cell.X[i]))
			}
			drop := ""
			if cell.Dropped >= 0 {
				drop = strconv.Itoa(cell.Dropped + 1)
			}
			row = append(row, strconv.Itoa(len(cell.Scores)), strconv.Itoa(cell.Games), strconv.Itoa(cell.Wins),
				textfmt.Fixed(winRate(cell), 4), textfmt.Fixed(iv.Lo, 4), textfmt.Fixed(iv.Hi, 4), drop, textfmt.Fixed(cell.P, 4))
			if halve {
				row = append(row, strconv.FormatBool(cell.Halved))
			}
			rows = append(rows, row)
		}
	}
	return table.Table{Header: head, Rows: rows}
}

// writeNarrowMarkdown writes the narrowing's report.md into b.
func writeNarrowMarkdown(b *bytes.Buffer, setup *search.Setup, n *search.Narrowing, figs []string) {
	c := setup.Config
	fmt.Fprintf(b, "# Narrowing search %s\n\n", c.Name)
	fmt.Fprintf(b, "Field: %s; seed %d. A block is one deal played once with the candidate in each seat.\n\n", FieldText(setup), c.Seed)
	fmt.Fprintf(b, "**%s.**\n\n", BestText(n))
	b.WriteString(Levels(n).Markdown())
	b.WriteString("\nEvery cell: [cells.csv](cells.csv). The best cell's parameter file: [best.toml](best.toml) (a seat `BOT@DIR/best.toml`).\n")
	fmt.Fprintf(b, "\nThe best cell's win rate is the search's own estimate, biased upwards by the choice of the best of many noisy cells. Its validation on fresh deals against `%s`: `marslab validate %s -a %s@DIR/best.toml -out DIR/validation` writes [validation/validation.md](validation/validation.md); `marslab run` validates the optimum beside named seats in one run.\n",
		validateAgainst(c), c.Source, setup.Field.Base.Factory.Name)
	for _, f := range figs {
		fmt.Fprintf(b, "\n![%s](%s)\n", f, f)
	}
}

// levelIndex returns the index of level l among n's levels.
func levelIndex(n *search.Narrowing, l *search.Level) int {
	levels := n.Levels()
	for k := range levels {
		if &levels[k] == l {
			return k
		}
	}
	return 0
}

// window describes a level's window in parameter values.
func window(s search.Space, l *search.Level) string {
	var b bytes.Buffer
	lo, hi := s.Values(l.Lo), s.Values(l.Hi)
	for i, d := range s {
		if i > 0 {
			b.WriteString(" × ")
		}
		fmt.Fprintf(&b, "%s [%s, %s]", d.Param.Name, bots.FormatNum(round4(lo[i])), bots.FormatNum(round4(hi[i])))
	}
	return b.String()
}

// round4 rounds v to four significant digits.
func round4(v float64) float64 {
	if v == 0 {
		return 0
	}
	m := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*m) / m
}

// writeParamFile writes a bot parameter file (the format of
// configs/bots/mars-paper.toml, read by mars@FILE seats): every parameter
// of the field's bot, the searched ones set to x, the others the base's,
// after the comment lines of comment.
func writeParamFile(path string, g *search.Games, x []float64, comment string) error {
	params := g.Base.Params.Clone()
	for i, d := range g.Space {
		params[d.Param.Name] = x[i]
	}
	seat := bots.Seat{Factory: g.Base.Factory, Params: params}
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(comment), "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	fmt.Fprintf(&b, "bot = %q\n\n[params]\n", seat.Factory.Name)
	for _, p := range seat.Factory.Params {
		v := seat.Params[p.Name]
		if len(p.Choices) > 0 {
			fmt.Fprintf(&b, "%s = %q\n", p.Name, p.Format(v))
		} else {
			fmt.Fprintf(&b, "%s = %s\n", p.Name, bots.FormatNum(v))
		}
	}
	if err := atomicfile.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// validateAgainst is the reference of the search's validation: its
// [validate] table's against, else its base seat.
func validateAgainst(c *search.Config) string {
	if c.Validate != nil {
		return c.Validate.Against
	}
	return c.Base
}

// names returns the names of the parameters of s.
func names(s search.Space) []string {
	n := make([]string, len(s))
	for i, d := range s {
		n[i] = d.Param.Name
	}
	return n
}

// winRate returns the cell's win rate (0 without games).
func winRate(c *search.Cell) float64 {
	if c.Games == 0 {
		return 0
	}
	return float64(c.Wins) / float64(c.Games)
}
