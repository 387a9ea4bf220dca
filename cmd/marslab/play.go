package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"marslab/bots"
	"marslab/sim"
)

const defaultPlayers = "aggressive,pacifist,passive,random,aggressive,random"

// cmdPlay plays one game and prints its summary.
func cmdPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", stderr)
	gf := addGameFlags(fs, "seat 0 moves first")
	seed := fs.Uint64("seed", 1, "experiment seed")
	index := fs.Uint64("index", 0, "game index: the game's random streams derive from (seed, index)")
	logPath := fs.String("log", "", "write every event of the game to this JSONL file")
	explain := fs.Bool("explain", false, "let bots that can (MARS) narrate their decisions on stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marslab play [flags]\n\nPlays one game and prints the winner (or stalemate), rounds and eliminations.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("play: unexpected argument %q", fs.Arg(0))
	}
	cfg, seats, err := gf.load()
	if err != nil {
		return err
	}
	ps, err := newPlayers(seats)
	if err != nil {
		return err
	}
	if *explain {
		for _, p := range ps {
			if e, ok := p.(bots.Explainer); ok {
				e.SetExplain(stdout)
			}
		}
	}
	g, err := sim.NewGame(cfg.Map, cfg.Rules, len(seats))
	if err != nil {
		return err
	}
	var lw *sim.LogWriter
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			return fmt.Errorf("-log: %w", err)
		}
		defer f.Close()
		if lw, err = sim.NewLogWriter(f, logHeader(cfg, seats, *seed, *index)); err != nil {
			return err
		}
		g.Observe(lw)
	}
	elim := &elimRecorder{}
	g.Observe(elim)
	res, err := g.PlayContext(ctx, ps, *seed, *index)
	if err != nil {
		return err
	}
	if lw != nil {
		if err := lw.Close(res); err != nil {
			return fmt.Errorf("-log: %w", err)
		}
	}
	printGame(stdout, cfg, seats, g.State(), res, elim, *seed, *index)
	return nil
}

func newPlayers(seats []bots.Seat) ([]sim.Player, error) {
	ps := make([]sim.Player, len(seats))
	for i, s := range seats {
		p, err := s.New()
		if err != nil {
			return nil, fmt.Errorf("seat %d (%s): %w", i, s.Label, err)
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "seat\tbot\tplace\tterritories\tarmies\tcards\tfaults")
	for p, st := range seats {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\n", p, st.Label, res.Placement[p], s.TerritoryCount(p), s.TotalArmies(p), s.NumCards(p), res.Faults[p])
	}
	tw.Flush()
}

// cmdReplay re-simulates a logged game and checks every event.
func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marslab replay game.jsonl\n\nRe-plays the game from the seed, rules, map and seats recorded in the log's header and\nfails at the first event that differs from the log.")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errors.New("replay: want exactly one log file")
	}
	path := pos[0]
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h, events, result, err := sim.ReadLog(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	r, err := sim.ParseRules(path+": rules_toml", []byte(h.RulesTOML))
	if err != nil {
		return err
	}
	m, err := sim.ParseMap(path+": map_toml", []byte(h.MapTOML))
	if err != nil {
		return err
	}
	reg := bots.NewRegistry()
	ps := make([]sim.Player, len(h.Seats))
	for i, st := range h.Seats {
		fac, ok := reg.Lookup(st.Bot)
		if !ok {
			return fmt.Errorf("%s: seat %d: unknown bot %q", path, i, st.Bot)
		}
		seat := bots.Seat{Factory: fac, Params: st.Params, Label: st.Label}
		if ps[i], err = seat.New(); err != nil {
			return fmt.Errorf("%s: seat %d (%s): %w", path, i, st.Label, err)
		}
	}
	g, err := sim.NewGame(m, r, len(ps))
	if err != nil {
		return err
	}
	cmp := &logComparer{want: events}
	g.Observe(cmp)
	res, err := g.PlayContext(ctx, ps, h.Seed, h.Index)
	if err != nil {
		return err
	}
	if cmp.err == nil && cmp.n != len(events) {
		cmp.err = fmt.Errorf("the replay has %d events, the log %d", cmp.n, len(events))
	}
	if cmp.err != nil {
		return fmt.Errorf("%s: replay differs: %w", path, cmp.err)
	}
	if result != nil {
		if got := sim.ResultLine(res); string(got) != string(result) {
			return fmt.Errorf("%s: replay differs in the result:\n  log:    %s\n  replay: %s", path, result, got)
		}
	}
	fmt.Fprintf(stdout, "%s: replayed %d events: identical (winner %d, %d rounds)\n", path, len(events), res.Winner, res.Rounds)
	return nil
}

// logComparer checks replayed events against the logged lines.
type logComparer struct {
	want [][]byte
	n    int
	buf  []byte
	err  error
}

func (c *logComparer) Observe(e *sim.Event) {
	if c.err != nil {
		return
	}
	c.buf = e.AppendJSON(c.buf[:0])
	if c.n >= len(c.want) {
		c.err = fmt.Errorf("event %d (line %d) is beyond the end of the log: %s", c.n+1, c.n+2, c.buf)
	} else if string(c.buf) != string(c.want[c.n]) {
		c.err = fmt.Errorf("event %d (line %d):\n  log:    %s\n  replay: %s", c.n+1, c.n+2, c.want[c.n], c.buf)
	}
	c.n++
}
