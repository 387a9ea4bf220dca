package strategist

import (
	"os"
	"testing"
)

// BenchmarkCheckpointDQN writes the checkpoint of a DQN of the default
// size (defaultDQNConfig: a replay memory of 100,000 transitions) over the
// default observation: the cost paid once per block of training. MB/op is
// the file's size.
func BenchmarkCheckpointDQN(b *testing.B) {
	d, err := newDQN(defaultDQNConfig(), 11, 3)
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
