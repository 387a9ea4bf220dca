package arena

import (
	"context"
	"runtime"
	"testing"

	"github.com/marslab-risk/marslab/internal/cputime"
)

// BenchmarkBatch plays b.N games of four baseline bots on GOMAXPROCS
// workers (run with -cpu 1,2 to see the scaling) and reports games/s and
// player-turns/s. It
// also reports games per CPU-second and the mean number of busy cores: on a
// machine shared with other work games/s cannot double, but games/cpu-s
// staying flat from -cpu 1 to -cpu 2 shows that the workers add no overhead.
func BenchmarkBatch(b *testing.B) { benchBatch(b, false) }

// BenchmarkBatchTimed is BenchmarkBatch with the decision-timing decorator,
// as the batch command runs.
func BenchmarkBatchTimed(b *testing.B) { benchBatch(b, true) }

func benchBatch(b *testing.B, timing bool) {
	cfg := testConfig(b, testPlayers, 1)
	cfg.Timing = timing
	cfg.Workers = runtime.GOMAXPROCS(0)
	b.ReportAllocs()
	cpu0, cpuOK := cputime.Process()
	b.ResetTimer()
	cfg.Games = b.N
	turns := 0
	cfg.OnRecord = func(r Record) { turns += r.Turns } // called in index order, one goroutine at a time
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(rep.Done)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "player-turns/s")
	if cpu1, ok := cputime.Process(); ok && cpuOK && cpu1 > cpu0 {
		b.ReportMetric(float64(rep.Done)/(cpu1-cpu0).Seconds(), "games/cpu-s")
		b.ReportMetric((cpu1-cpu0).Seconds()/b.Elapsed().Seconds(), "cores")
	}
}

// BenchmarkRecordAppendJSON measures writing one games.jsonl line; it must
// not allocate.
func BenchmarkRecordAppendJSON(b *testing.B) {
	r := Record{Game: 123456, Seed: 0xdeadbeefcafe, Seating: []string{"mars", "aggressive", "random", "passive", "pacifist", "angry"},
		Winner: 2, Placements: []int{2, 3, 1, 6, 5, 4}, Rounds: 47, Turns: 250, Faults: make([]int, 6)}
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = r.AppendJSON(buf[:0])
	}
	b.SetBytes(int64(len(buf)))
}
