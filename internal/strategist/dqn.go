package strategist

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
)

// DQNConfig configures a DQN (Mnih et al. 2015) as the paper's section 4.2
// builds it: a small multilayer perceptron of dense ReLU layers (the
// paper: two of 24), experience replay, a target network and a Boltzmann
// (softmax) or epsilon-greedy policy.
type DQNConfig struct {
	// Hidden are the hidden layers' widths, each 1..1024.
	Hidden []int
	// LearningRate is Adam's step size (0, 1]; Gamma the discount [0, 1].
	LearningRate, Gamma float64
	// BatchSize is the minibatch size, 1..4096; Replay the replay
	// memory's capacity in transitions, BatchSize..2^24.
	BatchSize, Replay int
	// TrainEvery: one gradient step per TrainEvery new transitions (>= 1);
	// TargetEvery: the target network copies the online one every
	// TargetEvery gradient steps (>= 1).
	TrainEvery, TargetEvery int
	// Policy is "boltzmann" (softmax of Q/Temperature, the paper's
	// BoltzmannQPolicy) or "epsilon" (epsilon-greedy with Epsilon).
	Policy      string
	Temperature float64
	Epsilon     float64
	// RewardScale divides every reward before it reaches the network (> 0).
	RewardScale float64
	// Seed seeds the initial weights and the minibatch draws.
	Seed uint64
}

// maxReplay bounds DQNConfig.Replay.
const maxReplay = 1 << 24

// defaultDQNConfig returns the paper's network (two hidden layers of 24)
// with common settings where the paper is silent.
func defaultDQNConfig() DQNConfig {
	return DQNConfig{Hidden: []int{24, 24}, LearningRate: 1e-3, Gamma: 0.99, BatchSize: 32, Replay: 100000,
		TrainEvery: 16, TargetEvery: 500, Policy: "boltzmann", Temperature: 0.1, Epsilon: 0.1, RewardScale: 100}
}

func (c *DQNConfig) validate() error {
	if len(c.Hidden) == 0 || len(c.Hidden) > 8 {
		return fmt.Errorf("learn: dqn: %d hidden layers: want 1..8", len(c.Hidden))
	}
	for i, h := range c.Hidden {
		if h < 1 || h > 1024 {
			return fmt.Errorf("learn: dqn: hidden layer %d width %d: want 1..1024", i, h)
		}
	}
	switch {
	case !(c.LearningRate > 0 && c.LearningRate <= 1):
		return fmt.Errorf("learn: dqn: learning rate %v: want (0, 1]", c.LearningRate)
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return fmt.Errorf("learn: dqn: gamma %v: want [0, 1]", c.Gamma)
	case c.BatchSize < 1 || c.BatchSize > 4096:
		return fmt.Errorf("learn: dqn: batch size %d: want 1..4096", c.BatchSize)
	case c.Replay < c.BatchSize || c.Replay > maxReplay:
		return fmt.Errorf("learn: dqn: replay %d: want batch size %d .. %d", c.Replay, c.BatchSize, maxReplay)
	case c.TrainEvery < 1 || c.TargetEvery < 1:
		return fmt.Errorf("learn: dqn: train every %d, target every %d: want >= 1", c.TrainEvery, c.TargetEvery)
	case c.Policy != "boltzmann" && c.Policy != "epsilon":
		return fmt.Errorf("learn: dqn: policy %q: want boltzmann or epsilon", c.Policy)
	case c.Policy == "boltzmann" && !(c.Temperature > 0):
		return fmt.Errorf("learn: dqn: temperature %v: want > 0", c.Temperature)
	case !(c.Epsilon >= 0 && c.Epsilon <= 1):
		return fmt.Errorf("learn: dqn: epsilon %v: want [0, 1]", c.Epsilon)
	case !(c.RewardScale > 0):
		return fmt.Errorf("learn: dqn: reward scale %v: want > 0", c.RewardScale)
	}
	return nil
}

// mlp is a dense network: W[l] is out×in row-major, B[l] its biases.
type mlp struct {
	sizes []int
	W, B  [][]float64
}

func newMLP(sizes []int, rng *rand.Rand) *mlp {
	m := &mlp{sizes: sizes}
	for l := 0; l+1 < len(sizes); l++ {
		in, out := sizes[l], sizes[l+1]
		w := make([]float64, in*out)
		lim := math.Sqrt(6 / float64(in)) // He uniform
		for i := range w {
			w[i] = (2*rng.Float64() - 1) * lim
		}
		m.W = append(m.W, w)
		m.B = append(m.B, make([]float64, out))
	}
	return m
}

func (m *mlp) copyFrom(o *mlp) {
	for l := range m.W {
		copy(m.W[l], o.W[l])
		copy(m.B[l], o.B[l])
	}
}

// acts holds a forward pass's activations, one slice per layer.
type acts [][]float64

func (m *mlp) newActs() acts {
	a := make(acts, len(m.sizes))
	for l, n := range m.sizes {
		a[l] = make([]float64, n)
	}
	return a
}

// forward fills a from input x and returns the output layer.
func (m *mlp) forward(x []float64, a acts) []float64 {
	copy(a[0], x)
	last := len(m.W) - 1
	for l, w := range m.W {
		in, out := a[l], a[l+1]
		n := len(in)
		for j := range out {
			v := floats.Dot(w[j*n:(j+1)*n], in) + m.B[l][j]
			if l < last && v < 0 {
				v = 0
			}
			out[j] = v
		}
	}
	return a[len(a)-1]
}

// DQN is a deep Q-network learner (see DQNConfig).
type DQN struct {
	cfg          DQNConfig
	nact, dim    int
	online, targ *mlp
	src          *rand.PCG
	rng          *rand.Rand

	// replay memory, a ring
	rs, rs2 []float64
	ra      []int
	rr      []float64
	rdone   []bool
	rn, rat int

	fresh, steps int
	// Adam state and gradients, shaped like the weights
	gW, gB, mW, vW, mB, vB [][]float64
	t                      int
	a, a2                  acts
	delta                  [][]float64
}

// newDQN returns a DQN for observations of dim values and nact actions.
func newDQN(cfg DQNConfig, dim, nact int) (*DQN, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	sizes := append(append([]int{dim}, cfg.Hidden...), nact)
	src := rand.NewPCG(cfg.Seed, 0x64716e) // "dqn"
	rng := rand.New(src)
	d := &DQN{cfg: cfg, nact: nact, dim: dim, src: src, rng: rng}
	d.online = newMLP(sizes, rng)
	d.targ = newMLP(sizes, rng)
	d.targ.copyFrom(d.online)
	shape := func() [][]float64 {
		out := make([][]float64, 0, len(d.online.W))
		for _, w := range d.online.W {
			out = append(out, make([]float64, len(w)))
		}
		return out
	}
	shapeB := func() [][]float64 {
		out := make([][]float64, 0, len(d.online.B))
		for _, b := range d.online.B {
			out = append(out, make([]float64, len(b)))
		}
		return out
	}
	d.gW, d.mW, d.vW = shape(), shape(), shape()
	d.gB, d.mB, d.vB, d.delta = shapeB(), shapeB(), shapeB(), shapeB()
	d.a, d.a2 = d.online.newActs(), d.online.newActs()
	return d, nil
}

// dqnActor acts with the online network; it holds its own activations.
type dqnActor struct {
	d *DQN
	a acts
	p []float64
}

// NewActor returns an actor with scratch space of its own.
func (d *DQN) NewActor() Actor {
	return &dqnActor{d: d, a: d.online.newActs(), p: make([]float64, d.nact)}
}

// Act is the configured exploring policy with rng, greedy without.
func (x *dqnActor) Act(obs []float64, rng *rand.Rand) int {
	q := x.d.online.forward(obs, x.a)
	if rng == nil {
		return floats.MaxIdx(q)
	}
	if x.d.cfg.Policy == "epsilon" {
		if rng.Float64() < x.d.cfg.Epsilon {
			return rng.IntN(x.d.nact)
		}
		return floats.MaxIdx(q)
	}
	// Boltzmann: softmax of Q/T (Q in reward units / RewardScale).
	mx := q[floats.MaxIdx(q)]
	sum := 0.0
	for i, v := range q {
		x.p[i] = math.Exp((v - mx) / x.d.cfg.Temperature)
		sum += x.p[i]
	}
	u := rng.Float64() * sum
	for i, p := range x.p {
		if u < p {
			return i
		}
		u -= p
	}
	return x.d.nact - 1
}

// allocReplay allocates the replay memory, at the first Learn: a DQN that
// only acts (a loaded policy) does without.
func (d *DQN) allocReplay() {
	if d.rs != nil {
		return
	}
	n := d.cfg.Replay
	d.rs, d.rs2 = make([]float64, n*d.dim), make([]float64, n*d.dim)
	d.ra, d.rr, d.rdone = make([]int, n), make([]float64, n), make([]bool, n)
}

// Learn stores the batch's transitions in the replay memory, in order, and
// takes one gradient step per TrainEvery new transitions once the memory
// holds a minibatch.
func (d *DQN) Learn(batch []Episode) {
	d.allocReplay()
	for i := range batch {
		e := &batch[i]
		n := len(e.Actions)
		for t := range n {
			k := d.rat
			copy(d.rs[k*d.dim:(k+1)*d.dim], e.state(t))
			d.ra[k] = e.Actions[t]
			d.rr[k] = e.reward(t) / d.cfg.RewardScale
			d.rdone[k] = t == n-1
			if t < n-1 {
				copy(d.rs2[k*d.dim:(k+1)*d.dim], e.state(t+1))
			}
			d.rat = (d.rat + 1) % d.cfg.Replay
			d.rn = min(d.rn+1, d.cfg.Replay)
			d.fresh++
			if d.fresh >= d.cfg.TrainEvery && d.rn >= d.cfg.BatchSize {
				d.fresh = 0
				d.step()
			}
		}
	}
}

// step is one Adam step on a minibatch's squared TD error (Huber beyond 1).
func (d *DQN) step() {
	for l := range d.gW {
		clear(d.gW[l])
		clear(d.gB[l])
	}
	net := d.online
	L := len(net.W)
	for range d.cfg.BatchSize {
		k := d.rng.IntN(d.rn)
		target := d.rr[k]
		if !d.rdone[k] {
			q2 := d.targ.forward(d.rs2[k*d.dim:(k+1)*d.dim], d.a2)
			target += d.cfg.Gamma * q2[floats.MaxIdx(q2)]
		}
		q := net.forward(d.rs[k*d.dim:(k+1)*d.dim], d.a)
		err := q[d.ra[k]] - target
		err = max(-1, min(1, err)) // Huber gradient
		// Output layer delta: only the action taken.
		clear(d.delta[L-1])
		d.delta[L-1][d.ra[k]] = err
		for l := L - 1; l >= 0; l-- {
			in := d.a[l]
			n := len(in)
			for j, dj := range d.delta[l] {
				if dj == 0 {
					continue
				}
				floats.AddScaled(d.gW[l][j*n:(j+1)*n], dj, in)
				d.gB[l][j] += dj
			}
			if l == 0 {
				break
			}
			prev := d.delta[l-1]
			clear(prev)
			for j, dj := range d.delta[l] {
				if dj == 0 {
					continue
				}
				floats.AddScaled(prev, dj, net.W[l][j*n:(j+1)*n])
			}
			for i := range prev {
				if d.a[l][i] <= 0 { // ReLU
					prev[i] = 0
				}
			}
		}
	}
	d.t++
	const b1, b2, eps = 0.9, 0.999, 1e-8
	lr := d.cfg.LearningRate * math.Sqrt(1-math.Pow(b2, float64(d.t))) / (1 - math.Pow(b1, float64(d.t)))
	scale := 1 / float64(d.cfg.BatchSize)
	adam := func(w, g, m, v []float64) {
		for i := range w {
			gi := g[i] * scale
			m[i] = b1*m[i] + (1-b1)*gi
			v[i] = b2*v[i] + (1-b2)*gi*gi
			w[i] -= lr * m[i] / (math.Sqrt(v[i]) + eps)
		}
	}
	for l := range net.W {
		adam(net.W[l], d.gW[l], d.mW[l], d.vW[l])
		adam(net.B[l], d.gB[l], d.mB[l], d.vB[l])
	}
	d.steps++
	if d.steps%d.cfg.TargetEvery == 0 {
		d.targ.copyFrom(net)
	}
}

// q returns the online network's values of obs (a fresh slice).
func (d *DQN) q(obs []float64) []float64 {
	return append([]float64(nil), d.online.forward(obs, d.online.newActs())...)
}

// Steps returns the number of gradient steps taken.
func (d *DQN) Steps() int { return d.steps }
