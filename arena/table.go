package arena

import (
	"fmt"
	"io"
	"slices"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/table"
)

// WriteTable prints the summary as an aligned text table, one row per bot:
// games, wins, win rate with its 95 % Wilson interval, the placement counts
// (1st..nth), stalemates, faults, mean rounds and, when t holds bot
// timings, the mean decision time per turn and per game in milliseconds.
// A last line gives the number of games, the throughput and, when timed,
// the clock of the decision times ([Timing.Clock]).
func WriteTable(w io.Writer, summary []BotSummary, t *Timing) error {
	timed := t != nil && len(t.Bots) > 0
	np := 0
	if len(summary) > 0 {
		np = len(summary[0].Placements)
	}
	head := []string{"bot", "games", "wins", "win rate", "95% CI"}
	for k := 1; k <= np; k++ {
		head = append(head, textfmt.Ordinal(k))
	}
	head = append(head, "stalemates", "faults", "rounds")
	if timed {
		head = append(head, "ms/turn", "ms/game")
	}
	tab := table.Table{Header: head}
	for _, s := range summary {
		row := []string{s.Bot, fmt.Sprint(s.Games), fmt.Sprint(s.Wins), fmt.Sprintf("%.4f", s.WinRate),
			fmt.Sprintf("[%.4f, %.4f]", s.WilsonLo, s.WilsonHi)}
		for _, c := range s.Placements {
			row = append(row, fmt.Sprint(c))
		}
		row = append(row, fmt.Sprint(s.Stalemates), fmt.Sprint(s.Faults), fmt.Sprintf("%.1f", s.MeanRounds))
		if timed {
			turn, game := "-", "-"
			for _, b := range t.Bots {
				if b.Bot == s.Bot {
					turn, game = fmt.Sprintf("%.4g", 1e3*b.SecondsPerTurn), fmt.Sprintf("%.4g", 1e3*b.SecondsPerGame)
				}
			}
			row = append(row, turn, game)
		}
		tab.Add(row...)
	}
	if err := tab.WriteText(w); err != nil {
		return err
	}
	if err := WriteStats(w, summary); err != nil {
		return err
	}
	if t != nil && t.Games > 0 {
		clock := ""
		if timed {
			clock = "; ms/turn and ms/game on the " + ClockName(t.Clock) + " clock"
		}
		_, err := fmt.Fprintf(w, "%d games played in %.1f s: %.1f games/s%s\n", t.Games, t.WallSeconds, t.GamesPerSecond, clock)
		return err
	}
	return nil
}

// WriteStats prints the counts the bots reported about their own play
// ([BotSummary.Stats]) as an aligned table, one row per bot that reported
// any and one column per count name (ascending), each cell the sum over
// the bot's seat-games and, in parentheses, the mean per seat-game. It
// prints nothing when no bot reported counts.
func WriteStats(w io.Writer, summary []BotSummary) error {
	var names []string
	for _, s := range summary {
		for k := range s.Stats {
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	fmt.Fprintln(w, "\nbots' own counts: sum over their seat-games (mean per seat-game)")
	tab := table.Table{Header: append([]string{"bot"}, names...)}
	for _, s := range summary {
		if len(s.Stats) == 0 {
			continue
		}
		row := []string{s.Bot}
		for _, k := range names {
			v, ok := s.Stats[k]
			switch {
			case !ok:
				row = append(row, "-")
			case s.Games > 0:
				row = append(row, fmt.Sprintf("%d (%.4g)", v, float64(v)/float64(s.Games)))
			default:
				row = append(row, fmt.Sprint(v))
			}
		}
		tab.Add(row...)
	}
	return tab.WriteText(w)
}
