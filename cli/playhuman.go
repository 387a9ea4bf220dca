package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/human"
	"github.com/marslab-risk/marslab/sim"
)

// humanFlags are play's flags for a game with human seats (internal/human).
type humanFlags struct {
	addr   string
	open   bool
	idle   time.Duration
	resume string
}

func addHumanFlags(fs *flag.FlagSet) *humanFlags {
	f := &humanFlags{}
	fs.StringVar(&f.addr, "addr", "127.0.0.1:0", "with a human seat: the address of the game's web server (port 0: a free one; anything but the loopback is warned about)")
	fs.BoolVar(&f.open, "open", false, "with a human seat: open the game's page in the system's browser")
	fs.DurationVar(&f.idle, "idle", 30*time.Minute, "with a human seat: save the game and stop after this long without a request from the page (0: never)")
	fs.StringVar(&f.resume, "resume", "", "continue the game with human seats saved in this log (the log's header gives seats, seed, rules and map)")
	return f
}

// humanGame holds play's other flags that a game with human seats uses.
type humanGame struct {
	seed, index uint64
	log         string
	explain     bool
}

// wanted reports whether the game seats a person, resumes one, or sets a
// flag of such a game (playHuman refuses it without a human seat).
func (f *humanFlags) wanted(fs *flag.FlagSet, seats []bots.Seat) bool {
	return f.resume != "" || hasHuman(seats) || setFlag(fs, "addr", "open", "idle") != ""
}

func hasHuman(seats []bots.Seat) bool {
	return slices.ContainsFunc(seats, func(s bots.Seat) bool { return s.Factory.Name == human.Bot })
}

// setFlag returns the first of names set on the command line, or "".
func setFlag(fs *flag.FlagSet, names ...string) string {
	found := ""
	fs.Visit(func(f *flag.Flag) {
		if found == "" && slices.Contains(names, f.Name) {
			found = f.Name
		}
	})
	return found
}

// playHuman plays a game with human seats: the page at a local server
// (human.Play), the log saved as it goes, the summary at the end.
func playHuman(ctx context.Context, reg *bots.Registry, fs *flag.FlagSet, cfg *gameConfig, seats []bots.Seat, hf *humanFlags, hg humanGame,
	stdout, stderr io.Writer) error {
	if hf.idle < 0 {
		return fmt.Errorf("-idle %v: must be 0 (never) or more", hf.idle)
	}
	resume, cfg, seats, err := hf.game(reg, fs, cfg, seats, &hg)
	if err != nil {
		return err
	}
	ps, err := newPlayers(seats)
	if err != nil {
		return err
	}
	g, err := sim.NewGame(cfg.Map, cfg.Rules, len(seats))
	if err != nil {
		return err
	}
	logPath := hf.logPath(hg)
	if err := hf.checkAddr(stderr); err != nil {
		return err
	}
	elim := &elimRecorder{}
	g.Observe(elim)
	fmt.Fprintf(stdout, "game %d, seed %d: rules %s on map %s, %d players; saved in %s as it goes\n", hg.index, hg.seed, cfg.Rules.Name, cfg.Map.Name, len(seats), logPath)
	res, err := human.Play(ctx, human.Config{
		Game: g, Header: logHeader(cfg, seats, hg.seed, hg.index), Players: ps, Explain: hg.explain,
		LogPath: logPath, Resume: resume, Addr: hf.addr, Idle: hf.idle, ResumeCommand: hf.resumeCommand(fs, logPath, hg.explain), Out: stdout,
		Ready: func(url string) {
			if hf.open {
				openBrowser(url, stderr)
			}
		},
	})
	if errors.Is(err, human.ErrSaved) && ctx.Err() == nil {
		fmt.Fprintln(stdout, err) // the idle game is saved: not a failure
		return nil
	}
	if err != nil {
		return err
	}
	printGame(stdout, cfg, seats, g.State(), res, elim, hg.seed, hg.index)
	return nil
}

// game returns the log -resume continues (nil for a new game), and the
// game: the log's own (its rules, map, seats, seed and index into hg)
// when no flag of the command line sets one, else cfg and seats, which
// must seat a person.
func (hf *humanFlags) game(reg *bots.Registry, fs *flag.FlagSet, cfg *gameConfig, seats []bots.Seat, hg *humanGame) ([]byte, *gameConfig, []bots.Seat, error) {
	var resume []byte
	var err error
	if hf.resume != "" {
		if resume, err = fileread.ReadFile(hf.resume, fileread.GameLog); err != nil {
			return nil, nil, nil, fmt.Errorf("-resume: %w", err)
		}
	}
	if hf.resume != "" && setFlag(fs, "players", "rules", "map", "param", "seed", "index") == "" {
		if cfg, seats, hg.seed, hg.index, err = logGame(reg, resume); err != nil {
			return nil, nil, nil, fmt.Errorf("-resume %s: %w", hf.resume, err)
		}
		return resume, cfg, seats, nil
	}
	if !hasHuman(seats) {
		name := setFlag(fs, "addr", "open", "idle")
		return nil, nil, nil, fmt.Errorf("-%s: only for a game with a human seat (-players human,...)", name)
	}
	return resume, cfg, seats, nil
}

// logPath is the log of the game: -log, the log -resume continues, or a
// new file in the temporary folder.
func (hf *humanFlags) logPath(hg humanGame) string {
	switch {
	case hg.log != "":
		return hg.log
	case hf.resume != "":
		return hf.resume
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("marslab-play-%d-%d-%d.jsonl", hg.seed, hg.index, time.Now().Unix()))
}

// checkAddr checks -addr, and warns on stderr when it is not a loopback
// address.
func (hf *humanFlags) checkAddr(stderr io.Writer) error {
	local, err := loopback(hf.addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", hf.addr, err)
	}
	if !local {
		fmt.Fprintf(stderr, "warning: -addr %s: the game's server is reachable from other machines; anyone with its address and token can play your seats\n", hf.addr)
	}
	return nil
}

// resumeCommand is the command line that continues the game saved in
// logPath with the flags of this one.
func (hf *humanFlags) resumeCommand(fs *flag.FlagSet, logPath string, explain bool) string {
	cmd := "marslab play -resume " + shellQuote(logPath)
	if explain {
		cmd += " -explain"
	}
	if setFlag(fs, "addr") != "" {
		cmd += " -addr " + shellQuote(hf.addr)
	}
	if setFlag(fs, "idle") != "" {
		cmd += " -idle " + hf.idle.String()
	}
	return cmd
}

// logGame is the game a log's header describes: its rules and map, its
// seats (bots of reg, human seats), seed and index.
func logGame(reg *bots.Registry, log []byte) (*gameConfig, []bots.Seat, uint64, uint64, error) {
	lr, err := sim.NewLogReader(bytes.NewReader(log))
	if err != nil {
		return nil, nil, 0, 0, err
	}
	h := lr.Header()
	cfg := &gameConfig{RulesName: h.RulesName, MapName: h.MapName, RulesTOML: []byte(h.RulesTOML), MapTOML: []byte(h.MapTOML)}
	if cfg.Rules, err = sim.ParseRules("line 1 (header): rules_toml", cfg.RulesTOML); err != nil {
		return nil, nil, 0, 0, err
	}
	if cfg.Map, err = sim.ParseMap("line 1 (header): map_toml", cfg.MapTOML); err != nil {
		return nil, nil, 0, 0, err
	}
	var seats []bots.Seat
	for i, s := range h.Seats {
		f, ok := reg.Lookup(s.Bot)
		if !ok {
			return nil, nil, 0, 0, fmt.Errorf("line 1 (header): seat %d: unknown bot %q", i, s.Bot)
		}
		params := bots.Values(s.Params)
		if params == nil {
			params = bots.Values{}
		}
		seats = append(seats, bots.Seat{Factory: f, Params: params, Label: s.Label})
	}
	return cfg, seats, h.Seed, h.Index, nil
}

// loopback reports whether the address host:port is on the loopback
// (localhost, 127.0.0.0/8, ::1); an empty host listens everywhere.
func loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback(), nil
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// openBrowser opens url in the system's browser, if it has one.
func openBrowser(url string, stderr io.Writer) {
	for _, name := range []string{"xdg-open", "sensible-browser", "x-www-browser", "open"} {
		if path, err := exec.LookPath(name); err == nil {
			cmd := exec.Command(path, url)
			if err := cmd.Start(); err == nil {
				go cmd.Wait()
				return
			}
		}
	}
	fmt.Fprintln(stderr, "-open: no browser found (xdg-open, sensible-browser, x-www-browser, open): open the address yourself")
}
