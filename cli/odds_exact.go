package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/plots"
)

// The exact modes of marslab odds: a battle, a chain, a table and the
// single rolls, as text or JSON.

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

type outcomeJSON struct {
	AttackerLeft int     `json:"attacker_left"`
	DefenderLeft int     `json:"defender_left"`
	P            float64 `json:"p"`
	Exact        string  `json:"p_exact,omitempty"`
}

type battleJSON struct {
	A                  int           `json:"a"`
	D                  int           `json:"d"`
	Stop               int           `json:"stop,omitempty"`
	Rules              string        `json:"rules"`
	Win                float64       `json:"win"`
	WinExact           string        `json:"win_exact,omitempty"`
	AttackerLossesMean float64       `json:"attacker_losses_mean"`
	AttackerLossesSD   float64       `json:"attacker_losses_sd"`
	DefenderLossesMean float64       `json:"defender_losses_mean"`
	DefenderLossesSD   float64       `json:"defender_losses_sd"`
	Outcomes           []outcomeJSON `json:"outcomes"`
}

func oddsBattle(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions) error {
	res, err := dice.BattleStop(r, o.a, o.d, o.stop)
	if err != nil {
		return err
	}
	var ex *dice.BattleResultExact
	if o.exact {
		if ex, err = dice.BattleStopExact(ctx, r, o.a, o.d, o.stop); err != nil {
			return err
		}
	}
	out := battleJSON{A: o.a, D: o.d, Stop: o.stop, Rules: r.String(), Win: res.Win,
		AttackerLossesMean: res.AttackerLossMean, AttackerLossesSD: res.AttackerLossSD(),
		DefenderLossesMean: res.DefenderLossMean, DefenderLossesSD: res.DefenderLossSD()}
	for i, oc := range res.Outcomes {
		j := outcomeJSON{AttackerLeft: oc.AttackerLeft, DefenderLeft: oc.DefenderLeft, P: oc.P}
		if ex != nil {
			j.Exact = ex.Outcomes[i].P.RatString()
		}
		out.Outcomes = append(out.Outcomes, j)
	}
	if ex != nil {
		out.WinExact = ex.Win.RatString()
	}
	if o.json {
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "battle: %d attacking armies (a territory of %d) against %d defenders, dice %s\n",
		o.a, o.a+1, o.d, r)
	if o.stop > 0 {
		fmt.Fprintf(w, "the attacker stops when its attacking armies fall to %d\n", o.stop)
	}
	fmt.Fprintf(w, "P(attacker conquers) = %.6f\n", res.Win)
	if ex != nil {
		fmt.Fprintf(w, "                     = %s\n", out.WinExact)
	}
	fmt.Fprintf(w, "attacker losses: mean %.4f, sd %.4f\n", out.AttackerLossesMean, out.AttackerLossesSD)
	fmt.Fprintf(w, "defender losses: mean %.4f, sd %.4f\n", out.DefenderLossesMean, out.DefenderLossesSD)
	fmt.Fprintf(w, "\n%-14s %-14s %10s %11s\n", "attacker left", "defender left", "p", "cumulative")
	cum := 0.0
	for _, oc := range out.Outcomes {
		cum += oc.P
		fmt.Fprintf(w, "%-14d %-14d %10.6f %11.6f", oc.AttackerLeft, oc.DefenderLeft, oc.P, cum)
		if oc.Exact != "" {
			fmt.Fprintf(w, "  %s", oc.Exact)
		}
		fmt.Fprintln(w)
	}
	return nil
}

type survivorJSON struct {
	Armies int     `json:"armies"`
	P      float64 `json:"p"`
	Exact  string  `json:"p_exact,omitempty"`
}

type chainJSON struct {
	A             int            `json:"a"`
	Defenders     []int          `json:"defenders"`
	Rules         string         `json:"rules"`
	Win           float64        `json:"win"`
	WinExact      string         `json:"win_exact,omitempty"`
	WinFirst      []float64      `json:"win_first"`
	WinFirstExact []string       `json:"win_first_exact,omitempty"`
	Survivors     []survivorJSON `json:"survivors"`
}

func oddsChain(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions, defs []int) error {
	res, err := dice.Chain(r, o.a, defs)
	if err != nil {
		return err
	}
	out := chainJSON{A: o.a, Defenders: defs, Rules: r.String(), Win: res.Win, WinFirst: res.WinFirst}
	var ex *dice.ChainResultExact
	if o.exact {
		if ex, err = dice.ChainExact(ctx, r, o.a, defs); err != nil {
			return err
		}
		out.WinExact = ex.Win.RatString()
		for _, v := range ex.WinFirst {
			out.WinFirstExact = append(out.WinFirstExact, v.RatString())
		}
	}
	for s, p := range res.Survivors {
		if p == 0 {
			continue
		}
		sj := survivorJSON{Armies: s, P: p}
		if ex != nil {
			sj.Exact = ex.Survivors[s].RatString()
		}
		out.Survivors = append(out.Survivors, sj)
	}
	if o.json {
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "chain: %d attacking armies along %d territories with %s defenders, dice %s\n",
		o.a, len(defs), o.chain, r)
	fmt.Fprintf(w, "P(conquer the whole path) = %.6f\n", res.Win)
	if ex != nil {
		fmt.Fprintf(w, "                          = %s\n", out.WinExact)
	}
	fmt.Fprintf(w, "\n%-10s %-10s %12s\n", "territory", "defenders", "P(reach)")
	for j, p := range res.WinFirst {
		fmt.Fprintf(w, "%-10d %-10d %12.6f", j+1, defs[j], p)
		if ex != nil {
			fmt.Fprintf(w, "  %s", out.WinFirstExact[j])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n%-28s %10s\n", "armies in the last territory", "p")
	for _, s := range out.Survivors {
		fmt.Fprintf(w, "%-28d %10.6f", s.Armies, s.P)
		if s.Exact != "" {
			fmt.Fprintf(w, "  %s", s.Exact)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// maxPrintedTable bounds -table: the table is printed in full.
const maxPrintedTable = 200

func oddsTable(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions) error {
	n := o.table
	if n < 1 || n > maxPrintedTable {
		return fmt.Errorf("-table %d outside [1, %d]", n, maxPrintedTable)
	}
	t, err := dice.NewTable(r, n)
	if err != nil {
		return err
	}
	var ex *dice.TableExact
	if o.exact {
		if ex, err = dice.NewTableExact(ctx, r, n); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := plotTable(o.plot, r, t, n); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	if o.json {
		return writeTableJSON(w, r, t, ex, n)
	}
	fmt.Fprintf(w, "P(attacker conquers), dice %s: rows a = attacking armies, columns d = defending armies\n", r)
	fmt.Fprintf(w, "%4s", "a\\d")
	for d := 1; d <= n; d++ {
		fmt.Fprintf(w, " %5d", d)
	}
	fmt.Fprintln(w)
	for a := 1; a <= n; a++ {
		fmt.Fprintf(w, "%4d", a)
		for d := 1; d <= n; d++ {
			fmt.Fprintf(w, " %.3f", t.Win(a, d))
		}
		fmt.Fprintln(w)
	}
	if ex != nil {
		fmt.Fprintln(w, "\nexact:")
		for a := 1; a <= n; a++ {
			for d := 1; d <= n; d++ {
				fmt.Fprintf(w, "a=%d d=%d %s\n", a, d, ex.Win(a, d).RatString())
			}
		}
	}
	if o.plot != "" {
		fmt.Fprintf(w, "\nheat map written to %s\n", o.plot)
	}
	return nil
}

// plotTable draws the table t of P(win) for 1 <= a, d <= n as a heat map
// into the file path.
func plotTable(path string, r dice.Rules, t *dice.Table, n int) error {
	axis := make([]float64, n)
	for i := range axis {
		axis[i] = float64(i + 1)
	}
	h := plots.HeatMap{
		Grid: plots.NewGrid(axis, axis, func(d, a float64) float64 {
			return t.Win(int(a), int(d))
		}),
		Title:      fmt.Sprintf("P(attacker conquers), dice %s", r),
		XLabel:     "defending armies d",
		YLabel:     "attacking armies a",
		ColorLabel: "P(win)",
		Min:        0,
		Max:        1,
		Contours:   []float64{0.5},
	}
	return plots.Save(path, &h)
}

// writeTableJSON writes the table t (and its exact fractions ex, when
// not nil) of P(win) for 1 <= a, d <= n as JSON.
func writeTableJSON(w io.Writer, r dice.Rules, t *dice.Table, ex *dice.TableExact, n int) error {
	out := struct {
		N        int         `json:"n"`
		Rules    string      `json:"rules"`
		Win      [][]float64 `json:"win"`
		WinExact [][]string  `json:"win_exact,omitempty"`
	}{N: n, Rules: r.String()}
	for a := 1; a <= n; a++ {
		row := make([]float64, n)
		var erow []string
		for d := 1; d <= n; d++ {
			row[d-1] = t.Win(a, d)
			if ex != nil {
				erow = append(erow, ex.Win(a, d).RatString())
			}
		}
		out.Win = append(out.Win, row)
		if ex != nil {
			out.WinExact = append(out.WinExact, erow)
		}
	}
	return writeJSON(w, out)
}

// rollResult words the result of a roll of m pairs of dice in which the
// defender loses j armies.
func rollResult(j, m int) string {
	switch {
	case j == m && m > 1:
		return fmt.Sprintf("attacker wins all %d", m)
	case j == m:
		return "attacker wins"
	case j == 0 && m > 1:
		return fmt.Sprintf("defender wins all %d", m)
	case j == 0:
		return "defender wins"
	case m == 2:
		return "one each"
	}
	return fmt.Sprintf("defender loses %d of %d", j, m)
}

type rollJSON struct {
	AttackerDice int       `json:"attacker_dice"`
	DefenderDice int       `json:"defender_dice"`
	Total        int64     `json:"total"`
	Counts       []int64   `json:"counts"` // by defender losses 0..m
	P            []float64 `json:"p"`
	Paper        []int     `json:"paper_percent,omitempty"` // Table 4, same order; -1 = "—"
}

// oddsRolls prints every single roll's odds; Table 4 of the MARS paper is
// shown beside them for the classic rules.
func oddsRolls(w io.Writer, r dice.Rules, o oddsOptions) error {
	rolls, err := dice.CompareTable4(r)
	if err != nil {
		return err
	}
	var rows []rollJSON
	for _, rv := range rolls {
		odds := rv.Odds
		rj := rollJSON{AttackerDice: rv.AttackerDice, DefenderDice: rv.DefenderDice, Total: odds.Total, Paper: rv.Paper}
		for j := 0; j <= odds.Pairs(); j++ {
			rj.Counts = append(rj.Counts, odds.Count[j])
			rj.P = append(rj.P, odds.P(j))
		}
		rows = append(rows, rj)
	}
	if o.json {
		return writeJSON(w, rows)
	}
	if r.Sides == 0 || r.Sides == 6 {
		fmt.Fprintf(w, "single rolls, dice %s: exact counts over 6^n and the MARS paper's Table 4\n\n", r)
	} else {
		fmt.Fprintf(w, "single rolls, dice %s: exact counts over %d^n (Table 4 is for six-sided dice)\n\n", r, r.Sides)
	}
	fmt.Fprintf(w, "%-5s %-22s %-12s %9s %7s\n", "dice", "result", "count/total", "exact", "paper")
	for _, rj := range rows {
		m := len(rj.Counts) - 1
		for j := m; j >= 0; j-- {
			what := rollResult(j, m)
			paperCol := ""
			if rj.Paper != nil {
				paperCol = fmt.Sprintf("%d%%", rj.Paper[j])
			}
			fmt.Fprintf(w, "%-5s %-22s %-12s %8.3f%% %7s\n", fmt.Sprintf("%dv%d", rj.AttackerDice, rj.DefenderDice),
				what, fmt.Sprintf("%d/%d", rj.Counts[j], rj.Total), 100*rj.P[j], paperCol)
		}
	}
	if o.exact {
		fmt.Fprintln(w, "\nin lowest terms:")
		for _, rj := range rows {
			fmt.Fprintf(w, "%dv%d", rj.AttackerDice, rj.DefenderDice)
			for j, c := range rj.Counts {
				fmt.Fprintf(w, "  defender loses %d: %s", j, big.NewRat(c, rj.Total).RatString())
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}
