package recognition

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/internal/textfmt"
)

// This file holds the sentences that state a result of the tables: each is
// built from the numbers, so it says what they show and nothing else.

// trend is the direction of a change between two tallies, read from their
// 95 % Wilson intervals: a change counts only when the intervals do not
// overlap (a conservative reading of a difference).
type trend int

const (
	// unclear is a change whose intervals overlap.
	unclear trend = iota
	// rises is a later tally whose interval lies above the earlier one's.
	rises
	// falls is a later tally whose interval lies below the earlier one's.
	falls
)

// trendOf returns the trend from tally from to tally to.
func trendOf(from, to Tally) trend {
	switch {
	case to.CI.Lo > from.CI.Hi:
		return rises
	case to.CI.Hi < from.CI.Lo:
		return falls
	}
	return unclear
}

// String returns "rises", "falls" or "changes by less than the intervals
// can tell".
func (t trend) String() string {
	switch t {
	case rises:
		return "rises"
	case falls:
		return "falls"
	}
	return "changes by less than the intervals can tell"
}

// pctCI formats a tally as "accuracy % [lo, hi]".
func pctCI(t Tally) string {
	return textfmt.Fixed(100*t.Acc, 1) + " % [" + textfmt.Fixed(100*t.CI.Lo, 1) + ", " + textfmt.Fixed(100*t.CI.Hi, 1) + "]"
}

// binName names bin b of lengthBins, e.g. "20-29 turns" or "50+ turns".
func binName(b int) string {
	if b+1 < len(lengthBins) {
		return fmt.Sprintf("%d-%d turns", lengthBins[b], lengthBins[b+1]-1)
	}
	return fmt.Sprintf("%d+ turns", lengthBins[b])
}

// MissionSentence says which card recogniser r names best and which worst
// on arm a at the end of the game, with their 95 % Wilson intervals and
// whether the intervals are apart; "" when fewer than two cards were
// scored.
func (sum *Summary) MissionSentence(r, a int) string {
	best, worst := -1, -1
	for c, t := range sum.PerMission[r][a][All] {
		if t.N == 0 {
			continue
		}
		if best < 0 || t.Acc > sum.PerMission[r][a][All][best].Acc {
			best = c
		}
		if worst < 0 || t.Acc < sum.PerMission[r][a][All][worst].Acc {
			worst = c
		}
	}
	if best < 0 || best == worst {
		return ""
	}
	b, w := sum.PerMission[r][a][All][best], sum.PerMission[r][a][All][worst]
	apart := "apart"
	if trendOf(w, b) == unclear {
		apart = "overlapping"
	}
	return fmt.Sprintf("On %s, %s names %q best at the end of the game, %s, and %q worst, %s (intervals %s).",
		sum.Arms[a], sum.Recognisers[r], sum.CardNames[best], pctCI(b), sum.CardNames[worst], pctCI(w), apart)
}

// LengthSentence says whether recogniser r's end-of-game accuracy on arm a
// rises or falls with the game's length: its shortest scored bin of
// lengthBins against its longest; "" when fewer than two bins were scored.
func (sum *Summary) LengthSentence(r, a int) string {
	first, last := -1, -1
	for b, t := range sum.ByLength[r][a] {
		if t.N == 0 {
			continue
		}
		if first < 0 {
			first = b
		}
		last = b
	}
	if first < 0 || first == last {
		return ""
	}
	f, l := sum.ByLength[r][a][first], sum.ByLength[r][a][last]
	return fmt.Sprintf("On %s, %s's accuracy at the end %s from games of %s (%s) to games of %s (%s).",
		sum.Arms[a], sum.Recognisers[r], trendOf(f, l), binName(first), pctCI(f), binName(last), pctCI(l))
}

// CurveSentence says how recogniser r's accuracy curves compare: the arms
// in order of their accuracy at the end of the game, and on which arms it
// rises, falls or changes by less than the intervals can tell from 25 % to
// 100 % of the game. Arms without games are left out; "" when none has.
func (sum *Summary) CurveSentence(r int) string {
	var arms []int
	for a := range sum.Arms {
		if sum.Curve[r][a][All][steps-1].N > 0 {
			arms = append(arms, a)
		}
	}
	if len(arms) == 0 {
		return ""
	}
	end := func(a int) Tally { return sum.Curve[r][a][All][steps-1] }
	slices.SortStableFunc(arms, func(x, y int) int {
		switch ax, ay := end(x).Acc, end(y).Acc; {
		case ax > ay:
			return -1
		case ax < ay:
			return 1
		}
		return 0
	})
	var order []string
	by := map[trend][]string{}
	for _, a := range arms {
		order = append(order, sum.Arms[a]+" "+textfmt.Fixed(100*end(a).Acc, 1)+" %")
	}
	for a := range sum.Arms {
		if end(a).N > 0 {
			tr := trendOf(sum.Curve[r][a][All][Step(25)], end(a))
			by[tr] = append(by[tr], sum.Arms[a])
		}
	}
	var parts []string
	for _, tr := range []trend{rises, falls, unclear} {
		if len(by[tr]) > 0 {
			parts = append(parts, fmt.Sprintf("%s on %s", tr, strings.Join(by[tr], ", ")))
		}
	}
	return fmt.Sprintf("At the end of the game %s ranks the arms %s. From 25 %% to 100 %% of the game its accuracy %s.",
		sum.Recognisers[r], strings.Join(order, ", "), strings.Join(parts, "; "))
}
