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
