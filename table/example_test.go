package table_test

import (
	"fmt"
	"os"

	"github.com/marslab-risk/marslab/table"
)

// A table built row by row and written in the three formats.
func Example() {
	t := table.Table{Name: "winrate", Title: "Win % per bot", Header: []string{"bot", "games", "win %"}}
	t.Add("mars", "200", "58.5")
	t.Add("angry, v2", "200", "7.0")

	if err := t.WriteMarkdown(os.Stdout); err != nil {
		panic(err)
	}
	fmt.Println()
	if err := t.WriteCSV(os.Stdout); err != nil {
		panic(err)
	}
	fmt.Println()
	if err := t.WriteText(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// ## Win % per bot
	//
	// | bot | games | win % |
	// |---|---:|---:|
	// | mars | 200 | 58.5 |
	// | angry, v2 | 200 | 7.0 |
	//
	// bot,games,win %
	// mars,200,58.5
	// "angry, v2",200,7.0
	//
	// bot        games  win %
	// mars       200    58.5
	// angry, v2  200    7.0
}
