package cli

import (
	"context"
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

// cmdPlay plays one game and prints its summary.
func cmdPlay(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("play", "usage: marslab play [flags]\n\nPlays one game and prints the winner (or stalemate), rounds and eliminations.\nA seat \"human\" is a person, at the web page the command serves (docs/play.md).", stderr)
	gf := addGameFlags(fs, "seat 0 moves first")
	seed := fs.Uint64("seed", 1, "experiment seed")
	index := fs.Uint64("index", 0, "game index: the game's random streams derive from (seed, index)")
	logPath := fs.String("log", "", "write every event of the game to this JSONL file")
	explain := fs.Bool("explain", false, "let bots that can (MARS) narrate their decisions: on stdout, or with -log into the log as explain events")
	hf := addHumanFlags(fs)
	if err := parseNoArgs(fs, args, stdout); err != nil {
		return err
	}
	if reg, err = human.Registry(reg); err != nil {
		return err
	}
	cfg, seats, err := gf.load(reg)
	if err != nil {
		return err
	}
	if hf.wanted(fs, seats) {
		return playHuman(ctx, reg, fs, cfg, seats, hf, humanGame{*seed, *index, *logPath, *explain}, stdout, stderr)
	}
	ps, err := newPlayers(seats)
	if err != nil {
		return err
	}
	g, err := sim.NewGame(cfg.Map, cfg.Rules, len(seats))
	if err != nil {
		return err
	}
	var lw *sim.LogWriter
	var logFile *atomicfile.File
	if *logPath != "" {
		// The log is written whole when the game ends (atomicfile): an
		// interrupted game leaves no part of one, and a link at the name
		// is replaced, not written through.
		f, err := atomicfile.Create(*logPath, 0o644)
		if err != nil {
			return fmt.Errorf("-log: %w", err)
		}
		defer f.Abort()
		logFile = f
		lh := logHeader(cfg, seats, *seed, *index)
		if *explain {
			lh.Explain = sim.ExplainSeats(ps)
		}
		if lw, err = sim.NewLogWriter(f, lh); err != nil {
			return err
		}
		g.Observe(lw)
	}
	var explainers []*sim.ExplainWriter
	switch {
	case *explain && lw != nil:
		if explainers, err = sim.Narrate(lw, g, ps, sim.ExplainSeats(ps)); err != nil {
			return err
		}
	case *explain:
		for _, p := range ps {
			if e, ok := p.(bots.Explainer); ok {
				e.SetExplain(stdout)
			}
		}
	}
	elim := &elimRecorder{}
	g.Observe(elim)
	res, err := g.PlayContext(ctx, ps, *seed, *index)
	if err != nil {
		return err
	}
	if lw != nil {
		for _, w := range explainers {
			w.Flush()
		}
		if err := lw.Close(res); err != nil {
			return fmt.Errorf("-log: %w", err)
		}
		if err := logFile.Commit(); err != nil {
			return fmt.Errorf("-log: %w", err)
		}
	}
	printGame(stdout, cfg, seats, g.State(), res, elim, *seed, *index)
	if *explain && *logPath == "" {
		// The narration's last line: with -log it went into the log, and
		// stdout stays the plain summary.
		printBotStats(stdout, seats, ps)
	}
	return nil
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

// cmdReplay re-simulates a logged game and checks every event.
func cmdReplay(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "usage: marslab replay game.jsonl\n\nRe-plays the game from the seed, rules, map and seats recorded in the log's header and\nfails at the first event that differs from the log.", stderr)
	path, err := parseOneArg(fs, args, stdout, "log file")
	if err != nil {
		return err
	}
	f, err := fileread.Open(path, fileread.Log)
	if err != nil {
		return err
	}
	defer f.Close()
	rep, err := sim.Replay(ctx, f, human.ReplayPlayers(reg, func() (io.ReadCloser, error) { return fileread.Open(path, fileread.Log) }))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stdout, "%s: replayed %d events: identical (winner %d, %d rounds)\n", path, rep.Events, rep.Result.Winner, rep.Result.Rounds)
	return nil
}
