package tourney_test

import (
	"fmt"
	"os"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/tourney"
)

// Analyze turns the records of a tournament into its tables.
func ExampleAnalyze() {
	records := []arena.Record{
		{Game: 0, Seating: []string{"mars", "angry", "shaft"}, Winner: 0, Placements: []int{1, 3, 2}, Rounds: 20, Turns: 55, Faults: []int{0, 0, 0}},
		{Game: 1, Seating: []string{"shaft", "mars", "angry"}, Winner: 1, Placements: []int{2, 1, 3}, Rounds: 25, Turns: 70, Faults: []int{0, 0, 0}},
	}
	res, err := tourney.Analyze([]string{"mars", "shaft", "angry"}, 3, records, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t5 := res.Table5()
	if err := t5.WriteMarkdown(os.Stdout); err != nil {
		fmt.Println(err)
	}
	p := res.Pairs[0] // mars and shaft
	fmt.Printf("mars v shaft: met %d, mars ahead %d, last two %d, mars won %d\n", p.Met, p.AheadA, p.LastTwo, p.WonA)
	// Output:
	// ## Table 5: placements per bot (2 games, 0 stalemates; Sm = stalemates)
	//
	// | bot | 1st | 2nd | 3rd | Sm | games |
	// |---|---:|---:|---:|---:|---:|
	// | mars | 2 | 0 | 0 | 0 | 2 |
	// | shaft | 0 | 2 | 0 | 0 | 2 |
	// | angry | 0 | 0 | 2 | 0 | 2 |
	// mars v shaft: met 2, mars ahead 2, last two 2, mars won 2
}

// Parse reads a tournament config; its errors name the file and the key.
func ExampleParse() {
	_, err := tourney.Parse("t.toml", []byte(`bots = ["mars", "angry", "shaft"]
players = 7
replications = 1
rules = "mars2006"
seed = 1
`))
	fmt.Println(err)
	// Output:
	// t.toml: key players: 7: want 2..6
}

// Findings states the tournament's result in sentences computed from its
// numbers: who leads and whether its interval separates it from the rest
// (here, after 30 games, it does not).
func ExampleResults_Findings() {
	var records []arena.Record
	for g := range 30 {
		seating := []string{"mars", "shaft", "angry"}
		winner, placements := 0, []int{1, 2, 3}
		if g%3 == 2 {
			winner, placements = 1, []int{2, 1, 3}
		}
		records = append(records, arena.Record{Game: g, Seating: seating, Winner: winner, Placements: placements, Rounds: 20, Turns: 55, Faults: []int{0, 0, 0}})
	}
	res, err := tourney.Analyze([]string{"mars", "shaft", "angry"}, 3, records, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Findings() {
		fmt.Println(s + ".")
	}
	// Output:
	// mars wins most often, 66.7 % of its games (95 % Wilson [48.8, 80.8]), its interval overlapping shaft's (33.3 %, [19.2, 51.2]): the order of the two is not settled.
	// angry wins least: 0.0 % (95 % Wilson [0.0, 11.4]).
	// mars has the best mean placement, 1.33 (95 % interval [1.16, 1.50]).
	// shaft finishes 2nd most often (20 of its 30 games).
	// angry finishes last most often (30 of its 30 games).
	// 0 of the 30 games ended at the round limit (0.0 %, 95 % Wilson [0.0, 11.4]).
}

// ComparePaired sets two runs of the same games side by side, bot by bot:
// here b wins the first game in the second run where a won it in the
// first.
func ExampleComparePaired() {
	header := arena.Header{Format: arena.HeaderFormat, Seed: 1, Games: 2,
		Seats:    []arena.SeatInfo{{Label: "a", Bot: "mars"}, {Label: "b", Bot: "angry"}},
		Schedule: arena.ScheduleSpec{Kind: arena.KindSubsets, Players: 2, Pool: 2, Replications: 2, Seed: 1},
		Rules:    "mars2006", Map: "classic", Shard: arena.Shard{Count: 1}}
	run := func(dir string, firstWinner int) *tourney.Output {
		o := &tourney.Output{Dir: dir, Header: header}
		for g, w := range []int{firstWinner, 0} {
			pl := []int{1, 2}
			if w == 1 {
				pl = []int{2, 1}
			}
			o.Records = append(o.Records, arena.Record{Game: g, Seed: uint64(g), Seating: []string{"a", "b"},
				Winner: w, Placements: pl, Faults: []int{0, 0}})
		}
		return o
	}
	c, err := tourney.ComparePaired(run("before", 0), run("after", 1), tourney.PairOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range c.Bots {
		fmt.Printf("%s: %d -> %d wins, difference %+.2f\n", b.Bot, b.WinsBefore, b.WinsAfter, b.Diff.Mean)
	}
	// Output:
	// a: 2 -> 1 wins, difference -0.50
	// b: 0 -> 1 wins, difference +0.50
}
