package bots_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots"
)

func ExampleParam() {
	goal := bots.Param{
		Name: "goal_value", Default: 0, Min: 0, Max: 1, Integer: true,
		Choices: []string{"sum", "target"},
		Doc:     "how a goal chain is valued",
	}
	if err := goal.Validate(); err != nil {
		panic(err)
	}
	v, err := goal.Parse("target")
	fmt.Println(v, err, goal.Format(v))
	_, err = goal.Parse("best")
	fmt.Println(err)

	bid := bots.Param{Name: "P_ob", Default: 170, Min: 0.01, Max: 10000, Log: true}
	fmt.Println(bid.Validate(), bid.Check(0))
	// Output:
	// 1 <nil> target
	// "best" is not a choice: must be one of sum, target
	// <nil> must be in [0.01, 10000]
}
