package report

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
)

// marsStopConfig is the MARS section of a dice-literature notebook: MARS's
// attack rule against the optimal stopping policy (MARS's named option
// stop), in games against a field.
type marsStopConfig struct {
	// Mars is MARS's seat without options (mars@paper); the section seats
	// it with stop_stats = 1 (the paper's rule, counted) and with stop =
	// optimal.
	Mars string `toml:"mars"`
	// Opponents are the other seats; Rules the rule set (name or file).
	Opponents []string `toml:"opponents"`
	Rules     string   `toml:"rules"`
}

// marsStopData is the template data of the MARS section.
type marsStopData struct {
	Games, Decisions int
	Line             string // the measured line-up
	// More and Less are the shares of decisions where the optimal policy
	// rolls and the paper's rule stops, and the reverse, with their 95 %
	// intervals (ratio estimates, games as clusters).
	More, Less           ratioEstimate
	LossArmies, LossGoal ratioEstimate
	// Paired compares MARS's wins with the paper's rule (PX) and with the
	// optimal policy (PY) on the same games.
	Paired    stats.PairedProportion
	Stalemate [2]int // stalemates with the paper's rule and with the optimal one
	// Gain is the optimal policy's win rate minus the paper rule's, in
	// points, with its 95 % interval (Paired's, negated).
	Gain, GainLo, GainHi float64
}

// ratioEstimate is a ratio of sums over games, Σy/Σx, with the 95 %
// normal interval of the ratio estimator (the games are the clusters:
// var = Σ(y_g - R·x_g)² / (n(n-1)·x̄²)).
type ratioEstimate struct {
	R      float64
	Lo, Hi float64
}

func ratio(ys, xs []float64) ratioEstimate {
	n := float64(len(xs))
	var sy, sx float64
	for i := range xs {
		sy += ys[i]
		sx += xs[i]
	}
	if sx == 0 || n < 2 {
		return ratioEstimate{R: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	r := sy / sx
	var ss float64
	for i := range xs {
		e := ys[i] - r*xs[i]
		ss += e * e
	}
	xbar := sx / n
	se := math.Sqrt(ss/(n*(n-1))) / xbar
	z, _ := stats.NormalQuantile(0.95)
	return ratioEstimate{R: r, Lo: r - z*se, Hi: r + z*se}
}

// check validates the section's keys.
func (m *marsStopConfig) check(ck *checker) {
	ck.nonEmpty("literature.mars.mars", m.Mars)
	if strings.ContainsAny(m.Mars, "(;") {
		ck.fail("literature.mars.mars", "%q: a seat without options (the section adds stop options)", m.Mars)
	}
	if len(m.Opponents) < sim.MinPlayers-1 || len(m.Opponents) > sim.MaxPlayers-1 {
		ck.fail("literature.mars.opponents", "%d seats, want %d to %d", len(m.Opponents), sim.MinPlayers-1, sim.MaxPlayers-1)
	}
	ck.nonEmpty("literature.mars.rules", m.Rules)
}

// marsStop plays the section's two batches (MARS measuring the paper's
// rule, and MARS stopping optimally, on the same games) and writes
// mars-stop.csv, one line per game.
func (c *diceLiteratureConfig) marsStop(ctx context.Context, w *writer, d *diceLiteratureData, games int) error {
	ms := &c.Lit.Mars
	plays := make([][]arena.Record, 2)
	for i, opt := range []string{"stop_stats=1", "stop=optimal"} {
		line := ms.Mars + "(" + opt + ")," + strings.Join(ms.Opponents, ",")
		g, err := (&engineConfig{path: c.path}).setup(w, "literature.mars.rules", ms.Rules, "literature.mars.opponents", line)
		if err != nil {
			return err
		}
		w.logf("dice-literature: %d games of %s", games, line)
		recs := make([]arena.Record, 0, games)
		if _, err := arena.Run(ctx, arena.Config{Map: g.m, Rules: g.rules, Seats: g.seats, Games: games, Seed: w.seed,
			Workers: 0, OnRecord: func(r arena.Record) { recs = append(recs, r) }}); err != nil {
			return fmt.Errorf("MARS stopping, %s: %w", opt, err)
		}
		plays[i] = recs
		if i == 0 {
			d.Mars.Line = line
		}
	}
	seat := func(r arena.Record, label string) int {
		for s, l := range r.Seating {
			if l == ms.Mars+"("+label+")" {
				return s
			}
		}
		return -1
	}
	n := len(plays[0])
	dec, more, less, priced, lossA, lossG := make([]float64, n), make([]float64, n), make([]float64, n),
		make([]float64, n), make([]float64, n), make([]float64, n)
	winP, winO := make([]bool, n), make([]bool, n)
	var rows [][]string
	for g := range n {
		a, b := plays[0][g], plays[1][g]
		sa, sb := seat(a, "stop_stats=1"), seat(b, "stop=optimal")
		if sa < 0 || sb < 0 || len(a.Stats) <= sa {
			return fmt.Errorf("MARS stopping: game %d: MARS's seat or counts missing", g)
		}
		st := a.Stats[sa]
		dec[g], more[g], less[g] = float64(st["stop_decisions"]), float64(st["stop_more"]), float64(st["stop_less"])
		priced[g], lossA[g], lossG[g] = float64(st["stop_priced"]), float64(st["stop_loss_micro"])/1e6, float64(st["stop_loss_goal_ppm"])/1e6
		winP[g], winO[g] = a.Winner == sa, b.Winner == sb
		if a.Stalemate {
			d.Mars.Stalemate[0]++
		}
		if b.Stalemate {
			d.Mars.Stalemate[1]++
		}
		d.Mars.Decisions += int(dec[g])
		rows = append(rows, []string{strconv.Itoa(g), strconv.Itoa(int(dec[g])), strconv.Itoa(int(more[g])), strconv.Itoa(int(less[g])), strconv.Itoa(int(priced[g])),
			num(lossA[g]), num(lossG[g]), fmt.Sprint(winP[g]), fmt.Sprint(winO[g])})
	}
	d.Mars.Games = n
	d.Mars.More, d.Mars.Less = ratio(more, dec), ratio(less, dec)
	d.Mars.LossArmies, d.Mars.LossGoal = ratio(lossA, priced), ratio(lossG, dec)
	pc, err := stats.CountPairs(winP, winO)
	if err != nil {
		return err
	}
	if d.Mars.Paired, err = stats.PairedProportions(pc, 0.95); err != nil {
		return err
	}
	pp := d.Mars.Paired
	d.Mars.Gain, d.Mars.GainLo, d.Mars.GainHi = -100*pp.Diff, -100*pp.Interval.Hi, -100*pp.Interval.Lo
	return w.csv("mars-stop.csv", []string{"game", "decisions", "optimal_rolls_rule_stops", "rule_rolls_optimal_stops",
		"priced", "rule_loss_armies", "rule_loss_path_values", "mars_wins_rule", "mars_wins_optimal"}, rows)
}
