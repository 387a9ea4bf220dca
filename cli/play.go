package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/human"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/table"
)

const defaultPlayers = "aggressive,pacifist,passive,random,aggressive,random"

const playUsage = "usage: marslab play [flags]\n\nPlays one game and prints the winner (or stalemate), rounds and eliminations.\nA seat \"human\" is a person, at the web page the command serves (docs/play.md)."

// playFlags are the flags of marslab play.
type playFlags struct {
	game    *gameFlags
	seed    *uint64
	index   *uint64
	log     *string
	explain *bool
	human   *humanFlags
}

func playFlagSet(fs *flag.FlagSet) *playFlags {
	return &playFlags{
		game:    addGameFlags(fs, "seat 0 moves first"),
		seed:    fs.Uint64("seed", 1, "experiment seed"),
		index:   fs.Uint64("index", 0, "game index: the game's random streams derive from (seed, index)"),
		log:     fs.String("log", "", "write every event of the game to this JSONL file"),
		explain: fs.Bool("explain", false, "let bots that can (MARS) narrate their decisions: on stdout, or with -log into the log as explain events"),
		human:   addHumanFlags(fs),
	}
}

// cmdPlay plays one game and prints its summary.
func cmdPlay(ctx context.Context, in *invocation, f *playFlags) error {
	if err := in.noArgs(); err != nil {
		return err
	}
	reg, err := human.Registry(in.reg)
	if err != nil {
		return err
	}
	cfg, seats, err := f.game.load(reg)
	if err != nil {
		return err
	}
	if f.human.wanted(in.fs, seats) {
		return playHuman(ctx, reg, in.fs, cfg, seats, f.human, humanGame{*f.seed, *f.index, *f.log, *f.explain}, in.stdout, in.stderr)
	}
	ps, err := newPlayers(seats)
	if err != nil {
		return err
	}
	g, err := sim.NewGame(cfg.Map, cfg.Rules, len(seats))
	if err != nil {
		return err
	}
	var lg *gameLog
	if *f.log != "" {
		lh := logHeader(cfg, seats, *f.seed, *f.index)
		if *f.explain {
			lh.Explain = sim.ExplainSeats(ps)
		}
		if lg, err = openGameLog(*f.log, g, lh); err != nil {
			return err
		}
		defer lg.file.Abort()
	}
	if *f.explain {
		if err := lg.explain(g, ps, in.stdout); err != nil {
			return err
		}
	}
	elim := &elimRecorder{}
	g.Observe(elim)
	res, err := g.PlayContext(ctx, ps, *f.seed, *f.index)
	if err != nil {
		return err
	}
	if err := lg.close(res); err != nil {
		return fmt.Errorf("-log: %w", err)
	}
	printGame(in.stdout, cfg, seats, g.State(), res, elim, *f.seed, *f.index)
	if *f.explain && lg == nil {
		// The narration's last line: with -log it went into the log, and
		// stdout stays the plain summary.
		printBotStats(in.stdout, seats, ps)
	}
	return nil
}

// gameLog is the -log of marslab play: the log writer on the file, and
// the writers of the seats' explanations into it.
type gameLog struct {
	file       *atomicfile.File
	w          *sim.LogWriter
	explainers []*sim.ExplainWriter
}

// openGameLog creates the log at path and makes it observe g. The log is
// written whole when the game ends (atomicfile): an interrupted game
// leaves no part of one, and a link at the name is replaced, not written
// through.
func openGameLog(path string, g *sim.Game, h sim.LogHeader) (*gameLog, error) {
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return nil, fmt.Errorf("-log: %w", err)
	}
	w, err := sim.NewLogWriter(f, h)
	if err != nil {
		f.Abort()
		return nil, err
	}
	g.Observe(w)
	return &gameLog{file: f, w: w}, nil
}

// explain lets every player of ps that can explain its decisions do so:
// into the log l (sim.Narrate), or onto stdout when l is nil.
func (l *gameLog) explain(g *sim.Game, ps []sim.Player, stdout io.Writer) error {
	if l != nil {
		var err error
		l.explainers, err = sim.Narrate(l.w, g, ps, sim.ExplainSeats(ps))
		return err
	}
	for _, p := range ps {
		if e, ok := p.(bots.Explainer); ok {
			e.SetExplain(stdout)
		}
	}
	return nil
}

// close writes the explanations and the result res, and commits the log;
// a nil log does nothing.
func (l *gameLog) close(res sim.Result) error {
	if l == nil {
		return nil
	}
	for _, w := range l.explainers {
		w.Flush()
	}
	if err := l.w.Close(res); err != nil {
		return err
	}
	return l.file.Commit()
}

// printBotStats prints, for every seat whose bot counts its own play
// (bots.StatReporter, e.g. MARS's placement auctions by winning bid), one
// line of its counts for the game.
func printBotStats(w io.Writer, seats []bots.Seat, ps []sim.Player) {
	var buf []bots.Stat
	for i, p := range ps {
		sr, ok := p.(bots.StatReporter)
		if !ok {
			continue
		}
		buf = sr.GameStats(buf[:0])
		fmt.Fprintf(w, "seat %d %s counts:", i, seats[i].Label)
		for _, st := range buf {
			fmt.Fprintf(w, " %s %d", st.Name, st.Count)
		}
		fmt.Fprintln(w)
	}
}

func newPlayers(seats []bots.Seat) ([]sim.Player, error) {
	ps := make([]sim.Player, len(seats))
	for i, s := range seats {
		p, err := s.New()
		if err != nil {
			return nil, err // Seat.New names the seat
		}
		ps[i] = p
	}
	return ps, nil
}

func logHeader(cfg *gameConfig, seats []bots.Seat, seed, index uint64) sim.LogHeader {
	h := sim.LogHeader{Seed: seed, Index: index, RulesName: cfg.RulesName, MapName: cfg.MapName,
		RulesTOML: string(cfg.RulesTOML), MapTOML: string(cfg.MapTOML)}
	for _, s := range seats {
		h.Seats = append(h.Seats, sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params})
	}
	return h
}

// elimRecorder remembers when and by whom each player was eliminated.
type elimRecorder struct {
	rounds, by, victims []int
}

func (e *elimRecorder) Observe(ev *sim.Event) {
	if ev.Kind == sim.EvElimination {
		e.rounds = append(e.rounds, ev.Round)
		e.by = append(e.by, ev.Player)
		e.victims = append(e.victims, ev.Other)
	}
}

func printGame(w io.Writer, cfg *gameConfig, seats []bots.Seat, s *sim.State, res sim.Result, elim *elimRecorder, seed, index uint64) {
	fmt.Fprintf(w, "game %d, seed %d: rules %s on map %s, %d players\n", index, seed, cfg.Rules.Name, cfg.Map.Name, len(seats))
	if res.Stalemate {
		fmt.Fprintf(w, "stalemate after %d rounds (%d player-turns)\n", res.Rounds, res.Turns)
	} else {
		fmt.Fprintf(w, "winner: seat %d (%s) in round %d (%d player-turns)", res.Winner, seats[res.Winner].Label, res.Rounds, res.Turns)
		if m, _ := s.MissionOf(res.Winner); m != nil && s.NumAlive() > 1 {
			fmt.Fprintf(w, ", mission %q", m.Name)
		}
		fmt.Fprintln(w)
	}
	if len(elim.victims) == 0 {
		fmt.Fprintln(w, "eliminations: none")
	} else {
		fmt.Fprintln(w, "eliminations, in order:")
		for i, v := range elim.victims {
			fmt.Fprintf(w, "  %d. round %3d: seat %d (%s) by seat %d (%s)\n", i+1, elim.rounds[i], v, seats[v].Label, elim.by[i], seats[elim.by[i]].Label)
		}
	}
	tab := table.Table{Header: []string{"seat", "bot", "place", "territories", "armies", "cards", "faults"}}
	for p, st := range seats {
		tab.Add(strconv.Itoa(p), st.Label, strconv.Itoa(res.Placement[p]), strconv.Itoa(s.TerritoryCount(p)), strconv.Itoa(s.TotalArmies(p)),
			strconv.Itoa(s.NumCards(p)), strconv.Itoa(res.Faults[p]))
	}
	_ = tab.WriteText(w)
}

const replayUsage = "usage: marslab replay game.jsonl\n\nRe-plays the game from the seed, rules, map and seats recorded in the log's header and\nfails at the first event that differs from the log."

// cmdReplay re-simulates a logged game and checks every event.
func cmdReplay(ctx context.Context, in *invocation, _ struct{}) error {
	path, err := in.oneArg("log file")
	if err != nil {
		return err
	}
	f, err := fileread.Open(path, fileread.Log)
	if err != nil {
		return err
	}
	defer f.Close()
	rep, err := sim.Replay(ctx, f, human.ReplayPlayers(in.reg, func() (io.ReadCloser, error) { return fileread.Open(path, fileread.Log) }))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(in.stdout, "%s: replayed %d events: identical (winner %d, %d rounds)\n", path, rep.Events, rep.Result.Winner, rep.Result.Rounds)
	return nil
}
