package mars

import (
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// board is the mediator's picture of the game: the map's static facts,
// precomputed once per map, and the current owners and armies (the
// embedded [blocks.Board], whose position queries MARS shares with the other
// bots), read from the [sim.State] at each phase. Every slice is indexed by
// territory or continent id and reused between turns.
//
// The terms of Table 3 that MARS evaluates for every territory on every
// placement (the friendly and enemy neighbours and their armies, gathered
// in one pass over the neighbours; the continent shares, summarised once
// per phase in contMine and contSole) are computed here rather than asked
// of the [blocks.Board] queries, which take a pass each.
type board struct {
	// Static, per map.
	nbr       [][]int   // neighbours of each territory
	cont      []int     // continent of each territory
	contTerr  [][]int   // territories of each continent
	contBonus []float64 // V_b of each continent
	vsv       []float64 // V_sv = V_b / (V_s * V_nb) of each continent
	vcb       []int     // V_cb: other continents each territory borders
	// nmask[t] has bit u set for every neighbour u of t, on maps of at
	// most 64 territories whose neighbour lists are ascending (so that
	// visiting the bits from the lowest visits the list in order); nil
	// otherwise.
	nmask []uint64

	// Dynamic.
	blocks.Board            // owners and armies
	s            *sim.State // the state the board was last loaded from
	me           int
	contMine     []int // territories of each continent owned by me
	contSole     []int // the enemy owning a whole continent, or -1
	// summed is set when contMine and contSole are those of the owners:
	// load clears it, and they are summed up (refresh) only when a
	// decision asks for them (the placement and the fortification, not
	// the attacks, which load the board after every roll).
	summed bool
	// On maps with neighbour masks, mine has the bits of the board's
	// player's territories and strong those of its territories of two
	// armies or more (the ones that may attack), when masked is set: load
	// clears it, ownMasks sets them, and update keeps them.
	mine, strong uint64
	masked       bool
	// changed has the bits of the territories whose owner or armies may
	// have changed since the attack bids were last made (maps with
	// neighbour masks): every one after load, the two an update re-reads.
	// chooseAttack clears it.
	changed uint64
}

// newBoard precomputes the static part for a map given as adjacency lists,
// the continent of every territory and every continent's bonus. V_nb is
// the number of the continent's territories that have a neighbour in
// another continent; a continent without such a border (a one-continent
// map) counts as having one, so that V_sv stays finite.
func newBoard(nbr [][]int, cont []int, bonus []int) *board {
	n, nc := len(nbr), len(bonus)
	b := &board{
		nbr: nbr, cont: cont,
		contTerr:  make([][]int, nc),
		contBonus: make([]float64, nc),
		vsv:       make([]float64, nc),
		vcb:       make([]int, n),
		Board:     blocks.Board{Owner: make([]int, n), Armies: make([]int, n)},
		contMine:  make([]int, nc),
		contSole:  make([]int, nc),
	}
	borders := make([]int, nc)
	seen := make([]int, nc)
	for i := range seen {
		seen[i] = -1
	}
	for t := range nbr {
		c := cont[t]
		b.contTerr[c] = append(b.contTerr[c], t)
		border := false
		for _, u := range nbr[t] {
			if cu := cont[u]; cu != c {
				border = true
				if seen[cu] != t {
					seen[cu] = t
					b.vcb[t]++
				}
			}
		}
		if border {
			borders[c]++
		}
	}
	b.nmask = neighbourMasks(nbr)
	for c := range bonus {
		b.contBonus[c] = float64(bonus[c])
		nb := max(borders[c], 1)
		if s := len(b.contTerr[c]); s > 0 {
			b.vsv[c] = float64(bonus[c]) / float64(s*nb)
		}
	}
	return b
}

// neighbourMasks returns the neighbour bit sets of a map of at most 64
// territories with strictly ascending neighbour lists, or nil.
func neighbourMasks(nbr [][]int) []uint64 {
	if len(nbr) > 64 {
		return nil
	}
	masks := make([]uint64, len(nbr))
	for t, ns := range nbr {
		for i, u := range ns {
			if u < 0 || u >= len(nbr) || (i > 0 && u <= ns[i-1]) {
				return nil
			}
			masks[t] |= 1 << u
		}
	}
	return masks
}

// boardFromMap builds the static board of a [sim.Map].
func boardFromMap(m *sim.Map) *board {
	nbr := make([][]int, m.NumTerritories())
	cont := make([]int, m.NumTerritories())
	for t := range m.Territories {
		nbr[t] = m.Territories[t].Neighbors
		cont[t] = m.Territories[t].Continent
	}
	bonus := make([]int, len(m.Continents))
	for c := range m.Continents {
		bonus[c] = m.Continents[c].Bonus
	}
	return newBoard(nbr, cont, bonus)
}

// load copies owners and armies from s, as seen by seat me, and keeps s
// for the searches through MARS's territories ([sim.OwnedPaths]).
func (b *board) load(s *sim.State, me int) {
	b.s = s
	b.Load(s)
	b.me, b.summed, b.masked = me, false, false
	b.changed = ^uint64(0)
}

// update re-reads territories from and to of s, after a roll of an attack
// from -> to (and the occupation of a conquest), which changes no other
// territory: the board is then the one load gives.
func (b *board) update(s *sim.State, from, to int) {
	b.s = s
	b.Owner[from], b.Armies[from] = s.Owner(from), s.Armies(from)
	b.Owner[to], b.Armies[to] = s.Owner(to), s.Armies(to)
	b.summed = false
	b.changed |= 1<<(from&63) | 1<<(to&63)
	if b.masked {
		b.setMasks(from)
		b.setMasks(to)
	}
}

// setMasks sets t's bits of mine and strong from its owner and armies.
func (b *board) setMasks(t int) {
	bit := uint64(1) << t
	b.mine &^= bit
	b.strong &^= bit
	if b.Owner[t] == b.me {
		b.mine |= bit
		if b.Armies[t] >= 2 {
			b.strong |= bit
		}
	}
}

// ownMasks returns mine and strong (see board), on maps with neighbour
// masks.
func (b *board) ownMasks() (mine, strong uint64) {
	if !b.masked {
		b.mine, b.strong = 0, 0
		for t, o := range b.Owner {
			if o == b.me {
				b.mine |= 1 << t
				if b.Armies[t] >= 2 {
					b.strong |= 1 << t
				}
			}
		}
		b.masked = true
	}
	return b.mine, b.strong
}

// refresh recomputes the per-continent ownership summaries after owner
// changed.
func (b *board) refresh(me int) {
	b.me, b.summed = me, true
	for c, ts := range b.contTerr {
		mine, sole := 0, -2
		for _, t := range ts {
			o := b.Owner[t]
			if o == me {
				mine++
			}
			switch {
			case sole == -2:
				sole = o
			case sole != o:
				sole = -1
			}
		}
		if sole == me || sole < 0 {
			sole = -1
		}
		b.contMine[c], b.contSole[c] = mine, sole
	}
}

// holdsContinentOf reports whether the board's player owns every territory
// of t's continent.
func (b *board) holdsContinentOf(t int) bool {
	if !b.summed {
		b.refresh(b.me)
	}
	c := b.cont[t]
	return b.contMine[c] == len(b.contTerr[c])
}

// terms are the variables of Table 3 for one territory, as seen by the
// board's player, and the resulting value V_c of equation (2).
type terms struct {
	Vsv, Vcp             float64
	Vfn, Vfnu, Ven, Venu int
	Vcb, Voc, Veoc       int
	Vb                   float64
	Value                float64
}

// terms evaluates territory t for the board's player (MARS paper Table 3
// and equations (2)-(3)). Friendly means owned by the player; every other
// territory is an enemy one. V_cp is the fraction of t's continent the
// player owns; V_oc is 1 when the player owns every other territory of the
// continent (whoever owns t); V_eoc is 1 when a single enemy owns the whole
// continent.
func (b *board) terms(p *Params, t int) terms {
	if !b.summed {
		b.refresh(b.me)
	}
	var x terms
	c := b.cont[t]
	for _, u := range b.nbr[t] {
		if b.Owner[u] == b.me {
			x.Vfn++
			x.Vfnu += b.Armies[u]
		} else {
			x.Ven++
			x.Venu += b.Armies[u]
		}
	}
	x.Vsv = b.vsv[c]
	x.Vb = b.contBonus[c]
	x.Vcb = b.vcb[t]
	size := len(b.contTerr[c])
	mine := b.contMine[c]
	x.Vcp = float64(mine) / float64(size)
	others := mine
	if b.Owner[t] == b.me {
		others--
	}
	if others == size-1 {
		x.Voc = 1
	}
	if b.contSole[c] >= 0 {
		x.Veoc = 1
	}
	x.Value = p.Csv*x.Vsv + p.Cfn*float64(x.Vfn) + p.Cfnu*float64(x.Vfnu) +
		p.Cen*float64(x.Ven) + p.Cenu*float64(x.Venu) + p.Ccb*float64(x.Vcb) +
		x.Vb*(x.Vcp+p.Coc*float64(x.Voc)+p.Ceoc*float64(x.Veoc))
	return x
}

// value returns V_c of equation (2) for territory t: terms(p, t).Value,
// computed without the other fields (the placement asks it of every
// territory), by the same expression.
func (b *board) value(p *Params, t int) float64 {
	if !b.summed {
		b.refresh(b.me)
	}
	var vfn, vfnu, ven, venu int
	for _, u := range b.nbr[t] {
		if b.Owner[u] == b.me {
			vfn++
			vfnu += b.Armies[u]
		} else {
			ven++
			venu += b.Armies[u]
		}
	}
	c := b.cont[t]
	size := len(b.contTerr[c])
	mine := b.contMine[c]
	others := mine
	if b.Owner[t] == b.me {
		others--
	}
	var voc, veoc int
	if others == size-1 {
		voc = 1
	}
	if b.contSole[c] >= 0 {
		veoc = 1
	}
	vcp := float64(mine) / float64(size)
	vb := b.contBonus[c]
	return p.Csv*b.vsv[c] + p.Cfn*float64(vfn) + p.Cfnu*float64(vfnu) +
		p.Cen*float64(ven) + p.Cenu*float64(venu) + p.Ccb*float64(b.vcb[t]) +
		vb*(vcp+p.Coc*float64(voc)+p.Ceoc*float64(veoc))
}

// maxEnemy returns the largest enemy stack adjacent to t, ignoring
// territories marked in skip (nil for none).
func (b *board) maxEnemy(t int, skip []bool) int {
	e := 0
	for _, u := range b.nbr[t] {
		if b.Owner[u] != b.me && (skip == nil || !skip[u]) && b.Armies[u] > e {
			e = b.Armies[u]
		}
	}
	return e
}
