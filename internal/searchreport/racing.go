package searchreport

import (
	"fmt"
	"math"
	"strconv"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
)

// refDiffCells returns the cells of every level of n as the surface's
// rectangles with each cell's paired difference from the reference on the
// level's blocks, in points (cells differing in further dimensions pooled
// by blocks), or nil when the levels have no reference
// (search.NarrowConfig.Reference).
func refDiffCells(n *search.Narrowing) []plots.Cell {
	sp := n.Config().Space
	levels := n.Levels()
	var out []plots.Cell
	for k := range levels {
		l := &levels[k]
		if l.Ref == nil {
			return nil
		}
		if levelGames(l) == 0 {
			continue
		}
		rects, _, err := levelCells(l, sp)
		if err != nil {
			return nil
		}
		nx := len(l.Axes[0])
		sum := make([]float64, nx*len(l.Axes[1]))
		blocks := make([]int, len(sum))
		for c := range l.Cells {
			cell := &l.Cells[c]
			d, ok := refDiff(l, c)
			if !ok {
				continue
			}
			i := cell.Index[1]*nx + cell.Index[0]
			sum[i] += d * float64(len(cell.Scores))
			blocks[i] += len(cell.Scores)
		}
		j := 0
		for i := range sum {
			if blocks[i] == 0 {
				continue
			}
			r := rects[j]
			r.Z = 100 * sum[i] / float64(blocks[i])
			out = append(out, r)
			j++
		}
	}
	return out
}

// gap returns the mean difference in win rate of level l's best cell over
// cell c on the blocks c played (paired).
func gap(l *search.Level, c int) float64 {
	b, cell := &l.Cells[l.Best], &l.Cells[c]
	var d float64
	for i, v := range cell.Scores {
		d += b.Scores[i] - v
	}
	return d / float64(len(cell.Scores))
}

// racingText returns one sentence per level played stating what its
// racing told apart: the cells it dropped and by how much they trailed
// the best (paired), the cells halving set aside, and the cells left,
// which its blocks could not tell from the best, with the largest such
// gap.
func racingText(n *search.Narrowing) []string {
	var out []string
	levels := n.Levels()
	for k := range levels {
		l := &levels[k]
		if levelGames(l) == 0 {
			continue
		}
		played, dropped, alive, halved := 0, 0, 0, 0
		dlo, dhi, ahi, hlo := math.Inf(1), math.Inf(-1), 0.0, math.Inf(1)
		maxBlocks := 0
		for c := range l.Cells {
			cell := &l.Cells[c]
			if cell.Games == 0 {
				continue
			}
			played++
			maxBlocks = max(maxBlocks, len(cell.Scores))
			g := 100 * gap(l, c)
			switch {
			case cell.Halved:
				halved++
				hlo = math.Min(hlo, g)
			case cell.Dropped >= 0:
				dropped++
				dlo, dhi = math.Min(dlo, g), math.Max(dhi, g)
			case c != l.Best:
				alive++
				ahi = math.Max(ahi, g)
			}
		}
		s := fmt.Sprintf("Level %d (%d cells, up to %d blocks each): ", k+1, played, maxBlocks)
		alpha := strconv.FormatFloat(n.Config().Alpha, 'g', 3, 64)
		switch {
		case dropped == 1:
			s += fmt.Sprintf("racing dropped 1, shown worse than the best cell by %s points (paired, Holm-adjusted at %s)", textfmt.Fixed(dlo, 1), alpha)
		case dropped > 1:
			s += fmt.Sprintf("racing dropped %d, shown worse than the best cell by %s to %s points (paired, Holm-adjusted at %s)", dropped, textfmt.Fixed(dlo, 1), textfmt.Fixed(dhi, 1), alpha)
		default:
			s += "racing dropped none"
		}
		if halved > 0 {
			closest := "the closest " + textfmt.Fixed(hlo, 1) + " points below the best on its blocks"
			if hlo < 0.05 {
				closest = "one of them level with the best or above it on its blocks"
			}
			s += fmt.Sprintf("; halving set aside %d as the worse half after a round (%s) without showing them worse", halved, closest)
		}
		if alive > 0 {
			s += fmt.Sprintf("; it could not tell the %d other cells left from the best, up to %s points below it on their blocks.", alive, textfmt.Fixed(ahi, 1))
		} else {
			s += "; no other cell was left."
		}
		out = append(out, s)
	}
	return out
}

// refDiff returns the mean difference in win rate of level l's cell c from
// the reference over the blocks the cell played (paired: the reference
// played every block of the level), and false without a reference or
// games.
func refDiff(l *search.Level, c int) (float64, bool) {
	cell := &l.Cells[c]
	if l.Ref == nil || len(cell.Scores) == 0 {
		return 0, false
	}
	var d float64
	for b, v := range cell.Scores {
		d += v - l.Ref.Scores[b]
	}
	return d / float64(len(cell.Scores)), true
}
