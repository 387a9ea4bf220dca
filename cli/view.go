package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/human"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/view"
)

// viewMarker is in every page that marslab view writes: it overwrites
// only such a file.
const viewMarker = `<meta name="generator" content="marslab view">`

const viewUsage = `usage: marslab view GAME.jsonl [-out GAME.html]
       marslab view DIR -game N [-out DIR-gameN.html]

Writes one self-contained web page (no server, no network, no file beside it) that shows a
game: the board, the seats, controls to step through it, a chart over the rounds and, when the
log has them (play -explain -log), MARS's explanations. A log is replayed first: a log that is
cut or changed is refused. DIR is a batch or tournament directory (config.json): game N is
played again from its seed and line-up, with MARS explaining its decisions.`

// viewFlags are the flags of marslab view.
type viewFlags struct {
	out, rules, mapFile *string
	game                *int
}

func viewFlagSet(fs *flag.FlagSet) *viewFlags {
	return &viewFlags{
		out:     fs.String("out", "", "the page to write (default: the log's name with .html, or DIR-gameN.html)"),
		game:    fs.Int("game", 0, "with a batch or tournament directory: the index of the game to show, 0..games-1"),
		rules:   fs.String("rules", "", "with a directory whose rules are not embedded: the rules file it was run with"),
		mapFile: fs.String("map", "", "with a directory whose map is not embedded: the map file it was run with"),
	}
}

// cmdView writes a game as a self-contained web page.
func cmdView(ctx context.Context, in *invocation, f *viewFlags) error {
	src, err := in.oneArg("game log or directory")
	if err != nil {
		return err
	}
	if *f.game < 0 {
		return fmt.Errorf("-game %d: invalid: a game index is 0 or more", *f.game)
	}
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	var log []byte
	if st.IsDir() {
		log, err = f.dirLog(ctx, in, src)
	} else {
		log, err = f.fileLog(in, src)
	}
	if err != nil {
		return err
	}
	return writeView(ctx, in, src, *f.out, log)
}

// dirLog plays game -game of the batch or tournament directory src again
// and returns its log; -out defaults to DIR-gameN.html beside it.
func (f *viewFlags) dirLog(ctx context.Context, in *invocation, src string) ([]byte, error) {
	if !in.set(false)["game"] {
		return nil, fmt.Errorf("%s is a directory: -game N says which of its games to show", src)
	}
	log, err := regenerate(ctx, in.reg, src, *f.game, *f.rules, *f.mapFile)
	if err != nil {
		return nil, err
	}
	if *f.out == "" {
		// Beside the directory, named after it; "." and ".." by their
		// absolute path, so that the page is not a hidden ".-gameN.html".
		dir := filepath.Clean(src)
		if b := filepath.Base(dir); b == "." || b == ".." {
			if dir, err = filepath.Abs(dir); err != nil {
				return nil, err
			}
		}
		*f.out = fmt.Sprintf("%s-game%d.html", dir, *f.game)
	}
	return log, nil
}

// fileLog reads the game log src; -out defaults to its name with .html.
func (f *viewFlags) fileLog(in *invocation, src string) ([]byte, error) {
	set := in.set(false)
	for _, name := range []string{"game", "rules", "map"} {
		if set[name] {
			return nil, fmt.Errorf("-%s applies to a directory, and %s is a file", name, src)
		}
	}
	log, err := fileread.ReadFile(src, fileread.GameLog)
	if err != nil {
		return nil, err
	}
	if *f.out == "" {
		*f.out = strings.TrimSuffix(src, filepath.Ext(src)) + ".html"
	}
	return log, nil
}

// writeView replays log (read from src) into a page written to out.
func writeView(ctx context.Context, in *invocation, src, out string, log []byte) error {
	h, events, res, err := sim.ReadLog(bytes.NewReader(log))
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	var page bytes.Buffer
	if err := view.Write(ctx, &page, log, human.ReplayPlayers(in.reg, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(log)), nil })); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if err := writePage(out, page.Bytes()); err != nil {
		return fmt.Errorf("-out %s: %w", out, err)
	}
	explained := 0
	for i := range events {
		if events[i].Kind == sim.EvExplain {
			explained++
		}
	}
	fmt.Fprintf(in.stdout, "%s: %d events (and %d lines of explanation), %d rounds, %s: %s (%d KB)\n",
		src, len(events)-explained, explained, res.Rounds, resultWords(h, res), out, (page.Len()+1023)/1024)
	return nil
}

// resultWords says who won, or that the game ended in a stalemate. The
// winner's label, read from a log, is quoted (%q), so that a label holding
// terminal escapes prints as text.
func resultWords(h sim.LogHeader, res sim.Result) string {
	if res.Stalemate || res.Winner < 0 || res.Winner >= len(h.Seats) {
		return "stalemate"
	}
	return fmt.Sprintf("winner seat %d (%q)", res.Winner, h.Seats[res.Winner].Label)
}

// writePage writes the page to path atomically (atomicfile), so that a
// failure leaves no page; it overwrites only a page of marslab view, a
// regular file (a FIFO or a device at path is refused, not opened).
func writePage(path string, page []byte) error {
	if old, err := fileread.Open(path, fileread.Page); err == nil {
		head := make([]byte, 512)
		n, _ := io.ReadFull(old, head)
		old.Close()
		if !bytes.Contains(head[:n], []byte(viewMarker)) {
			return errors.New("exists and is not a page of marslab view: refusing to overwrite it")
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return atomicfile.WriteFile(path, page, 0o644)
}

// regenerate plays game g of the batch or tournament in dir again, from
// the seed, rules, map, seats and schedule of its config.json, with the
// seats that can explain their decisions doing so, and returns its log.
// The rules and map are loaded by the names config.json records (or from
// rulesFile and mapFile) and must have its fingerprints.
func regenerate(ctx context.Context, reg *bots.Registry, dir string, g int, rulesFile, mapFile string) ([]byte, error) {
	h, err := arena.ReadHeader(dir)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, "config.json")
	if g >= h.Games {
		return nil, fmt.Errorf("-game %d: %s has games 0..%d", g, cfgPath, h.Games-1)
	}
	rulesArg, mapArg := h.Rules, h.Map
	if rulesFile != "" {
		rulesArg = rulesFile
	}
	if mapFile != "" {
		mapArg = mapFile
	}
	cfg, err := loadConfig(rulesArg, mapArg)
	if err != nil {
		return nil, fmt.Errorf("%s: rules %q, map %q: %w (give -rules and -map for files)", cfgPath, h.Rules, h.Map, err)
	}
	rulesSum, err := sim.RulesDigest(cfg.Rules)
	if err != nil {
		return nil, err
	}
	mapSum, err := arena.MapFingerprint(cfg.Map)
	if err != nil {
		return nil, err
	}
	for _, c := range []struct{ what, name, want, got string }{
		{"rules", rulesArg, h.RulesSHA256, rulesSum}, {"map", mapArg, h.MapSHA256, mapSum}} {
		got := c.got
		if got != c.want {
			return nil, fmt.Errorf("%s: %s %q: contents differ from the ones the games were played with (%s_sha256 %.12s, loaded %.12s)",
				cfgPath, c.what, c.name, c.what, c.want, got)
		}
	}
	sched, err := h.Schedule.Schedule()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfgPath, err)
	}
	seats, err := headerSeats(reg, cfgPath, h)
	if err != nil {
		return nil, err
	}
	batch := arena.Config{Map: cfg.Map, Rules: cfg.Rules, Seats: seats, Schedule: sched, Games: h.Games, Seed: h.Seed}
	rec, log, err := arena.Replay(ctx, batch, g, logHeader(cfg, nil, 0, 0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfgPath, err)
	}
	if err := checkRecord(dir, rec, len(sched.Lineup(g, nil))); err != nil {
		return nil, err
	}
	return log, nil
}

// headerSeats returns the seats that the header h of cfgPath records,
// each bot's parameters checked against its factory in reg.
func headerSeats(reg *bots.Registry, cfgPath string, h arena.Header) ([]bots.Seat, error) {
	seats := make([]bots.Seat, len(h.Seats))
	for e, si := range h.Seats {
		fac, ok := reg.Lookup(si.Bot)
		if !ok {
			return nil, fmt.Errorf("%s: seat %d (%s): unknown bot %q", cfgPath, e, si.Label, si.Bot)
		}
		for _, k := range slices.Sorted(maps.Keys(si.Params)) {
			p, ok := fac.Param(k)
			if !ok {
				return nil, fmt.Errorf("%s: seat %d (%s): params.%s: bot %s has no such parameter (parameters: %s)", cfgPath, e, si.Label, k, si.Bot, fac.ParamNames())
			}
			if err := p.Check(si.Params[k]); err != nil {
				return nil, fmt.Errorf("%s: seat %d (%s): params.%s = %s: %w", cfgPath, e, si.Label, k, p.Format(si.Params[k]), err)
			}
		}
		seats[e] = bots.Seat{Factory: fac, Params: si.Params, Label: si.Label}
	}
	return seats, nil
}

// checkRecord compares the regenerated game's record with its line in
// dir/games.jsonl, byte for byte, when the directory holds it (a shard
// holds some games).
func checkRecord(dir string, rec arena.Record, players int) error {
	path := filepath.Join(dir, "games.jsonl")
	f, err := fileread.Open(path, fileread.Log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	lr := fileread.NewLineReader(f, path, fileread.MaxRecordLine)
	for {
		b, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		line := lr.Line()
		old, err := arena.ParseRecord(b, players)
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		if old.Game != rec.Game {
			continue
		}
		for i, s := range rec.Seating {
			if old.Seating[i] != s {
				return fmt.Errorf("%s: line %d: game %d seats %q in seat %d, the schedule %q", path, line, rec.Game, old.Seating[i], i, s)
			}
		}
		if !bytes.Equal(rec.AppendJSON(nil), b) {
			return fmt.Errorf("%s: line %d: game %d played again gives winner %d in %d rounds (%d turns), the record winner %d in %d rounds (%d turns), or other counts: the seed, seats or schedule of config.json were edited, or the bots have changed since the games were played",
				path, line, rec.Game, rec.Winner, rec.Rounds, rec.Turns, old.Winner, old.Rounds, old.Turns)
		}
		return nil
	}
}
