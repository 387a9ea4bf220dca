package tourney

import (
	"cmp"
	"math"
	"slices"

	"github.com/marslab-risk/marslab/stats"
)

// HeadlineMargin is the least lead, in points of win %, over the runner-up
// with which a run reproduces a paper's headline "first, by a wide
// margin": half the margin of the MARS paper's Table 6 (42.7 % against
// 26.0 %, 16.7 points).
const HeadlineMargin = 8.0

// SeatFit measures how close one run of a SeatComparison comes to the
// paper's win percentages (Table 6 of the MARS paper). Percentages and
// gaps are in points of win % (0..100).
type SeatFit struct {
	// Seat is the run's seat label.
	Seat string
	// Win, WinLo and WinHi are the seat's win % and its Wilson 95 %
	// interval; Paper is the paper's win % of the bot in whose place the
	// seat plays.
	Win, WinLo, WinHi, Paper float64
	// Rank is the seat's place among the bots by win % (1 = most wins);
	// Lead is its win % minus the best other bot's (negative when it is
	// not first).
	Rank int
	Lead float64
	// Clear reports Rank 1 with the seat's interval above every other
	// bot's.
	Clear bool
	// Rho is Spearman's ρ of the run's win % against the paper's.
	Rho stats.Spearman
	// Gaps holds every bot's win % minus the paper's, in the order of
	// Results.Bots; MeanGap is the mean of their absolute values, MaxGap
	// the largest absolute gap and MaxGapBot its bot; Within5 counts the
	// bots within 5 points of the paper.
	Gaps      []float64
	MeanGap   float64
	MaxGap    float64
	MaxGapBot string
	Within5   int
	// Paired compares the seat with the reference seat game by game; nil
	// for the reference itself.
	Paired *stats.PairedProportion
}

// Headline reports whether the run reproduces a headline "first, by a
// wide margin": the seat ranks first with its interval above every other
// bot's and a lead of at least HeadlineMargin points.
func (f *SeatFit) Headline() bool { return f.Clear && f.Lead >= HeadlineMargin }

// Fits measures every run against the paper, in the order of c.Runs.
func (c *SeatComparison) Fits() []SeatFit {
	fits := make([]SeatFit, len(c.Runs))
	for k, r := range c.Runs {
		me := r.Results.Bots[c.Index]
		f := SeatFit{Seat: r.Name, Win: 100 * me.WinRate, WinLo: 100 * me.WinLo, WinHi: 100 * me.WinHi,
			Paper: c.Paper.Bots[c.Bot].WinPct, Rank: 1, Clear: true, Rho: c.Ranks[k], Lead: math.Inf(1)}
		for i, x := range r.Results.Bots {
			gap := 100*x.WinRate - c.Paper.Bots[c.paperKey(r, x.Bot)].WinPct
			f.Gaps = append(f.Gaps, gap)
			f.MeanGap += math.Abs(gap)
			if math.Abs(gap) > f.MaxGap {
				f.MaxGap, f.MaxGapBot = math.Abs(gap), c.paperKey(r, x.Bot)
			}
			if math.Abs(gap) <= 5 {
				f.Within5++
			}
			if i == c.Index {
				continue
			}
			if x.WinRate > me.WinRate {
				f.Rank++
			}
			if x.WinHi >= me.WinLo {
				f.Clear = false
			}
			f.Lead = min(f.Lead, 100*(me.WinRate-x.WinRate))
		}
		f.Clear = f.Clear && f.Rank == 1
		f.MeanGap /= float64(len(r.Results.Bots))
		if k > 0 {
			f.Paired = &c.Paired[k-1]
		}
		fits[k] = f
	}
	return fits
}

// RankFits returns the indices of fits ordered from the closest to the
// paper to the furthest: by mean absolute gap over the bots, then by the
// seat's own gap, then by index.
func RankFits(fits []SeatFit) []int {
	order := make([]int, len(fits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(fits[a].MeanGap, fits[b].MeanGap),
			cmp.Compare(math.Abs(fits[a].Win-fits[a].Paper), math.Abs(fits[b].Win-fits[b].Paper)))
	})
	return order
}
