package blocks

import (
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/marslab-risk/marslab/sim"
)

// The move-in memory values of Lux's SmartAgentBase (its field
// moveInMemory): an attack block sets the memory just before it attacks,
// and the move-in after a conquest obeys it (see [Lux.MoveIn]). Any other
// non-negative value is a number of armies, clamped to the move-in's
// bounds as Lux rounds an out-of-range answer to the nearest bound.
const (
	// MoveUnset: no block set the memory; the bot's own move-in decides.
	MoveUnset = -1
	// moveHalfNow: half of the attacker's armies when the move-in is
	// asked (after the battle), rounded down.
	moveHalfNow = -2
	// MoveMin: the minimum (the dice of the last roll).
	MoveMin = 0
	// MoveAll: everything (Java's 1,000,000, clamped to the maximum).
	MoveAll = 1000000
)

// Lux holds the state and the shared blocks of Lux Delux's SmartAgentBase
// (sillysoft/LuxSDK, src/com/sillysoft/lux/agent/SmartAgentBase.java and
// the util iterators and BoardHelper searches it calls), written from that
// source's behaviour, quirks included. It lives in package blocks, beside
// the other shared blocks, because every Lux-style bot (the Cluster and
// Pixie families, Communist, Vulture) builds on it and none of it is
// specific to one bot.
//
// A bot embeds a Lux, calls Start when its game starts, loads the board
// (Load) before each decision, and:
//   - places with placeOnClusterBorder, PlaceToTakeCont, EasiestCont,
//     PlaceToKillDominant;
//   - attacks with NextAttack, which runs a plan of Steps (the blocks
//     attackEasyExpand, attackFillOut, attackConsolidate, attackSplitUp,
//     tripleAttackPack, attackHogWild, attackStalemate, attackForCard,
//     attackToKillPlayer, or a Resumable of the bot's own) one attack
//     order at a time;
//   - moves in with MoveIn, the obvious and memory tests;
//   - fortifies with fortifyCluster;
//   - cashes with CashOne (one set per turn, Card.getBestSet).
//
// # Resuming the attack phase
//
// Java's attack phase is a procedure that calls board.attack and reads its
// result; the engine instead asks [sim.Player.Attack] for one order at a
// time. Lux keeps the procedure's place in explicit cursors: the plan step
// (pc), the running composite block (triple pack, hog-wild sweep, kill
// path, each with its stage, territory and look-ahead) and the running
// one-pass block (its border snapshot, border index, neighbour or
// participant index). Every NextAttack call reloads the board, reads the
// outcome of the last order from it (conquered or not), and resumes where
// the last call stopped. Cursors and buffers live in the struct, so a turn
// allocates nothing once the buffers have grown. (iter.Pull would let the
// blocks be written as plain loops, but keeps a coroutine per bot alive
// for the bot's lifetime and makes a turn abandoned by the engine, at a
// win or a fault, unwind by hand; the cursors have neither cost.)
//
// Because the block that gave the last order is known, the memory it set
// (Memory) is still in place when the engine asks for the move-in, as in
// Java, and is reset ([MoveUnset]) when the next order is asked for.
//
// Iteration orders follow the source: a cluster's border is a snapshot in
// breadth-first discovery order from the root (ClusterBorderIterator);
// neighbours are taken in the map's adjacency order (NeighborIterator);
// own territories in id order, lazily, with one territory of look-ahead
// (PlayerIterator, ArmiesIterator: a territory conquered during a pass is
// visited if its id lies beyond the look-ahead). Ties go to the first in
// that order unless a block says otherwise.
type Lux struct {
	// B is the board, loaded from the game's state by Load (and by
	// NextAttack).
	B Board
	// Seat is the bot's seat (Java's ID).
	Seat int
	// RNG is the bot's random stream (the random border of
	// PlaceToTakeCont).
	RNG *rand.Rand
	// Memory is the move-in memory (see [MoveUnset], [MoveAll]...).
	Memory int
	// MustKill is the dominant player chosen at this turn's placement
	// (Java's mustKillPlayer), -1 for none.
	MustKill int
	// Root is the root territory of the cluster-based attack blocks, set
	// by a [StepRoot] step (or by a Resumable).
	Root int
	// DeadIncome is the reading of a dead seat's income
	// (Board.getPlayerIncome, a stub in the SDK) in the dominant-player
	// test: false counts it 0; true gives it the income formula's value
	// for no territories (sim.State.Income: the rules' minimum, 3), which
	// then counts in the total income of every seat that Java sums.
	DeadIncome bool

	state *sim.State // the state of the current decision

	killCont []bool // mustKillPlayerOwnsCont: the continents MustKill owned at placement
	round    int    // the round of the turn whose attack phase runs
	cashed   int    // the round in which CashOne last cashed voluntarily, -1 none

	// Searches.
	queue    []int
	mark     []bool
	seen     []bool
	prev     []int
	heap     []luxItem
	seq      int
	border   []int      // placement's and fortify's cluster border
	route    []int      // the last route found
	hand     []sim.Card // the bot's hand (BestSet, RandomSet)
	cardIdx  []int      // the hand's indices
	noWild   []int      // its cards without wild cards
	oneWild  []int      // noWild and the first wild card
	ownCards []int      // the cards of own territories among a search's cards
	plus     []int      // own and one or two other cards

	// The last cluster border AppendClusterBorder computed: its root,
	// map (nil: none) and owners (on maps of at most 64 territories the
	// territories of root's owner as bits, memoMask, else every owner),
	// and the border itself.
	memoRoot   int
	memoMap    *sim.Map
	memoBits   bool // memoMask holds the owners, not memoOwners
	memoMask   uint64
	memoOwners []int
	memoBorder []int

	// nb[t] holds territory t's neighbours as bits, for maps of at most
	// 64 territories (empty otherwise); nbMap is the map it was built for.
	nbMap *sim.Map
	nb    []uint64
	// own holds the bot's territories as bits (maps of at most 64
	// territories), set by NextAttack after its Load for the attack
	// blocks it runs.
	own uint64

	// The attack plan's cursor.
	pc      int  // the running step
	stepOn  bool // the step at pc has started
	any     bool // a run of the step at pc returned true (repeated steps)
	last    bool // the result of the last finished step
	restart bool // the step at pc starts its procedure again (Repeat)
	wait    bool // an order was given; its outcome is read at the next call
	to      int  // the target of the last order

	leaf   leafCur
	triple tripleCur
	sweep  sweepCur
	kill   killCur
}

// Proc names a resumable attack procedure of SmartAgentBase (see Step).
type Proc uint8

// The attack procedures. "Pass" means one pass over a snapshot of the
// cluster border of [Lux.Root]; the result is what the Java method returns.
const (
	// StepRoot sets [Lux.Root] as Cluster.attackPhase does (ClusterRoot);
	// its result is false.
	StepRoot Proc = iota + 1
	// StepEasyExpand is attackEasyExpand(root): each border territory
	// with exactly one enemy neighbour and more armies than it attacks it,
	// moving everything in. True when an attack was launched, won or not.
	StepEasyExpand
	// StepFillOut is attackFillOut(root): each border territory, for each
	// neighbour in adjacency order that is an enemy's, has no neighbour of
	// another player than the bot, and holds fewer armies, attacks it,
	// moving the minimum in. True only when an attack conquered.
	StepFillOut
	// StepConsolidate is attackConsolidate(root): for each border
	// territory whose one enemy neighbour E touches more than one of the
	// bot's territories, the participants are E's neighbours of the bot's
	// with exactly one enemy neighbour; if their armies (all of them)
	// exceed E's, each participant with 2 or more armies attacks E in E's
	// adjacency order until E falls, moving everything in. True when an
	// attack was launched.
	StepConsolidate
	// StepSplitUp is attackSplitUp(root, Ratio): each border territory
	// with more armies than Ratio times its enemy neighbours' armies (in
	// float32, as Java's float) attacks each enemy neighbour in adjacency
	// order while it holds more than 1 army, each move-in being its
	// armies divided by its enemy count, both taken before the first
	// attack. True when an attack was launched.
	StepSplitUp
	// StepTriple is tripleAttackPack(root): easy expand repeatedly, fill
	// out once, consolidate repeatedly. True when an easy expand or a
	// consolidate pass returned true (fill out's result is ignored).
	StepTriple
	// StepHogWild is attackHogWild: when the bot's armies exceed all
	// other players' together, attackAsMuchAsPossible: sweeps over the
	// bot's territories in id order (lazily, one look-ahead), each taken as
	// a root for the triple pack repeatedly and split up(0.01)
	// repeatedly, until a sweep launches nothing. Its result is false.
	StepHogWild
	// StepStalemate is attackStalemate: attackAsMuchAsPossible when the
	// bot holds more than stalemateArmies armies. Its result is false.
	StepStalemate
	// StepCard is attackForCard(K): with cards in play and nothing
	// conquered this turn, the pair of an own territory and an enemy
	// neighbour with the best ratio of armies (the first found, in id and
	// adjacency order, compared as Java does: the ratio in double against
	// the best kept in float) attacks when the attacker holds more than K
	// times the defender. CardMove sets the memory first. Its result is
	// false.
	StepCard
	// StepKill is attackToKillPlayer(MustKill) when MustKill >= 0: for
	// each continent MustKill owned at placement with a positive bonus,
	// largest bonus first (lowest id on ties), each own territory with 2
	// or more armies in id order (lazily) takes its easiest path into the
	// continent (easyPathToCont); if the path's cost (pathCost) is below
	// its armies it attacks along the whole path (attackAlongPath), moving
	// everything, and stops at a repulse or at a territory left with 1
	// army. The first path taken whole ends that continent. Its result is
	// false.
	StepKill
	// StepCustom runs [Step.Custom].
	StepCustom
)

// Step is one statement of an attack plan (see [Lux.NextAttack]).
type Step struct {
	// Proc is the procedure run.
	Proc Proc
	// Repeat runs the procedure again while it returns true (Java's
	// "while (block(root)) {}"); the step's result is whether any run
	// returned true.
	Repeat bool
	// Unless runs the step only if the previous step's result was false
	// (Java's "if (!block(root)) other(root)"); a skipped step's result is
	// false.
	Unless bool
	// If, when set, runs the step only if it returns true when the step is
	// reached; a skipped step's result is false.
	If func(x *Lux) bool
	// Ratio is split up's ratio ([StepSplitUp]).
	Ratio float32
	// K is attackForCard's outnumber factor ([StepCard]).
	K int
	// CardMove is setmoveInMemoryBeforeCardAttack: the memory set before
	// the card attack from territory from (nil leaves it unset).
	CardMove func(x *Lux, from int) int
	// Custom is the procedure of [StepCustom].
	Custom Resumable
}

// Resumable is an attack procedure of a bot's own, run by a [StepCustom]
// step. Next is called with start true when the step begins, then again
// after each order it gave (Lux.conquered tells the order's outcome); it
// returns the next order (from, to) with the move-in memory to set, or
// done with the procedure's result. It must order only legal attacks
// (Lux.canAttack).
type Resumable interface {
	Next(x *Lux, start bool) (from, to, memory int, done, result bool)
}

// leafCur is the cursor of a one-pass block.
type leafCur struct {
	on    bool
	proc  Proc
	root  int
	ratio float32
	snap  []int // the cluster border, taken when the pass starts
	i, j  int   // border index; neighbour or participant index
	in    bool  // consolidate, split up: attacking from snap[i]
	per   int   // split up: the armies moved in per conquest
	enemy int   // consolidate: the target
	parts []int // consolidate: the participants
	res   bool
}

// tripleCur is the cursor of tripleAttackPack.
type tripleCur struct {
	on    bool
	stage uint8 // 0 easy expand, 1 fill out, 2 consolidate
	won   bool
}

// sweepCur is the cursor of attackAsMuchAsPossible.
type sweepCur struct {
	on       bool
	attacked bool
	cur      int   // the territory used as root
	next     int   // the iterator's look-ahead, -1 at the end
	stage    uint8 // 0 take the next territory, 1 triple pack, 2 split up
}

// killCur is the cursor of attackToKillPlayer.
type killCur struct {
	on    bool
	value []int // ownContValue: bonus of each recorded continent, -1 when done
	cont  int   // the continent attacked, -1 for the next
	us    int   // the territory whose path is attacked, -1 for none
	next  int   // ArmiesIterator's look-ahead
	path  []int
	i     int // the path's next step
}

// Start prepares x for a new game at seat with the bot's random stream.
func (x *Lux) Start(seat int, rng *rand.Rand) {
	x.Seat, x.RNG = seat, rng
	x.Memory, x.MustKill, x.Root = MoveUnset, -1, -1
	x.round, x.cashed = -1, -1
	x.stopAttack()
}

// Load reads the board of s (see [Board.Load]) and keeps s for the blocks
// that read the game's state (cards, conquests).
func (x *Lux) Load(s *sim.State) {
	x.B.Load(s)
	x.state = s
	n := x.B.NumTerritories()
	if len(x.mark) < n {
		x.mark = make([]bool, n)
		x.seen = make([]bool, n)
		x.prev = make([]int, n)
	}
}

// NewTurn reports whether s is in a turn (round) other than the last one
// NewTurn saw, and records it: a bot calls it at placement to reset its
// per-turn state (cardsPhase resets mustKillPlayer) once, not again at a
// placement forced by cards taken in the attack phase.
func (x *Lux) NewTurn(s *sim.State) bool {
	if s.Round() == x.round {
		return false
	}
	x.round = s.Round()
	x.MustKill = -1
	x.stopAttack()
	return true
}

// stopAttack clears the attack plan's cursor.
func (x *Lux) stopAttack() {
	x.pc, x.stepOn, x.any, x.last, x.restart, x.wait = 0, false, false, false, false, false
	x.leaf.on, x.triple.on, x.sweep.on, x.kill.on = false, false, false, false
}

// State returns the state of the current decision (set by Load).
func (x *Lux) State() *sim.State { return x.state }

// --- Board queries ---

// neighbors returns t's neighbours in adjacency order.
func (x *Lux) neighbors(t int) []int { return x.B.Map.Territories[t].Neighbors }

// soleEnemy returns the number of t's neighbours not the bot's and the
// last of them in adjacency order (-1 for none).
func (x *Lux) soleEnemy(t int) (enemy, n int) {
	enemy = -1
	for _, u := range x.neighbors(t) {
		if x.B.Owner[u] != x.Seat {
			enemy, n = u, n+1
		}
	}
	return enemy, n
}

// canAttack reports whether the bot may order an attack from from on to:
// from is its own with 2 or more armies, to an adjacent enemy's.
func (x *Lux) canAttack(from, to int) bool {
	b := &x.B
	return from >= 0 && to >= 0 && b.Owner[from] == x.Seat && b.Armies[from] >= 2 &&
		b.Owner[to] != x.Seat && b.Map.Adjacent(from, to)
}

// conquered reports whether the bot owns t (after an order on t: whether
// the attack conquered it).
func (x *Lux) conquered(t int) bool { return x.B.Owner[t] == x.Seat }

// AppendClusterBorder appends to dst the border of the cluster of root:
// the territories reached from root through territories of root's owner,
// breadth first in adjacency order, that have a neighbour of another
// owner, in the order the search reaches them (ClusterBorderIterator).
// The border depends on root and the owners only, so the border of the
// last call is reused while they are the same (the attack blocks start
// their passes from one root several times between conquests).
func (x *Lux) AppendClusterBorder(dst []int, root int) []int {
	b := &x.B
	if root < 0 || root >= b.NumTerritories() {
		return dst
	}
	p := b.Owner[root]
	if x.masks() {
		return x.clusterBorderBits(dst, root, ownerMask(b.Owner, p))
	}
	if root == x.memoRoot && b.Map == x.memoMap && !x.memoBits && slices.Equal(b.Owner, x.memoOwners) {
		return append(dst, x.memoBorder...)
	}
	start := len(dst)
	q := append(x.queue[:0], root)
	x.mark[root] = true
	for i := 0; i < len(q); i++ {
		t := q[i]
		border := false
		for _, u := range x.neighbors(t) {
			if b.Owner[u] == p {
				if !x.mark[u] {
					x.mark[u] = true
					q = append(q, u)
				}
			} else {
				border = true
			}
		}
		if border {
			dst = append(dst, t)
		}
	}
	for _, t := range q {
		x.mark[t] = false
	}
	x.queue = q[:0]
	x.memoRoot, x.memoMap, x.memoBits = root, b.Map, false
	x.memoOwners = append(x.memoOwners[:0], b.Owner...)
	x.memoBorder = append(x.memoBorder[:0], dst[start:]...)
	return dst
}

// clusterBorderBits is AppendClusterBorder on a map of at most 64
// territories (x.masks() true), own being the territories of root's owner
// as bits.
func (x *Lux) clusterBorderBits(dst []int, root int, own uint64) []int {
	b := &x.B
	if root == x.memoRoot && b.Map == x.memoMap && own == x.memoMask && x.memoBits {
		return append(dst, x.memoBorder...)
	}
	start := len(dst)
	q := append(x.queue[:0], root)
	seen := uint64(1) << (uint(root) & 63)
	for i := 0; i < len(q); i++ {
		t := q[i]
		nb := x.nb[t]
		if nb&^own != 0 {
			dst = append(dst, t)
		}
		// The new neighbours in adjacency order, which is id order
		// (sim.Territory.Neighbors is ascending).
		fresh := nb & own &^ seen
		seen |= fresh
		for ; fresh != 0; fresh &= fresh - 1 {
			q = append(q, bits.TrailingZeros64(fresh))
		}
	}
	x.queue = q[:0]
	x.memoRoot, x.memoMap, x.memoMask, x.memoBits = root, b.Map, own, true
	x.memoBorder = append(x.memoBorder[:0], dst[start:]...)
	return dst
}

// masks reports whether the board's map has at most 64 territories, and
// then makes x.nb hold its neighbour masks.
func (x *Lux) masks() bool {
	m := x.B.Map
	if m != x.nbMap {
		x.nbMap, x.nb = m, x.nb[:0]
		if len(m.Territories) <= 64 {
			for t := range m.Territories {
				var nb uint64
				for _, u := range m.Territories[t].Neighbors {
					nb |= 1 << (uint(u) & 63)
				}
				x.nb = append(x.nb, nb)
			}
		}
	}
	return len(x.nb) > 0 && len(x.nb) == len(x.B.Owner)
}

// ownerMask returns the territories of owner that seat p owns as bits (a
// map of at most 64 territories).
func ownerMask(owner []int, p int) uint64 {
	var m uint64
	for t, o := range owner {
		var bit uint64
		if o == p {
			bit = 1
		}
		m |= bit << (uint(t) & 63)
	}
	return m
}

// OwnsAnyPositiveCont reports whether the bot owns a continent with a
// positive bonus (BoardHelper.playerOwnsAnyPositiveContinent).
func (x *Lux) OwnsAnyPositiveCont() bool {
	for c, cont := range x.B.Map.Continents {
		if cont.Bonus > 0 && x.B.OwnsContinent(x.Seat, c) {
			return true
		}
	}
	return false
}

// MostValuableOwnedCont returns the continent the bot owns with the
// largest bonus, the first on ties, -1 for none; a continent with a bonus
// below 0 is never taken (getMostValuablePositiveOwnedCont starts at -1 and
// wants more).
func (x *Lux) MostValuableOwnedCont() int {
	best, bonus := -1, -1
	for c, cont := range x.B.Map.Continents {
		if x.B.OwnsContinent(x.Seat, c) && cont.Bonus > bonus {
			best, bonus = c, cont.Bonus
		}
	}
	return best
}

// FirstIn returns the lowest-id territory of continent c
// (BoardHelper.getCountryInContinent).
func (x *Lux) FirstIn(c int) int {
	for t := range x.B.Map.Territories {
		if x.B.Map.Territories[t].Continent == c {
			return t
		}
	}
	return -1
}

// biggestArmy returns the bot's territory with the most armies, the lowest
// id on ties, -1 if it owns none (BoardHelper.getPlayersBiggestArmy).
func (x *Lux) biggestArmy() int {
	best := -1
	for t, o := range x.B.Owner {
		if o == x.Seat && (best < 0 || x.B.Armies[t] > x.B.Armies[best]) {
			best = t
		}
	}
	return best
}

// ClusterRoot returns the root of Cluster's placement, attack and
// fortification (Cluster.placeArmies, attackPhase, fortifyPhase): the
// first territory of the most valuable positive continent the bot owns,
// else its biggest army.
func (x *Lux) ClusterRoot() int {
	if x.OwnsAnyPositiveCont() {
		return x.FirstIn(x.MostValuableOwnedCont())
	}
	return x.biggestArmy()
}

// EasiestCont returns the positive-bonus continent with the best ratio of
// the bot's armies in it to the other players' armies in it, in float32 as
// Java divides (an owned continent's ratio is +Inf; 0/0 is NaN and never
// best), the first on ties, -1 for none (getEasiestContToTake).
func (x *Lux) EasiestCont() int {
	best, ratio := -1, float32(-1)
	for c, cont := range x.B.Map.Continents {
		own, enemy := 0, 0
		for _, t := range cont.Territories {
			if x.B.Owner[t] == x.Seat {
				own += x.B.Armies[t]
			} else {
				enemy += x.B.Armies[t]
			}
		}
		r := divf32(own, enemy)
		if r > ratio && cont.Bonus > 0 {
			best, ratio = c, r
		}
	}
	return best
}

// divf32 is Java's (float)a/(float)b: +Inf for a > 0 = b, NaN for 0/0.
func divf32(a, b int) float32 {
	fa, fb := float32(a), float32(b)
	if fb == 0 {
		if fa == 0 {
			z := float32(0)
			return z / z
		}
		return fa / fb
	}
	return fa / fb
}

// weOwnContsAround reports whether the bot owns every continent, other
// than t's own, that a neighbour of t lies in (weOwnContsArround).
func (x *Lux) weOwnContsAround(t int) bool {
	c := x.B.Map.Territories[t].Continent
	for _, u := range x.neighbors(t) {
		if d := x.B.Map.Territories[u].Continent; d != c && !x.B.OwnsContinent(x.Seat, d) {
			return false
		}
	}
	return true
}

// isContBorder reports whether t, in continent c, has a neighbour outside
// c (BoardHelper.getContinentBorders).
func (x *Lux) isContBorder(t, c int) bool {
	for _, u := range x.neighbors(t) {
		if x.B.Map.Territories[u].Continent != c {
			return true
		}
	}
	return false
}

// --- Placement ---

// place adds n armies on t to buf and to the board (Lux places at once, so
// later choices of the same placement see them).
func (x *Lux) place(buf []sim.Placement, t, n int) []sim.Placement {
	x.B.Armies[t] += n
	return addPlacement(buf, t, n)
}

// PlaceOnClusterBorder appends the placement of n armies on the border of
// root's cluster (placeArmiesOnClusterBorder): repeatedly
// min(left, max(1, left/100)) armies, left being the armies still to
// place, on the border territory with the fewest armies (those placed
// included; the first in the border's order on ties), or everything on
// root when the cluster has no border. The board is updated.
func (x *Lux) PlaceOnClusterBorder(buf []sim.Placement, root, n int) []sim.Placement {
	if n <= 0 {
		return buf
	}
	// Placing changes no owner, so the border is the same for every chunk.
	x.border = x.AppendClusterBorder(x.border[:0], root)
	if len(x.border) == 0 {
		return x.place(buf, root, n)
	}
	for n > 0 {
		weakest := x.border[0]
		for _, t := range x.border[1:] {
			if x.B.Armies[t] < x.B.Armies[weakest] {
				weakest = t
			}
		}
		k := min(n, max(1, n/100))
		buf = x.place(buf, weakest, k)
		n -= k
	}
	return buf
}

// PlaceToTakeCont appends the placement of n armies aimed at continent c
// (placeArmiesToTakeCont):
//   - c < 0: on the border of the biggest army's cluster;
//   - c owned: one army at a time on the border territory of c (a
//     territory of c with a neighbour outside it) with the fewest armies,
//     the first in id order on ties, among those next to a continent the
//     bot does not own; a random border territory of c when there is none
//     (c's first territory when c has no border, where Java fails);
//   - else, if the bot owns territories in c with enemy neighbours in c,
//     everything on the one with the most (the first on ties);
//   - else everything on the start of the cheapest route into c
//     (cheapestRouteToCont).
//
// The board is updated.
func (x *Lux) PlaceToTakeCont(buf []sim.Placement, n, c int) []sim.Placement {
	b := &x.B
	if c < 0 {
		return x.PlaceOnClusterBorder(buf, x.biggestArmy(), n)
	}
	ts := b.Map.Continents[c].Territories
	if b.OwnsContinent(x.Seat, c) {
		for range n {
			least := -1
			nb := 0
			for _, t := range ts {
				if !x.isContBorder(t, c) {
					continue
				}
				nb++
				if (least < 0 || b.Armies[t] < b.Armies[least]) && !x.weOwnContsAround(t) {
					least = t
				}
			}
			if least < 0 {
				least = ts[0]
				if nb > 0 {
					k := x.RNG.IntN(nb)
					for _, t := range ts {
						if x.isContBorder(t, c) {
							if k == 0 {
								least = t
								break
							}
							k--
						}
					}
				}
			}
			buf = x.place(buf, least, 1)
		}
		return buf
	}
	best, most := -1, 0
	for _, t := range ts {
		if b.Owner[t] != x.Seat {
			continue
		}
		e := 0
		for _, u := range x.neighbors(t) {
			if b.Owner[u] != x.Seat && b.Map.Territories[u].Continent == c {
				e++
			}
		}
		if e > most {
			best, most = t, e
		}
	}
	if best >= 0 {
		return x.place(buf, best, n)
	}
	if route := x.cheapestRouteToCont(c); len(route) > 0 {
		return x.place(buf, route[0], n)
	}
	return x.PlaceOnClusterBorder(buf, x.biggestArmy(), n)
}

// dominantPlayer returns the opponent Lux's kill-dominant block hunts
// (placeArmiesToKillDominantPlayer): one holding at least half of all
// armies, of all income (seatIncome summed over every seat) or of all
// territories, the highest seat if several do, -1 for none.
func (x *Lux) dominantPlayer(s *sim.State) int {
	n := s.NumPlayers()
	armies, income := 0, 0
	var incomes [8]int // the first seats' incomes, read again below
	for q := range n {
		armies += s.TotalArmies(q)
		in := x.seatIncome(s, q)
		if q < len(incomes) {
			incomes[q] = in
		}
		income += in
	}
	who := -1
	for q := range n {
		var in int
		if q < len(incomes) {
			in = incomes[q]
		} else {
			in = x.seatIncome(s, q)
		}
		if q != x.Seat && (2*s.TotalArmies(q) >= armies || 2*in >= income || 2*s.TerritoryCount(q) >= s.NumTerritories()) {
			who = q
		}
	}
	return who
}

// seatIncome is Board.getPlayerIncome(q): sim.State.Income of a live
// seat; a dead seat's 0, or with DeadIncome its income formula's value.
func (x *Lux) seatIncome(s *sim.State, q int) int {
	if !x.DeadIncome && !s.Alive(q) {
		return 0
	}
	return s.Income(q)
}

// PlaceToKillDominant is placeArmiesToKillDominantPlayer: it sets MustKill
// to the dominant player (dominantPlayer) and, when there is one, records
// the continents it owns and places all n armies on the start of the
// cheapest route (cheapestRouteToCont) into the one whose route costs least
// (pathCost, the first on ties). ok is false (buf unchanged) when there is
// no dominant player or it owns no continent; MustKill stays set in the
// second case, as in Java.
func (x *Lux) PlaceToKillDominant(s *sim.State, buf []sim.Placement, n int) ([]sim.Placement, bool) {
	q := x.dominantPlayer(s)
	if q < 0 {
		return buf, false
	}
	x.MustKill = q
	nc := len(x.B.Map.Continents)
	if cap(x.killCont) < nc {
		x.killCont = make([]bool, nc)
	}
	x.killCont = x.killCont[:nc]
	placer, least := -1, 1000000
	for c := range nc {
		x.killCont[c] = x.B.OwnsContinent(q, c)
		if !x.killCont[c] {
			continue
		}
		route := x.cheapestRouteToCont(c)
		if len(route) == 0 {
			continue
		}
		if cost := x.pathCost(route); cost < least {
			least, placer = cost, route[0]
		}
	}
	if placer < 0 {
		return buf, false
	}
	return x.place(buf, placer, n), true
}

// --- Routes ---

// luxItem is an entry of the priority queue of Lux's route searches
// (CountryPathStack): the lowest value first and, among equal values, the
// one pushed last.
type luxItem struct{ v, seq, t int }

func (a luxItem) less(b luxItem) bool { return a.v < b.v || a.v == b.v && a.seq > b.seq }

func (x *Lux) push(t, v int) {
	x.seq++
	x.heap = heapPush(x.heap, luxItem{v, x.seq, t})
}

func (x *Lux) pop() luxItem {
	top, h := heapPop(x.heap)
	x.heap = h
	return top
}

// startSearch clears the seen flags, the predecessors and the queue.
func (x *Lux) startSearch() {
	clear(x.seen)
	for i := range x.prev {
		x.prev[i] = -1
	}
	x.heap, x.seq = x.heap[:0], 0
}

// cheapestRouteToCont returns the route Lux places on to take continent c
// (BoardHelper.cheapestRouteFromOwnerToCont), in a buffer reused by the
// next search: a territory of the bot in c (the lowest id) if it owns one;
// else the search starts from c's border territories at cost 0 and expands
// outward to every territory next to the one taken, in id order, each
// entered once, at the cost so far plus its armies, or minus its armies
// when it is the bot's (so that big stacks come first); the first
// territory of the bot taken from the queue (lowest cost, the latest
// pushed on ties) ends the search. The route runs from that territory to
// c's border. It is empty when the bot owns nothing.
func (x *Lux) cheapestRouteToCont(c int) []int {
	b := &x.B
	x.route = x.route[:0]
	for _, t := range b.Map.Continents[c].Territories {
		if b.Owner[t] == x.Seat {
			x.route = append(x.route, t)
			return x.route
		}
	}
	x.startSearch()
	bitsOK := x.masks()
	var seen uint64 // x.seen as bits, when bitsOK
	for _, t := range b.Map.Continents[c].Territories {
		if x.isContBorder(t, c) {
			x.seen[t] = true
			seen |= 1 << (uint(t) & 63)
			x.push(t, 0)
		}
	}
	for len(x.heap) > 0 {
		it := x.pop()
		if b.Owner[it.t] == x.Seat {
			for t := it.t; t >= 0; t = x.prev[t] {
				x.route = append(x.route, t)
			}
			return x.route
		}
		if bitsOK {
			// The neighbours not seen yet, in id order: the borders are
			// symmetric, so they are the territories that can attack it.
			for m := x.nb[it.t] &^ seen; m != 0; m &= m - 1 {
				u := bits.TrailingZeros64(m)
				v := it.v + b.Armies[u]
				if b.Owner[u] == x.Seat {
					v = it.v - b.Armies[u]
				}
				seen |= 1 << (uint(u) & 63)
				x.prev[u] = it.t
				x.push(u, v)
			}
			continue
		}
		for u := range b.Owner { // getAttackList: every territory that can attack it, in id order
			if x.seen[u] || !b.Map.Adjacent(u, it.t) {
				continue
			}
			v := it.v + b.Armies[u]
			if b.Owner[u] == x.Seat {
				v = it.v - b.Armies[u]
			}
			x.seen[u] = true
			x.prev[u] = it.t
			x.push(u, v)
		}
	}
	return x.route
}

// easyPathToCont returns the easiest path from territory from into
// continent c (BoardHelper.easyCostFromCountryToContinent), in a buffer
// reused by the next search: from, then territories not of from's owner,
// ending at the first territory of c taken from the queue. The search
// expands from the territory taken to its neighbours in adjacency order,
// each entered once, at the cost so far plus its armies, minus its armies
// in c; lowest cost first, the latest pushed on ties. It is empty when no
// such path exists.
func (x *Lux) easyPathToCont(from, c int) []int {
	b := &x.B
	x.route = x.route[:0]
	x.startSearch()
	owner := b.Owner[from]
	x.seen[from] = true
	t, v := from, 0
	for {
		for _, u := range x.neighbors(t) {
			if x.seen[u] || b.Owner[u] == owner {
				continue
			}
			w := v + b.Armies[u]
			if b.Map.Territories[u].Continent == c {
				w = v - b.Armies[u]
			}
			x.seen[u] = true
			x.prev[u] = t
			x.push(u, w)
		}
		if len(x.heap) == 0 {
			return x.route
		}
		it := x.pop()
		t, v = it.t, it.v
		if b.Map.Territories[t].Continent == c {
			break
		}
	}
	for u := t; u >= 0; u = x.prev[u] {
		x.route = append(x.route, u)
	}
	for i, j := 0, len(x.route)-1; i < j; i, j = i+1, j-1 {
		x.route[i], x.route[j] = x.route[j], x.route[i]
	}
	return x.route
}

// pathCost returns the armies on the path's territories not the bot's
// (SmartAgentBase.pathCost).
func (x *Lux) pathCost(path []int) int {
	cost := 0
	for _, t := range path {
		if x.B.Owner[t] != x.Seat {
			cost += x.B.Armies[t]
		}
	}
	return cost
}

// --- Move-in ---

// MoveIn answers the move-in after a conquery of to from from, within
// [lo, hi], as SmartAgentBase's obviousMoveArmiesInTest then
// memoryMoveArmiesInTest: everything if from has exactly one neighbour,
// the minimum if to has exactly one (both reset Memory); else, with Memory
// set, what it says (moveHalfNow: half of from's armies now, rounded
// down), clamped to [lo, hi], and Memory is reset. ok is false when
// neither test applies: the bot's own default decides. Only the map and
// from's armies are read, so to may still show its defender (as the
// engine shows it during [sim.Player.Occupy]).
func (x *Lux) MoveIn(s *sim.State, from, to, lo, hi int) (armies int, ok bool) {
	m := s.Map()
	switch {
	case len(m.Territories[from].Neighbors) == 1:
		x.Memory = MoveUnset
		return hi, true
	case len(m.Territories[to].Neighbors) == 1:
		x.Memory = MoveUnset
		return lo, true
	case x.Memory != MoveUnset:
		v := x.Memory
		if v == moveHalfNow {
			v = s.Armies(from) / 2
		}
		x.Memory = MoveUnset
		return min(max(v, lo), hi), true
	}
	return lo, false
}

// --- Fortification ---

// fortifyCluster appends the moves of fortifyCluster(root): starting from
// the border of root's cluster (AppendClusterBorder), a breadth-first
// search inward in adjacency order; each territory of the bot reached for
// the first time sends all its movable armies (all but one) to the
// territory that reached it, one step toward the border. The moves are
// legal together under [sim.FortifyOneStep] (every territory sends once,
// from its armies at the start of the phase). A territory sends before
// any army reaches it, so Lux's moveableArmies (fortify.movable =
// "start") moves the same armies: Board.fortifyArmies leaves one.
func (x *Lux) FortifyCluster(buf []sim.Move, root int) []sim.Move {
	b := &x.B
	if root < 0 || b.Owner[root] != x.Seat {
		return buf
	}
	q := x.AppendClusterBorder(x.border[:0], root)
	for _, t := range q {
		x.mark[t] = true
	}
	for i := 0; i < len(q); i++ {
		t := q[i]
		for _, u := range x.neighbors(t) {
			if b.Owner[u] != x.Seat || x.mark[u] {
				continue
			}
			if b.Armies[u] > 1 {
				buf = append(buf, sim.Move{From: u, To: t, Armies: b.Armies[u] - 1})
			}
			x.mark[u] = true
			q = append(q, u)
		}
	}
	for _, t := range q {
		x.mark[t] = false
	}
	x.border = q[:0]
	return buf
}

// --- Cards ---

// BestSet returns the set Lux cashes (Card.getBestSet, sillysoft/LuxSDK
// src/com/sillysoft/lux/Card.java) as indices into the bot's hand, in the
// order the Java method returns the cards; ok is false when the hand holds
// no set. The Java method, on the hand in its order:
//   - with wild cards, first the same search on the hand without them,
//     then (with two or more) on the hand without them plus its first
//     wild card, then on the whole hand;
//   - the search: the cards of territories the bot owns (in hand order)
//     if they hold a set; else those cards and the first card of the
//     others, in hand order, that completes a set with them; else those
//     cards and the first ordered pair of the others that does; else the
//     whole hand. The set of the cards found is [Lux.RandomSet]'s.
//
// So a set without wild cards comes first and, among the sets that use
// the most own cards, three of a kind in symbol order before one of each:
// five own cards of symbols 0, 1, 2, 0, 0 cash the three 0s.
func (x *Lux) BestSet(s *sim.State) (set [3]int, ok bool) {
	if !x.loadHand(s) {
		return set, false
	}
	all, nw := x.cardIdx[:0], x.noWild[:0]
	wild := -1 // the first wild card
	wilds := 0
	for i, c := range x.hand {
		all = append(all, i)
		if c.Symbol == sim.Wild {
			if wilds == 0 {
				wild = i
			}
			wilds++
			continue
		}
		nw = append(nw, i)
	}
	x.cardIdx, x.noWild = all, nw
	if wilds > 0 {
		if set, ok = x.ownedSet(s, nw); ok {
			return set, true
		}
		if wilds > 1 {
			// nw's cards are in hand order and the wild card is the
			// last of this list, as Java appends it.
			x.oneWild = append(append(x.oneWild[:0], nw...), wild)
			if set, ok = x.ownedSet(s, x.oneWild); ok {
				return set, true
			}
		}
	}
	return x.ownedSet(s, all)
}

// RandomSet returns the set of Card.getRandomSet on the bot's whole hand
// (indices into it, in the Java method's order); ok is false when the hand
// holds no set. Despite its name the method draws nothing: the first three
// cards of a kind (wild cards counting as any symbol) in symbol order 0, 1,
// 2, taken in hand order; else one card of each symbol, the first of each
// in hand order, a wild card standing in for the missing symbol.
func (x *Lux) RandomSet(s *sim.State) (set [3]int, ok bool) {
	if !x.loadHand(s) {
		return set, false
	}
	all := x.cardIdx[:0]
	for i := range x.hand {
		all = append(all, i)
	}
	x.cardIdx = all
	if !x.containsSet(all) {
		return set, false
	}
	return x.randomSet(all), true
}

// loadHand loads the bot's hand into x.hand; false when the state hides it.
func (x *Lux) loadHand(s *sim.State) bool {
	h, ok := s.HandOf(x.hand[:0], x.Seat)
	if !ok {
		return false
	}
	x.hand = h
	return true
}

// ownedSet is the search of Card.getBestSet on the hand's cards at idx
// (see [Lux.BestSet]).
func (x *Lux) ownedSet(s *sim.State, idx []int) (set [3]int, ok bool) {
	own := x.ownCards[:0]
	for _, i := range idx {
		if x.ownCard(s, i) {
			own = append(own, i)
		}
	}
	x.ownCards = own
	if len(own) > 2 && x.containsSet(own) {
		return x.randomSet(own), true
	}
	if len(own) > 1 {
		for _, c := range idx {
			if x.ownCard(s, c) {
				continue
			}
			x.plus = append(append(x.plus[:0], own...), c)
			if x.containsSet(x.plus) {
				return x.randomSet(x.plus), true
			}
		}
	}
	if len(own) > 0 {
		for _, c := range idx {
			if x.ownCard(s, c) {
				continue
			}
			for _, d := range idx {
				if d == c || x.ownCard(s, d) {
					continue
				}
				x.plus = append(append(x.plus[:0], own...), c, d)
				if x.containsSet(x.plus) {
					return x.randomSet(x.plus), true
				}
			}
		}
	}
	if x.containsSet(idx) {
		return x.randomSet(idx), true
	}
	return set, false
}

// ownCard reports whether the hand's card i shows a territory the bot
// owns (a wild card shows none).
func (x *Lux) ownCard(s *sim.State, i int) bool {
	t := int(x.hand[i].Territory)
	return t >= 0 && s.Owner(t) == x.Seat
}

// symbols counts the symbols (0, 1, 2 and sim.Wild) of the hand's cards
// at idx.
func (x *Lux) symbols(idx []int) (n [sim.Wild + 1]int) {
	for _, i := range idx {
		if sym := x.hand[i].Symbol; sym <= sim.Wild {
			n[sym]++
		}
	}
	return n
}

// containsSet is Card.containsASet: whether the hand's cards at idx hold
// three of a kind or one of each, wild cards counting as any symbol.
func (x *Lux) containsSet(idx []int) bool {
	if len(idx) < 3 {
		return false
	}
	n := x.symbols(idx)
	for k := range 3 {
		if n[k]+n[sim.Wild] > 2 {
			return true
		}
	}
	return min(n[0], 1)+min(n[1], 1)+min(n[2], 1)+n[sim.Wild] > 2
}

// randomSet is Card.getRandomSet on the hand's cards at idx, which must
// hold a set (containsSet): see [Lux.RandomSet].
func (x *Lux) randomSet(idx []int) (set [3]int) {
	n := x.symbols(idx)
	for k := range 3 {
		if n[k]+n[sim.Wild] <= 2 {
			continue
		}
		c := 0
		for _, i := range idx {
			if c == 3 {
				break
			}
			if sym := x.hand[i].Symbol; int(sym) == k || sym == sim.Wild {
				set[c] = i
				c++
			}
		}
		return set
	}
	var have [3]bool // slot k (symbol k) filled
	for _, i := range idx {
		sym := x.hand[i].Symbol
		switch {
		case sym < sim.Wild:
			if !have[sym] {
				set[sym], have[sym] = i, true
			}
		case sym == sim.Wild:
			// A wild card fills the first slot whose symbol the cards
			// lack altogether.
			for k := range 3 {
				if n[k] == 0 && !have[k] {
					set[k], have[k] = i, true
					break
				}
			}
		}
	}
	return set
}

// CashOne answers [sim.Player.Trade] for a bot that calls
// cashCardsIfPossible in its cardsPhase: one set (BestSet) a turn
// voluntarily, and BestSet whenever the trade is forced (Lux cashes for a
// bot left with too many cards).
func (x *Lux) CashOne(s *sim.State, forced bool) ([3]int, bool) {
	if !forced {
		if x.cashed == s.Round() {
			return [3]int{}, false
		}
		x.cashed = s.Round()
	}
	return x.BestSet(s)
}
