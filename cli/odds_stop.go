package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/report"
)

// The optimal-stopping (-optimal) and defence (-defend) modes of marslab
// odds.

// maxOptimalExact bounds the armies of -optimal -exact.
const maxOptimalExact = 40

type thresholdJSON struct {
	W     float64 `json:"w"`
	Value float64 `json:"value"`
	Loss  float64 `json:"loss"`
}

type policyJSON struct {
	Territory int     `json:"territory"` // 1-based: the territory being attacked
	Attackers int     `json:"attackers"`
	Defenders int     `json:"defenders"`
	Roll      bool    `json:"roll"`
	Value     float64 `json:"value"`
	Win       float64 `json:"win"`
}

type optimalJSON struct {
	A          int             `json:"a"`
	Defenders  []int           `json:"defenders"`
	Rules      string          `json:"rules"`
	Utility    string          `json:"utility"`
	Value      float64         `json:"value"`
	ValueExact string          `json:"value_exact,omitempty"`
	Never      float64         `json:"never_attack"`
	ToTheEnd   float64         `json:"attack_to_the_end"`
	IsThresh   bool            `json:"is_threshold"`
	BestW      float64         `json:"best_w"`
	BestWLoss  float64         `json:"best_w_loss"`
	MARS       *thresholdJSON  `json:"mars,omitempty"`
	Thresholds []thresholdJSON `json:"thresholds"`
	Policy     []policyJSON    `json:"policy"`
}

func oddsOptimal(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions, defs []int) error {
	u, err := optimalUtility(o)
	if err != nil {
		return err
	}
	st, err := dice.Stop(r, o.a, defs, u)
	if err != nil {
		return err
	}
	out, err := optimalResult(ctx, st, r, o, defs, u)
	if err != nil {
		return err
	}
	if err := plotOptimal(st, r, o); err != nil {
		return err
	}
	if o.json {
		return writeJSON(w, out)
	}
	printOptimal(w, st, r, o, defs, u, out)
	return nil
}

// optimalUtility checks the utility and MARS's thresholds of -optimal.
func optimalUtility(o oddsOptions) (dice.Utility, error) {
	u := dice.Utility{Territory: o.territory, Army: o.army, Kill: o.kill, Path: o.pathValue, Goal: o.goal, Keep: o.keep}
	if u == (dice.Utility{}) {
		return u, errors.New("-optimal needs a utility: -territory, -army, -kill, -path or -goal")
	}
	if (o.wp1 >= 0) != (o.wp >= 0) {
		return u, errors.New("-wp1 and -wp go together (MARS's thresholds before and after the first conquest)")
	}
	if o.wp1 > 1 || o.wp > 1 {
		return u, fmt.Errorf("-wp1 %v, -wp %v: thresholds are probabilities in [0, 1]", o.wp1, o.wp)
	}
	return u, nil
}

// optimalResult is the optimal stopping st of -optimal as printed: its
// value (exact with -exact), the threshold rules, MARS's rule and the
// policy in the reachable states.
func optimalResult(ctx context.Context, st *dice.Stopping, r dice.Rules, o oddsOptions, defs []int, u dice.Utility) (optimalJSON, error) {
	out := optimalJSON{A: o.a, Defenders: defs, Rules: r.String(), Utility: u.String(), Value: st.Value(),
		Never: st.Threshold(2, 2), ToTheEnd: st.Threshold(0, 0)}
	if o.exact {
		if o.a > maxOptimalExact {
			return out, fmt.Errorf("-optimal -exact supports up to %d attacking armies, not %d", maxOptimalExact, o.a)
		}
		ex, err := dice.StopExact(ctx, r, o.a, defs, u)
		if err != nil {
			return out, err
		}
		out.ValueExact = ex.Value().RatString()
	}
	out.IsThresh, _, _ = st.IsThreshold()
	out.BestWLoss = math.Inf(1)
	for _, th := range st.Thresholds() {
		out.Thresholds = append(out.Thresholds, thresholdJSON(th))
		if th.Loss < out.BestWLoss {
			out.BestW, out.BestWLoss = th.W, th.Loss
		}
	}
	if o.wp1 >= 0 {
		v := st.Threshold(o.wp1, o.wp)
		out.MARS = &thresholdJSON{W: o.wp, Value: v, Loss: out.Value - v}
	}
	for k, d := range defs {
		for x := o.a - k; x >= 1; x-- {
			for y := d; y >= 1; y-- {
				if !st.Reachable(k, x, y) {
					continue
				}
				v, roll, win, _ := st.At(k, x, y)
				out.Policy = append(out.Policy, policyJSON{Territory: k + 1, Attackers: x, Defenders: y, Roll: roll, Value: v, Win: win})
			}
		}
	}
	return out, nil
}

// plotOptimal draws the policy (-plot) and the threshold rules' loss
// (-plot-loss) of st.
func plotOptimal(st *dice.Stopping, r dice.Rules, o oddsOptions) error {
	heat, loss := report.StoppingFigures(st, r)
	if o.plot != "" {
		if err := plots.Save(o.plot, heat); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	if o.plotLoss != "" {
		if loss == nil {
			return errors.New("-plot-loss: no state where a threshold rule could attack")
		}
		if err := plots.Save(o.plotLoss, loss); err != nil {
			return fmt.Errorf("-plot-loss: %w", err)
		}
	}
	return nil
}

// printOptimal prints the optimal stopping st of -optimal and out, its
// result, as text.
func printOptimal(w io.Writer, st *dice.Stopping, r dice.Rules, o oddsOptions, defs []int, u dice.Utility, out optimalJSON) {
	fmt.Fprintf(w, "optimal stopping: %d attacking armies against %s defenders, dice %s\n", o.a, joinInts(defs), r)
	fmt.Fprintf(w, "utility: %s\n", u)
	fmt.Fprintf(w, "optimal expected utility = %.6f\n", out.Value)
	if out.ValueExact != "" {
		fmt.Fprintf(w, "                         = %s\n", out.ValueExact)
	}
	fmt.Fprintf(w, "never attacking:           %.6f\nattacking to the end:      %.6f\n", out.Never, out.ToTheEnd)
	if out.IsThresh {
		fmt.Fprintln(w, "the optimal policy is a threshold rule on P(conquering the rest)")
	} else {
		fmt.Fprintln(w, "the optimal policy is not a threshold rule on P(conquering the rest)")
	}
	fmt.Fprintf(w, "best threshold rule: W = %.6f, expected utility %.6f, loss %.6f\n", out.BestW, out.Value-out.BestWLoss, out.BestWLoss)
	if out.MARS != nil {
		fmt.Fprintf(w, "MARS's rule W_p1 = %g, W_p = %g: expected utility %.6f, loss %.6f\n", o.wp1, o.wp, out.MARS.Value, out.MARS.Loss)
	}
	printPolicy(w, st, o.a, defs)
	printThresholds(w, out)
	if o.plot != "" {
		fmt.Fprintf(w, "\npolicy heat map written to %s\n", o.plot)
	}
	if o.plotLoss != "" {
		fmt.Fprintf(w, "threshold losses written to %s\n", o.plotLoss)
	}
}

// printPolicy prints the policy of st, a attacking armies against the
// defenders defs, in the reachable states.
func printPolicy(w io.Writer, st *dice.Stopping, a int, defs []int) {
	fmt.Fprintln(w, "\npolicy in the reachable states: R = roll, . = stop; rows x = attacking armies, columns y = defenders left")
	for k, d := range defs {
		fmt.Fprintf(w, "territory %d (%d defenders)\n%4s", k+1, d, "x\\y")
		for y := 1; y <= d; y++ {
			fmt.Fprintf(w, " %2d", y)
		}
		fmt.Fprintln(w)
		for x := a - k; x >= 1; x-- {
			var b strings.Builder
			any := false
			for y := 1; y <= d; y++ {
				c := "  "
				if st.Reachable(k, x, y) {
					any = true
					_, roll, _, _ := st.At(k, x, y)
					c = " ."
					if roll {
						c = " R"
					}
				}
				b.WriteString(" " + c)
			}
			if any {
				fmt.Fprintf(w, "%4d%s\n", x, strings.TrimRight(b.String(), " "))
			}
		}
	}
}

// printThresholds prints the value and loss of about 20 of the threshold
// rules of out, evenly spaced, with the best and the last.
func printThresholds(w io.Writer, out optimalJSON) {
	fmt.Fprintf(w, "\n%-10s %12s %12s\n", "W", "value", "loss")
	step := max(1, len(out.Thresholds)/20)
	for i, th := range out.Thresholds {
		if i%step != 0 && i != len(out.Thresholds)-1 && th.W != out.BestW {
			continue
		}
		wtxt := fmt.Sprintf("%.6f", th.W)
		if th.W > 1 {
			wtxt = "never"
		}
		fmt.Fprintf(w, "%-10s %12.6f %12.6f\n", wtxt, th.Value, th.Loss)
	}
}

type defendJSON struct {
	A           int       `json:"a"`
	Armies      int       `json:"armies"`
	K           int       `json:"k"`
	Rules       string    `json:"rules"`
	Alloc       []int     `json:"allocation"`
	Win         float64   `json:"win"`
	Adaptive    float64   `json:"adaptive_bound"`
	Allocations float64   `json:"allocations"`
	Leaves      int       `json:"leaves"`
	Nodes       int       `json:"nodes"`
	Others      []allocPJ `json:"others"`
}

type allocPJ struct {
	Name  string  `json:"name"`
	Alloc []int   `json:"allocation"`
	Win   float64 `json:"win"`
}

func oddsDefend(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions) error {
	if !o.exhaustiveOK() {
		return fmt.Errorf("-exhaustive: more than %g allocations; drop -exhaustive (the branch and bound is exact)", maxExhaustive)
	}
	res, err := dice.Defend(ctx, r, o.a, o.defend, o.k, o.exhaustive)
	if err != nil {
		return err
	}
	out := defendJSON{A: o.a, Armies: o.defend, K: o.k, Rules: r.String(), Alloc: res.Alloc, Win: res.Win,
		Adaptive: res.Adaptive, Allocations: res.Allocations, Leaves: res.Leaves, Nodes: res.Nodes}
	c := dice.NewChainer(r, o.a)
	names, allocs := report.DefenceBaselines(o.defend, o.k)
	for i, al := range allocs {
		out.Others = append(out.Others, allocPJ{Name: names[i], Alloc: al, Win: c.Win(o.a, al)})
	}
	if o.json {
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "defence: %d defending armies over %d territories against %d attacking armies, dice %s\n",
		o.defend, o.k, o.a, r)
	fmt.Fprintf(w, "optimal allocation (first attacked first): %s\n", joinInts(res.Alloc))
	fmt.Fprintf(w, "P(attacker conquers the whole path) = %.6f\n", res.Win)
	fmt.Fprintf(w, "against an adaptive defender (the search's bound): %.6f\n", res.Adaptive)
	how := "branch and bound"
	if o.exhaustive {
		how = "exhaustive"
	}
	fmt.Fprintf(w, "%.0f allocations; %s evaluated %d complete and %d partial\n\n", res.Allocations, how, res.Leaves, res.Nodes)
	fmt.Fprintf(w, "%-30s %-24s %10s\n", "allocation", "armies", "P(win)")
	for _, al := range out.Others {
		fmt.Fprintf(w, "%-30s %-24s %10.6f\n", al.Name, joinInts(al.Alloc), al.Win)
	}
	return nil
}

// maxExhaustive bounds -defend -exhaustive.
const maxExhaustive = 2e6

// exhaustiveOK reports whether -exhaustive is off or small enough.
func (o oddsOptions) exhaustiveOK() bool {
	if !o.exhaustive || o.k < 1 || o.defend < o.k {
		return true
	}
	c := 1.0
	for i := 1; i <= o.k-1; i++ {
		c = c * float64(o.defend-o.k+i) / float64(i)
	}
	return c <= maxExhaustive
}
