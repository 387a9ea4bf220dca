package learn

import (
	"context"
	"testing"

	"github.com/marslab-risk/marslab/bots/registry"
)

// BenchmarkRunnerEpisode plays whole episodes of the default set-up with a
// fixed action (the learner always aggressive) through Runner.Run: the cost
// of a game played with the learner's seat in the loop. steps/op is the
// learner's turns per episode; ns/step the time per step.
func BenchmarkRunnerEpisode(b *testing.B) {
	r, err := NewRunner(DefaultConfig(), registry.Default())
	if err != nil {
		b.Fatal(err)
	}
	decide := func([]float64) int { return 2 }
	steps := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := r.Run(context.Background(), 1, uint64(i), decide)
		if err != nil {
			b.Fatal(err)
		}
		steps += out.Steps
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}

// BenchmarkEnvEpisode plays the same episodes through Env.Reset and
// Env.Step: the difference in ns/step from BenchmarkRunnerEpisode is the
// cost of the goroutine bridge.
func BenchmarkEnvEpisode(b *testing.B) {
	e, err := NewEnv(DefaultConfig(), registry.Default())
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	steps := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := e.Reset(uint64(i)); err != nil {
			b.Fatal(err)
		}
		for done := e.Done(); !done; {
			_, _, done, _, err = e.Step(2)
			if err != nil {
				b.Fatal(err)
			}
			steps++
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}
