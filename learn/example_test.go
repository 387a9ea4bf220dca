package learn_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/learn"
)

// An episode through the Gym-style interface: always aggressive.
func ExampleEnv() {
	env, err := learn.NewEnv(learn.DefaultConfig(), registry.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer env.Close()
	obs, info, _ := env.Reset(7)
	fmt.Printf("seat %d, %d actions %v, territories %.3f\n", info.Seat, env.NumActions(), env.ActionNames(), obs[0])
	total := 0.0
	for done := false; !done; {
		var reward float64
		_, reward, done, info, _ = env.Step(2)
		total += reward
	}
	fmt.Printf("%d steps, won %v, eliminated %v, stalemate %v, rank %d, return %.0f\n", info.Step, info.Won, info.Eliminated, info.Stalemate, info.Rank, total)
	// Output:
	// seat 0, 3 actions [passive pacifist aggressive], territories 0.262
	// 200 steps, won false, eliminated false, stalemate true, rank 1, return -100
}

// The same episode through the callback runner, which learners in Go use.
func ExampleRunner_Run() {
	r, err := learn.NewRunner(learn.DefaultConfig(), registry.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := r.Run(context.Background(), 7, 0, func(obs []float64) int { return 2 })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d steps, won %v, eliminated %v, return %.0f\n", out.Steps, out.Won, out.Eliminated, out.Return)
	// Output:
	// 200 steps, won false, eliminated false, return -100
}

// A Q-table saved as a policy file and loaded back acts the same.
func ExampleLoadPolicy() {
	q, err := learn.NewQTable(learn.QConfig{Features: []int{0}, Bins: 2, Alpha: 0.5, Gamma: 0.9, Epsilon: 0.1}, 2)
	if err != nil {
		panic(err)
	}
	// One episode: in the low bin action 1 (reward 1), then in the high bin action 0 (reward 10).
	q.Learn([]learn.Episode{{Dim: 1, Obs: []float64{0.2, 0.7}, Actions: []int{1, 0}, Outcome: learn.Outcome{PerTurn: 1, Final: 10}}})
	dir, err := os.MkdirTemp("", "policy")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "policy.json")
	if err := learn.SavePolicy(path, q, []string{"territories"}, []string{"hold", "attack"}); err != nil {
		panic(err)
	}
	l, f, err := learn.LoadPolicy(path)
	if err != nil {
		panic(err)
	}
	a := l.NewActor()
	fmt.Println(f.Format, f.Learner, f.Actions)
	fmt.Println(l.(*learn.QTable).Q)
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
	eval := func(wins, n int) *learn.Evaluation {
		ev := &learn.Evaluation{Name: "learned", Won: make([]bool, n), Return: make([]float64, n)}
		for i := range n {
			ev.Won[i] = i < wins
			ev.Return[i] = float64(i%5) - 2
			if ev.Won[i] {
				ev.Return[i] += 500
			}
		}
		return ev
	}
	a, err := learn.CompareArms([]learn.Arm{
		{Name: "thesis observation", Features: []string{"territories"}, Games: 1000, Steps: 130000, Eval: eval(20, 400)},
		{Name: "+threat", Features: []string{"territories", "threat"}, Games: 1000, Steps: 120000, Eval: eval(90, 400)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(a.Table().Markdown())
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
