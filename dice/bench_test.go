package dice

import (
	"context"
	"testing"
)

func BenchmarkNewTable1000(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewTable(Classic, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(1001*1001), "ns/cell")
}

func BenchmarkTableWin(b *testing.B) {
	t, err := NewTable(Classic, 100)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	s := 0.0
	i := 0
	for b.Loop() {
		s += t.Win(i%101, (i*7)%101)
		i++
	}
	if s < 0 {
		b.Fatal(s)
	}
}

// BenchmarkChainer5 is a MARS-sized query: 60 armies along a path of five
// territories.
func BenchmarkChainer5(b *testing.B) {
	for _, bc := range []struct {
		name string
		a    int
		defs []int
	}{
		{"a=20/small", 20, []int{3, 2, 1, 4, 2}},
		{"a=60/d<=20", 60, []int{20, 5, 12, 3, 8}},
		{"a=60/d=20x5", 60, []int{20, 20, 20, 20, 20}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := NewChainer(Classic, bc.a)
			dst := make([]float64, 0, len(bc.defs))
			b.ReportAllocs()
			for b.Loop() {
				dst = c.WinFirst(dst[:0], bc.a, bc.defs)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/query")
		})
	}
}

func BenchmarkBattle(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Battle(Classic, 30, 30); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChainerWinAll answers the chain for every a = 0..60 at once.
func BenchmarkChainerWinAll(b *testing.B) {
	c := NewChainer(Classic, 60)
	defs := []int{20, 5, 12, 3, 8}
	dst := make([]float64, 0, 61)
	b.ReportAllocs()
	for b.Loop() {
		dst = c.WinAll(dst[:0], 60, defs)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/query")
}

// BenchmarkStop solves a MARS-sized optimal stopping problem: 30 armies
// along a path of four territories (about 2 600 states).
func BenchmarkStop(b *testing.B) {
	u := Utility{Territory: 1, Army: 0.3, Kill: 0.05}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Stop(Classic, 30, []int{5, 3, 8, 4}, u); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStopThresholds evaluates every threshold rule of that problem.
func BenchmarkStopThresholds(b *testing.B) {
	st, err := Stop(Classic, 30, []int{5, 3, 8, 4}, Utility{Territory: 1, Army: 0.3, Kill: 0.05})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(st.Thresholds())
	}
	b.ReportMetric(float64(n), "rules")
}

// BenchmarkDefend finds the best defence of 40 armies over 8 territories
// against 40 attackers (1.5e7 allocations) by branch and bound.
func BenchmarkDefend(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Defend(context.Background(), Classic, 40, 40, 8, false); err != nil {
			b.Fatal(err)
		}
	}
}
