package sim_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/marslab-risk/marslab/sim"
)

// idler places its armies on its first territory and never attacks.
type idler struct{ sim.BasePlayer }

// logOneGame plays a game of three idlers under the mars2006 rules with a
// LogWriter and returns the log.
func logOneGame() []byte {
	_, rulesTOML, err := sim.RulesSource("mars2006")
	if err != nil {
		panic(err)
	}
	_, mapTOML, err := sim.MapSource("classic")
	if err != nil {
		panic(err)
	}
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		panic(err)
	}
	m, err := sim.LoadMap("classic")
	if err != nil {
		panic(err)
	}
	g, err := sim.NewGame(m, r, 3)
	if err != nil {
		panic(err)
	}
	var log bytes.Buffer
	h := sim.LogHeader{Seed: 7, Index: 1, RulesName: "mars2006", MapName: "classic",
		RulesTOML: string(rulesTOML), MapTOML: string(mapTOML)}
	for i := range 3 {
		h.Seats = append(h.Seats, sim.LogSeat{Label: fmt.Sprint("idler", i), Bot: "idler"})
	}
	lw, err := sim.NewLogWriter(&log, h)
	if err != nil {
		panic(err)
	}
	g.Observe(lw)
	res, err := g.Play([]sim.Player{&idler{}, &idler{}, &idler{}}, h.Seed, h.Index)
	if err != nil {
		panic(err)
	}
	if err := lw.Close(res); err != nil {
		panic(err)
	}
	return log.Bytes()
}

func ExampleLogReader() {
	lr, err := sim.NewLogReader(bytes.NewReader(logOneGame()))
	if err != nil {
		panic(err)
	}
	fmt.Println("rules:", lr.Header().RulesName, "seats:", len(lr.Header().Seats))
	turns := 0
	for lr.Next() {
		if lr.Event().Kind == sim.EvTurn {
			turns++
		}
	}
	res, err := lr.Result()
	if err != nil {
		panic(err)
	}
	fmt.Println("turns:", turns, "stalemate:", res.Stalemate, "rounds:", res.Rounds)
	// Output:
	// rules: mars2006 seats: 3
	// turns: 300 stalemate: true rounds: 100
}

func ExampleReplay() {
	players := func(h sim.LogHeader) ([]sim.Player, error) {
		ps := make([]sim.Player, len(h.Seats))
		for i := range ps {
			ps[i] = &idler{}
		}
		return ps, nil
	}
	rep, err := sim.Replay(context.Background(), bytes.NewReader(logOneGame()), players)
	if err != nil {
		panic(err)
	}
	fmt.Println("identical: seed", rep.Header.Seed, "game", rep.Header.Index, "rounds", rep.Result.Rounds)

	// A header that claims other rules than the ones it carries is refused.
	tampered := bytes.Replace(logOneGame(), []byte(`"rules_name":"mars2006"`), []byte(`"rules_name":"classic"`), 1)
	_, err = sim.Replay(context.Background(), bytes.NewReader(tampered), players)
	fmt.Println(err)
	// Output:
	// identical: seed 7 game 1 rounds 100
	// line 1 (header): rules_name = "classic": the rules played (rules_toml) are named "mars2006"
}

// ReplayWatch shows the position after every replayed event: here the
// armies on the board after the setup.
func ExampleReplayWatch() {
	players := func(h sim.LogHeader) ([]sim.Player, error) {
		return []sim.Player{&idler{}, &idler{}, &idler{}}, nil
	}
	board := 0
	_, err := sim.ReplayWatch(context.Background(), bytes.NewReader(logOneGame()), players, func(e *sim.Event, g *sim.Game) {
		if e.Kind == sim.EvTurn && e.Round == 1 && e.Player == 0 {
			s := g.State()
			for p := range s.NumPlayers() {
				board += s.TotalArmies(p)
			}
		}
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("armies on the board when round 1 begins:", board)
	// Output: armies on the board when round 1 begins: 105
}

// An ExplainWriter puts what a bot narrates into the log as explanation
// events, which LogReader returns and Replay skips.
func ExampleExplainWriter() {
	r, _ := sim.LoadRules("mars2006")
	m, _ := sim.LoadMap("classic")
	_, rt, _ := sim.RulesSource("mars2006")
	_, mt, _ := sim.MapSource("classic")
	g, _ := sim.NewGame(m, r, 3)
	var log bytes.Buffer
	lw, err := sim.NewLogWriter(&log, sim.LogHeader{RulesTOML: string(rt), MapTOML: string(mt)})
	if err != nil {
		panic(err)
	}
	w := sim.NewExplainWriter(lw, g, 2) // give it to a bots.Explainer's SetExplain
	fmt.Fprintf(w, "seat %d: I hold %d territories\n\tand bid on \"Ural\"\n", 2, 14)
	w.Flush()
	if err := lw.Close(sim.Result{Winner: -1, Stalemate: true}); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.HasPrefix(line, `{"e":"explain"`) {
			fmt.Println(line)
		}
	}
	// Output:
	// {"e":"explain","round":0,"phase":"setup","player":2,"text":"seat 2: I hold 14 territories"}
	// {"e":"explain","round":0,"phase":"setup","player":2,"text":"\tand bid on \"Ural\""}
}
