package strategist_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/strategist"
	"github.com/marslab-risk/marslab/learn"
)

// A Q-table saved as a policy file and loaded back acts the same.
func ExampleLoadPolicy() {
	q, err := strategist.NewQTable(strategist.QConfig{Features: []int{0}, Bins: 2, Alpha: 0.5, Gamma: 0.9, Epsilon: 0.1}, 2)
	if err != nil {
		panic(err)
	}
	// One episode: in the low bin action 1 (reward 1), then in the high bin action 0 (reward 10).
	q.Learn([]strategist.Episode{{Dim: 1, Obs: []float64{0.2, 0.7}, Actions: []int{1, 0}, Outcome: learn.Outcome{PerTurn: 1, Final: 10}}})
	dir, err := os.MkdirTemp("", "policy")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "policy.json")
	if err := strategist.SavePolicy(path, q, []string{"territories"}, []string{"hold", "attack"}); err != nil {
		panic(err)
	}
	l, f, err := strategist.LoadPolicy(path)
	if err != nil {
		panic(err)
	}
	a := l.NewActor()
	fmt.Println(f.Format, f.Learner, f.Actions)
	fmt.Println(l.(*strategist.QTable).Q)
	fmt.Println(a.Act([]float64{0.7}, nil), a.Act([]float64{0.2}, nil))
	// Output:
	// marslab-policy/2 q [hold attack]
	// [0 0.5 5 0]
	// 0 1
}

// An ablation compares arms, each a greedy policy evaluated on the same
// episodes; its verdicts say "more" only when the Holm-corrected
// difference is significant and its interval excludes 0.
func ExampleCompareArms() {
	eval := func(wins, n int) *strategist.Evaluation {
		ev := &strategist.Evaluation{Name: "learned", Won: make([]bool, n), Return: make([]float64, n)}
		for i := range n {
			ev.Won[i] = i < wins
			ev.Return[i] = float64(i%5) - 2
			if ev.Won[i] {
				ev.Return[i] += 500
			}
		}
		return ev
	}
	a, err := strategist.CompareArms([]strategist.Arm{
		{Name: "thesis observation", Features: []string{"territories"}, Games: 1000, Steps: 130000, Eval: eval(20, 400)},
		{Name: "+threat", Features: []string{"territories", "threat"}, Games: 1000, Steps: 120000, Eval: eval(90, 400)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	t, _, err := a.Tables()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.Markdown())
	for _, v := range a.Verdicts() {
		fmt.Println(v)
	}
	// Output:
	// | arm | Q-table's observation | training games | training steps | wins | win % | 95 % Wilson | mean return | eliminated | stalemates |
	// |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
	// | thesis observation | territories | 1000 | 130000 | 20 | 5.0 | [3.3, 7.6] | 25.0 | 0 | 0 |
	// | +threat | territories, threat | 1000 | 120000 | 90 | 22.5 | [18.7, 26.8] | 112.5 | 0 | 0 |
	// *+threat* minus *thesis observation*: +17.5 points of win rate, 95 % [+13.9, +21.4], Holm p = 3.39e-21: wins more often.
}
