package learn_test

import (
	"context"
	"fmt"

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
