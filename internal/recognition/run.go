package recognition

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/recog"
	"github.com/marslab-risk/marslab/sim"
)

// steps is the number of sampling points per game: the predictions are
// taken after 5 %, 10 %, ..., 100 % of the game's turns.
const steps = 20

// recognisers are the names of the recognisers the experiment runs, in the
// order of Game.Pred: plain PHATT, PHATT with the state-dependent weights of
// section 6.0.3, and the data-driven recogniser with its joint and its
// choice likelihoods (recog.Data, Data.Choice).
var recognisers = []string{"phatt", "phatt-state", "data", "data-choice"}

// Game is the outcome of one test game: who held which card, who won, and
// every recogniser's prediction of every seat at every sampling point, on
// two clocks.
//
// The turn clock counts player-turns only (the setup excluded): its point k
// is after ceil((k+1)*Turns/20) turns. The paper's clock (Khan & Rovatsos
// 2013, section 5.3.1) counts every starting army placed after the deal as
// a turn too, as the Domination program did: its point k is after
// ceil((k+1)*(Setup+Turns)/20) of these steps, so the first points of a
// short game fall in its setup. The deal (one army on each territory) is
// not counted: the paper leaves its observations out, and its six-player
// games of under 120 turns (Table 7.16) could not hold the 120 steps of a
// six-player setup with the deal.
type Game struct {
	// Arm is the arm's index and Index the game's within the arm.
	Arm   int `json:"arm"`
	Index int `json:"game"`
	// Seed is the game's seed, sim.GameSeed(Config.Seed, stream(Arm, Index)).
	Seed uint64 `json:"seed"`
	// Winner is the winning seat, -1 on a stalemate; Turns the player-turns
	// played; Setup the setup's steps (starting armies placed one by one
	// after the deal).
	Winner int `json:"winner"`
	Turns  int `json:"turns"`
	Setup  int `json:"setup"`
	// Missions[p] is seat p's card, an index into Rules.Missions.
	Missions []int `json:"missions"`
	// Pred[r][p][k] is recogniser r's predicted card for seat p at point k
	// of the turn clock (k = 19 is the end of the game), ties among cards
	// broken at random (a tie of n cards is right 1/n of the time), -1 if
	// the recogniser was not run; Tied[r][p][k] is the number of cards
	// tied for the highest probability there (1: no tie; 0 if not run).
	Pred [][][]int `json:"pred"`
	Tied [][][]int `json:"tied"`
	// PaperPred and PaperTied are the same on the paper's clock.
	PaperPred [][][]int `json:"paper_pred"`
	PaperTied [][][]int `json:"paper_tied"`
	// TurnEnd[r][p] and TurnEndTied[r][p] are recogniser r's prediction
	// for seat p and its number of tied cards at the end of the last turn
	// before the one that ended the game (the setup's end for a game of one
	// turn): the last sample the paper's program took (Counting.End).
	TurnEnd     [][]int `json:"turn_end"`
	TurnEndTied [][]int `json:"turn_end_tied"`
}

// stream returns the index of game i of arm a among the streams of a seed:
// independent of the number of games, so that an arm's games are the same
// at every size.
func stream(a, i int) uint64 { return uint64(a)<<32 | uint64(i) }

// Options are the settings of one run.
type Options struct {
	// Out is the output folder ("" runs in memory only).
	Out string
	// Resume continues the games.jsonl of Out.
	Resume bool
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Games and TrainGames, when > 0, replace the config's sizes.
	Games, TrainGames int
	// Shard selects the games this run plays: the k-th game of the
	// experiment (k = arm*games + index) when k % Count == Index; the zero
	// Shard plays all. Every shard trains the whole data model. Merge joins
	// the shards' outputs.
	Shard arena.Shard
	// Log, when not nil, receives progress lines.
	Log io.Writer
}

// gamesFile is the name of the per-game output in Options.Out.
const gamesFile = "games.jsonl"

// Results are a run's games, in (arm, game) order.
type Results struct {
	Config *Config
	Setup  *Setup
	Games  []Game
	// Trained is the number of player-games of each card the data models
	// learnt from, in the order of Setup.Cards.
	Trained []int
}

// Run trains the data model, plays every arm's test games and returns the
// results; with opts.Out it writes games.jsonl there, one line per game in
// order, and with opts.Resume it keeps the lines already there (after
// checking them) and plays only the rest. A cancelled run returns an error
// wrapping ctx's cause; every game before the first unfinished one is in
// games.jsonl.
func Run(ctx context.Context, cfg *Config, s *Setup, opts Options) (*Results, error) {
	games, train := cfg.Games, cfg.TrainGames
	if opts.Games > 0 {
		games = opts.Games
	}
	if opts.TrainGames > 0 {
		train = opts.TrainGames
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res := &Results{Config: cfg, Setup: s}
	shard := opts.Shard
	if shard.Count == 0 {
		shard = arena.Shard{Count: 1}
	}
	// The output folder is checked before the training: a run is not
	// written over another one, and resumes only a run of the same config.
	if opts.Out != "" {
		if err := prepare(cfg, s, opts, games, train, shard); err != nil {
			return nil, err
		}
	}
	// Training: one model of every arm's games, or one per arm.
	var models []*recog.Model
	if train > 0 {
		logf(opts.Log, "training the data model on %d games per arm (per arm: %v)", train, cfg.PerArm)
		ms, err := trainModels(ctx, cfg, s, train, workers)
		if err != nil {
			return nil, err
		}
		models = ms
		for ci := range ms[0].Cards {
			n := 0
			for _, m := range ms {
				n += m.Games(ci)
			}
			res.Trained = append(res.Trained, n)
		}
	}
	total := shard.Len(games * len(cfg.Arms))
	var done []Game
	var out *os.File
	if opts.Out != "" {
		path := filepath.Join(opts.Out, gamesFile)
		if opts.Resume {
			var err error
			if done, err = readGames(path, cfg, s, games, shard); err != nil {
				return nil, err
			}
		}
		// games.jsonl is rewritten with the games kept (none for a new
		// run), then grows by appending.
		f, err := atomicfile.OpenLog(path, 0o644)
		if err != nil {
			return nil, err
		}
		if err := rewrite(f, done); err != nil {
			f.Close()
			return nil, err
		}
		out = f
		defer out.Close()
	}
	logf(opts.Log, "playing %d test games (%d per arm, shard %s, %d already done) on %d workers", total, games, shard, len(done), workers)
	res.Games = append(res.Games, done...)
	w := bufio.NewWriter(io.Discard)
	if out != nil {
		w = bufio.NewWriter(out)
	}
	var line []byte
	err := parallel(ctx, workers, len(done), total, func() (playFunc[Game], error) { return newTester(s, cfg, models) },
		func(j int) (int, int) { k := shard.Game(j); return k / games, k % games },
		func(g Game) error {
			res.Games = append(res.Games, g)
			var err error
			if line, err = json.Marshal(g); err != nil {
				return err
			}
			w.Write(line)
			w.WriteByte('\n')
			if len(res.Games)%256 == 0 {
				return w.Flush()
			}
			return nil
		})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return res, err
}

// prepare creates the output folder of a run and writes its config.json:
// without opts.Resume the folder must hold no run; with it, a config.json
// there must be this run's (the whole resolved config, the sizes and the
// shard).
func prepare(cfg *Config, s *Setup, opts Options, games, train int, shard arena.Shard) error {
	h, err := newHeader(cfg, s, games, train, shard)
	if err != nil {
		return err
	}
	if !opts.Resume {
		if err := outdir.Refuse(opts.Out, "recognition run", headerFile, gamesFile); err != nil {
			return err
		}
	} else if err := checkHeader(opts.Out, h, false); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("resume: %w", err)
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return err
	}
	return writeHeader(opts.Out, h)
}

// playFunc plays game i of arm a and returns its outcome.
type playFunc[T any] func(a, i int) (T, error)

// parallel plays jobs from..total-1 on arena.Ordered's workers, each with
// the player mk makes for it (every one made before any game starts), and
// hands the outcomes to emit in job order. It stops at the first error or
// when ctx is done, having emitted every outcome before the first
// unfinished job.
func parallel[T any](ctx context.Context, workers, from, total int, mk func() (playFunc[T], error), job func(k int) (a, i int), emit func(T) error) error {
	if from >= total {
		return nil
	}
	plays := make([]playFunc[T], max(1, min(workers, total-from)))
	for w := range plays {
		var err error
		if plays[w], err = mk(); err != nil {
			return err
		}
	}
	n, err := arena.Ordered(ctx, len(plays), total-from, func(_ context.Context, w, k int) (T, error) {
		a, i := job(from + k)
		return plays[w](a, i)
	}, func(_ int, v *T) error { return emit(*v) })
	if errors.Is(err, arena.ErrInterrupted) {
		return &interruptedError{done: from + n, total: total, cause: context.Cause(ctx)}
	}
	return err
}

// interruptedError is parallel's error when ctx stops it: done of total
// games were emitted.
type interruptedError struct {
	done, total int
	cause       error
}

func (e *interruptedError) Error() string {
	return fmt.Sprintf("recognition experiment interrupted after %d of %d games: %v", e.done, e.total, e.cause)
}

func (e *interruptedError) Unwrap() error { return e.cause }

// tester is one worker's game, players and recognisers.
type tester struct {
	s       *Setup
	cfg     *Config
	g       *sim.Game
	players [][]sim.Player // per arm
	rec     []recog.Recognizer
	snap    snapshot
	// models are the data models (one, or one per arm); data and choice
	// the data-driven recognisers.
	models       []*recog.Model
	data, choice *recog.Data
}

func newTester(s *Setup, cfg *Config, models []*recog.Model) (playFunc[Game], error) {
	t := &tester{s: s, cfg: cfg, models: models}
	plain, err := recog.NewPHATT(s.Map, s.Rules.Missions, cfg.Params)
	if err != nil {
		return nil, err
	}
	sp := cfg.Params
	sp.StateWeights = true
	state, err := recog.NewPHATT(s.Map, s.Rules.Missions, sp)
	if err != nil {
		return nil, err
	}
	t.rec = []recog.Recognizer{plain, state, nil, nil}
	if models != nil {
		t.data = recog.NewData(models[0])
		t.choice = recog.NewData(models[0])
		t.choice.Choice = true
		t.rec[2], t.rec[3] = t.data, t.choice
	}
	t.snap.rec = t.rec
	for _, seats := range s.Seats {
		ps := make([]sim.Player, len(seats))
		for i, st := range seats {
			if ps[i], err = st.New(); err != nil {
				return nil, err
			}
		}
		t.players = append(t.players, ps)
	}
	return t.play, nil
}

func (t *tester) game(n int) (*sim.Game, error) {
	if t.g != nil && t.snap.players == n {
		return t.g, nil
	}
	g, err := sim.NewGame(t.s.Map, t.s.Rules, n)
	if err != nil {
		return nil, err
	}
	for _, r := range t.rec {
		if r != nil {
			g.Observe(r)
		}
	}
	g.Observe(&t.snap)
	t.g, t.snap.players = g, n
	return g, nil
}

func (t *tester) play(a, i int) (Game, error) {
	ps := t.players[a]
	g, err := t.game(len(ps))
	if err != nil {
		return Game{}, err
	}
	if len(t.models) > 1 {
		t.data.SetModel(t.models[a])
		t.choice.SetModel(t.models[a])
	}
	res, err := g.Play(ps, t.cfg.Seed, stream(a, i))
	if err != nil {
		return Game{}, fmt.Errorf("arm %s game %d: %w", t.cfg.Arms[a].Name, i, err)
	}
	out := Game{Arm: a, Index: i, Seed: sim.GameSeed(t.cfg.Seed, stream(a, i)), Winner: res.Winner,
		Turns: t.snap.turns, Setup: t.snap.setup, Missions: append([]int(nil), g.Position().Missions...)}
	grid := func() [][][]int {
		x := make([][][]int, len(t.rec))
		for r := range x {
			x[r] = make([][]int, len(ps))
			for p := range x[r] {
				x[r][p] = make([]int, steps)
			}
		}
		return x
	}
	out.Pred, out.Tied, out.PaperPred, out.PaperTied = grid(), grid(), grid(), grid()
	out.TurnEnd, out.TurnEndTied = make([][]int, len(t.rec)), make([][]int, len(t.rec))
	for r := range t.rec {
		out.TurnEnd[r], out.TurnEndTied[r] = make([]int, len(ps)), make([]int, len(ps))
		for p := range ps {
			out.TurnEnd[r][p], out.TurnEndTied[r][p] = t.snap.at(r, p, max(0, t.snap.n-2))
			for k := range steps {
				out.Pred[r][p][k], out.Tied[r][p][k] = t.snap.at(r, p, t.snap.turnRow(k))
				out.PaperPred[r][p][k], out.PaperTied[r][p][k] = t.snap.at(r, p, t.snap.paperRow(k))
			}
		}
	}
	return out, nil
}

// snapshot records every recogniser's predictions after every step of a
// game: row i holds them after i steps, where a step is a starting army
// placed or a player-turn (the paper's clock, Game). It
// starts the recognisers at each game's EvStart; it observes after them, so
// a row includes the step's actions.
type snapshot struct {
	rec     []recog.Recognizer
	players int
	// setup counts the setup's steps and turns the player-turns begun.
	setup, turns int
	// rows holds, after i steps, the prediction and the number of tied
	// cards of recogniser r for seat p at [(i*stride + r*players + p)*2],
	// stride = len(rec)*players; n is the number of rows.
	rows []int
	n    int
}

func (s *snapshot) Observe(e *sim.Event) {
	switch e.Kind {
	case sim.EvStart:
		for _, r := range s.rec {
			if r != nil {
				r.Start(s.players)
			}
		}
		s.setup, s.turns, s.n, s.rows = 0, 0, 0, s.rows[:0]
		s.record()
	case sim.EvSetupPlace:
		s.setup++
		s.record()
	case sim.EvTurn:
		// The previous turn has ended.
		if s.turns > 0 {
			s.record()
		}
		s.turns++
	case sim.EvGameEnd:
		if s.turns > 0 {
			s.record()
		}
	}
}

// record appends the predictions after the steps so far.
func (s *snapshot) record() {
	for r, rc := range s.rec {
		for p := range s.players {
			v, n := -1, 0
			if rc != nil {
				v, n = rc.Predict(p, tieBreak(r, p)), rc.Tied(p)
			}
			s.rows = append(s.rows, v, n)
		}
	}
	s.n++
}

// tieBreak is the number that breaks a recogniser's ties for seat p: fixed,
// so that a game's predictions depend on its events alone, and different
// per seat so that ties do not favour one card for every seat.
func tieBreak(r, p int) uint64 { return sim.GameSeed(uint64(r), uint64(p)) }

// turnRow returns the row of sampling point k on the turn clock: after
// ceil((k+1) * turns / Steps) turns, the setup's steps first.
func (s *snapshot) turnRow(k int) int {
	return s.setup + int(math.Ceil(float64(k+1)*float64(s.turns)/steps))
}

// paperRow returns the row of sampling point k on the paper's clock:
// after ceil((k+1) * (setup + turns) / Steps) steps.
func (s *snapshot) paperRow(k int) int {
	return int(math.Ceil(float64(k+1) * float64(s.setup+s.turns) / steps))
}

// at returns recogniser r's prediction of seat p and the number of tied
// cards in row j (the last row if j is beyond it).
func (s *snapshot) at(r, p, j int) (pred, tied int) {
	j = min(j, s.n-1)
	i := 2 * (j*len(s.rec)*s.players + r*s.players + p)
	return s.rows[i], s.rows[i+1]
}

// trainModels plays the training games of every arm and counts their
// actions into one model, or one per arm with Config.PerArm.
func trainModels(ctx context.Context, cfg *Config, s *Setup, train, workers int) ([]*recog.Model, error) {
	n := 1
	if cfg.PerArm {
		n = len(cfg.Arms)
	}
	models := make([]*recog.Model, n)
	for i := range models {
		m, err := recog.NewModel(s.Map, s.Rules.Missions, cfg.Alpha)
		if err != nil {
			return nil, err
		}
		models[i] = m
	}
	mk := func() (playFunc[armModel], error) {
		var tr recog.Trainer
		var g *sim.Game
		players := make([][]sim.Player, len(s.Seats))
		for a, seats := range s.Seats {
			for _, st := range seats {
				p, err := st.New()
				if err != nil {
					return nil, err
				}
				players[a] = append(players[a], p)
			}
		}
		n := 0
		return func(a, i int) (armModel, error) {
			ps := players[a]
			if g == nil || n != len(ps) {
				var err error
				if g, err = sim.NewGame(s.Map, s.Rules, len(ps)); err != nil {
					return armModel{}, err
				}
				g.Observe(&tr)
				n = len(ps)
			}
			tr.Start(len(ps))
			if _, err := g.Play(ps, cfg.TrainSeed, stream(a, i)); err != nil {
				return armModel{}, err
			}
			cards := append([]int(nil), g.Position().Missions...)
			m, err := recog.NewModel(s.Map, s.Rules.Missions, cfg.Alpha)
			if err != nil {
				return armModel{}, err
			}
			tr.Commit(m, cards)
			return armModel{a, m}, nil
		}, nil
	}
	err := parallel(ctx, workers, 0, train*len(cfg.Arms), mk,
		func(k int) (int, int) { return k / train, k % train },
		func(am armModel) error {
			models[am.arm%n].Merge(am.m)
			return nil
		})
	var stopped *interruptedError
	if errors.As(err, &stopped) {
		// The data model is kept in memory only: say so, and that no
		// test game was played.
		return nil, fmt.Errorf("recognition experiment interrupted while training the data model, after %d of %d training games: the training is not kept (a resumed run trains again), no test game was played: %w",
			stopped.done, stopped.total, stopped.cause)
	}
	if err != nil {
		return nil, err
	}
	return models, nil
}

// armModel is the model of one training game of an arm.
type armModel struct {
	arm int
	m   *recog.Model
}

// readGames reads the games already in path for a resumed run of shard and
// checks that each is the game the config would play at its place.
func readGames(path string, cfg *Config, s *Setup, games int, shard arena.Shard) ([]Game, error) {
	f, err := fileread.Open(path, fileread.Log)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Game
	lr := fileread.NewLineReader(f, path, fileread.MaxLine)
	for {
		line, err := lr.Next()
		if err == io.EOF || errors.Is(err, fileread.ErrTorn) {
			// A line cut short by an interruption ends the usable part.
			break
		}
		if err != nil {
			return nil, err
		}
		n := lr.Line() - 1
		if len(line) == 0 {
			continue
		}
		var g Game
		if err := json.Unmarshal(line, &g); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		if len(out) >= shard.Len(games*len(cfg.Arms)) {
			return nil, fmt.Errorf("%s:%d: more games than shard %s of the config's %d", path, n+1, shard, games*len(cfg.Arms))
		}
		k := shard.Game(len(out))
		if err := checkGame(&g, cfg, s, k/games, k%games); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// checkGame reports whether g is game i of arm a of the config's run.
func checkGame(g *Game, cfg *Config, s *Setup, a, i int) error {
	if g.Arm != a || g.Index != i || g.Seed != sim.GameSeed(cfg.Seed, stream(a, i)) {
		return fmt.Errorf("game (arm %d, game %d, seed %d), want (arm %d, game %d, seed %d): not this config's run",
			g.Arm, g.Index, g.Seed, a, i, sim.GameSeed(cfg.Seed, stream(a, i)))
	}
	n := len(s.Seats[a])
	if len(g.Missions) != n {
		return fmt.Errorf("%d seats, want %d", len(g.Missions), n)
	}
	for _, x := range []struct {
		key string
		v   [][][]int
	}{{"pred", g.Pred}, {"tied", g.Tied}, {"paper_pred", g.PaperPred}, {"paper_tied", g.PaperTied}} {
		if len(x.v) != len(recognisers) {
			return fmt.Errorf("%s: %d recognisers, want %d", x.key, len(x.v), len(recognisers))
		}
		for r := range x.v {
			if len(x.v[r]) != n {
				return fmt.Errorf("%s[%d]: %d seats, want %d", x.key, r, len(x.v[r]), n)
			}
			for p := range x.v[r] {
				if len(x.v[r][p]) != steps {
					return fmt.Errorf("%s[%d][%d]: %d points, want %d", x.key, r, p, len(x.v[r][p]), steps)
				}
			}
		}
	}
	for _, x := range []struct {
		key string
		v   [][]int
	}{{"turn_end", g.TurnEnd}, {"turn_end_tied", g.TurnEndTied}} {
		if len(x.v) != len(recognisers) {
			return fmt.Errorf("%s: %d recognisers, want %d", x.key, len(x.v), len(recognisers))
		}
		for r := range x.v {
			if len(x.v[r]) != n {
				return fmt.Errorf("%s[%d]: %d seats, want %d", x.key, r, len(x.v[r]), n)
			}
		}
	}
	return nil
}

// Merge joins the games.jsonl files of the shards' output folders dirs
// into opts.Out/games.jsonl, in game order, and returns the results: every
// game of the run (opts.Games per arm, 0 meaning the config's; opts.TrainGames
// likewise) exactly once, each checked against the config. Every shard's
// config.json must be this run's (the shard aside); opts.Out may hold only
// a merge of the same run, which is written again.
func Merge(cfg *Config, s *Setup, dirs []string, opts Options) (*Results, error) {
	games, train := cfg.Games, cfg.TrainGames
	if opts.Games > 0 {
		games = opts.Games
	}
	if opts.TrainGames > 0 {
		train = opts.TrainGames
	}
	out := opts.Out
	h, err := newHeader(cfg, s, games, train, arena.Shard{Count: 1})
	if err != nil {
		return nil, err
	}
	if err := checkHeader(out, h, false); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("merge: %w", err)
	}
	total := games * len(cfg.Arms)
	all := make([]*Game, total)
	for _, dir := range dirs {
		if err := checkHeader(dir, h, true); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				err = fmt.Errorf("%s: no %s: not the output folder of a recognition run", dir, headerFile)
			}
			return nil, fmt.Errorf("merge: %w", err)
		}
		path := filepath.Join(dir, gamesFile)
		if err := eachGameLine(path, func(line []byte, n int) error {
			if len(line) == 0 {
				return nil
			}
			g := new(Game)
			if err := json.Unmarshal(line, g); err != nil {
				return fmt.Errorf("%s:%d: %w", path, n, err)
			}
			if g.Arm < 0 || g.Arm >= len(cfg.Arms) || g.Index < 0 || g.Index >= games {
				return fmt.Errorf("%s:%d: game (arm %d, game %d) outside %d arms of %d games", path, n, g.Arm, g.Index, len(cfg.Arms), games)
			}
			if err := checkGame(g, cfg, s, g.Arm, g.Index); err != nil {
				return fmt.Errorf("%s:%d: %w", path, n, err)
			}
			k := g.Arm*games + g.Index
			if all[k] != nil {
				return fmt.Errorf("%s:%d: game %d of arm %s is in two shards", path, n, g.Index, cfg.Arms[g.Arm].Name)
			}
			all[k] = g
			return nil
		}); err != nil {
			return nil, err
		}
	}
	res := &Results{Config: cfg, Setup: s, Games: make([]Game, 0, total)}
	for k, g := range all {
		if g == nil {
			return nil, fmt.Errorf("merge: game %d of arm %s is in no shard (%d games per arm)", k%games, cfg.Arms[k/games].Name, games)
		}
		res.Games = append(res.Games, *g)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if err := writeHeader(out, h); err != nil {
		return nil, err
	}
	b, err := encodeGames(res.Games)
	if err != nil {
		return nil, err
	}
	return res, atomicfile.WriteFile(filepath.Join(out, gamesFile), b, 0o644)
}

// rewrite replaces the content of f, a log of atomicfile.OpenLog, by the
// games, one line each.
func rewrite(f *os.File, games []Game) error {
	b, err := encodeGames(games)
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.Write(b) // appended: at 0 after the truncation
	return err
}

// encodeGames returns the games as JSON lines.
func encodeGames(games []Game) ([]byte, error) {
	var buf bytes.Buffer
	for _, g := range games {
		line, err := json.Marshal(g)
		if err != nil {
			return nil, err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// Trace is one game of an arm watched by plain PHATT: every explanation's
// probability for every seat after every turn.
type Trace struct {
	// Explanations are PHATT's, in the order of Probs' last index.
	Explanations []recog.Explanation
	// Game is the game as Run records it (predictions left out).
	Game Game
	// Probs[j][p][e] is seat p's probability of explanation e after j turns
	// (j = 0: after the setup; the last row is the end of the game).
	Probs [][][]float64
}

// TraceGame plays game i of arm a as Run does and records plain PHATT's
// probabilities after every turn.
func TraceGame(cfg *Config, s *Setup, a, i int) (*Trace, error) {
	if a < 0 || a >= len(s.Seats) {
		return nil, fmt.Errorf("trace: arm %d: want 0 to %d", a, len(s.Seats)-1)
	}
	ph, err := recog.NewPHATT(s.Map, s.Rules.Missions, cfg.Params)
	if err != nil {
		return nil, err
	}
	ps := make([]sim.Player, len(s.Seats[a]))
	for k, st := range s.Seats[a] {
		if ps[k], err = st.New(); err != nil {
			return nil, err
		}
	}
	g, err := sim.NewGame(s.Map, s.Rules, len(ps))
	if err != nil {
		return nil, err
	}
	tr := &Trace{Explanations: ph.Explanations()}
	g.Observe(ph)
	g.Observe(&tracer{ph: ph, n: len(ps), tr: tr})
	res, err := g.Play(ps, cfg.Seed, stream(a, i))
	if err != nil {
		return nil, err
	}
	tr.Game = Game{Arm: a, Index: i, Seed: sim.GameSeed(cfg.Seed, stream(a, i)), Winner: res.Winner,
		Turns: len(tr.Probs) - 1, Missions: append([]int(nil), g.Position().Missions...)}
	return tr, nil
}

// tracer copies PHATT's probabilities at each turn's start and at the end.
type tracer struct {
	ph *recog.PHATT
	n  int
	tr *Trace
}

func (t *tracer) Observe(e *sim.Event) {
	switch e.Kind {
	case sim.EvStart:
		t.ph.Start(t.n)
	case sim.EvTurn, sim.EvGameEnd:
		row := make([][]float64, t.n)
		for p := range row {
			row[p] = append([]float64(nil), t.ph.Probabilities(p)...)
		}
		t.tr.Probs = append(t.tr.Probs, row)
	}
}

// eachGameLine calls fn with every line of the games file at path, numbered
// from 1; a torn last line or a line over fileread.MaxLine is an error.
func eachGameLine(path string, fn func(line []byte, n int) error) error {
	f, err := fileread.Open(path, fileread.Log)
	if err != nil {
		return err
	}
	defer f.Close()
	lr := fileread.NewLineReader(f, path, fileread.MaxLine)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(line, lr.Line()); err != nil {
			return err
		}
	}
}
