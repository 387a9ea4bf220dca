package recog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/sim"
)

// Explanation is one explanation of a player's behaviour (Khan & Rovatsos
// 2013, section 3.2.6): a continent mission card with every continent it
// asks for named. A card of two named continents is one explanation; a card
// of two named continents and k others of the player's choice expands into
// one child per choice of the k others (section 3.2.1), so the six
// continent cards of the classic rule set give the 12 explanations of
// section 3.2.6.
type Explanation struct {
	// Name lists the continents, e.g. "Europe + South America + Asia".
	Name string
	// Mission is the card the explanation belongs to (its parent root
	// goal), an index into Rules.Missions.
	Mission int
	// Continents are the continent ids the explanation asks for (its
	// sub-goals), the card's named continents first.
	Continents []int
}

// Explanations expands the continent cards of missions (on map m) into
// their explanations, in card order and, within a card, in increasing order
// of the chosen continents' ids. Cards of other kinds (territories,
// eliminate) have no explanation. It fails when a card names a continent m
// does not have, or when there is no continent card at all.
func Explanations(m *sim.Map, missions []sim.Mission) ([]Explanation, error) {
	var out []Explanation
	for i, ms := range missions {
		if ms.Kind != sim.MissionContinents {
			continue
		}
		named := make([]int, 0, len(ms.Continents))
		for _, name := range ms.Continents {
			c := continentID(m, name)
			if c < 0 {
				return nil, fmt.Errorf("recog: missions[%d].continents = %q: no such continent on map %q", i, name, m.Name)
			}
			named = append(named, c)
		}
		var others []int
		for c := range m.Continents {
			if !slices.Contains(named, c) {
				others = append(others, c)
			}
		}
		if ms.Extra > len(others) {
			return nil, fmt.Errorf("recog: missions[%d].extra = %d: only %d other continents on map %q", i, ms.Extra, len(others), m.Name)
		}
		combinations(others, ms.Extra, func(extra []int) {
			cs := append(append([]int(nil), named...), extra...)
			names := make([]string, len(cs))
			for j, c := range cs {
				names[j] = m.Continents[c].Name
			}
			out = append(out, Explanation{Name: strings.Join(names, " + "), Mission: i, Continents: cs})
		})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("recog: no continent mission among the %d mission cards", len(missions))
	}
	return out, nil
}

// Cards returns the distinct cards (indices into Rules.Missions) of exps, in
// increasing order: the root goals the explanations stand for.
func Cards(exps []Explanation) []int {
	var cards []int
	for _, e := range exps {
		if !slices.Contains(cards, e.Mission) {
			cards = append(cards, e.Mission)
		}
	}
	return cards
}

// combinations calls f with every k-subset of xs, in lexicographic order of
// positions; f must not keep its argument.
func combinations(xs []int, k int, f func([]int)) {
	buf := make([]int, 0, k)
	var rec func(start int)
	rec = func(start int) {
		if len(buf) == k {
			f(buf)
			return
		}
		for i := start; i <= len(xs)-(k-len(buf)); i++ {
			buf = append(buf, xs[i])
			rec(i + 1)
			buf = buf[:len(buf)-1]
		}
	}
	rec(0)
}

func continentID(m *sim.Map, name string) int {
	for c := range m.Continents {
		if m.Continents[c].Name == name {
			return c
		}
	}
	return -1
}
