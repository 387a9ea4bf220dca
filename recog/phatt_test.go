package recog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// exampleMap is the closed world of Figure 3.1 (Khan & Rovatsos 2013,
// section 3.3.1): North Africa borders Western Europe, Brazil, Egypt, Congo
// and East Africa; Middle East (Asia) borders only Egypt.
func exampleMap(t testing.TB) *sim.Map {
	t.Helper()
	m, err := sim.NewMap("figure3.1", []sim.Continent{
		{Name: "Europe", Bonus: 5}, {Name: "South America", Bonus: 2}, {Name: "Africa", Bonus: 3}, {Name: "Asia", Bonus: 7},
	}, []sim.Territory{
		{Name: "North Africa", Continent: 2, Neighbors: []int{1, 2, 3, 4, 5}},
		{Name: "Western Europe", Continent: 0, Neighbors: []int{0}},
		{Name: "Brazil", Continent: 1, Neighbors: []int{0}},
		{Name: "Egypt", Continent: 2, Neighbors: []int{0, 5, 6}},
		{Name: "Congo", Continent: 2, Neighbors: []int{0, 5}},
		{Name: "East Africa", Continent: 2, Neighbors: []int{0, 3, 4}},
		{Name: "Middle East", Continent: 3, Neighbors: []int{3}},
	})
	require.NoError(t, err)
	return m
}

// exampleMissions are the three root goals of the example, ordered so that
// the explanations come in the order of Tables 3.4-3.8: O-AS-AF,
// O-EU-SA-AF, O-EU-SA-AS, O-AS-SA.
var exampleMissions = []sim.Mission{
	{Name: "Occupy Asia and Africa", Kind: sim.MissionContinents, Continents: []string{"Asia", "Africa"}},
	{Name: "Occupy Europe, South America and one other", Kind: sim.MissionContinents, Continents: []string{"Europe", "South America"}, Extra: 1},
	{Name: "Occupy Asia and South America", Kind: sim.MissionContinents, Continents: []string{"Asia", "South America"}},
}

// TestWorkedExample reproduces section 3.3.1 number for number: p1 owns
// North Africa and conquers Western Europe, w = 0.02.
func TestWorkedExample(t *testing.T) {
	t.Parallel()
	m := exampleMap(t)
	r, err := NewPHATT(m, exampleMissions, DefaultParams())
	require.NoError(t, err)
	names := []string{}
	for _, e := range r.Explanations() {
		names = append(names, e.Name)
	}
	require.Equal(t, []string{"Asia + Africa", "Europe + South America + Africa", "Europe + South America + Asia", "Asia + South America"}, names)

	r.Start(2)
	r.setOwner(0, 0) // p1 (seat 0) owns North Africa
	for t := 1; t < len(m.Territories); t++ {
		r.setOwner(t, 1)
	}
	// Table 3.4: consistent actions of the pending set of 5; Table 3.5: bases.
	cons := []int{3, 5, 2, 1}
	bases := []float64{0.188, 0.18, 0.192, 0.196}
	for i := range cons {
		assert.InDelta(t, bases[i], baseWeight(0.02, 5, cons[i]), 1e-12, "base %d", i)
	}
	// Table 3.6 and the consistency of SO-Western-Europe with each.
	so := action{Player: 0, Kind: successfulOccupation, Territory: 1}
	lik := r.likelihoods(nil, so)
	assert.InDeltaSlice(t, []float64{0.188, 0.2, 0.212, 0.196}, lik, 1e-12)
	// Table 3.7: Pr(goals) * Pr(obs|exp), Pr(goals) = 1/3 (the paper truncates
	// to four places).
	prior := r.Probabilities(0)
	for i, want := range []float64{0.0626, 0.0666, 0.0706, 0.0653} {
		assert.InDelta(t, 1.0/3, prior[i], 1e-12)
		got := prior[i] * lik[i]
		assert.True(t, got >= want && got < want+1e-4, "Table 3.7 row %d: %.5f, want %.4f", i, got, want)
	}
	// Table 3.8: after normalisation.
	r.Observe(&sim.Event{Kind: sim.EvOccupation, Player: 0, Other: 1, From: 0, To: 1, Armies: 3})
	post := r.Probabilities(0)
	for i, want := range []float64{0.236, 0.251, 0.266, 0.246} {
		assert.InDelta(t, want, post[i], 5e-4, "Table 3.8 row %d", i)
	}
	// The most probable explanation is O-EU-SA-AS, whose card is the second.
	assert.Equal(t, 1, r.Predict(0, 0))
	// The defender lost Western Europe: a failed defence, Down (0.98) on
	// the two explanations with Europe, then normalised.
	d := r.Probabilities(1)
	z := 2*0.98 + 2
	assert.InDeltaSlice(t, []float64{1 / z, 0.98 / z, 0.98 / z, 1 / z}, d, 1e-12)
}

// TestFactors checks the factor model of defences, movements and
// reinforcements (section 3.3.1, after Table 3.8).
func TestFactors(t *testing.T) {
	t.Parallel()
	m := exampleMap(t)
	r, err := NewPHATT(m, exampleMissions, DefaultParams())
	require.NoError(t, err)
	r.Start(1)
	for _, tc := range []struct {
		kind actionKind
		t    int
		want []float64
	}{
		{reinforce, 6, []float64{1.02, 0.98, 1.02, 1.02}},   // Middle East: Asia
		{reinforce, 2, []float64{0.98, 1.02, 1.02, 1.02}},   // Brazil: South America
		{successfulDefence, 1, []float64{1, 1.02, 1.02, 1}}, // Western Europe
		{failedDefence, 3, []float64{0.98, 0.98, 1, 1}},     // Egypt: Africa
		{movement, 6, []float64{1.02, 1, 1.02, 1.02}},       // Middle East
	} {
		got := r.likelihoods(nil, action{Player: 0, Kind: tc.kind, Territory: tc.t})
		assert.Equal(t, tc.want, got, "%v on %d", tc.kind, tc.t)
	}
}

// TestFailedOccupationWeight: a failed occupation moves the explanations
// by the lower w.
func TestFailedOccupationWeight(t *testing.T) {
	t.Parallel()
	r := northAfricaGame(t, DefaultParams())
	lik := r.likelihoods(nil, action{Player: 0, Kind: failedOccupation, Territory: 1})
	for i, c := range []int{3, 5, 2, 1} {
		b := (1 - 0.01*float64(c)) / 5
		if i == 1 || i == 2 {
			b += 0.01
		}
		assert.InDelta(t, b, lik[i], 1e-12)
	}
}

// TestStateWeights: the weight of section 6.0.3 grows with the share of an
// explanation's territories owned and falls with the proportion of
// consistent actions.
func TestStateWeights(t *testing.T) {
	t.Parallel()
	par := DefaultParams()
	par.StateWeights = true
	r := northAfricaGame(t, par)
	lik := r.likelihoods(nil, action{Player: 0, Kind: successfulOccupation, Territory: 1})
	// Explanation O-EU-SA-AF: 5 consistent of 5, so w is 0: every action 1/5.
	assert.InDelta(t, 0.2, lik[1], 1e-12)
	// O-EU-SA-AS: 2 of 5 consistent, 0 of its 3 territories (WE, Brazil, ME)
	// owned: w is 0 as well.
	assert.InDelta(t, 0.2, lik[2], 1e-12)
	// O-AS-AF: owns 1 of its 5 territories, 3 of 5 consistent:
	// w = 0.02*5*(1-3/5)*(1/5) = 0.008; SO-Western-Europe is inconsistent.
	w := 0.02 * 5 * (1 - 3.0/5) * (1.0 / 5)
	assert.InDelta(t, (1-3*w)/5, lik[0], 1e-12)
}

func TestParamsValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    func(*Params)
		want string
	}{
		{func(p *Params) { p.WSuccess = 1 }, "w_success = 1: must be in [0, 1)"},
		{func(p *Params) { p.WFailed = -0.1 }, "w_failed = -0.1"},
		{func(p *Params) { p.Up = 1.2 }, "up = 1.2: must be in (0.9, 1.1)"},
		{func(p *Params) { p.Down = 0.9 }, "down = 0.9"},
		{func(p *Params) { p.StateScale = 0 }, "state_scale = 0"},
	} {
		p := DefaultParams()
		tc.f(&p)
		assert.ErrorContains(t, p.Validate(), tc.want)
	}
	assert.NoError(t, DefaultParams().Validate())
}

func TestExplanationsClassic(t *testing.T) {
	t.Parallel()
	r, err := sim.LoadRules("missions")
	require.NoError(t, err)
	m, err := r.LoadMap()
	require.NoError(t, err)
	exps, err := Explanations(m, r.Missions)
	require.NoError(t, err)
	// The 12 explanations of section 3.2.6.
	require.Len(t, exps, 12)
	assert.Equal(t, "Europe + Australia + North America", exps[0].Name)
	assert.Equal(t, "Asia + Africa", exps[11].Name)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, Cards(exps))
	bad := []sim.Mission{{Kind: sim.MissionContinents, Continents: []string{"Atlantis"}}}
	_, err = Explanations(m, bad)
	assert.ErrorContains(t, err, `missions[0].continents = "Atlantis": no such continent`)
	_, err = Explanations(m, r.Missions[6:])
	assert.ErrorContains(t, err, "no continent mission")
}

// northAfricaGame returns PHATT with parameters par on the example map,
// started for two players: seat 0 owns North Africa (territory 0), seat 1
// every other territory.
func northAfricaGame(t *testing.T, par Params) *PHATT {
	t.Helper()
	m := exampleMap(t)
	r, err := NewPHATT(m, exampleMissions, par)
	require.NoError(t, err)
	r.Start(2)
	r.setOwner(0, 0)
	for t := 1; t < len(m.Territories); t++ {
		r.setOwner(t, 1)
	}
	return r
}
