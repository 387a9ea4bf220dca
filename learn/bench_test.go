package learn

import (
	"context"
	"os"
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

// BenchmarkCheckpointDQN writes the checkpoint of a DQN of the default
// size (DefaultDQNConfig: a replay memory of 100,000 transitions) over the
// default observation: the cost paid once per block of training. MB/op is
// the file's size.
func BenchmarkCheckpointDQN(b *testing.B) {
	d, err := NewDQN(DefaultDQNConfig(), 11, 3)
	if err != nil {
		b.Fatal(err)
	}
	d.allocReplay()
	for i := range d.rs { // a full memory, as after the first 100,000 steps
		d.rs[i], d.rs2[i] = float64(i%977)/977, float64(i%983)/983
	}
	for i := range d.rr {
		d.rr[i], d.ra[i] = -0.01*float64(i%7), i%3
	}
	d.rn = len(d.rr)
	path := b.TempDir() + "/" + CheckpointName
	st := &TrainState{Next: 10000, Partial: PartialBlock{Acts: make([]int, 3)}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := saveCheckpoint(path, "fingerprint", st, d); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/1e6, "MB/op")
}
