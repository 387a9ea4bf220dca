package arena

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/marslab-risk/marslab/sim"
)

// A Schedule decides who plays each game of a batch: game g seats entries
// of a pool of bots ([Config.Seats]), seat i taking entry Lineup(g)[i], and is
// played with the random streams of sim.GameSeed(batch seed, Stream(g)).
// A Schedule must be a pure function of the game index, safe for concurrent
// use, so that a game's line-up does not depend on the worker or shard that
// plays it.
type Schedule interface {
	// Players is the number of seats of every game, 2..6.
	Players() int
	// Pool is the number of entries the line-ups draw from (the length of
	// [Config.Seats]), >= Players.
	Pool() int
	// Lineup returns the line-up of game g, appended to dst[:0]: seat i of
	// game g is played by entry dst[i], 0 <= dst[i] < Pool(); the entries of
	// one game are distinct. With cap(dst) >= Players() it allocates nothing.
	Lineup(g int, dst []int) []int
	// Stream returns the index of game g's random streams: game g is played
	// with sim.GameSeed(batch seed, Stream(g)). Games sharing a stream share
	// their dice and card draws (common random numbers).
	Stream(g int) uint64
	// Spec describes the schedule as config.json records it;
	// Spec().Schedule() rebuilds an equal schedule.
	Spec() ScheduleSpec
}

// Schedule kinds, as recorded in [ScheduleSpec.Kind].
const (
	kindRotation = "rotation"
	KindSubsets  = "subsets"
	kindRandom   = "random"
)

// ScheduleSpec is the serialisable description of a Schedule (the
// "schedule" object of config.json).
type ScheduleSpec struct {
	// Kind is "rotation", [KindSubsets] ("subsets") or "random".
	Kind string `json:"kind"`
	// Players is the number of seats of every game, 2..6.
	Players int `json:"players"`
	// Pool is the number of entries the line-ups draw from.
	Pool int `json:"pool"`
	// Replications is the number of times Subsets plays each k-subset.
	Replications int `json:"replications,omitempty"`
	// Seed seeds the random seating of Subsets and the line-ups of a random schedule.
	Seed uint64 `json:"seed,omitempty"`
}

// String describes the spec as "kind(players of pool[, xreplications][,
// seed])", e.g. "rotation(4 of 4)", "subsets(4 of 13, x3, seed 7)" or
// "random(6 of 24, seed 7)".
func (s ScheduleSpec) String() string {
	switch s.Kind {
	case KindSubsets:
		return fmt.Sprintf("%s(%d of %d, x%d, seed %d)", s.Kind, s.Players, s.Pool, s.Replications, s.Seed)
	case kindRandom:
		return fmt.Sprintf("%s(%d of %d, seed %d)", s.Kind, s.Players, s.Pool, s.Seed)
	}
	return fmt.Sprintf("%s(%d of %d)", s.Kind, s.Players, s.Pool)
}

// Schedule builds the schedule the spec describes, checking its ranges.
func (s ScheduleSpec) Schedule() (Schedule, error) {
	switch s.Kind {
	case kindRotation:
		if s.Pool != s.Players {
			return nil, fmt.Errorf("schedule %s: pool %d must equal players %d", s.Kind, s.Pool, s.Players)
		}
		if s.Replications != 0 || s.Seed != 0 {
			return nil, fmt.Errorf("schedule %s: replications %d and seed %d: want 0 (a rotation has neither)", s.Kind, s.Replications, s.Seed)
		}
		r := rotation{Seats: s.Players}
		if err := r.validate(); err != nil {
			return nil, err
		}
		return r, nil
	case KindSubsets:
		sub, err := NewSubsets(s.Pool, s.Players, s.Replications, s.Seed)
		if err != nil {
			return nil, err
		}
		return sub, nil
	case kindRandom:
		if s.Replications != 0 {
			return nil, fmt.Errorf("schedule %s: replications %d: want 0 (random line-ups have none)", s.Kind, s.Replications)
		}
		return NewRandom(s.Pool, s.Players, s.Seed)
	}
	return nil, fmt.Errorf("schedule kind %q: want %q, %q or %q", s.Kind, kindRotation, KindSubsets, kindRandom)
}

// rotation seats a fixed list of Seats entries rotated by the game index:
// seat i of game g is entry (i+g) mod Seats, so every entry plays every seat
// equally often over Seats consecutive games. Game g uses stream g.
type rotation struct {
	// Seats is the number of entries and of seats, 2..6.
	Seats int
}

func (r rotation) validate() error {
	if r.Seats < sim.MinPlayers || r.Seats > maxSeats {
		return fmt.Errorf("schedule %s: %d seats: want %d..%d", kindRotation, r.Seats, sim.MinPlayers, maxSeats)
	}
	return nil
}

// Players returns r.Seats.
func (r rotation) Players() int { return r.Seats }

// Pool returns r.Seats.
func (r rotation) Pool() int { return r.Seats }

// Lineup returns entries g, g+1, ... (mod Seats) in seat order.
func (r rotation) Lineup(g int, dst []int) []int {
	dst = dst[:0]
	for i := range r.Seats {
		dst = append(dst, (i+g)%r.Seats)
	}
	return dst
}

// Stream returns g.
func (r rotation) Stream(g int) uint64 { return uint64(g) }

// Spec returns the rotation's description.
func (r rotation) Spec() ScheduleSpec {
	return ScheduleSpec{Kind: kindRotation, Players: r.Seats, Pool: r.Seats}
}

// Subsets plays every k-subset of a pool of n entries, each Replications
// times, with a random seating per game. Game g plays subset g mod C(n,k)
// (subsets in colexicographic order of their entries), so every C(n,k)
// consecutive games play each subset once; Games() = C(n,k)·Replications.
// The seating of game g is a uniform random permutation of its subset drawn
// from (Seed, g) alone. Game g uses stream g.
type Subsets struct {
	n, k, reps int
	seed       uint64
	subsets    []int // subset s is subsets[s*k : s*k+k], entries ascending
}

// maxSubsets bounds C(n,k) so that the table of subsets stays small.
const maxSubsets = 1 << 20

// NewSubsets returns the schedule of every k-subset of n entries (2 <= k
// <= 6, k <= n), each played replications (>= 1) times, seated at random
// from seed.
func NewSubsets(n, k, replications int, seed uint64) (*Subsets, error) {
	switch {
	case k < sim.MinPlayers || k > maxSeats:
		return nil, fmt.Errorf("schedule %s: %d players per game: want %d..%d", KindSubsets, k, sim.MinPlayers, maxSeats)
	case n < k:
		return nil, fmt.Errorf("schedule %s: pool of %d entries: want >= %d (players per game)", KindSubsets, n, k)
	case replications < 1:
		return nil, fmt.Errorf("schedule %s: replications %d: want >= 1", KindSubsets, replications)
	}
	c, ok := binomial(n, k)
	if !ok || c > maxSubsets || replications > maxGames/c {
		return nil, fmt.Errorf("schedule %s: C(%d,%d)×%d games: too many (want C(n,k) <= %d and a total <= %d)",
			KindSubsets, n, k, replications, maxSubsets, maxGames)
	}
	s := &Subsets{n: n, k: k, reps: replications, seed: seed, subsets: make([]int, 0, c*k)}
	// Colexicographic order: the next subset increments the lowest entry
	// that can grow and resets the ones below it.
	sub := make([]int, k)
	for i := range sub {
		sub[i] = i
	}
	for {
		s.subsets = append(s.subsets, sub...)
		i := 0
		for i < k-1 && sub[i]+1 == sub[i+1] {
			i++
		}
		if i == k-1 && sub[i]+1 == n {
			break
		}
		sub[i]++
		for j := range i {
			sub[j] = j
		}
	}
	return s, nil
}

// maxGames bounds the games of a schedule (game indices are ints and
// stream indices derive from them).
const maxGames = 1 << 40

// binomial returns C(n,k), ok false on overflow.
func binomial(n, k int) (int, bool) {
	c := 1
	for i := 1; i <= k; i++ {
		hi, lo := bits.Mul64(uint64(c), uint64(n-k+i))
		if hi != 0 || lo > 1<<62 {
			return 0, false
		}
		c = int(lo) / i
	}
	return c, true
}

// Players returns k, the seats of every game.
func (s *Subsets) Players() int { return s.k }

// Pool returns n, the entries.
func (s *Subsets) Pool() int { return s.n }

// replications returns how many times each subset is played.
func (s *Subsets) replications() int { return s.reps }

// Games returns C(n,k)·Replications, the number of games of the schedule.
func (s *Subsets) Games() int { return len(s.subsets) / s.k * s.reps }

// subset returns the entries of game g's subset, ascending, appended to
// dst[:0].
func (s *Subsets) subset(g int, dst []int) []int {
	c := len(s.subsets) / s.k
	i := g % c * s.k
	return append(dst[:0], s.subsets[i:i+s.k]...)
}

// Lineup returns game g's subset in a random seating drawn from (Seed, g):
// a Fisher-Yates shuffle driven by a SplitMix64 stream of sim.GameSeed(Seed, g)
// mixed with a constant, so that it is independent of the game's own dice.
func (s *Subsets) Lineup(g int, dst []int) []int {
	dst = s.subset(g, dst)
	state := sim.GameSeed(s.seed, uint64(g)) ^ 0x5ea7_5ea7_5ea7_5ea7
	for i := len(dst) - 1; i > 0; i-- {
		j := int(uniform(&state, uint64(i+1)))
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// Stream returns g.
func (s *Subsets) Stream(g int) uint64 { return uint64(g) }

// Spec returns the schedule's description.
func (s *Subsets) Spec() ScheduleSpec {
	return ScheduleSpec{Kind: KindSubsets, Players: s.k, Pool: s.n, Replications: s.reps, Seed: s.seed}
}

// uniform returns a uniform integer in [0, n) from the SplitMix64 stream
// *state (Lemire's multiply-and-reject method, exact for every n > 0).
func uniform(state *uint64, n uint64) uint64 {
	thresh := -n % n
	for {
		*state += 0x9e3779b97f4a7c15
		x := *state
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
		x = (x ^ (x >> 27)) * 0x94d049bb133111eb
		x ^= x >> 31
		hi, lo := bits.Mul64(x, n)
		if lo >= thresh {
			return hi
		}
	}
}

// randomLineups seats k of n entries per game, drawn at random: game g's line-up
// is a uniform random k-subset of the entries in a uniform random seating,
// drawn from (Seed, g) alone, so every entry plays about k/n of the games
// and meets every other equally often in expectation, whatever the number
// of games. Game g uses stream g.
type randomLineups struct {
	n, k int
	seed uint64
}

// NewRandom returns the schedule of random line-ups of k (2..6) of n (>= k)
// entries drawn from seed: game g's line-up is a uniform random k-subset
// of the entries in a uniform random seating, drawn from (seed, g) alone,
// so every entry plays about k/n of the games and meets every other
// equally often in expectation, whatever the number of games. Game g uses
// stream g. Its spec's kind is "random".
func NewRandom(n, k int, seed uint64) (Schedule, error) {
	switch {
	case k < sim.MinPlayers || k > maxSeats:
		return nil, fmt.Errorf("schedule %s: %d players per game: want %d..%d", kindRandom, k, sim.MinPlayers, maxSeats)
	case n < k || n > maxRandomPool:
		return nil, fmt.Errorf("schedule %s: pool of %d entries: want %d..%d", kindRandom, n, k, maxRandomPool)
	}
	return &randomLineups{n: n, k: k, seed: seed}, nil
}

// maxRandomPool bounds the entries of a random schedule.
const maxRandomPool = 1 << 10

// Players returns k, the seats of every game.
func (r *randomLineups) Players() int { return r.k }

// Pool returns n, the entries.
func (r *randomLineups) Pool() int { return r.n }

// Lineup returns game g's line-up: k entries drawn uniformly without
// replacement (a draw that repeats an entry is drawn again), seat by seat,
// from a SplitMix64 stream of sim.GameSeed(Seed, g) mixed with a constant
// (independent of the game's own dice).
func (r *randomLineups) Lineup(g int, dst []int) []int {
	dst = dst[:0]
	state := sim.GameSeed(r.seed, uint64(g)) ^ 0x1ad_de12_1ad_de12
	for len(dst) < r.k {
		e := int(uniform(&state, uint64(r.n)))
		if !slices.Contains(dst, e) {
			dst = append(dst, e)
		}
	}
	return dst
}

// Stream returns g.
func (r *randomLineups) Stream(g int) uint64 { return uint64(g) }

// Spec returns the schedule's description.
func (r *randomLineups) Spec() ScheduleSpec {
	return ScheduleSpec{Kind: kindRandom, Players: r.k, Pool: r.n, Seed: r.seed}
}

// checkLineup checks a line-up returned by sched for game g.
func checkLineup(sched Schedule, g int, lineup []int) error {
	if len(lineup) != sched.Players() {
		return fmt.Errorf("schedule %s: game %d: line-up of %d entries, want %d", sched.Spec().Kind, g, len(lineup), sched.Players())
	}
	for i, e := range lineup {
		if e < 0 || e >= sched.Pool() {
			return fmt.Errorf("schedule %s: game %d: seat %d is entry %d, want 0..%d", sched.Spec().Kind, g, i, e, sched.Pool()-1)
		}
		for _, f := range lineup[:i] {
			if f == e {
				return fmt.Errorf("schedule %s: game %d: entry %d seated twice", sched.Spec().Kind, g, e)
			}
		}
	}
	return nil
}
