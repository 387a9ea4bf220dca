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
// the territories' positions into [margin, Width-margin] by
// [margin, Height-margin], margin = 40.
const (
	Width  = 1000
	Height = 600
	margin = 40
)

// disc is the radius of a territory's disc on the drawing (page.js draws
// it); a force-directed layout keeps the centres of up to spreadMax
// territories at least 2*disc apart.
const disc = 14

// layoutUpdates is the number of steps of the force-directed layout.
const layoutUpdates = 400

// isomapMax is the largest map laid out from its graph distances
// (IsomapR2, whose all-pairs shortest paths cost n^3); a larger one is
// laid out by EadesR2 alone.
const isomapMax = 400

// spreadMax is the largest map whose overlapping discs are pushed apart
// (spread costs n^2 a pass).
const spreadMax = 1000

// Layout returns the position of every territory of m on the drawing of
// the board: the map's own positions (Map.Layout) when it gives them,
// otherwise a layout of its borders. The map's own positions are scaled
// into the drawing (see Width and Height; 40 from each edge) keeping their aspect
// ratio; any finite positions are drawn, however close together (5e-324
// apart) or far apart (±1.7e308). A map without positions of up to
// isomapMax territories is laid out by IsomapR2 (Torgerson scaling of the
// graph distances between territories, so that a grid map is drawn as a
// grid), a larger one, or one IsomapR2 cannot lay out, by the spring
// embedder of Eades (1984), gonum's [layout.EadesR2], from starting
// positions drawn with a fixed seed; either is stretched to fill the
// drawing, whose axes mean nothing, and discs (radius 14) that overlap are then
// pushed apart (up to spreadMax territories). A map is always drawn the
// same way.
func Layout(m *sim.Map) []sim.Point {
	if m.Layout != nil {
		return fit(m.Layout, true)
	}
	var pts []sim.Point
	if len(m.Territories) <= isomapMax {
		pts = isomapLayout(m)
	}
	if pts == nil {
		pts = forceLayout(m)
	}
	pts = fit(pts, false)
	if len(pts) <= spreadMax {
		// Spreading the discs apart may push some past the margins:
		// fitted again, all are drawn a little closer, and spread again.
		for range spreadRounds {
			if spread(pts) {
				break
			}
			pts = fit(pts, false)
		}
	}
	return pts
}

// isomapLayout lays out the border graph of m with IsomapR2, or returns
// nil if it cannot (a map in pieces) or gives positions that are not
// finite.
func isomapLayout(m *sim.Map) []sim.Point {
	if len(m.Territories) < 3 {
		return nil
	}
	g := mapGraph{m}
	o := layout.NewOptimizerR2(g, layout.IsomapR2{}.Update)
	for o.Update() {
	}
	pts := make([]sim.Point, len(m.Territories))
	for t := range pts {
		v := o.Coord2(int64(t))
		if math.IsNaN(v.X) || math.IsInf(v.X, 0) || math.IsNaN(v.Y) || math.IsInf(v.Y, 0) {
			return nil
		}
		pts[t] = sim.Point{X: v.X, Y: v.Y}
	}
	return pts
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

// spreadPasses bounds the passes of one spread; spreadRounds the rounds
// of spread and fit.
const (
	spreadPasses = 100
	spreadRounds = 20
)

// spread pushes apart, in place, the pairs of points closer than 2*disc
// (plus a pixel), half the shortfall each, for at most spreadPasses
// passes or until no pair is too close, and reports whether it got there
// with every point within the drawing's margins. Two points at the same
// place part along a direction set by their indices. Positions are
// rounded to one decimal after each pass, as fit writes them, so that the
// result is the same on every platform.
func spread(pts []sim.Point) bool {
	const want = 2*disc + 1
	for range spreadPasses {
		moved := false
		for i := range pts {
			for j := i + 1; j < len(pts); j++ {
				dx, dy := pts[j].X-pts[i].X, pts[j].Y-pts[i].Y
				d := math.Hypot(dx, dy)
				if d >= want {
					continue
				}
				if d < 1e-9 {
					a := float64(i*7919+j) * 2.399963229728653 // the golden angle
					dx, dy, d = math.Cos(a), math.Sin(a), 1
				}
				push := (want - d) / 2 / d
				pts[i].X, pts[i].Y = pts[i].X-dx*push, pts[i].Y-dy*push
				pts[j].X, pts[j].Y = pts[j].X+dx*push, pts[j].Y+dy*push
				moved = true
			}
		}
		for i := range pts {
			pts[i] = sim.Point{X: round1(pts[i].X), Y: round1(pts[i].Y)}
		}
		if !moved {
			break
		}
	}
	for _, p := range pts {
		if p.X < margin || p.X > Width-margin || p.Y < margin || p.Y > Height-margin {
			return false
		}
	}
	return overlapping(pts) == 0
}

// overlapping counts the pairs of points closer than 2*disc.
func overlapping(pts []sim.Point) int {
	n := 0
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			if math.Hypot(pts[j].X-pts[i].X, pts[j].Y-pts[i].Y) < 2*disc {
				n++
			}
		}
	}
	return n
}

// fit scales pts into the drawing, centred, keeping their aspect ratio if
// keep is set. Any finite positions fit: the spans are computed so that
// neither a width of 3.4e308 overflows nor one of 5e-324 divides to
// infinity; a position that is not finite is drawn at the centre.
func fit(pts []sim.Point, keep bool) []sim.Point {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		if !finite(p.X) || !finite(p.Y) {
			continue
		}
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	const iw, ih = Width - 2*margin, Height - 2*margin
	dw, dh := float64(iw), float64(ih) // the size drawn
	wZero, hZero := !(maxX > minX), !(maxY > minY)
	if wZero {
		dw = 0
	}
	if hZero {
		dh = 0
	}
	if keep && !wZero && !hZero {
		// r is the width over the height, as the ratio of the spans,
		// halved when a span overflows.
		w, h := maxX-minX, maxY-minY
		if math.IsInf(w, 0) || math.IsInf(h, 0) {
			w, h = maxX/2-minX/2, maxY/2-minY/2
		}
		if r := w / h; ih*r < iw {
			dw = ih * r
		} else {
			dh = iw / r
		}
	}
	ox := margin + (iw-dw)/2
	oy := margin + (ih-dh)/2
	out := make([]sim.Point, len(pts))
	for i, p := range pts {
		out[i] = sim.Point{X: round1(ox + unit(p.X, minX, maxX)*dw), Y: round1(oy + unit(p.Y, minY, maxY)*dh)}
	}
	return out
}

// unit returns where v lies in [lo, hi], from 0 to 1 (0.5 for a value that
// is not finite, 0 when lo = hi), without overflow or a division by zero.
func unit(v, lo, hi float64) float64 {
	if !finite(v) {
		return 0.5
	}
	if !(hi > lo) {
		return 0
	}
	var u float64
	if w := hi - lo; !math.IsInf(w, 0) {
		u = (v - lo) / w
	} else {
		u = (v/2 - lo/2) / (hi/2 - lo/2)
	}
	return min(max(u, 0), 1)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// round1 rounds to one decimal, enough for a drawing and short to write.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// mapGraph is the border graph of a map as a gonum [graph.Graph] whose
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
