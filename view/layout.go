package view

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/layout"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/marslab-risk/marslab/sim"
)

// Width and Height are the size of the drawing of the board: Layout fits
// the territories' positions into [Margin, Width-Margin] by
// [Margin, Height-Margin].
const (
	Width  = 1000
	Height = 600
	Margin = 40
)

// layoutUpdates is the number of steps of the force-directed layout.
const layoutUpdates = 400

// Layout returns the position of every territory of m on the drawing of
// the board: the map's own positions (Map.Layout) when it gives them,
// otherwise a force-directed layout of its borders (the spring embedder of
// Eades (1984), gonum's layout.EadesR2, from starting positions drawn with
// a fixed seed, so that a map is always drawn the same way). The map's own
// positions are scaled into the drawing (see Width, Height and Margin)
// keeping their aspect ratio; a force-directed layout, whose axes mean
// nothing, is stretched to fill it.
func Layout(m *sim.Map) []sim.Point {
	if m.Layout != nil {
		return fit(m.Layout, true)
	}
	return fit(forceLayout(m), false)
}

// forceLayout lays out the border graph of m with EadesR2.
func forceLayout(m *sim.Map) []sim.Point {
	g := mapGraph{m}
	eades := layout.EadesR2{Repulsion: 1, Rate: 0.05, Updates: layoutUpdates, Theta: 0.2,
		Src: rand.NewPCG(1, 2)}
	o := layout.NewOptimizerR2(g, eades.Update)
	for o.Update() {
	}
	pts := make([]sim.Point, len(m.Territories))
	for t := range pts {
		v := o.Coord2(int64(t))
		pts[t] = sim.Point{X: v.X, Y: v.Y}
	}
	return pts
}

// fit scales pts into the drawing, centred, keeping their aspect ratio if
// keep is set.
func fit(pts []sim.Point, keep bool) []sim.Point {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	w, h := maxX-minX, maxY-minY
	const iw, ih = Width - 2*Margin, Height - 2*Margin
	sx, sy := 1.0, 1.0
	if w > 0 {
		sx = iw / w
	}
	if h > 0 {
		sy = ih / h
	}
	if keep {
		s := math.Min(sx, sy)
		switch {
		case w > 0 && h > 0:
			sx, sy = s, s
		case w > 0:
			sy = sx
		default:
			sx = sy
		}
	}
	ox := Margin + (iw-w*sx)/2
	oy := Margin + (ih-h*sy)/2
	out := make([]sim.Point, len(pts))
	for i, p := range pts {
		out[i] = sim.Point{X: round1(ox + (p.X-minX)*sx), Y: round1(oy + (p.Y-minY)*sy)}
	}
	return out
}

// round1 rounds to one decimal, enough for a drawing and short to write.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// mapGraph is the border graph of a map as a gonum graph.Graph whose
// iterators go in id order, so that the layout is deterministic (gonum's
// simple graphs iterate over maps).
type mapGraph struct{ m *sim.Map }

func (g mapGraph) Node(id int64) graph.Node {
	if id < 0 || id >= int64(len(g.m.Territories)) {
		return nil
	}
	return simple.Node(id)
}

func (g mapGraph) Nodes() graph.Nodes {
	ns := make([]graph.Node, len(g.m.Territories))
	for i := range ns {
		ns[i] = simple.Node(i)
	}
	return iterator.NewOrderedNodes(ns)
}

func (g mapGraph) From(id int64) graph.Nodes {
	if g.Node(id) == nil {
		return graph.Empty
	}
	nb := g.m.Neighbors(int(id))
	ns := make([]graph.Node, len(nb))
	for i, t := range nb {
		ns[i] = simple.Node(t)
	}
	return iterator.NewOrderedNodes(ns)
}

func (g mapGraph) HasEdgeBetween(x, y int64) bool {
	return g.Node(x) != nil && g.Node(y) != nil && g.m.Adjacent(int(x), int(y))
}

func (g mapGraph) Edge(u, v int64) graph.Edge {
	if !g.HasEdgeBetween(u, v) {
		return nil
	}
	return simple.Edge{F: simple.Node(u), T: simple.Node(v)}
}
