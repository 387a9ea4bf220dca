package report

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// curveSeats parses the seats of each point of the curve (the curve's bot
// with its parameter set, then the field's opponents), before any game is
// played, so that a bad bot, parameter or value is an error at once. It
// returns nil when the config has no curve.
func (c *ladderConfig) curveSeats(w *writer) ([][]bots.Seat, error) {
	cv := &c.Curve
	if len(cv.Values) == 0 {
		return nil, nil
	}
	out := make([][]bots.Seat, len(cv.Values))
	for i, v := range cv.Values {
		spec := fmt.Sprintf("%s(%s=%s)", cv.Bot, cv.Param, strconv.FormatFloat(v, 'g', -1, 64))
		seats, err := w.reg.ParseSeats(strings.Join(append([]string{spec}, c.Field.Opponents...), ","), nil)
		if err != nil {
			return nil, fmt.Errorf("%s: key curve.values[%d]: %w", c.path, i, err)
		}
		out[i] = seats
	}
	return out, nil
}

// curve plays each point of the curve against the field's opponents on the
// field's deals (reusing a challenger's run of the same configuration) and
// fills the curve's tables and sentences: win % with Wilson intervals and
// the decisions per game, and, timed, the CPU time per decision and per
// game.
func (c *ladderConfig) curve(ctx context.Context, w *writer, r *sim.Rules, m *sim.Map, games int, points [][]bots.Seat, played []fieldRun, d *ladderData) error {
	if len(points) == 0 {
		return nil
	}
	cv := &c.Curve
	f := points[0][0].Factory
	p, _ := f.Param(cv.Param) // ParseSeats checked the name
	def := f.Defaults()[cv.Param]
	d.CurveBot, d.CurveParam = points[0][0].Label, cv.Param
	if i := strings.IndexByte(d.CurveBot, '('); i >= 0 {
		d.CurveBot = d.CurveBot[:i]
	}
	d.Curve = table.Table{Name: "curve", Title: fmt.Sprintf("%s by %s against %s: win %% with a %g %% Wilson interval", d.CurveBot, cv.Param, strings.Join(c.Field.Opponents, ", "), 100*stats.Level),
		Header: []string{cv.Param, "games", "wins", "win %", "lo %", "hi %", "decisions per game", "default"}}
	d.CurveTiming = table.Table{Name: "curve timing", Header: []string{cv.Param, "ms per decision", "s per game", "clock"}}
	var pcts []string
	var reach, above string
	for i, seats := range points {
		run, ok := fieldRun{}, false
		for _, pr := range played {
			if pr.seat.Factory.Name == seats[0].Factory.Name && maps.Equal(pr.seat.Params, seats[0].Params) && len(pr.won) == games {
				run, ok = pr, true
				break
			}
		}
		if !ok {
			var err error
			if run, err = c.playField(ctx, w, r, m, seats, games); err != nil {
				return err
			}
			d.CurveSeconds += run.rep.Timing.WallSeconds
		}
		v := p.Format(cv.Values[i])
		k, n := count(run.won), len(run.won)
		iv, err := stats.Wilson(k, n, stats.Level)
		if err != nil {
			return err
		}
		decisions := seatStat(run.recs, run.seat.Label, "decisions")
		perGame := float64(decisions) / float64(n)
		isDef := "no"
		if cv.Values[i] == def {
			isDef = "yes"
			d.CurveText = append(d.CurveText, fmt.Sprintf("At its default (%s = %s) `%s` wins %s %% (95 %% interval [%s, %s] %%)",
				cv.Param, v, d.CurveBot, textfmt.Fixed(100*float64(k)/float64(n), 1), textfmt.Fixed(100*iv.Lo, 1), textfmt.Fixed(100*iv.Hi, 1)))
		}
		d.Curve.Add(v, strconv.Itoa(n), strconv.Itoa(k), textfmt.Fixed(100*float64(k)/float64(n), 1),
			textfmt.Fixed(100*iv.Lo, 1), textfmt.Fixed(100*iv.Hi, 1), textfmt.Fixed(perGame, 1), isDef)
		pcts = append(pcts, fmt.Sprintf("%s %% at %s", textfmt.Fixed(100*float64(k)/float64(n), 1), v))
		if reach == "" && float64(k)/float64(n) >= c.Field.Reference/100 {
			reach = v
		}
		if above == "" && iv.Lo > c.Field.Reference/100 {
			above = v
		}
		for _, b := range run.rep.Timing.Bots {
			if b.Bot != run.seat.Label {
				continue
			}
			msDecision := ""
			if decisions > 0 {
				msDecision = textfmt.Fixed(1000*b.DecisionSeconds/float64(decisions), 3)
			}
			d.CurveTiming.Add(v, msDecision, textfmt.Fixed(b.SecondsPerGame, 3), arena.ClockName(run.rep.Timing.Clock))
		}
	}
	d.CurveText = append([]string{fmt.Sprintf("`%s` wins %s of %d games each (%s = value)", d.CurveBot, strings.Join(pcts, ", "), games, cv.Param)}, d.CurveText...)
	d.CurveText = append(d.CurveText, reachSentence(cv.Param, reach, above, c.Field.Reference, c.Field.ReferenceSource))
	return w.table("curve.csv", d.Curve)
}

// reachSentence states the least value of param whose win % reaches the
// reference (reach) and the least whose interval lies wholly above it
// (above); an empty value is none.
func reachSentence(param, reach, above string, ref float64, source string) string {
	r := textfmt.Fixed(ref, 0)
	switch {
	case reach == "":
		return fmt.Sprintf("No value of %s tried reaches %s's %s %%", param, source, r)
	case above == "":
		return fmt.Sprintf("The least value of %s whose win %% reaches %s's %s %% is %s; at no value tried does the interval lie wholly above it", param, source, r, reach)
	}
	return fmt.Sprintf("The least value of %s whose win %% reaches %s's %s %% is %s; the least whose interval lies wholly above it is %s", param, source, r, reach, above)
}

// seatStat sums the count name reported by the seats labelled label over
// recs.
func seatStat(recs []arena.Record, label, name string) int64 {
	var n int64
	for _, rec := range recs {
		for seat, l := range rec.Seating {
			if l == label && seat < len(rec.Stats) {
				n += rec.Stats[seat][name]
			}
		}
	}
	return n
}
