package mars

// flowNet is a flow network for the Edmonds-Karp maximum-flow algorithm
// (Edmonds & Karp 1972): augmenting paths found by breadth-first search,
// O(V·E²). Edges are stored in pairs (forward 2k, residual 2k+1) in flat
// slices reused between calls, so a solve does not allocate once the
// buffers have grown.
type flowNet struct {
	head  []int // first edge of each node, -1 for none
	to    []int
	next  []int
	cap   []int // residual capacity
	prev  []int // BFS: edge used to reach each node, -1 unreached
	queue []int
}

// reset empties the network and gives it n nodes.
func (f *flowNet) reset(n int) {
	f.head = f.head[:0]
	for range n {
		f.head = append(f.head, -1)
	}
	f.to, f.next, f.cap = f.to[:0], f.next[:0], f.cap[:0]
}

// addEdge adds an edge u->v of capacity c and returns its index; the
// flow on it after maxFlow is flow(index).
func (f *flowNet) addEdge(u, v, c int) int {
	e := len(f.to)
	f.to = append(f.to, v, u)
	f.cap = append(f.cap, c, 0)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u], f.head[v] = e, e+1
	return e
}

// flow returns the flow on edge e (the residual capacity of its reverse).
func (f *flowNet) flow(e int) int { return f.cap[e^1] }

// maxFlow pushes the maximum flow from s to t and returns its value.
func (f *flowNet) maxFlow(s, t int) int {
	total := 0
	n := len(f.head)
	f.prev = f.prev[:0]
	for range n {
		f.prev = append(f.prev, -1)
	}
	f.queue = f.queue[:0]
	for {
		// prev is -1 but for the nodes the last search queued: those are
		// reset, not the whole slice.
		for _, v := range f.queue {
			f.prev[v] = -1
		}
		f.queue = append(f.queue[:0], s)
		f.prev[s] = -2
		for q := 0; q < len(f.queue) && f.prev[t] == -1; q++ {
			u := f.queue[q]
			for e := f.head[u]; e >= 0; e = f.next[e] {
				if v := f.to[e]; f.cap[e] > 0 && f.prev[v] == -1 {
					f.prev[v] = e
					f.queue = append(f.queue, v)
				}
			}
		}
		if f.prev[t] == -1 {
			return total
		}
		push := -1
		for v := t; v != s; v = f.to[f.prev[v]^1] {
			if c := f.cap[f.prev[v]]; push < 0 || c < push {
				push = c
			}
		}
		for v := t; v != s; v = f.to[f.prev[v]^1] {
			e := f.prev[v]
			f.cap[e] -= push
			f.cap[e^1] += push
		}
		total += push
	}
}
