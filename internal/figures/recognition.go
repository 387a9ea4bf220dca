package figures

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/recognition"
	"github.com/marslab-risk/marslab/plots"
)

// Recognition returns the figures of the recognition summary sum: accuracy (plain PHATT's accuracy per
// arm against the share of the game played, in %, with 95 % Wilson
// intervals and the random guess), winners-losers (plain PHATT on the
// winners and the losers of every arm) and, per arm, recognisers-ARM
// (every recogniser that ran on the arm).
func Recognition(sum *recognition.Summary) []Figure {
	series := func(name string, ts []recognition.Tally) plots.Series {
		x := make([]float64, len(ts))
		for k := range x {
			x[k] = float64(5 * (k + 1))
		}
		s := plots.Series{Name: name, X: x, Y: make([]float64, len(x)), Lo: make([]float64, len(x)), Hi: make([]float64, len(x))}
		for k, t := range ts {
			s.Y[k], s.Lo[k], s.Hi[k] = 100*t.Acc, 100*t.CI.Lo, 100*t.CI.Hi
		}
		return s
	}
	const xLabel, yLabel = "% of the game (setup placements counted as turns)", "correct predictions (%, 95 % Wilson)"
	chance := plots.Series{Name: "random guess", X: []float64{5, 100}, Y: []float64{100 * sum.Chance, 100 * sum.Chance}}
	lc := &plots.LineChart{Title: "PHATT: accuracy against the share of the game played", XLabel: xLabel, YLabel: yLabel, YMin: 0, YMax: 100}
	for a, arm := range sum.Arms {
		lc.Series = append(lc.Series, series(arm, sum.Curve[0][a][recognition.All][:]))
	}
	lc.Series = append(lc.Series, chance)
	wl := &plots.LineChart{Title: "PHATT: winners and losers", XLabel: xLabel, YLabel: yLabel, YMin: 0, YMax: 100}
	for a, arm := range sum.Arms {
		wl.Series = append(wl.Series, series(arm+" winners", sum.Curve[0][a][recognition.Winners][:]), series(arm+" losers", sum.Curve[0][a][recognition.Losers][:]))
	}
	out := []Figure{{"accuracy", lc}, {"winners-losers", wl}}
	for a, arm := range sum.Arms {
		rc := &plots.LineChart{Title: "The recognisers on " + arm, XLabel: xLabel, YLabel: yLabel, YMin: 0, YMax: 100}
		for r, rn := range sum.Recognisers {
			if sum.Ran[r] {
				rc.Series = append(rc.Series, series(rn, sum.Curve[r][a][recognition.All][:]))
			}
		}
		rc.Series = append(rc.Series, chance)
		out = append(out, Figure{"recognisers-" + arm, rc})
	}
	return out
}

// WriteRecognition draws the figures of sum (Recognition) into dir (which
// must exist), each as NAME.png and NAME.svg, and returns the files'
// names in the order written.
func WriteRecognition(dir string, sum *recognition.Summary) ([]string, error) {
	var names []string
	for _, c := range Recognition(sum) {
		for _, format := range []string{"png", "svg"} {
			var buf bytes.Buffer
			if err := c.Chart.Write(&buf, format); err != nil {
				return nil, fmt.Errorf("figure %s: %w", c.Name, err)
			}
			name := c.Name + "." + format
			if err := atomicfile.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
				return nil, fmt.Errorf("figure %s: %w", c.Name, err)
			}
			names = append(names, name)
		}
	}
	return names, nil
}
