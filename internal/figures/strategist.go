package figures

import (
	"math"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/strategist"
	"github.com/marslab-risk/marslab/plots"
)

// StrategistCurve returns the figures of the strategist's training curve:
// win rate and mean return per block, with their 95 % intervals; an error
// names a block whose counts stats.Wilson refuses.
func StrategistCurve(r *strategist.Result) (win, ret *plots.LineChart, err error) {
	var xs, w, wlo, whi, m, mlo, mhi []float64
	for _, c := range r.Curve {
		iv, err := c.Wilson()
		if err != nil {
			return nil, nil, err
		}
		half := 1.959963984540054 * c.SDReturn / math.Sqrt(float64(c.Games))
		xs = append(xs, float64(c.First+c.Games))
		w, wlo, whi = append(w, 100*float64(c.Wins)/float64(c.Games)), append(wlo, 100*iv.Lo), append(whi, 100*iv.Hi)
		m, mlo, mhi = append(m, c.MeanReturn), append(mlo, c.MeanReturn-half), append(mhi, c.MeanReturn+half)
	}
	win = &plots.LineChart{Title: "Training: win rate per block (exploring policy), 95 % Wilson", XLabel: "training games",
		YLabel: "win %", Series: []plots.Series{{Name: "learner", X: xs, Y: w, Lo: wlo, Hi: whi}}}
	ret = &plots.LineChart{Title: "Training: mean return per block, 95 % interval", XLabel: "training games",
		YLabel: "mean return", Series: []plots.Series{{Name: "learner", X: xs, Y: m, Lo: mlo, Hi: mhi}}}
	return win, ret, nil
}

// StrategistEval returns the figure of the strategist's evaluation: each
// policy's win rate with its Wilson interval (an error from
// strategist.Evaluation.WinRate).
func StrategistEval(r *strategist.Result) (*plots.IntervalBarChart, error) {
	bar := &plots.IntervalBarChart{Title: "Evaluation: win rate on common fresh seeds, 95 % Wilson", YLabel: "win %", SlantLabels: true}
	for i := range r.Evaluations {
		ev := &r.Evaluations[i]
		_, rate, iv, _, err := ev.WinRate()
		if err != nil {
			return nil, err
		}
		bar.Categories = append(bar.Categories, ev.Name)
		bar.Values, bar.Lo, bar.Hi = append(bar.Values, 100*rate), append(bar.Lo, 100*iv.Lo), append(bar.Hi, 100*iv.Hi)
	}
	return bar, nil
}

// WriteStrategistCurve draws the training curve of r into dir as
// curve-win.png and curve-return.png (none without a block).
func WriteStrategistCurve(dir string, r *strategist.Result) error {
	if len(r.Curve) == 0 {
		return nil
	}
	win, ret, err := StrategistCurve(r)
	if err != nil {
		return err
	}
	if err := plots.Save(filepath.Join(dir, "curve-win.png"), win); err != nil {
		return err
	}
	return plots.Save(filepath.Join(dir, "curve-return.png"), ret)
}

// WriteStrategist draws the figures of the result r (written into dir by
// r.Write) there: the training curve (WriteStrategistCurve) unless the
// policy was loaded, and the evaluation as eval-win.png.
func WriteStrategist(dir string, r *strategist.Result) error {
	if r.PolicySource == "" {
		if err := WriteStrategistCurve(dir, r); err != nil {
			return err
		}
	}
	if len(r.Evaluations) == 0 {
		return nil
	}
	chart, err := StrategistEval(r)
	if err != nil {
		return err
	}
	return plots.Save(filepath.Join(dir, "eval-win.png"), chart)
}
