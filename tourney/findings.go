package tourney

import (
	"fmt"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
)

// The sentences of this file state the tournament's results from its
// numbers; the report of marslab tournament (tables.md) and the
// tournament notebooks (package report) print them.

// winText is a bot's win % with its interval.
func winText(b BotResult) string {
	return fmt.Sprintf("%s %% (%g %% Wilson [%s, %s])", textfmt.Fixed(100*b.WinRate, 1), 100*stats.Level,
		textfmt.Fixed(100*b.WinLo, 1), textfmt.Fixed(100*b.WinHi, 1))
}

// leader returns the index of the bot with the most wins (the first of
// equals in table order) and whether its Wilson interval lies above every
// other bot's.
func (r *Results) leader() (int, bool) {
	best := 0
	for i, b := range r.Bots {
		if b.WinRate > r.Bots[best].WinRate {
			best = i
		}
	}
	sep := true
	for i, b := range r.Bots {
		if i != best && b.WinHi >= r.Bots[best].WinLo {
			sep = false
		}
	}
	return best, sep
}

// Findings returns the sentences that state the tournament's result:
// who wins most often (and whether its interval separates it from the
// others), who wins least, who has the best mean placement, who finishes
// second and last most often, and how many games ended in a stalemate.
func (r *Results) Findings() []string {
	if len(r.Bots) == 0 || r.Games == 0 {
		return nil
	}
	lead, sep := r.leader()
	lb := r.Bots[lead]
	second := -1
	for i, b := range r.Bots {
		if i != lead && (second < 0 || b.WinRate > r.Bots[second].WinRate) {
			second = i
		}
	}
	verb, its := lb.Bot+" wins most often", "its"
	if second >= 0 && r.Bots[second].WinRate == lb.WinRate {
		verb, its = lb.Bot+" and "+r.Bots[second].Bot+" win equally often", "their"
	}
	s := fmt.Sprintf("%s, %s %% of %s games (%g %% Wilson [%s, %s])", verb, textfmt.Fixed(100*lb.WinRate, 1), its,
		100*stats.Level, textfmt.Fixed(100*lb.WinLo, 1), textfmt.Fixed(100*lb.WinHi, 1))
	switch {
	case sep:
		s += ", its interval above every other bot's"
	case r.Bots[second].WinRate < lb.WinRate:
		sb := r.Bots[second]
		s += fmt.Sprintf(", its interval overlapping %s's (%s %%, [%s, %s]): the order of the two is not settled", sb.Bot, textfmt.Fixed(100*sb.WinRate, 1),
			textfmt.Fixed(100*sb.WinLo, 1), textfmt.Fixed(100*sb.WinHi, 1))
	}
	out := []string{s}
	least := 0
	for i, b := range r.Bots {
		if b.WinRate < r.Bots[least].WinRate {
			least = i
		}
	}
	out = append(out, fmt.Sprintf("%s wins least: %s", r.Bots[least].Bot, winText(r.Bots[least])))
	place := 0
	for i, b := range r.Bots {
		if b.MeanPlacement < r.Bots[place].MeanPlacement {
			place = i
		}
	}
	pb := r.Bots[place]
	out = append(out, fmt.Sprintf("%s has the best mean placement, %s (%g %% interval [%s, %s])", pb.Bot, textfmt.Fixed(pb.MeanPlacement, 2),
		100*stats.Level, textfmt.Fixed(pb.PlacementLo, 2), textfmt.Fixed(pb.PlacementHi, 2)))
	ks := []int{r.Players - 1}
	if r.Players > 2 {
		ks = []int{1, r.Players - 1}
	}
	for _, k := range ks {
		m := 0
		for i, b := range r.Bots {
			if b.Placements[k] > r.Bots[m].Placements[k] {
				m = i
			}
		}
		what := textfmt.Ordinal(k + 1)
		if k == r.Players-1 {
			what = "last"
		}
		out = append(out, fmt.Sprintf("%s finishes %s most often (%d of its %d games)", r.Bots[m].Bot, what, r.Bots[m].Placements[k], r.Bots[m].Games))
	}
	iv, err := stats.Wilson(r.Stalemates, r.Games, stats.Level)
	if err == nil {
		out = append(out, fmt.Sprintf("%d of the %d games ended at the round limit (%s %%, %g %% Wilson [%s, %s])", r.Stalemates, r.Games,
			textfmt.Fixed(100*float64(r.Stalemates)/float64(r.Games), 1), 100*stats.Level, textfmt.Fixed(100*iv.Lo, 1), textfmt.Fixed(100*iv.Hi, 1)))
	}
	return out
}
