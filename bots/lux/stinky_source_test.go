package lux_test

import (
	"testing"

	"github.com/marslab-risk/marslab/sim"
)

// TestStinkySourceFrenzy: Stinky.attackPhase makes its first pass with the
// 1.5 ratio even above 300 armies (a, 200 against b's 150, waits; e takes
// f), and only then, if it still holds more than 300 armies, passes
// without the ratio until one launches nothing.
func TestStinkySourceFrenzy(t *testing.T) {
	t.Parallel()
	type frenzyCase struct {
		name  string
		steps []sourceStep
	}
	for _, tc := range []frenzyCase{
		{"below 300 after the first pass", []sourceStep{
			{blitzOrder(ge, gf), true, "e=0:1 f=0:80"}, // 281 armies
			{sim.AttackOrder{}, false, ""},
		}},
		{"above 300 after the first pass", []sourceStep{
			{blitzOrder(ge, gf), true, "e=0:1 f=0:105"}, // 306 armies
			// The frenzy pass: a on b regardless of the ratio; e has 1
			// army; f's weakest enemy is c.
			{blitzOrder(ga, gb), true, "a=0:1 b=1:40"},
			{blitzOrder(gf, gc), true, "f=0:1 c=0:100"},
			// c was conquered behind the pass's next territory (none after
			// f): the next pass finds it and attacks b (40).
			{blitzOrder(gc, gb), true, "c=0:1 b=1:1"},
			// f (1), a (1): nothing; then the pass that launched nothing.
			{sim.AttackOrder{}, false, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { playSteps(t, "stinky", "mars2006", "stinky-frenzy.toml", tc.steps) })
	}
}
