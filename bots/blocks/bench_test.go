package blocks

import (
	"testing"

	"github.com/marslab-risk/marslab/sim"
)

func classicBoard(b *testing.B) *Board {
	m, err := sim.LoadMap("classic")
	if err != nil {
		b.Fatal(err)
	}
	bd := NewBoard(m)
	for i := range bd.Owner {
		bd.Owner[i], bd.Armies[i] = i%3, 1+i%5
	}
	return bd
}

func BenchmarkRouteToContinent(b *testing.B) {
	bd := classicBoard(b)
	var r Search
	buf := make([]int, 0, bd.NumTerritories())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf, _, _ = r.RouteToContinent(buf[:0], bd, i%3, i%len(bd.Map.Continents))
	}
}

func BenchmarkFortifyTowardFront(b *testing.B) {
	bd := classicBoard(b)
	var r Search
	buf := make([]sim.Move, 0, bd.NumTerritories())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = r.FortifyTowardFront(buf[:0], bd, i%3)
	}
}

func BenchmarkAppendBorder(b *testing.B) {
	bd := classicBoard(b)
	buf := make([]int, 0, bd.NumTerritories())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = bd.AppendBorder(buf[:0], i%3)
	}
}
