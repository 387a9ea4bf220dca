package report

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/gameconf"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/rating"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// ladderNotes are the note sections of a ladder notebook.
var ladderNotes = []string{"intro", "ratings", "holdout", "headtohead", "field", "curve", "timing", "conclusion"}

// ladderConfig is the config of a ladder notebook: every bot of a list in
// random line-ups, rated (package rating), with the head-to-head matrix;
// and a field question: each challenger against a fixed field of
// opponents, on common deals.
type ladderConfig struct {
	Header
	Ladder struct {
		// Bots are the seat specifications of the ladder's entries.
		Bots []string `toml:"bots"`
		// Rules is the embedded rule set or TOML file of every game.
		Rules string `toml:"rules"`
		// Players is the seats of every game, 2..6.
		Players int `toml:"players"`
		// Games is the number of games of the ladder.
		Games int `toml:"games"`
		// Workers is the worker count; 0 means every core.
		Workers int `toml:"workers"`
		// Holdout is the fraction of the ladder's games held out to test
		// the ratings' predictions, in (0, 1).
		Holdout float64 `toml:"holdout"`
	} `toml:"ladder"`
	Field struct {
		// Challengers each play Games games against the Opponents.
		Challengers []string `toml:"challengers"`
		Opponents   []string `toml:"opponents"`
		Games       int      `toml:"games"`
		// Reference is a published win % to compare the challengers with
		// (e.g. Carr 2020's 35 %), and ReferenceSource its source.
		Reference       float64 `toml:"reference"`
		ReferenceSource string  `toml:"reference_source"`
	} `toml:"field"`
	// Curve, when Values is not empty, plays Bot with its parameter Param
	// set to each of Values against the field's opponents, on the field's
	// deals and games: a budget/strength curve. A value whose
	// configuration is a challenger's reuses that challenger's games.
	Curve struct {
		// Bot is a seat specification without inline parameters
		// ("mcts", "mars@robust").
		Bot string `toml:"bot"`
		// Param is the name of the parameter varied.
		Param string `toml:"param"`
		// Values are the parameter's values, in the order of the table.
		Values []float64 `toml:"values"`
	} `toml:"curve"`
	// Quick is the reduced size: games of the ladder and per challenger.
	Quick struct {
		Games      int `toml:"games"`
		FieldGames int `toml:"field_games"`
	} `toml:"quick"`
	path string
}

// maxLadderBots bounds the entries of a ladder.
const maxLadderBots = 64

func parseLadder(path string, data []byte) (experiment, error) {
	c := ladderConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	l := &c.Ladder
	if len(l.Bots) < 2 || len(l.Bots) > maxLadderBots {
		ck.fail("ladder.bots", "%d bots: want 2..%d", len(l.Bots), maxLadderBots)
	}
	distinct(ck, "ladder.bots", l.Bots)
	ck.nonEmpty("ladder.rules", l.Rules)
	ck.intIn("ladder.players", l.Players, sim.MinPlayers, min(sim.MaxPlayers, max(len(l.Bots), sim.MinPlayers)))
	ck.intIn("ladder.games", l.Games, 2, maxEngineGames)
	ck.intIn("ladder.workers", l.Workers, 0, maxWorkers)
	ck.floatOpen("ladder.holdout", l.Holdout, 0, 1)
	f := &c.Field
	if len(f.Challengers) == 0 || len(f.Challengers) > maxLadderBots {
		ck.fail("field.challengers", "%d challengers: want 1..%d", len(f.Challengers), maxLadderBots)
	}
	distinct(ck, "field.challengers", f.Challengers)
	if len(f.Opponents) < 1 || len(f.Opponents) > sim.MaxPlayers-1 {
		ck.fail("field.opponents", "%d opponents: want 1..%d", len(f.Opponents), sim.MaxPlayers-1)
	}
	ck.intIn("field.games", f.Games, 1, maxEngineGames)
	ck.floatIn("field.reference", f.Reference, 0, 100)
	ck.nonEmpty("field.reference_source", f.ReferenceSource)
	if cv := &c.Curve; len(cv.Values) > 0 || cv.Bot != "" || cv.Param != "" {
		ck.nonEmpty("curve.bot", cv.Bot)
		ck.nonEmpty("curve.param", cv.Param)
		if strings.ContainsAny(cv.Bot, "(),") {
			ck.fail("curve.bot", "%q: want a seat without inline parameters (the curve sets %s)", cv.Bot, cv.Param)
		}
		if len(cv.Values) == 0 || len(cv.Values) > maxLadderBots {
			ck.fail("curve.values", "%d values: want 1..%d", len(cv.Values), maxLadderBots)
		}
		distinct(ck, "curve.values", cv.Values)
	}
	ck.intIn("quick.games", c.Quick.Games, 2, l.Games)
	ck.intIn("quick.field_games", c.Quick.FieldGames, 1, f.Games)
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

func (c *ladderConfig) template() string { return "ladder.md.tmpl" }

// games returns the ladder's and each challenger's games at the size run.
func (c *ladderConfig) games(quick bool) (int, int) {
	if quick {
		return c.Quick.Games, c.Quick.FieldGames
	}
	return c.Ladder.Games, c.Field.Games
}

func (c *ladderConfig) sizes(quick bool) string {
	g, f := c.games(quick)
	return fmt.Sprintf("%d bots, %d ladder games of %d players; %d challengers × %d games against %d opponents",
		len(c.Ladder.Bots), g, c.Ladder.Players, len(c.Field.Challengers), f, len(c.Field.Opponents))
}

// ladderData is the template data of a ladder notebook.
type ladderData struct {
	Rules           string
	Players, Games  int
	Bots            int
	Model           rating.Model
	Ratings         table.Table
	Holdout         table.Table
	HoldoutText     []string
	HeadToHead      table.Table
	Field           table.Table
	FieldText       []string
	Paired          table.Table
	Curve           table.Table
	CurveText       []string
	CurveTiming     table.Table
	CurveBot        string
	CurveParam      string
	Opponents       []string
	FieldGames      int
	FieldPlayers    int
	Reference       float64
	ReferenceSource string
	Timing          table.Table
	LadderSeconds   float64
	FieldSeconds    float64
	CurveSeconds    float64
	SettledSigma    float64
	LeastSeatGames  int
	TopBot          string
}

// playGames plays games of seats on schedule sched (nil: rotation) and
// returns the records in game order and the run's report.
func playGames(ctx context.Context, w *writer, r *sim.Rules, m *sim.Map, seats []bots.Seat, sched arena.Schedule, games, workers int, step string) ([]arena.Record, *arena.Report, error) {
	var recs []arena.Record
	rep, err := arena.Run(ctx, arena.Config{Map: m, Rules: r, Seats: seats, Schedule: sched, Games: games, Seed: w.seed,
		Workers: workers, Timing: true, Progress: w.progress, ProgressLines: w.progressLines, ProgressStep: step,
		OnRecord: func(rec arena.Record) { recs = append(recs, rec) }})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", step, err)
	}
	return recs, rep, nil
}

func (c *ladderConfig) run(ctx context.Context, w *writer) (any, error) {
	games, fieldGames := c.games(w.quick)
	r, m, err := gameconf.Load(c.path, c.Ladder.Rules, "")
	if err != nil {
		return nil, err
	}
	seats, err := w.reg.ParseSeats(strings.Join(c.Ladder.Bots, ","), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: key ladder.bots: %w", c.path, err)
	}
	curve, err := c.curveSeats(w)
	if err != nil {
		return nil, err
	}
	sched, err := arena.NewRandom(len(seats), c.Ladder.Players, w.seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	w.logf("ladder: %d bots, %d games of %d players", len(seats), games, c.Ladder.Players)
	recs, rep, err := playGames(ctx, w, r, m, seats, sched, games, c.Ladder.Workers, "ladder")
	if err != nil {
		return nil, err
	}
	model := rating.Default()
	rg := tourney.RatingGames(recs)
	entries, err := model.Fit(rg)
	if err != nil {
		return nil, err
	}
	d := &ladderData{Rules: c.Ladder.Rules, Players: c.Ladder.Players, Games: games, Bots: len(seats), Model: model,
		Opponents: c.Field.Opponents, FieldGames: fieldGames, FieldPlayers: 1 + len(c.Field.Opponents), Reference: c.Field.Reference, ReferenceSource: c.Field.ReferenceSource,
		LadderSeconds: rep.Timing.WallSeconds}
	d.Ratings = tourney.RatingTable(model, entries, games)
	if err := w.table("ratings.csv", d.Ratings); err != nil {
		return nil, err
	}
	d.TopBot = entries[0].Name
	d.LeastSeatGames = entries[0].Games
	for _, e := range entries {
		d.SettledSigma = max(d.SettledSigma, e.Sigma)
		d.LeastSeatGames = min(d.LeastSeatGames, e.Games)
	}
	if err := ratingFigure(w, entries, games); err != nil {
		return nil, err
	}
	h, err := model.Holdout(rg, c.Ladder.Holdout)
	if err != nil {
		return nil, err
	}
	d.Holdout = tourney.HoldoutTable(h)
	d.HoldoutText = holdoutText(h)
	if err := w.table("holdout.csv", d.Holdout); err != nil {
		return nil, err
	}
	h2h, h2hCSV, err := headToHead(rg, entries)
	if err != nil {
		return nil, err
	}
	d.HeadToHead = h2h
	if err := w.table("headtohead.csv", h2hCSV); err != nil {
		return nil, err
	}
	timing := table.Table{Header: []string{"run", "bot", "ms per turn", "s per game", "clock"}}
	ladderTiming := rep.Timing
	played, err := c.field(ctx, w, r, m, fieldGames, d, &timing)
	if err != nil {
		return nil, err
	}
	if err := c.curve(ctx, w, r, m, fieldGames, curve, played, d); err != nil {
		return nil, err
	}
	for _, b := range ladderTiming.Bots {
		timing.Add("ladder", b.Bot, textfmt.Fixed(1000*b.SecondsPerTurn, 3), textfmt.Fixed(b.SecondsPerGame, 3), arena.ClockName(ladderTiming.Clock))
	}
	d.Timing = timing
	rows := [][]string{{"ladder_seconds", "ladder", num(d.LadderSeconds), "s"}, {"field_seconds", "field", num(d.FieldSeconds), "s"}}
	if len(c.Curve.Values) > 0 {
		rows = append(rows, []string{"curve_seconds", "curve", num(d.CurveSeconds), "s"})
	}
	for _, row := range timing.Rows {
		rows = append(rows, []string{"ms_per_turn", row[0] + "/" + row[1], row[2], "ms"})
	}
	for _, row := range d.CurveTiming.Rows {
		subject := "curve/" + c.Curve.Param + "=" + row[0]
		if row[1] != "" {
			rows = append(rows, []string{"ms_per_decision", subject, row[1], "ms"})
		}
		rows = append(rows, []string{"s_per_game", subject, row[2], "s"})
	}
	if err := w.csv(timingsFile, []string{"measure", "subject", "value", "unit"}, rows); err != nil {
		return nil, err
	}
	return d, nil
}

// fieldRun is the games of one seat against the field's opponents.
type fieldRun struct {
	seat bots.Seat
	won  []bool // won[g]: the seat won game g
	recs []arena.Record
	rep  *arena.Report
}

// playField plays seats (the challenger first, then the opponents) in
// rotation for games games and returns the challenger's run.
func (c *ladderConfig) playField(ctx context.Context, w *writer, r *sim.Rules, m *sim.Map, seats []bots.Seat, games int) (fieldRun, error) {
	w.logf("field: %s against %d opponents, %d games", seats[0].Label, len(c.Field.Opponents), games)
	recs, rep, err := playGames(ctx, w, r, m, seats, nil, games, c.Ladder.Workers, "field "+seats[0].Label)
	if err != nil {
		return fieldRun{}, err
	}
	label := seats[0].Label
	won := make([]bool, len(recs))
	for g, rec := range recs {
		won[g] = rec.Winner >= 0 && rec.Seating[rec.Winner] == label
	}
	return fieldRun{seat: seats[0], won: won, recs: recs, rep: rep}, nil
}

// count returns the number of true values of b.
func count(b []bool) int {
	k := 0
	for _, x := range b {
		if x {
			k++
		}
	}
	return k
}

// field plays each challenger against the opponents, rotated, on the same
// deals (game g of every challenger has the same seed and the same seat
// for the challenger), fills the field's tables and returns the
// challengers' runs.
func (c *ladderConfig) field(ctx context.Context, w *writer, r *sim.Rules, m *sim.Map, games int, d *ladderData, timing *table.Table) ([]fieldRun, error) {
	f := &c.Field
	d.Field = table.Table{Name: "field", Title: fmt.Sprintf("Each challenger against %s: win %% with a %g %% Wilson interval", strings.Join(f.Opponents, ", "), 100*stats.Level),
		Header: []string{"challenger", "games", "wins", "win %", "lo %", "hi %", "reference %", "reference inside"}}
	d.Paired = table.Table{Name: "paired", Title: fmt.Sprintf("%s against each other challenger on the same deals: paired difference of win %% (Newcombe interval, exact McNemar p)", f.Challengers[0]),
		Header: []string{"challenger", "pairs", fmt.Sprintf("%s %%", f.Challengers[0]), "its %", "difference (points)", "lo", "hi", "p"}}
	runs := make([]fieldRun, 0, len(f.Challengers))
	for i, ch := range f.Challengers {
		seats, err := w.reg.ParseSeats(strings.Join(append([]string{ch}, f.Opponents...), ","), nil)
		if err != nil {
			return nil, fmt.Errorf("%s: key field.challengers[%d]: %w", c.path, i, err)
		}
		run, err := c.playField(ctx, w, r, m, seats, games)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
		rep, label, won := run.rep, run.seat.Label, run.won
		d.FieldSeconds += rep.Timing.WallSeconds
		k := count(won)
		iv, err := stats.Wilson(k, len(won), stats.Level)
		if err != nil {
			return nil, err
		}
		in := "no"
		if iv.Contains(f.Reference / 100) {
			in = "yes"
		}
		d.Field.Add(label, strconv.Itoa(len(won)), strconv.Itoa(k), textfmt.Fixed(100*float64(k)/float64(len(won)), 1),
			textfmt.Fixed(100*iv.Lo, 1), textfmt.Fixed(100*iv.Hi, 1), textfmt.Fixed(f.Reference, 1), in)
		d.FieldText = append(d.FieldText, fieldSentence(label, k, len(won), iv, f.Reference, f.ReferenceSource))
		for _, b := range rep.Timing.Bots {
			if b.Bot == label {
				timing.Add("field", b.Bot, textfmt.Fixed(1000*b.SecondsPerTurn, 3), textfmt.Fixed(b.SecondsPerGame, 3), arena.ClockName(rep.Timing.Clock))
			}
		}
		if i == 0 {
			continue
		}
		pc, err := stats.CountPairs(runs[0].won, won)
		if err != nil {
			return nil, err
		}
		pp, err := stats.PairedProportions(pc, stats.Level)
		if err != nil {
			return nil, err
		}
		d.Paired.Add(label, strconv.Itoa(pp.N), textfmt.Fixed(100*pp.PX, 1), textfmt.Fixed(100*pp.PY, 1), textfmt.Signed(100*pp.Diff, 1),
			textfmt.Signed(100*pp.Interval.Lo, 1), textfmt.Signed(100*pp.Interval.Hi, 1), textfmt.P(pp.P))
		d.FieldText = append(d.FieldText, pairedSentence(d.Field.Rows[0][0], label, pp))
	}
	if err := w.table("field.csv", d.Field); err != nil {
		return nil, err
	}
	return runs, w.table("paired.csv", d.Paired)
}

// fieldSentence states a challenger's win % and where the reference lies.
func fieldSentence(label string, k, n int, iv stats.Interval, ref float64, source string) string {
	where := "inside"
	switch {
	case ref/100 < iv.Lo:
		where = "below"
	case ref/100 > iv.Hi:
		where = "above"
	}
	return fmt.Sprintf("`%s` wins %s %% of %d games (%d; 95 %% interval [%s, %s] %%); %s's %s %% lies %s it",
		label, textfmt.Fixed(100*float64(k)/float64(n), 1), n, k, textfmt.Fixed(100*iv.Lo, 1), textfmt.Fixed(100*iv.Hi, 1), source, textfmt.Fixed(ref, 0), where)
}

// pairedSentence states the paired comparison of the first challenger a
// with challenger b.
func pairedSentence(a, b string, pp stats.PairedProportion) string {
	verdict := "is not shown different from"
	switch {
	case pp.Interval.Lo > 0:
		verdict = "wins more than"
	case pp.Interval.Hi < 0:
		verdict = "wins less than"
	}
	return fmt.Sprintf("`%s` %s `%s` on the same %d deals: %s points (95 %% interval [%s, %s], McNemar p = %s)",
		a, verdict, b, pp.N, textfmt.Signed(100*pp.Diff, 1), textfmt.Signed(100*pp.Interval.Lo, 1), textfmt.Signed(100*pp.Interval.Hi, 1), textfmt.P(pp.P))
}

// holdoutText states whether the ratings predict held-out placements
// better than equal players and than win % alone (a paired difference of
// more than two standard errors).
func holdoutText(h rating.Holdout) []string {
	say := func(name string, d, se float64) string {
		verdict := "predict the held-out placements no better than"
		switch {
		case d > 2*se:
			verdict = "predict the held-out placements better than"
		case d < -2*se:
			verdict = "predict the held-out placements worse than"
		}
		return fmt.Sprintf("The ratings %s %s: %s nats per game (standard error %s, %d held-out games)", verdict, name,
			textfmt.Signed(d, 3), textfmt.Fixed(se, 3), h.Test)
	}
	return []string{say("equal players", h.BeatsEqual, h.DiffEqualSE), say("win % alone", h.BeatsWinRate, h.DiffWinSE)}
}

// ratingFigure draws μ with the interval μ ± 1.96σ per bot, by ordinal.
func ratingFigure(w *writer, entries []rating.Entry, games int) error {
	names := make([]string, len(entries))
	mu, lo, hi := make([]float64, len(entries)), make([]float64, len(entries)), make([]float64, len(entries))
	for i, e := range entries {
		names[i], mu[i] = e.Name, e.Mu
		lo[i], hi[i] = e.Mu-1.959964*e.Sigma, e.Mu+1.959964*e.Sigma
	}
	width := max(16*vg.Centimeter, vg.Length(len(entries))*1.2*vg.Centimeter)
	return w.figure("ratings", &plots.IntervalBarChart{Width: width, SlantLabels: true,
		Title:  fmt.Sprintf("Ratings μ with μ ± 1.96σ (Weng-Lin Plackett-Luce, %d games), by μ − 3σ", games),
		YLabel: "μ", Categories: names, Values: mu, Lo: lo, Hi: hi})
}

// headToHead returns the head-to-head matrix in rating order: the Markdown
// table of the share of meetings the row bot finished ahead of the column
// bot, and the CSV table of the counts ("ahead/met").
func headToHead(games []rating.Game, entries []rating.Entry) (table.Table, table.Table, error) {
	names, ahead, met, err := rating.HeadToHead(games)
	if err != nil {
		return table.Table{}, table.Table{}, err
	}
	order := make([]int, len(entries))
	for i, e := range entries {
		order[i] = slices.Index(names, e.Name)
	}
	pct := table.Table{Name: "headtohead", Title: "Head to head: % of the games two bots met in which the row bot finished ahead of the column bot",
		Header: []string{"bot"}}
	counts := table.Table{Name: "headtohead", Header: []string{"bot"}}
	for i, e := range entries {
		pct.Header = append(pct.Header, strconv.Itoa(i+1))
		counts.Header = append(counts.Header, e.Name)
	}
	for i, e := range entries {
		row := []string{strconv.Itoa(i+1) + " " + e.Name}
		crow := []string{e.Name}
		for _, b := range order {
			a := order[i]
			switch {
			case a == b:
				row, crow = append(row, "-"), append(crow, "-")
			case met[a][b] == 0:
				row, crow = append(row, ""), append(crow, "0/0")
			default:
				row = append(row, textfmt.Fixed(100*float64(ahead[a][b])/float64(met[a][b]), 0))
				crow = append(crow, strconv.Itoa(ahead[a][b])+"/"+strconv.Itoa(met[a][b]))
			}
		}
		pct.Rows = append(pct.Rows, row)
		counts.Rows = append(counts.Rows, crow)
	}
	return pct, counts, nil
}
