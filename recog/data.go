package recog

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/sim"
)

// Model is a data-driven action model: how often a player holding each
// mission card performs each kind of action on each territory, counted over
// games whose cards are known (simulated games, seen by an observer). It
// estimates
//
//	P(kind, territory | card) = (n(card, kind, territory) + Alpha) / (n(card) + Alpha * numKinds * territories)
//
// (additive smoothing), the likelihood Data multiplies into its posterior.
type Model struct {
	// Cards are the modelled cards (indices into Rules.Missions): the
	// continent cards, as Cards(Explanations(...)) lists them.
	Cards []int
	// Alpha is the additive smoothing, > 0 (1 is Laplace's rule).
	Alpha float64

	m      *sim.Map
	terr   int
	counts [][]float64 // counts[ci][kind*terr+t]
	kinds  [][]float64 // kinds[ci][kind]: counts summed over territories
	totals []float64   // totals[ci]
	games  []int       // games[ci]: player-games counted
}

// NewModel returns an empty model of the continent cards among missions on
// map m, with smoothing alpha (> 0).
func NewModel(m *sim.Map, missions []sim.Mission, alpha float64) (*Model, error) {
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return nil, fmt.Errorf("recog: alpha = %v: must be a finite number > 0", alpha)
	}
	exps, err := Explanations(m, missions)
	if err != nil {
		return nil, err
	}
	md := &Model{Cards: Cards(exps), Alpha: alpha, m: m, terr: len(m.Territories)}
	md.counts = make([][]float64, len(md.Cards))
	md.kinds = make([][]float64, len(md.Cards))
	for i := range md.counts {
		md.counts[i] = make([]float64, int(numKinds)*md.terr)
		md.kinds[i] = make([]float64, numKinds)
	}
	md.totals = make([]float64, len(md.Cards))
	md.games = make([]int, len(md.Cards))
	return md, nil
}

// index returns the position of card in Cards, or -1.
func (md *Model) index(card int) int {
	for i, c := range md.Cards {
		if c == card {
			return i
		}
	}
	return -1
}

// add counts one player-game of a player holding card that performed the
// actions acts (only those of Kind and Territory in range); a card the model
// does not know is ignored.
func (md *Model) add(card int, acts []action) {
	ci := md.index(card)
	if ci < 0 {
		return
	}
	md.games[ci]++
	for _, a := range acts {
		if a.Kind < 0 || a.Kind >= numKinds || a.Territory < 0 || a.Territory >= md.terr {
			continue
		}
		md.counts[ci][int(a.Kind)*md.terr+a.Territory]++
		md.kinds[ci][a.Kind]++
		md.totals[ci]++
	}
}

// Merge adds the counts of other, a model of the same cards and map, to
// md. Counts are whole numbers, so merging in any order gives the same
// model.
func (md *Model) Merge(other *Model) {
	for ci := range md.counts {
		for j, v := range other.counts[ci] {
			md.counts[ci][j] += v
		}
		for k, v := range other.kinds[ci] {
			md.kinds[ci][k] += v
		}
		md.totals[ci] += other.totals[ci]
		md.games[ci] += other.games[ci]
	}
}

// Games returns the number of player-games counted for the card at
// position ci of Cards.
func (md *Model) Games(ci int) int { return md.games[ci] }

// logLik returns log P(a.Kind, a.Territory | Cards[ci]).
func (md *Model) logLik(ci int, a action) float64 {
	n := md.counts[ci][int(a.Kind)*md.terr+a.Territory]
	return math.Log((n + md.Alpha) / (md.totals[ci] + md.Alpha*float64(int(numKinds)*md.terr)))
}

// Trainer is a [sim.Observer] that records every seat's actions in a game
// for a Model; Commit adds them once the cards are known.
type Trainer struct {
	acts [][]action
	buf  []action
}

// Start prepares the trainer for a game of players seats.
func (tr *Trainer) Start(players int) {
	for len(tr.acts) < players {
		tr.acts = append(tr.acts, nil)
	}
	tr.acts = tr.acts[:players]
	for p := range tr.acts {
		tr.acts[p] = tr.acts[p][:0]
	}
}

// Observe records the actions the event shows.
func (tr *Trainer) Observe(e *sim.Event) {
	tr.buf = actions(tr.buf[:0], e)
	for _, a := range tr.buf {
		if a.Player >= 0 && a.Player < len(tr.acts) {
			tr.acts[a.Player] = append(tr.acts[a.Player], a)
		}
	}
}

// Commit adds the game's actions to md, seat p holding card cards[p].
func (tr *Trainer) Commit(md *Model, cards []int) {
	for p, acts := range tr.acts {
		if p < len(cards) {
			md.add(cards[p], acts)
		}
	}
}

// Data is the data-driven recogniser: the same Bayesian update as [PHATT]
// (multiply by the likelihood of each observed action, normalise), over
// the cards themselves, with the likelihoods a Model estimated from
// simulated games instead of [PHATT]'s hand-set weights. It keeps
// log-probabilities, so nothing underflows.
//
// Plain, the likelihood of an action is the model's joint
// P(kind, territory | card). With Choice set it is a choice model that,
// like [PHATT], looks at what the player could have done instead:
//
//	P(kind | card) * f(card, kind, t) / sum over u in options of f(card, kind, u)
//
// where f is the smoothed count n(card, kind, u) + Alpha and the options
// are, as [PHATT]'s pending sets (Algorithm 3.3.2), the territories not the
// player's next to one of its own for an occupation, and the player's own
// territories for the other kinds; the board is tracked from the events.
type Data struct {
	md *Model
	// Choice turns on the choice model.
	Choice bool
	logp   [][]float64
	acts   []action
	owner  []int
	opts   []bool
}

// NewData returns a recogniser using model md (which it reads, never
// changes; several recognisers may share one).
func NewData(md *Model) *Data {
	return &Data{md: md, owner: make([]int, md.terr), opts: make([]bool, md.terr)}
}

// SetModel makes the recogniser use model md from its next Start on; md
// must model the same cards on the same map.
func (d *Data) SetModel(md *Model) { d.md = md }

// Start prepares the recogniser for a game of players seats, every card at
// the uniform prior.
func (d *Data) Start(players int) {
	for len(d.logp) < players {
		d.logp = append(d.logp, make([]float64, len(d.md.Cards)))
	}
	d.logp = d.logp[:players]
	for p := range d.logp {
		clear(d.logp[p])
	}
	for t := range d.owner {
		d.owner[t] = -1
	}
}

// Observe adds the log-likelihood of every action the event shows to its
// player's cards.
func (d *Data) Observe(e *sim.Event) {
	if e.Kind == sim.EvDeal {
		d.owner[e.To] = e.Player
		return
	}
	d.acts = actions(d.acts[:0], e)
	for _, a := range d.acts {
		if a.Player < 0 || a.Player >= len(d.logp) || a.Territory < 0 || a.Territory >= d.md.terr {
			continue
		}
		if d.Choice {
			d.options(a)
		}
		for ci := range d.logp[a.Player] {
			if d.Choice {
				d.logp[a.Player][ci] += d.choiceLogLik(ci, a)
			} else {
				d.logp[a.Player][ci] += d.md.logLik(ci, a)
			}
		}
	}
	if e.Kind == sim.EvOccupation {
		d.owner[e.To] = e.Player
	}
}

// options marks in d.opts the territories a.Player could have chosen
// instead of a.Territory (always including it).
func (d *Data) options(a action) {
	clear(d.opts)
	occupy := a.Kind == successfulOccupation || a.Kind == failedOccupation
	for t, o := range d.owner {
		if o != a.Player {
			continue
		}
		if !occupy {
			d.opts[t] = true
			continue
		}
		for _, u := range d.md.m.Territories[t].Neighbors {
			if d.owner[u] != a.Player {
				d.opts[u] = true
			}
		}
	}
	d.opts[a.Territory] = true
}

// choiceLogLik is the choice model's log-likelihood of a under card ci.
func (d *Data) choiceLogLik(ci int, a action) float64 {
	md := d.md
	row := md.counts[ci][int(a.Kind)*md.terr : int(a.Kind+1)*md.terr]
	sum := 0.0
	for t, in := range d.opts {
		if in {
			sum += row[t] + md.Alpha
		}
	}
	pk := (md.kinds[ci][a.Kind] + md.Alpha) / (md.totals[ci] + md.Alpha*float64(numKinds))
	return math.Log(pk) + math.Log((row[a.Territory]+md.Alpha)/sum)
}

// Tied returns the number of cards tied for seat p's largest probability
// (within a relative 1e-12): 1 when one card leads.
func (d *Data) Tied(p int) int {
	lp := d.logp[p]
	lim := topLimit(lp)
	n := 0
	for _, x := range lp {
		if x >= lim {
			n++
		}
	}
	return n
}

// Predict returns seat p's most probable card, ties broken by tie as
// [PHATT.Predict] does.
func (d *Data) Predict(p int, tie uint64) int {
	return d.md.Cards[argmaxTie(d.logp[p], tie)]
}
