package mars

import (
	"runtime"
	"slices"
	"sync"

	"github.com/marslab-risk/marslab/dice"
)

// oddsPool keeps the dice tables and chain-odds stores of a factory's MARS
// bots that are gone, for its next bots: a search makes new players for each
// evaluation, and a new bot then starts with the chain odds its
// predecessors computed instead of an empty store. A store only caches
// odds that do not depend on what it holds, so the games are the same
// (TestOddsPoolSameGames). A pool is safe for concurrent use; an odds in
// use belongs to one bot.
type oddsPool struct {
	mu   sync.Mutex
	free []*odds
}

// maxSpareOdds is the most odds a pool keeps (each holds its battle table
// and up to maxStoreVals chain odds).
const maxSpareOdds = 8

// oddsLease is the odds a bot of a pool holds: the bot's cleanup returns
// it to the pool when the bot is collected.
type oddsLease struct{ o *odds }

// get returns a spare odds of dice rules r, or new ones.
func (p *oddsPool) get(r dice.Rules) (*odds, error) {
	p.mu.Lock()
	for i := len(p.free) - 1; i >= 0; i-- {
		if o := p.free[i]; o.r == r {
			p.free = slices.Delete(p.free, i, i+1)
			p.mu.Unlock()
			return o, nil
		}
	}
	p.mu.Unlock()
	return newOdds(r)
}

// put keeps o for a later bot, unless the pool is full.
func (p *oddsPool) put(o *odds) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < maxSpareOdds {
		p.free = append(p.free, o)
	}
}

// takeOdds returns the odds of dice rules r for the bot: new ones for a
// bot of New, else the pool's, the bot's earlier odds (other rules) going
// back to it, and the odds it holds returning when the bot is collected.
func (b *Bot) takeOdds(r dice.Rules) (*odds, error) {
	if b.spare == nil {
		return newOdds(r)
	}
	if b.lease != nil && b.lease.o != nil {
		b.spare.put(b.lease.o)
		b.lease.o = nil
	}
	o, err := b.spare.get(r)
	if err != nil {
		return nil, err
	}
	if b.lease == nil {
		b.lease = new(oddsLease)
		runtime.AddCleanup(b, b.spare.release, b.lease)
	}
	b.lease.o = o
	return o, nil
}

// release returns a collected bot's odds to the pool.
func (p *oddsPool) release(l *oddsLease) {
	if l.o != nil {
		p.put(l.o)
	}
}
