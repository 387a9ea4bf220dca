package tourney

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// Options are the run-time choices of a tournament that do not change its
// results.
type Options struct {
	// Out is the output directory; "" means Config.Out.
	Out string
	// Workers is the number of games played at once; 0 means every core.
	Workers int
	// Shard restricts the run to one shard of the games (arena.Shard).
	Shard arena.Shard
	// Resume continues the tournament in Out (arena.Config.Resume).
	Resume bool
	// Progress, when not nil, receives the progress display: a bar, or
	// plain lines when ProgressLines is set (arena.Config).
	Progress      io.Writer
	ProgressLines bool
	// Figures, when not nil, draws the report's figures into the output
	// directory once its tables are written (e.g. figures.WriteTournament
	// of package internal/figures).
	Figures func(dir string, r *Results) error
}

// Run plays the tournament (or its shard) with arena.Run, schedule
// Config.schedule, and, once every game of the shard is done, reads the
// games back, analyses them and writes the report into the output
// directory (writeReport). Results is nil when the run was interrupted.
func Run(ctx context.Context, c *Config, s *Setup, o Options) (*arena.Report, *Results, error) {
	sched, err := c.schedule()
	if err != nil {
		return nil, nil, fmt.Errorf("tourney: %s: %w", c.Source, err)
	}
	out := o.Out
	if out == "" {
		out = c.Out
	}
	if out == "" {
		return nil, nil, fmt.Errorf("tourney: %s: no output directory (key out or an explicit one)", c.Source)
	}
	if o.Shard.Count > 0 && o.Shard.Len(sched.Games()) == 0 {
		return nil, nil, fmt.Errorf("tourney: %s: shard %s holds none of the %d games: want at most %d shards", c.Source, o.Shard, sched.Games(), sched.Games())
	}
	ac := arena.Config{Map: s.Map, Rules: s.Rules, Seats: s.Seats, Schedule: sched, Games: sched.Games(), Seed: c.Seed,
		Workers: o.Workers, Shard: o.Shard, Out: out, Resume: o.Resume, Progress: o.Progress, ProgressLines: o.ProgressLines, ProgressStep: "tournament", Timing: true}
	rep, err := arena.Run(ctx, ac)
	if err != nil {
		return rep, nil, err
	}
	res, err := report(out, rep.Header.Labels(), c.Players, &rep.Timing, o.Figures)
	return rep, res, err
}

// report reads the games of the batch directory dir (games.jsonl),
// analyses them with the given timing and writes the report (writeReport)
// into dir.
func report(dir string, labels []string, players int, timing *arena.Timing, figures func(string, *Results) error) (*Results, error) {
	recs, err := ReadGames(filepath.Join(dir, "games.jsonl"), players)
	if err != nil {
		return nil, err
	}
	res, err := Analyze(labels, players, recs, timing)
	if err != nil {
		return nil, err
	}
	if err := writeReport(dir, res); err != nil {
		return res, err
	}
	if figures != nil {
		if err := figures(dir, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ReadGames reads the records of a games.jsonl file of games of players
// seats (arena.ParseRecord checks each line).
func ReadGames(path string, players int) ([]arena.Record, error) {
	f, err := fileread.Open(path, fileread.Log)
	if err != nil {
		return nil, fmt.Errorf("tourney: %w", err)
	}
	defer f.Close()
	var recs []arena.Record
	lr := fileread.NewLineReader(f, path, fileread.MaxRecordLine)
	for {
		b, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return recs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("tourney: %w", err)
		}
		r, err := arena.ParseRecord(b, players)
		if err != nil {
			return nil, fmt.Errorf("tourney: %s: line %d: %w", path, lr.Line(), err)
		}
		recs = append(recs, r)
	}
}

// writeReport writes every table of res into dir as NAME.md and NAME.csv,
// and the sentences of Results.Findings and all the tables together as
// tables.md.
func writeReport(dir string, res *Results) error {
	all, err := atomicfile.Create(filepath.Join(dir, "tables.md"), 0o644)
	if err != nil {
		return fmt.Errorf("tourney: %w", err)
	}
	defer all.Abort()
	var head strings.Builder
	head.WriteString("## Findings\n\n")
	for _, s := range res.Findings() {
		head.WriteString("- " + s + ".\n")
	}
	if _, err := io.WriteString(all, head.String()+"\n"); err != nil {
		return fmt.Errorf("tourney: %w", err)
	}
	for i, t := range res.tables() {
		if i > 0 {
			if _, err := io.WriteString(all, "\n"); err != nil {
				return fmt.Errorf("tourney: %w", err)
			}
		}
		if err := t.WriteMarkdown(all); err != nil {
			return fmt.Errorf("tourney: %w", err)
		}
		for ext, write := range map[string]func(io.Writer) error{".md": t.WriteMarkdown, ".csv": t.WriteCSV} {
			if err := writeFile(filepath.Join(dir, t.Name+ext), write); err != nil {
				return err
			}
		}
	}
	if err := all.Commit(); err != nil {
		return fmt.Errorf("tourney: %w", err)
	}
	return nil
}

// writeFile writes the file path with write, whole (atomicfile).
func writeFile(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return fmt.Errorf("tourney: %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("tourney: %w", err)
	}
	return nil
}
