package human

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/marslab-risk/marslab/sim"
)

// FuzzApply: any body, decoded as the server decodes it, applied to any
// kind of decision, never panics, and whatever it accepts as a whole
// answer the engine's own checks accept too.
func FuzzApply(f *testing.F) {
	for _, s := range []string{`{"do":"trade","set":[2,3,4]}`, `{"do":"place","territory":0,"armies":5}`,
		`{"do":"attack","from":38,"to":39,"dice":2,"repeat":true,"stop_at":3}`, `{"do":"occupy","armies":3}`,
		`{"do":"move","from":0,"to":3,"armies":1}`, `{"do":"end_fortify"}`, `{"do":"setup","territory":-1}`, `{"do":"undo"}`} {
		for k := range 6 {
			f.Add(s, uint8(k))
		}
	}
	st := position(f, "mars2006", sim.PhaseAttack)
	kinds := []string{askSetup, askTrade, askPlace, askAttack, askOccupy, askFortify}
	f.Fuzz(func(t *testing.T, body string, kind uint8) {
		var a action
		dec := json.NewDecoder(bytes.NewReader([]byte(body)))
		dec.DisallowUnknownFields()
		if dec.Decode(&a) != nil {
			return
		}
		p := &prompt{Seat: 0, Kind: kinds[int(kind)%len(kinds)], st: st, Armies: 5, Left: 5, From: 38, To: 39, Min: 2, Max: 4, Forced: true}
		p.Mode = string(st.Rules().Fortify.Mode)
		p.fortifyMoves()
		for range 3 { // a placement or move in parts, then the rest
			ans, whole, err := p.apply(&a)
			if err != nil || !whole {
				continue
			}
			var check error
			switch p.Kind {
			case askTrade:
				if ans.ok {
					check = st.CheckTrade(0, ans.set)
				}
			case askSetup:
				check = st.CheckPlacement(0, 1, []sim.Placement{{Territory: ans.t, Armies: 1}})
			case askPlace:
				check = st.CheckPlacement(0, p.Armies, ans.place)
			case askAttack:
				if ans.ok {
					check = st.CheckAttack(0, ans.order)
				}
			case askOccupy:
				check = sim.CheckOccupy(p.Min, p.Max, ans.k)
			case askFortify:
				check = st.CheckMoves(0, ans.moves)
			}
			if check != nil {
				t.Fatalf("%s %s: accepted %+v, which the engine refuses: %v", p.Kind, body, ans, check)
			}
			return
		}
	})
}
