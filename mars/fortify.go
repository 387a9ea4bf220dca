package mars

import (
	"fmt"
	"math"

	"marslab/sim"
)

// transportCost is the share of a buyer's bid lost per step an army
// travels in the fortification (MARS's choice; the paper names a
// transportation cost without a value). Every sale of the intra-cluster
// auction is between neighbours, so one step, a flat 10 %: a front
// territory sells an army to another front territory only if the buyer's
// bid, less 10 %, beats its own bid for keeping it (interior sellers bid
// nothing for their armies and sell to the best buyer). Armies farther
// from the front travel by relay demand (see fortify), not by sale, so no
// sale spans more steps. Under the `connected` rule the one move may cover
// several steps, and there the bid of a front territory d owned steps
// from the moving stack counts 0.9^d.
const transportCost = 0.1

// valueFloor is the least territory value a fortification bid is based on
// (see buyBid).
const valueFloor = 1.0

// fortifier holds the fortification phase's buffers.
type fortifier struct {
	comp    []int // cluster id of own territories, -1 otherwise
	dist    []int // steps to the nearest front territory of the cluster, -1 if none
	threat  []int // largest enemy stack next to each territory
	spare   []int // armies each territory can sell
	sold    []int // armies sold in the auction
	got     []int // armies bought in the auction
	demand  []int // armies each territory asked for
	queue   []int
	steps   []int // owned steps from the moving stack (connected rule), -1 unreached
	net     flowNet
	edges   []flowEdge
	nclust  int
	nseller int
}

// flowEdge remembers which network edge moves armies from one territory
// to another.
type flowEdge struct{ e, from, to int }

func (f *fortifier) init(n int) {
	f.comp = make([]int, n)
	f.dist = make([]int, n)
	f.threat = make([]int, n)
	f.spare = make([]int, n)
	f.sold = make([]int, n)
	f.got = make([]int, n)
	f.demand = make([]int, n)
	f.steps = make([]int, n)
}

// analyse finds the owned clusters, every own territory's distance (in
// owned steps) to the front (own territories with an enemy neighbour),
// the threat each faces and the armies it can spare: an interior
// territory can spare all but one army; a front territory keeps as many
// armies as its strongest enemy neighbour (at least one) and can spare
// the rest.
func (m *mediator) analyse() {
	b, f := m.b, &m.fl
	f.nclust, f.nseller = 0, 0
	for t := range b.owner {
		f.comp[t], f.dist[t], f.sold[t], f.got[t], f.demand[t], f.spare[t] = -1, -1, 0, 0, 0, 0
		f.threat[t] = 0
	}
	for t := range b.owner {
		if b.owner[t] != b.me || f.comp[t] >= 0 {
			continue
		}
		f.queue = append(f.queue[:0], t)
		f.comp[t] = f.nclust
		for q := 0; q < len(f.queue); q++ {
			for _, u := range b.nbr[f.queue[q]] {
				if b.owner[u] == b.me && f.comp[u] < 0 {
					f.comp[u] = f.nclust
					f.queue = append(f.queue, u)
				}
			}
		}
		f.nclust++
	}
	f.queue = f.queue[:0]
	for t := range b.owner {
		if b.owner[t] != b.me {
			continue
		}
		f.threat[t] = b.maxEnemy(t, nil)
		for _, u := range b.nbr[t] {
			if b.owner[u] != b.me {
				f.dist[t] = 0
				f.queue = append(f.queue, t)
				break
			}
		}
	}
	f.spread(b, f.dist)
	for t := range b.owner {
		switch {
		case b.owner[t] != b.me || f.dist[t] < 0:
		case f.dist[t] > 0:
			f.spare[t] = b.armies[t] - 1
		default:
			f.spare[t] = max(0, b.armies[t]-max(1, f.threat[t]))
		}
		if f.spare[t] > 0 {
			f.nseller++
		}
	}
}

// buyBid is front territory u's bid for one more army in the intra-cluster
// auction: max(V_c(u), valueFloor)·(threat+1)/(armies+bought+1), which
// prefers valuable, threatened and weak territories and falls with every
// army bought. The bid is MARS's design, not the paper's; the floor keeps
// it positive: V_c falls with every enemy army next to the territory
// (C_enu < 0), so a front facing a huge enemy stack can have V_c <= 0, and
// a bid on V_c alone would then starve exactly the most threatened fronts
// (a MARS with huge interior stacks stalemated on a big map). With the
// floor such a front bids on its threat, (threat+1)/(armies+bought+1).
func (m *mediator) buyBid(u int) float64 {
	f := &m.fl
	return max(m.vals[u], valueFloor) * float64(f.threat[u]+1) / float64(m.b.armies[u]+f.got[u]-f.sold[u]+1)
}

// auction sells, army by army, the spare armies of the sellers next to
// the front (interior territories one step from it, and front territories
// with spare armies) to the front territories that bid most for them. A
// front seller sells only if the buyer's bid less the transport cost beats
// its own bid for the army; a front territory with spare armies buys only
// from interior sellers. Each sale adds one to the buyer's demand.
func (m *mediator) auction() {
	b, f := m.b, &m.fl
	for {
		bestS, bestU, best := -1, -1, 0.0
		for s := range b.owner {
			if f.spare[s]-f.sold[s] <= 0 || f.dist[s] > 1 {
				continue
			}
			keep := 0.0
			if f.dist[s] == 0 {
				keep = m.buyBid(s)
			}
			for _, u := range b.nbr[s] {
				if b.owner[u] != b.me || f.dist[u] != 0 || (f.dist[s] == 0 && f.spare[u] > 0) {
					continue
				}
				price := m.buyBid(u) * (1 - transportCost)
				if price > keep && price > best {
					bestS, bestU, best = s, u, price
				}
			}
		}
		if bestS < 0 {
			return
		}
		f.sold[bestS]++
		f.got[bestU]++
		f.demand[bestU]++
	}
}

// fortify plans the fortification phase (MARS paper, "Fortify"): clusters
// and sellers, the intra-cluster auction (front demand), relay demand
// (an interior territory asks for every spare army of its neighbours one
// step farther from the front, so armies flow towards the front), then a
// maximum flow (Edmonds-Karp) from sellers to buyers over the owned
// borders, capacities spare and demand. Each army crosses one border at
// most and no territory sends more than it can spare, which is exactly the
// `one-step` rule, and every flow edge with a positive flow is a move.
// Under `single` the same flow is planned and only its largest edge (the
// first on ties) becomes the one move. Under `connected` there is no
// auction and no flow: only interior territories are sources, and the
// interior territory with the most spare armies sends them all along owned
// territories to the front territory of its cluster with the highest
// bid, discounted per step (fortifyConnected).
func (m *mediator) fortify(mode sim.FortifyMode, buf []sim.Move) []sim.Move {
	b, f := m.b, &m.fl
	for t := range b.owner {
		m.vals[t] = b.value(&m.p, t)
	}
	m.analyse()
	if mode == sim.FortifyConnected {
		return m.fortifyConnected(buf)
	}
	m.auction()
	for u := range b.owner {
		if b.owner[u] != b.me || f.dist[u] < 1 {
			continue
		}
		for _, s := range b.nbr[u] {
			if b.owner[s] == b.me && f.dist[s] == f.dist[u]+1 {
				f.demand[u] += f.spare[s]
			}
		}
	}
	n := len(b.owner)
	src, sink := 2*n, 2*n+1
	f.net.reset(2*n + 2)
	f.edges = f.edges[:0]
	for s := range b.owner {
		if b.owner[s] != b.me {
			continue
		}
		// A front seller sells only what the auction sold; an interior one
		// all it can spare.
		supply := f.spare[s]
		if f.dist[s] == 0 {
			supply = f.sold[s]
		}
		if supply > 0 {
			f.net.addEdge(src, s, supply)
			for _, u := range b.nbr[s] {
				if b.owner[u] != b.me || f.demand[u] == 0 {
					continue
				}
				ok := f.dist[u] == f.dist[s]-1 || (f.dist[s] <= 1 && f.dist[u] == 0 && f.got[u] > 0)
				if ok {
					f.edges = append(f.edges, flowEdge{e: f.net.addEdge(s, n+u, supply), from: s, to: u})
				}
			}
		}
		if f.demand[s] > 0 {
			f.net.addEdge(n+s, sink, f.demand[s])
		}
	}
	total := f.net.maxFlow(src, sink)
	if m.w != nil {
		fmt.Fprintf(m.w, "  fortify (%s): %d clusters, %d sellers, max flow %d\n", mode, f.nclust, f.nseller, total)
	}
	if mode == sim.FortifySingle {
		bi, bf := -1, 0
		for i, e := range f.edges {
			if fl := f.net.flow(e.e); fl > bf {
				bi, bf = i, fl
			}
		}
		if bi >= 0 {
			e := f.edges[bi]
			buf = append(buf, sim.Move{From: e.from, To: e.to, Armies: bf})
		}
	} else {
		for _, e := range f.edges {
			if fl := f.net.flow(e.e); fl > 0 {
				buf = append(buf, sim.Move{From: e.from, To: e.to, Armies: fl})
			}
		}
	}
	if m.w != nil {
		for _, mv := range buf {
			fmt.Fprintf(m.w, "  flow %s > %s: %d armies\n", m.name(mv.From), m.name(mv.To), mv.Armies)
		}
	}
	return buf
}

// fortifyConnected picks the `connected`-rule move: the interior
// territory with the most spare armies (ties to the lowest id; front
// territories are never sources) sends them all to the front territory u
// of its cluster with the highest buyBid(u)·(1-transportCost)^d, d the
// owned steps from the source to u (ties to the lowest id).
func (m *mediator) fortifyConnected(buf []sim.Move) []sim.Move {
	b, f := m.b, &m.fl
	s := -1
	for t := range b.owner {
		if f.dist[t] > 0 && f.spare[t] > 0 && (s < 0 || f.spare[t] > f.spare[s]) {
			s = t
		}
	}
	if s < 0 {
		if m.w != nil {
			fmt.Fprintf(m.w, "  fortify (connected): %d clusters, no interior army to move\n", f.nclust)
		}
		return buf
	}
	for t := range f.steps {
		f.steps[t] = -1
	}
	f.steps[s] = 0
	f.queue = append(f.queue[:0], s)
	f.spread(b, f.steps)
	u, best := -1, 0.0
	for t := range b.owner {
		if f.steps[t] > 0 && f.dist[t] == 0 {
			if v := m.buyBid(t) * math.Pow(1-transportCost, float64(f.steps[t])); u < 0 || v > best {
				u, best = t, v
			}
		}
	}
	if u < 0 {
		return buf
	}
	if m.w != nil {
		fmt.Fprintf(m.w, "  fortify (connected): %d clusters; %s > %s: %d armies (bid %.2f after %d steps)\n",
			f.nclust, m.name(s), m.name(u), f.spare[s], best, f.steps[u])
	}
	return append(buf, sim.Move{From: s, To: u, Armies: f.spare[s]})
}

// spread completes a breadth-first search over MARS's territories from the
// territories in f.queue, whose dist is set (-1 marks the unreached): it
// sets dist of every own territory reachable through own territories to
// its number of steps from the nearest start.
func (f *fortifier) spread(b *board, dist []int) {
	for q := 0; q < len(f.queue); q++ {
		t := f.queue[q]
		for _, u := range b.nbr[t] {
			if b.owner[u] == b.me && dist[u] < 0 {
				dist[u] = dist[t] + 1
				f.queue = append(f.queue, u)
			}
		}
	}
}
