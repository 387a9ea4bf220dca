package search

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"marslab/bots"
	"marslab/plots"
)

// WriteNarrowReport writes the report of a finished narrowing search to
// dir: cells.csv (every cell of every level with its games, win rate,
// 95 % Wilson interval, racing fate and p-value), for a search of two or
// more parameters the win-rate surface of the first two per level
// (surface-level-K.png), the best cell as a parameter file (best.toml) and
// report.md linking them. figures false skips
// the figures.
func WriteNarrowReport(dir string, setup *Setup, n *Narrowing, figures bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if err := writeCellsCSV(filepath.Join(dir, "cells.csv"), n); err != nil {
		return err
	}
	var figs []string
	if figures && len(n.cfg.Space) >= 2 {
		for k := range n.levels {
			name := fmt.Sprintf("surface-level-%d.png", k+1)
			if err := surface(&n.levels[k], n.cfg.Space, fmt.Sprintf("%s: level %d win rate", setup.Config.Name, k+1)).Save(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("search: %s: %w", name, err)
			}
			figs = append(figs, name)
		}
	}
	best, _ := n.Best()
	iv := best.Wilson()
	comment := fmt.Sprintf("The best cell of the narrowing search %s (marslab sweep): %s,\nwin rate %.3f, 95 %% Wilson interval [%.3f, %.3f] over %d games of the search\n(not validated: see marslab validate).", setup.Config.Name, n.cfg.Space.Label(best.X), best.Mean(), iv.Lo, iv.Hi, best.Games)
	if err := WriteParamFile(filepath.Join(dir, "best.toml"), setup.Field, best.X, comment); err != nil {
		return err
	}
	var b bytes.Buffer
	writeNarrowMarkdown(&b, setup, n, figs)
	if err := os.WriteFile(filepath.Join(dir, "report.md"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// axisValue is the plotted coordinate of value v of d: log10 for a
// log-scale parameter.
func axisValue(d Dim, v float64) float64 {
	if d.Param.Log {
		return math.Log10(v)
	}
	return v
}

func axisLabel(d Dim) string {
	if d.Param.Log {
		return "log10 " + d.Param.Name
	}
	return d.Param.Name
}

// surface returns the heat map of a level's win rates over its first two
// dimensions (the mean over the other dimensions' cells).
func surface(l *Level, s Space, title string) *plots.HeatMap {
	xs := make([]float64, len(l.Axes[0]))
	for i, v := range l.Axes[0] {
		xs[i] = axisValue(s[0], v)
	}
	ys := make([]float64, len(l.Axes[1]))
	for i, v := range l.Axes[1] {
		ys[i] = axisValue(s[1], v)
	}
	sum := make([]float64, len(xs)*len(ys))
	cnt := make([]float64, len(sum))
	for c := range l.Cells {
		cell := &l.Cells[c]
		if cell.Games == 0 {
			continue
		}
		k := cell.Index[1]*len(xs) + cell.Index[0]
		sum[k] += float64(cell.Wins)
		cnt[k] += float64(cell.Games)
	}
	z := make([]float64, len(sum))
	for i := range z {
		z[i] = math.NaN()
		if cnt[i] > 0 {
			z[i] = sum[i] / cnt[i]
		}
	}
	return &plots.HeatMap{Grid: plots.Grid{X: xs, Y: ys, Z: z}, Title: title, XLabel: axisLabel(s[0]), YLabel: axisLabel(s[1]), ColorLabel: "win rate"}
}

func writeCellsCSV(path string, n *Narrowing) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"level", "cell"}
	head = append(head, n.cfg.Space.Names()...)
	head = append(head, "blocks", "games", "wins", "win_rate", "wilson_lo", "wilson_hi", "dropped_after_round", "holm_p")
	_ = w.Write(head)
	for k := range n.levels {
		l := &n.levels[k]
		for c := range l.Cells {
			cell := &l.Cells[c]
			if cell.Games == 0 {
				continue
			}
			iv := cell.Wilson()
			row := []string{strconv.Itoa(k + 1), strconv.Itoa(c)}
			for i, d := range n.cfg.Space {
				row = append(row, d.Param.Format(cell.X[i]))
			}
			drop := ""
			if cell.Dropped >= 0 {
				drop = strconv.Itoa(cell.Dropped + 1)
			}
			row = append(row, strconv.Itoa(len(cell.Scores)), strconv.Itoa(cell.Games), strconv.Itoa(cell.Wins),
				f4(cell.Mean()), f4(iv.Lo), f4(iv.Hi), drop, f4(cell.P))
			_ = w.Write(row)
		}
	}
	w.Flush()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

func f4(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

func writeNarrowMarkdown(b *bytes.Buffer, setup *Setup, n *Narrowing, figs []string) {
	c := setup.Config
	fmt.Fprintf(b, "# Narrowing search %s\n\n", c.Name)
	fmt.Fprintf(b, "Bot `%s` against ", c.Base)
	if c.Sample {
		fmt.Fprintf(b, "line-ups of %d drawn per block from %v", c.Players-1, c.Opponents)
	} else {
		fmt.Fprintf(b, "the line-up %v", c.Opponents)
	}
	fmt.Fprintf(b, ", %d players, rules %s, seed %d. A block is one deal played %d times with the candidate in every seat.\n\n", c.Players, setup.Field.Rules.Name, c.Seed, c.Players)
	best, lvl := n.Best()
	iv := best.Wilson()
	fmt.Fprintf(b, "**Best cell** (level %d): `%s`, win rate %.3f, 95 %% Wilson interval [%.3f, %.3f] over %d games.\n\n",
		levelIndex(n, lvl)+1, n.cfg.Space.Label(best.X), best.Mean(), iv.Lo, iv.Hi, best.Games)
	fmt.Fprintf(b, "| level | window | cells | alive at the end | games | best | win rate | 95 %% interval |\n|---|---|---|---|---|---|---|---|\n")
	for k := range n.levels {
		l := &n.levels[k]
		games := 0
		for c := range l.Cells {
			games += l.Cells[c].Games
		}
		if games == 0 {
			continue
		}
		bc := &l.Cells[l.Best]
		biv := bc.Wilson()
		fmt.Fprintf(b, "| %d | %s | %d | %d | %d | `%s` | %.3f | [%.3f, %.3f] |\n", k+1, window(n.cfg.Space, l), len(l.Cells), l.Alive(), games,
			n.cfg.Space.Label(bc.X), bc.Mean(), biv.Lo, biv.Hi)
	}
	b.WriteString("\nEvery cell: [cells.csv](cells.csv). The best cell's parameter file: [best.toml](best.toml) (a seat `BOT@DIR/best.toml`).\n")
	for _, f := range figs {
		fmt.Fprintf(b, "\n![%s](%s)\n", f, f)
	}
}

func levelIndex(n *Narrowing, l *Level) int {
	for k := range n.levels {
		if &n.levels[k] == l {
			return k
		}
	}
	return 0
}

// window describes a level's window in parameter values.
func window(s Space, l *Level) string {
	var b bytes.Buffer
	for i, d := range s {
		if i > 0 {
			b.WriteString(" × ")
		}
		fmt.Fprintf(&b, "%s [%s, %s]", d.Param.Name, bots.FormatNum(round4(d.Value(l.Lo[i]))), bots.FormatNum(round4(d.Value(l.Hi[i]))))
	}
	return b.String()
}

func round4(v float64) float64 {
	if v == 0 {
		return 0
	}
	m := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*m) / m
}

// WriteParamFile writes a bot parameter file (the format of
// configs/bots/mars-paper.toml, read by mars@FILE seats): every parameter
// of the field's bot, the searched ones set to x, the others the base's,
// after the comment lines of comment.
func WriteParamFile(path string, g *Games, x []float64, comment string) error {
	seat := g.Seat(x)
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
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}
