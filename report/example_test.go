package report_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/report"
)

// Example runs the dice notebook at its quick size into a temporary folder
// and prints the MARS paper's Table 4 rows for 3 dice against 2 from its CSV.
func Example() {
	nb, err := report.Load(filepath.Join("..", "notebooks", "dice"))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := os.MkdirTemp("", "report-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	if err := nb.Run(context.Background(), report.Options{Registry: registry.Default(), Out: out, Quick: true}); err != nil {
		fmt.Println(err)
		return
	}
	csv, err := os.ReadFile(filepath.Join(out, "table4.csv"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(nb.Kind, nb.Name)
	for _, line := range strings.Split(string(csv), "\n") {
		if strings.HasPrefix(line, "3,2,") {
			fmt.Println(line)
		}
	}
	// Output:
	// dice dice
	// 3,2,attacker wins,2890,7776,0.37165637860082307,37
	// 3,2,one each,2611,7776,0.3357767489711934,34
	// 3,2,defender wins,2275,7776,0.2925668724279835,29
}

// ExampleParse shows the error of a config value out of range.
func ExampleParse() {
	_, err := report.Parse("notebooks/x/config.toml", []byte(`kind = "dice"
title = "t"
summary = "s"
question = "q"
thumbnail = "pwin-heatmap.png"
[dice]
alpha = 0.01
table_n = 40
`))
	fmt.Println(err)
	// Output:
	// notebooks/x/config.toml: key dice.table_n: 40 outside [1, 30]
}
