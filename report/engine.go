package report

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
)

// engineNotes are the note sections of an engine notebook.
var engineNotes = []string{"intro", "speed", "bots", "length", "memory", "mars", "conclusion"}

// engineConfig is the config of an engine notebook.
type engineConfig struct {
	Header
	Engine struct {
		// Rules is the rule set of the speed, bot, memory and MARS
		// measurements: an embedded name or a TOML file, relative to the
		// config's folder (and so are LengthRules).
		Rules string `toml:"rules"`
		// Workers are the worker counts (cores) each line-up is timed on.
		Workers []int `toml:"workers"`
		// Lineups are the line-ups timed.
		Lineups []lineupConfig `toml:"lineups"`
		// LengthRules are the rule sets whose game length and stalemates
		// are measured, with the seats LengthPlayers.
		LengthRules   []string `toml:"length_rules"`
		LengthPlayers string   `toml:"length_players"`
		// MarsBot is the seat label whose cost per turn is compared with
		// PaperTurnSeconds, the MARS paper's t_turn (Table 5, seconds).
		MarsBot          string  `toml:"mars_bot"`
		PaperTurnSeconds float64 `toml:"paper_turn_seconds"`
	} `toml:"engine"`
	Full  engineSize `toml:"full"`
	Quick engineSize `toml:"quick"`
	// path is the config file, named by the errors of a run.
	path string
}

// lineupConfig is one line-up of the speed measurements.
type lineupConfig struct {
	// Name labels the line-up in the report.
	Name string `toml:"name"`
	// Players are the seat specifications, comma-separated (2..6 seats).
	Players string `toml:"players"`
	// Games and QuickGames are the games per worker count at the full and
	// quick sizes.
	Games      int `toml:"games"`
	QuickGames int `toml:"quick_games"`
}

// engineSize are the sizes of an engine run besides the line-ups' games.
type engineSize struct {
	// LengthGames is the games per rule set of the length measurement.
	LengthGames int `toml:"length_games"`
}

// Bounds of the engine config.
const (
	maxEngineGames = 1_000_000
	maxWorkers     = 256
)

func parseEngine(path string, data []byte) (experiment, error) {
	c := engineConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	e := &c.Engine
	ck.nonEmpty("engine.rules", e.Rules)
	ck.ints("engine.workers", e.Workers, 1, 8, 1, maxWorkers)
	distinct(ck, "engine.workers", e.Workers)
	if len(e.Lineups) == 0 {
		ck.fail("engine.lineups", "missing (one or more [[engine.lineups]] tables)")
	}
	names := make([]string, len(e.Lineups))
	for i, l := range e.Lineups {
		key := fmt.Sprintf("engine.lineups[%d]", i)
		ck.nonEmpty(key+".name", l.Name)
		names[i] = l.Name
		ck.nonEmpty(key+".players", l.Players)
		ck.intIn(key+".games", l.Games, 1, maxEngineGames)
		ck.intIn(key+".quick_games", l.QuickGames, 1, maxEngineGames)
	}
	distinctAt(ck, func(i int) string { return fmt.Sprintf("engine.lineups[%d].name", i) }, names)
	if len(e.LengthRules) == 0 {
		ck.fail("engine.length_rules", "missing (a list of rule set names or files)")
	}
	distinct(ck, "engine.length_rules", e.LengthRules)
	ck.nonEmpty("engine.length_players", e.LengthPlayers)
	ck.nonEmpty("engine.mars_bot", e.MarsBot)
	ck.floatOpen("engine.paper_turn_seconds", e.PaperTurnSeconds, 0, 3600)
	ck.intIn("full.length_games", c.Full.LengthGames, 2, maxEngineGames)
	ck.intIn("quick.length_games", c.Quick.LengthGames, 2, maxEngineGames)
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

func (c *engineConfig) template() string { return "engine.md.tmpl" }

func (c *engineConfig) sizes(quick bool) string {
	s, games := c.Full, make([]string, len(c.Engine.Lineups))
	if quick {
		s = c.Quick
	}
	for i, l := range c.Engine.Lineups {
		n := l.Games
		if quick {
			n = l.QuickGames
		}
		games[i] = fmt.Sprintf("%s %d", l.Name, n)
	}
	return fmt.Sprintf("length_games = %d per rule set; games per worker count: %s", s.LengthGames,
		strings.Join(games, ", "))
}

// engineData is the template data of an engine notebook.
type engineData struct {
	Rules   string
	Workers []int
	Lineups []lineupResult
	Bots    []botCost
	Lengths []lengthResult
	// Longest and MostStalled are the rule sets with the most rounds per
	// game and the highest stalemate rate (the first on a tie).
	Longest, MostStalled lengthResult
	Players              string
	// Mars is the cost of the MARS seat; HasMars is false when no line-up
	// seats MarsBot.
	Mars             botCost
	HasMars          bool
	MarsBot          string
	PaperTurnSeconds float64
	MarsRatio        float64
	// Clock names the clock of the bots' decision times (arena.ClockName:
	// "thread CPU" where the operating system gives the thread's CPU
	// time, else "wall").
	Clock string
}

// lineupResult is one line-up's results and speed.
type lineupResult struct {
	Name, Players string
	Games         int
	// Turns and Rounds are per game; Stalemates counts the games ended by
	// the round limit (these are results: the same on every run).
	Turns, Rounds float64
	Stalemates    int
	// Speed holds one entry per worker count (timings).
	Speed []speed
	// BytesPerGame and AllocsPerGame are the heap allocations per game
	// on one worker, pool set-up included.
	BytesPerGame, AllocsPerGame float64
}

// speed is the throughput of a line-up on a number of workers.
type speed struct {
	Workers                        int
	Seconds                        float64
	GamesPerSecond, TurnsPerSecond float64
	PerCoreGamesPerSecond          float64
}

// botCost is one bot's decision time per turn on one worker.
type botCost struct {
	Bot, Lineup    string
	Turns          int
	SecondsPerTurn float64
	SecondsPerGame float64
}

// lengthResult is the game length and stalemates under one rule set.
type lengthResult struct {
	Rules                string
	RoundLimit           int
	Games                int
	RoundsMean, RoundsSD float64
	RoundsCI             stats.Interval
	TurnsMean            float64
	TurnsCI              stats.Interval
	Stalemates           int
	StalemateRate        float64
	StalemateCI          stats.Interval
}

// gameSetup is a loaded rule set, its map and parsed seats.
type gameSetup struct {
	rules *sim.Rules
	m     *sim.Map
	seats []bots.Seat
}

// setup loads the rule set rulesName (config key rulesKey) and its map and
// parses the seats players (key playersKey); its errors name the config
// file and the key.
func (c *engineConfig) setup(w *writer, rulesKey, rulesName, playersKey, players string) (*gameSetup, error) {
	fail := func(key, val string, err error) error {
		return fmt.Errorf("%s: key %s: %q: %w", c.path, key, val, err)
	}
	r, err := sim.LoadRules(sim.ConfigPath(c.path, rulesName))
	if err != nil {
		return nil, fail(rulesKey, rulesName, err)
	}
	m, err := r.LoadMap()
	if err != nil {
		return nil, fail(rulesKey, rulesName, err)
	}
	if err := r.Validate(m); err != nil {
		return nil, fail(rulesKey, rulesName, err)
	}
	seats, err := w.reg.ParseSeats(players, nil)
	if err != nil {
		return nil, fail(playersKey, players, err)
	}
	if len(seats) < sim.MinPlayers || len(seats) > sim.MaxPlayers {
		return nil, fail(playersKey, players, fmt.Errorf("%d seats, must be %d..%d", len(seats), sim.MinPlayers, sim.MaxPlayers))
	}
	return &gameSetup{rules: r, m: m, seats: seats}, nil
}

// play runs games of g on workers and returns the report and the records
// in game order.
func (g *gameSetup) play(ctx context.Context, games, workers int, seed uint64) (*arena.Report, []arena.Record, error) {
	recs := make([]arena.Record, 0, games)
	rep, err := arena.Run(ctx, arena.Config{Map: g.m, Rules: g.rules, Seats: g.seats, Games: games, Seed: seed,
		Workers: workers, Timing: true, OnRecord: func(r arena.Record) { recs = append(recs, r) }})
	if err != nil {
		return nil, nil, err
	}
	return rep, recs, nil
}

func (c *engineConfig) run(ctx context.Context, w *writer) (any, error) {
	e := &c.Engine
	size := c.Full
	if w.quick {
		size = c.Quick
	}
	d := &engineData{Rules: e.Rules, Workers: e.Workers, Players: e.LengthPlayers, MarsBot: e.MarsBot,
		PaperTurnSeconds: e.PaperTurnSeconds}
	var timings [][]string
	timing := func(measure, subject string, workers int, v float64, unit string) {
		timings = append(timings, []string{measure, subject, strconv.Itoa(workers), num(v), unit})
	}
	var lineRows [][]string
	for i, l := range e.Lineups {
		g, err := c.setup(w, "engine.rules", e.Rules, fmt.Sprintf("engine.lineups[%d].players", i), l.Players)
		if err != nil {
			return nil, err
		}
		games := l.Games
		if w.quick {
			games = l.QuickGames
		}
		res := lineupResult{Name: l.Name, Players: l.Players, Games: games}
		for _, workers := range e.Workers {
			w.logf("engine: %s, %d games on %d workers", l.Name, games, workers)
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			rep, recs, err := g.play(ctx, games, workers, w.seed)
			if err != nil {
				return nil, fmt.Errorf("line-up %s: %w", l.Name, err)
			}
			runtime.ReadMemStats(&ms1)
			turns, rounds, stale := 0, 0, 0
			for _, r := range recs {
				turns += r.Turns
				rounds += r.Rounds
				if r.Stalemate {
					stale++
				}
			}
			res.Turns, res.Rounds = float64(turns)/float64(games), float64(rounds)/float64(games)
			res.Stalemates = stale
			sec := rep.Timing.WallSeconds
			sp := speed{Workers: workers, Seconds: sec, GamesPerSecond: float64(games) / sec,
				TurnsPerSecond: float64(turns) / sec}
			sp.PerCoreGamesPerSecond = sp.GamesPerSecond / float64(workers)
			res.Speed = append(res.Speed, sp)
			timing("games_per_second", l.Name, workers, sp.GamesPerSecond, "games/s")
			timing("player_turns_per_second", l.Name, workers, sp.TurnsPerSecond, "player-turns/s")
			if workers != 1 {
				continue
			}
			clock := arena.ClockName(rep.Timing.Clock)
			switch {
			case d.Clock == "":
				d.Clock = clock
			case d.Clock != clock:
				d.Clock = arena.ClockName(arena.ClockMixed)
			}
			for _, b := range rep.Timing.Bots {
				cost := botCost{Bot: b.Bot, Lineup: l.Name, Turns: b.Turns, SecondsPerTurn: b.SecondsPerTurn,
					SecondsPerGame: b.SecondsPerGame}
				d.Bots = append(d.Bots, cost)
				timing("bot_seconds_per_turn", b.Bot+" in "+l.Name, 1, b.SecondsPerTurn, "s/turn ("+clock+")")
				if b.Bot == e.MarsBot && (!d.HasMars || b.Turns > d.Mars.Turns) {
					d.Mars, d.HasMars = cost, true
				}
			}
			res.BytesPerGame = float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(games)
			res.AllocsPerGame = float64(ms1.Mallocs-ms0.Mallocs) / float64(games)
			timing("heap_bytes_per_game", l.Name, 1, res.BytesPerGame, "B/game")
			timing("heap_allocs_per_game", l.Name, 1, res.AllocsPerGame, "allocs/game")
		}
		d.Lineups = append(d.Lineups, res)
		lineRows = append(lineRows, []string{l.Name, l.Players, strconv.Itoa(games), num(res.Turns), num(res.Rounds),
			strconv.Itoa(res.Stalemates)})
	}
	if d.HasMars {
		d.MarsRatio = e.PaperTurnSeconds / d.Mars.SecondsPerTurn
		timing("mars_paper_ratio", e.MarsBot, 1, d.MarsRatio, "paper t_turn / measured ("+d.Clock+")")
	}
	if err := w.csv("lineups.csv", []string{"lineup", "players", "games", "turns_per_game", "rounds_per_game",
		"stalemates"}, lineRows); err != nil {
		return nil, err
	}
	if err := c.lengths(ctx, w, d, size.LengthGames); err != nil {
		return nil, err
	}
	if err := w.csv(timingsFile, []string{"measure", "subject", "workers", "value", "unit"}, timings); err != nil {
		return nil, err
	}
	if err := c.speedFigure(w, d); err != nil {
		return nil, err
	}
	return d, nil
}

// lengths measures the game length and stalemates under each rule set and
// writes lengths.csv and its figure.
func (c *engineConfig) lengths(ctx context.Context, w *writer, d *engineData, games int) error {
	z, err := stats.NormalQuantile(stats.Level)
	if err != nil {
		return err
	}
	var rows [][]string
	bc := &plots.BarChart{Title: "Game length per rule set (" + c.Engine.LengthPlayers + ")", YLabel: "rounds per game"}
	mean := plots.BarGroup{Name: "mean rounds"}
	for i, name := range c.Engine.LengthRules {
		w.logf("engine: length under %s, %d games", name, games)
		g, err := c.setup(w, fmt.Sprintf("engine.length_rules[%d]", i), name, "engine.length_players", c.Engine.LengthPlayers)
		if err != nil {
			return err
		}
		_, recs, err := g.play(ctx, games, 0, w.seed)
		if err != nil {
			return fmt.Errorf("length under %s: %w", name, err)
		}
		l := lengthResult{Rules: g.rules.Name, RoundLimit: g.rules.End.RoundLimit, Games: len(recs)}
		var rs, ts []float64
		for _, r := range recs {
			rs = append(rs, float64(r.Rounds))
			ts = append(ts, float64(r.Turns))
			if r.Stalemate {
				l.Stalemates++
			}
		}
		var tsd float64
		l.RoundsMean, l.RoundsSD = meanSD(rs)
		l.TurnsMean, tsd = meanSD(ts)
		n := float64(len(recs))
		l.RoundsCI = stats.Interval{Lo: l.RoundsMean - z*l.RoundsSD/math.Sqrt(n), Hi: l.RoundsMean + z*l.RoundsSD/math.Sqrt(n)}
		l.TurnsCI = stats.Interval{Lo: l.TurnsMean - z*tsd/math.Sqrt(n), Hi: l.TurnsMean + z*tsd/math.Sqrt(n)}
		l.StalemateRate = float64(l.Stalemates) / n
		if l.StalemateCI, err = stats.Wilson(l.Stalemates, len(recs), stats.Level); err != nil {
			return fmt.Errorf("length under %s: %w", name, err)
		}
		if len(d.Lengths) == 0 || l.RoundsMean > d.Longest.RoundsMean {
			d.Longest = l
		}
		if len(d.Lengths) == 0 || l.StalemateRate > d.MostStalled.StalemateRate {
			d.MostStalled = l
		}
		d.Lengths = append(d.Lengths, l)
		bc.Categories = append(bc.Categories, l.Rules)
		mean.Values = append(mean.Values, l.RoundsMean)
		rows = append(rows, []string{l.Rules, strconv.Itoa(l.RoundLimit), strconv.Itoa(l.Games), num(l.RoundsMean), num(l.RoundsSD),
			num(l.RoundsCI.Lo), num(l.RoundsCI.Hi), num(l.TurnsMean), num(l.TurnsCI.Lo), num(l.TurnsCI.Hi),
			strconv.Itoa(l.Stalemates), num(l.StalemateRate), num(l.StalemateCI.Lo), num(l.StalemateCI.Hi)})
	}
	bc.Groups = []plots.BarGroup{mean}
	if err := w.csv("lengths.csv", []string{"rules", "round_limit", "games", "rounds_mean", "rounds_sd",
		"rounds_ci95_lo", "rounds_ci95_hi", "turns_mean", "turns_ci95_lo", "turns_ci95_hi", "stalemates",
		"stalemate_rate", "stalemate_wilson95_lo", "stalemate_wilson95_hi"}, rows); err != nil {
		return err
	}
	return w.figure("lengths", bc)
}

// speedFigure draws the games per second of every line-up per worker count.
func (c *engineConfig) speedFigure(w *writer, d *engineData) error {
	bc := &plots.BarChart{Title: "Games per second " + timingMarker, YLabel: "games/s"}
	for _, l := range d.Lineups {
		bc.Categories = append(bc.Categories, l.Name)
	}
	for i, workers := range d.Workers {
		g := plots.BarGroup{Name: fmt.Sprintf("%d worker(s)", workers)}
		for _, l := range d.Lineups {
			g.Values = append(g.Values, l.Speed[i].GamesPerSecond)
		}
		bc.Groups = append(bc.Groups, g)
	}
	return w.figure("speed", bc)
}

// meanSD returns the mean and the sample standard deviation (divisor
// n-1) of xs; the deviation of fewer than two values, and the mean of
// none, are 0.
func meanSD(xs []float64) (float64, float64) {
	switch len(xs) {
	case 0:
		return 0, 0
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}
