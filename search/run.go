package search

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/progress"
)

// A Method is a search algorithm of this package seen as a sequence of
// steps: [Narrowing], [Evolve], [Validation] and [Panel]. It is
// deterministic: the evaluations of a step depend only on its
// configuration and on the results of the earlier steps, so that a log
// replays it exactly. A [Search] plays it; its methods are the package's
// own.
type Method interface {
	// steps returns the number of steps, known from the configuration
	// alone (a step may be empty).
	steps() int
	// next returns the evaluations of the next step, in canonical order:
	// candidates ascending, each candidate's blocks ascending. It is called
	// once per step, after tell of the previous step.
	next() ([]Eval, error)
	// tell gives the results of the step's evaluations, in order.
	tell(res []Result) error
	// status describes the state in one line for the progress display
	// (level, candidates alive, current best with its interval).
	status() string
}

// Search is a run of the method M, stored in a directory:
// Dir/config.json (the search's fingerprint), Dir/log.jsonl (every
// evaluation, in canonical order) and Dir/shards/ (the shard files of the
// current step). With Dir "" it plays in memory, without files (Run).
type Search[M Method] struct {
	// Dir is the output directory ("" = in memory).
	Dir string
	// Config is the content of config.json: a canonical description of
	// everything that decides the search's results. A directory holding a
	// different config.json is refused.
	Config []byte
	// New returns a fresh method of the search.
	New func() (M, error)
	// Eval plays the evaluations.
	Eval Evaluator
	// Players is the number of seats per game, 2..6, which bounds the
	// places a log line may hold; 0 means 6.
	Players int
	// Progress, when not nil, receives the progress display (package
	// internal/progress): the step, the games done of the games planned
	// (the steps to come estimated at the current step's size) and the
	// time left, as a bar redrawn in place, or plain lines when
	// ProgressLines is set. Label names the search in it ("" = "search").
	Progress      io.Writer
	ProgressLines bool
	Label         string
	// Step, when not nil, is called after each step played in memory
	// (Dir ""), with the step, the number of steps and the method's state
	// in one line (level, candidates alive, best so far).
	Step func(step, steps int, status string)
	// Report, when not nil, is called with the method played to its end
	// when every step is complete, to write the report files.
	Report func(m M) error
}

// State is where a search stands.
type State[M Method] struct {
	// Method is the method replayed from the log.
	Method M
	// Step is the current step, Steps when the search is complete; Steps
	// is the method's number of steps.
	Step, Steps int
	// Evals are the current step's evaluations and Done the results of
	// the prefix of them in the log.
	Evals []Eval
	Done  []Result
	// Lines is the number of evaluations in the log, its header aside (in
	// memory: the evaluations played), valid its length in bytes up to the
	// last complete line.
	Lines int
	// ReadBack is the number of games of the evaluations read back from
	// the log, played by an earlier run.
	ReadBack int
	// ShardFile is the file of the shard RunShard played ("" otherwise).
	ShardFile string
	valid     int64
	torn      bool
}

// Complete reports whether every step is done.
func (s *State[M]) Complete() bool { return s.Step >= s.Steps }

const (
	configFile = "config.json"
	logFile    = "log.jsonl"
	shardsDir  = "shards"
)

// The errors (errors.Is) of a search's folder that the caller words
// advice for.
var (
	// ErrOtherConfig: the folder's config.json is another search's.
	ErrOtherConfig = errors.New("written by a different search config")
	// ErrComplete: the folder holds this search, complete; a new run
	// needs another folder.
	ErrComplete = errors.New("complete")
	// ErrShardIncomplete: a shard's file lacks evaluations at a merge.
	ErrShardIncomplete = errors.New("incomplete")
)

// fingerprint returns the SHA-256 of the config, in hex.
func (s *Search[M]) fingerprint() string {
	h := sha256.Sum256(s.Config)
	return hex.EncodeToString(h[:])
}

// prepare creates Dir and writes config.json, or checks an existing one.
func (s *Search[M]) prepare() error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	path := filepath.Join(s.Dir, configFile)
	old, err := fileread.ReadFile(path, fileread.Record)
	switch {
	case err == nil:
		if !bytes.Equal(old, s.Config) {
			return fmt.Errorf("search: %s: %w (%s: file vs this run)", path, ErrOtherConfig, jsonDiff(old, s.Config))
		}
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("search: %w", err)
	}
	// A log that cannot be read (a FIFO, a device) is named as such.
	if _, err := fileread.Check(filepath.Join(s.Dir, logFile), fileread.Log); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("search: %w", err)
	}
	// Evaluations without the config they were played under cannot be
	// checked against this one: a log copied from another run would pass
	// its line checks when the methods ask the same points.
	if held, err := outdir.Holds(s.Dir, logFile, shardsDir); err != nil {
		return fmt.Errorf("search: %w", err)
	} else if held != "" {
		return fmt.Errorf("search: %s holds %s but no %s: its evaluations cannot be tied to a config (remove the folder to play it again)", s.Dir, held, configFile)
	}
	// Written whole, so that shards starting at once never see a partial
	// file.
	if err := atomicfile.WriteFile(path, s.Config, 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// replay reads Dir/log.jsonl and replays a fresh method through it. Every
// line must be the next evaluation the method asks for, with a valid
// result; a torn last line (an interrupted write) is ignored.
func (s *Search[M]) replay() (*State[M], error) {
	m, err := s.New()
	if err != nil {
		return nil, err
	}
	st := &State[M]{Method: m, Steps: m.steps()}
	path := filepath.Join(s.Dir, logFile)
	if st.Evals, err = m.next(); err != nil {
		return nil, fmt.Errorf("search: step 0: %w", err)
	}
	st.valid, st.torn, err = eachLine(path, func(line []byte, n int) error {
		if n == 1 && isHeader(line) {
			var h logHeader
			if err := json.Unmarshal(line, &h); err != nil {
				return fmt.Errorf("search: %s:1: header: %w", path, err)
			}
			want := s.headerLine()
			if fp := s.fingerprint(); h.Config != fp {
				return fmt.Errorf("search: %s: %w (the log's fingerprint %.12s, its folder's config.json %.12s: a log moved from another search?)", path, ErrOtherConfig, h.Config, fp)
			}
			if err := canonical(bytes.TrimSuffix(want, []byte{'\n'}), line); err != nil {
				return fmt.Errorf("search: %s:1: %w", path, err)
			}
			return nil
		}
		if err := st.advance(); err != nil {
			return err
		}
		if st.Complete() {
			return fmt.Errorf("search: %s:%d: an evaluation after the last step", path, n)
		}
		l, err := parseLine(line, s.maxPlace())
		if err != nil {
			return fmt.Errorf("search: %s:%d: %w", path, n, err)
		}
		if err := check(&l, st.Step, st.Evals[len(st.Done)]); err != nil {
			return fmt.Errorf("search: %s:%d: %w (a log of another search?)", path, n, err)
		}
		st.Done = append(st.Done, l.result())
		st.Lines++
		st.ReadBack += l.Games
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := st.advance(); err != nil {
		return nil, err
	}
	return st, nil
}

// maxPlace is the highest place a log line may hold.
func (s *Search[M]) maxPlace() int {
	if s.Players >= 2 && s.Players <= 6 {
		return s.Players
	}
	return 6
}

// check reports whether line l is evaluation e of step.
func check(l *logLine, step int, e Eval) error {
	if l.Step != step || l.Cand != e.Cand || l.Block != e.Block || key(l.X) != key(e.X) {
		return fmt.Errorf("step %d cand %d block %d x [%s]: want step %d cand %d block %d x [%s]",
			l.Step, l.Cand, l.Block, key(l.X), step, e.Cand, e.Block, key(e.X))
	}
	return nil
}

// advance tells the method every complete step and moves to the next
// incomplete one (passing empty steps).
func (st *State[M]) advance() error {
	for !st.Complete() && len(st.Done) == len(st.Evals) {
		if err := st.Method.tell(st.Done); err != nil {
			return fmt.Errorf("search: step %d: %w", st.Step, err)
		}
		st.Step++
		st.Evals, st.Done = nil, nil
		if st.Complete() {
			break
		}
		var err error
		if st.Evals, err = st.Method.next(); err != nil {
			return fmt.Errorf("search: step %d: %w", st.Step, err)
		}
	}
	return nil
}

// Steps returns the search's number of steps.
func (s *Search[M]) Steps() (int, error) {
	m, err := s.New()
	if err != nil {
		return 0, err
	}
	return m.steps(), nil
}

// Run plays every remaining step of the search in this process, appending
// each evaluation to the log as soon as it and every earlier one are done,
// then writes the report. Without resume a directory that already holds
// evaluations is refused. When ctx is cancelled, Run returns an error
// wrapping arena.ErrInterrupted; every evaluation in the log is kept and
// Run with resume continues. With Dir "" Run plays every step in memory
// (for experiments that keep only the result, a notebook), calls Step
// after each, and ignores resume.
func (s *Search[M]) Run(ctx context.Context, resume bool) (*State[M], error) {
	if s.Dir == "" {
		return s.play(ctx)
	}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	st, err := s.replay()
	if err != nil {
		return nil, err
	}
	if !resume && st.Complete() {
		return nil, fmt.Errorf("search: %s holds this search, %w (%d evaluations)", s.Dir, ErrComplete, st.Lines)
	}
	if !resume && (st.Lines > 0 || st.torn) {
		return st, fmt.Errorf("search: %w", &outdir.HeldError{Dir: s.Dir, Holds: "search", File: fmt.Sprintf("%s, %d evaluations", logFile, st.Lines)})
	}
	path := filepath.Join(s.Dir, logFile)
	f, err := atomicfile.OpenLog(path, 0o644)
	if err != nil {
		return st, fmt.Errorf("search: %w", err)
	}
	defer f.Close()
	if st.torn {
		if err := f.Truncate(st.valid); err != nil {
			return st, fmt.Errorf("search: %w", err)
		}
		st.torn = false
	}
	if st.valid == 0 {
		h := s.headerLine()
		if _, err := f.Write(h); err != nil {
			return st, fmt.Errorf("search: %w", err)
		}
		st.valid = int64(len(h))
	}
	pr := s.meter()
	defer pr.Finish()
	games := st.Lines * s.maxPlace()
	pr.Start(s.stepLabel(st), games, games+s.plannedLeft(st))
	var buf []byte
	for !st.Complete() {
		todo := st.Evals[len(st.Done):]
		_, err := s.Eval.Evaluate(ctx, todo, func(k int, r Result) error {
			e := todo[k]
			l := newLine(st.Step, e, r)
			buf = append(l.appendJSON(buf[:0]), '\n')
			if _, err := f.Write(buf); err != nil {
				return fmt.Errorf("search: %w", err)
			}
			st.Done = append(st.Done, r)
			st.Lines++
			st.valid += int64(len(buf))
			games += r.Games
			pr.Update(games)
			return nil
		})
		if err != nil {
			return st, fmt.Errorf("search: step %d: %w", st.Step, err)
		}
		if err := st.advance(); err != nil {
			return st, err
		}
		pr.Plan(s.stepLabel(st), games+s.plannedLeft(st))
	}
	pr.Finish()
	if s.Report != nil {
		if err := s.Report(st.Method); err != nil {
			return st, err
		}
	}
	return st, nil
}

// logHeader is the first line of a log: the fingerprint of the
// config.json it was played under, checked before any evaluation is read,
// so that a log moved beside another search's config.json is refused.
// A log whose first line is an evaluation was written by an older
// marslab and is read without the check.
type logHeader struct {
	Config string `json:"config"`
}

// headerLine returns the log's header line, newline included.
func (s *Search[M]) headerLine() []byte {
	b, _ := json.Marshal(logHeader{Config: s.fingerprint()})
	return append(b, '\n')
}

// isHeader reports whether a log's first line is a header.
func isHeader(line []byte) bool { return bytes.HasPrefix(bytes.TrimSpace(line), []byte(`{"config":`)) }

// shardHeader is the first line of a shard file.
type shardHeader struct {
	Config string `json:"config"`
	Step   int    `json:"step"`
	Shard  string `json:"shard"`
	From   int    `json:"from"`
	Evals  int    `json:"evals"`
}

// shardPath returns the file of shard sh of step.
func (s *Search[M]) shardPath(step int, sh arena.Shard) string {
	return filepath.Join(s.Dir, shardsDir, fmt.Sprintf("step-%d", step), fmt.Sprintf("shard-%d-of-%d.jsonl", sh.Index, sh.Count))
}

// shardEvals returns the indices of the current step's evaluations that
// shard sh plays: j >= from with j % Count == Index.
func shardEvals(from, n int, sh arena.Shard) []int {
	var idx []int
	for j := from; j < n; j++ {
		if j%sh.Count == sh.Index {
			idx = append(idx, j)
		}
	}
	return idx
}

// RunShard plays shard sh of the current step (the first incomplete one of
// the log, which it does not change) into its file, State.ShardFile. With resume an
// existing shard file of the same step is completed; without it an existing
// file is refused. It returns the state and whether the search was already
// complete (nothing to play).
func (s *Search[M]) RunShard(ctx context.Context, sh arena.Shard, resume bool) (*State[M], error) {
	if err := sh.Validate(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	st, err := s.replay()
	if err != nil {
		return nil, err
	}
	if st.Complete() {
		return st, nil
	}
	from := len(st.Done)
	idx := shardEvals(from, len(st.Evals), sh)
	hdr := shardHeader{Config: s.fingerprint(), Step: st.Step, Shard: sh.String(), From: from, Evals: len(st.Evals)}
	hline, _ := json.Marshal(hdr)
	hline = append(hline, '\n')
	path := s.shardPath(st.Step, sh)
	st.ShardFile = path
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return st, fmt.Errorf("search: %w", err)
	}
	have := 0
	var valid int64
	if _, err := fileread.Check(path, fileread.Log); err == nil {
		if !resume {
			rel, err := filepath.Rel(s.Dir, path)
			if err != nil {
				rel = path
			}
			return st, fmt.Errorf("search: %w", &outdir.HeldError{Dir: s.Dir, Holds: "search shard", File: rel})
		}
		lines, v, _, err := readShard(path, hdr, st.Evals, idx, s.maxPlace())
		if err != nil {
			return st, err
		}
		have, valid = len(lines), v
	} else if !errors.Is(err, os.ErrNotExist) {
		return st, fmt.Errorf("search: %w", err)
	}
	f, err := atomicfile.OpenLog(path, 0o644)
	if err != nil {
		return st, fmt.Errorf("search: %w", err)
	}
	defer f.Close()
	if err := f.Truncate(valid); err != nil {
		return st, fmt.Errorf("search: %w", err)
	}
	if valid == 0 {
		if _, err := f.Write(hline); err != nil {
			return st, fmt.Errorf("search: %w", err)
		}
	}
	todo := make([]Eval, 0, len(idx)-have)
	for _, j := range idx[have:] {
		todo = append(todo, st.Evals[j])
	}
	pr := s.meter()
	defer pr.Finish()
	pr.Start(s.stepLabel(st)+" shard "+sh.String(), 0, len(todo)*s.maxPlace())
	games := 0
	var buf []byte
	_, err = s.Eval.Evaluate(ctx, todo, func(k int, r Result) error {
		e := todo[k]
		l := newLine(st.Step, e, r)
		buf = append(l.appendJSON(buf[:0]), '\n')
		if _, err := f.Write(buf); err != nil {
			return fmt.Errorf("search: %w", err)
		}
		games += r.Games
		pr.Update(games)
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("search: step %d shard %s: %w", st.Step, sh, err)
	}
	return st, nil
}

// readShard parses a shard file: its header must be want, and its lines
// the evaluations idx of evals in order (a prefix of them; a torn last line
// is dropped). It returns the lines, the length of the valid part, and
// whether a torn line follows it. A missing file's error wraps
// fs.ErrNotExist.
func readShard(path string, want shardHeader, evals []Eval, idx []int, players int) ([]logLine, int64, bool, error) {
	var lines []logLine
	valid, torn, err := eachLine(path, func(line []byte, n int) error {
		if n == 1 {
			var h shardHeader
			if err := json.Unmarshal(line, &h); err != nil {
				return fmt.Errorf("search: %s:1: header: %w", path, err)
			}
			switch {
			case h.Config != want.Config:
				return fmt.Errorf("search: %s: %w (fingerprint %.12s, want %.12s)", path, ErrOtherConfig, h.Config, want.Config)
			case h != want:
				return fmt.Errorf("search: %s: header step %d shard %s from %d of %d evaluations: want step %d shard %s from %d of %d (a stale shard file: remove it)",
					path, h.Step, h.Shard, h.From, h.Evals, want.Step, want.Shard, want.From, want.Evals)
			}
			return nil
		}
		if len(lines) == len(idx) {
			return fmt.Errorf("search: %s:%d: more lines than the shard's %d evaluations", path, n, len(idx))
		}
		l, err := parseLine(line, players)
		if err != nil {
			return fmt.Errorf("search: %s:%d: %w", path, n, err)
		}
		if err := check(&l, want.Step, evals[idx[len(lines)]]); err != nil {
			return fmt.Errorf("search: %s:%d: %w", path, n, err)
		}
		lines = append(lines, l)
		return nil
	})
	if err != nil {
		return nil, 0, false, err
	}
	return lines, valid, torn, nil
}

// eachLine calls fn with every whole line of the log at path (newline
// excluded), numbered from 1, and returns the bytes of those lines with
// their newlines and whether a torn last line (an interrupted write)
// follows them. A line over fileread.MaxRecordLine is an error, never taken for
// a torn line; a missing file's error wraps fs.ErrNotExist.
func eachLine(path string, fn func(line []byte, n int) error) (valid int64, torn bool, err error) {
	f, err := fileread.Open(path, fileread.Log)
	if err != nil {
		return 0, false, fmt.Errorf("search: %w", err)
	}
	defer f.Close()
	lr := fileread.NewLineReader(f, path, fileread.MaxRecordLine)
	for {
		b, err := lr.Next()
		switch {
		case err == io.EOF:
			return valid, false, nil
		case errors.Is(err, fileread.ErrTorn):
			return valid, true, nil
		case err != nil:
			return valid, false, fmt.Errorf("search: %w", err)
		}
		if err := fn(b, lr.Line()); err != nil {
			return valid, false, err
		}
		valid += int64(len(b)) + 1
	}
}

// Merge appends the shard files of the current step to the log in
// canonical order, after checking that the n shards 0..n-1 are all present,
// complete and of this search, and removes them; when that completes the
// search it writes the report. Merging a complete search only rewrites the
// report. It returns the state after the merge.
func (s *Search[M]) Merge() (*State[M], error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	st, err := s.replay()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(s.Dir, logFile)
	if st.torn {
		if err := truncateLog(path, st.valid); err != nil {
			return st, err
		}
		st.torn = false
	}
	// Shard folders of finished steps (left by a merge interrupted after
	// its append) are stale.
	if err := s.removeStaleShards(st.Step); err != nil {
		return st, err
	}
	if !st.Complete() {
		if err := s.mergeStep(st, path); err != nil {
			return st, err
		}
	}
	if st.Complete() && s.Report != nil {
		if err := s.Report(st.Method); err != nil {
			return st, err
		}
	}
	return st, nil
}

func (s *Search[M]) mergeStep(st *State[M], logPath string) error {
	dir := filepath.Join(s.Dir, shardsDir, fmt.Sprintf("step-%d", st.Step))
	names, err := filepath.Glob(filepath.Join(dir, "shard-*-of-*.jsonl"))
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if len(names) == 0 {
		return fmt.Errorf("search: step %d: no shard files in %s (run the shards first)", st.Step, dir)
	}
	count := -1
	byIndex := map[int]string{}
	for _, name := range names {
		var i, n int
		if _, err := fmt.Sscanf(filepath.Base(name), "shard-%d-of-%d.jsonl", &i, &n); err != nil || n < 1 || i < 0 || i >= n {
			return fmt.Errorf("search: %s: not a shard file name (want shard-I-of-N.jsonl, 0 <= I < N)", name)
		}
		if count >= 0 && n != count {
			return fmt.Errorf("search: %s: a shard of %d, but %s is a shard of %d (remove the stale files)", name, n, byIndex[firstKey(byIndex)], count)
		}
		count = n
		byIndex[i] = name
	}
	for i := 0; i < count; i++ {
		if _, ok := byIndex[i]; !ok {
			return fmt.Errorf("search: step %d: %s is missing (%d of %d shards present)", st.Step, filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.jsonl", i, count)), len(byIndex), count)
		}
	}
	from := len(st.Done)
	parts := make([][]logLine, count)
	for i := 0; i < count; i++ {
		sh := arena.Shard{Index: i, Count: count}
		name := byIndex[i]
		idx := shardEvals(from, len(st.Evals), sh)
		want := shardHeader{Config: s.fingerprint(), Step: st.Step, Shard: sh.String(), From: from, Evals: len(st.Evals)}
		lines, _, torn, err := readShard(name, want, st.Evals, idx, s.maxPlace())
		if err != nil {
			return err
		}
		if len(lines) != len(idx) || torn {
			return fmt.Errorf("search: %s: %w: %d of %d evaluations", name, ErrShardIncomplete, len(lines), len(idx))
		}
		parts[i] = lines
	}
	var buf bytes.Buffer
	if st.valid == 0 {
		buf.Write(s.headerLine())
	}
	res := make([]Result, 0, len(st.Evals)-from)
	for j := from; j < len(st.Evals); j++ {
		i := j % count
		l := parts[i][0]
		parts[i] = parts[i][1:]
		buf.Write(l.appendJSON(nil))
		buf.WriteByte('\n')
		res = append(res, l.result())
	}
	f, err := atomicfile.OpenLog(logPath, 0o644)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("search: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("search: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	st.Done = append(st.Done, res...)
	st.Lines += len(res)
	st.valid += int64(buf.Len())
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return st.advance()
}

func firstKey(m map[int]string) int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys[0]
}

// removeStaleShards removes the shard folders of steps before step.
func (s *Search[M]) removeStaleShards(step int) error {
	dirs, err := filepath.Glob(filepath.Join(s.Dir, shardsDir, "step-*"))
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for _, d := range dirs {
		var k int
		if _, err := fmt.Sscanf(filepath.Base(d), "step-%d", &k); err == nil && k < step {
			if err := os.RemoveAll(d); err != nil {
				return fmt.Errorf("search: %w", err)
			}
		}
	}
	return nil
}

// meter returns the search's progress meter (nil without Progress).
func (s *Search[M]) meter() *progress.Meter {
	if s.Progress == nil {
		return nil
	}
	return progress.New(s.Progress, !s.ProgressLines)
}

// stepLabel names the current step in the progress display.
func (s *Search[M]) stepLabel(st *State[M]) string {
	label := s.Label
	if label == "" {
		label = "search"
	}
	return fmt.Sprintf("%s step %d/%d", label, min(st.Step+1, st.Steps), st.Steps)
}

// plannedLeft estimates the games left: the current step's evaluations
// not done, and each step after it the size of the current one.
func (s *Search[M]) plannedLeft(st *State[M]) int {
	if st.Complete() {
		return 0
	}
	left := len(st.Evals) - len(st.Done) + (st.Steps-st.Step-1)*len(st.Evals)
	return left * s.maxPlace()
}

// play runs every step of the method in memory, without a log, with the
// progress display, and calls Step after each step and Report at the end.
func (s *Search[M]) play(ctx context.Context) (*State[M], error) {
	m, err := s.New()
	if err != nil {
		return nil, err
	}
	st := &State[M]{Method: m, Steps: m.steps()}
	pr := s.meter()
	defer pr.Finish()
	games := 0
	for ; st.Step < st.Steps; st.Step++ {
		evals, err := m.next()
		if err != nil {
			return st, fmt.Errorf("search: step %d: %w", st.Step, err)
		}
		st.Evals, st.Done = evals, nil
		if st.Step == 0 {
			pr.Start(s.stepLabel(st), 0, s.plannedLeft(st))
		} else {
			pr.Plan(s.stepLabel(st), games+s.plannedLeft(st))
		}
		res := make([]Result, len(evals))
		n, err := s.Eval.Evaluate(ctx, evals, func(k int, r Result) error {
			res[k] = r
			games += r.Games
			pr.Update(games)
			return nil
		})
		if err != nil {
			return st, fmt.Errorf("search: step %d: %w", st.Step, err)
		}
		if n != len(evals) {
			return st, fmt.Errorf("search: step %d: %d of %d evaluations played", st.Step, n, len(evals))
		}
		if err := m.tell(res); err != nil {
			return st, fmt.Errorf("search: step %d: %w", st.Step, err)
		}
		st.Lines += n
		if s.Step != nil {
			s.Step(st.Step, st.Steps, m.status())
		}
	}
	st.Evals = nil
	pr.Finish()
	if s.Report != nil {
		if err := s.Report(m); err != nil {
			return st, err
		}
	}
	return st, nil
}

// truncateLog cuts the log path to its first size bytes (a torn last line
// off), through atomicfile.OpenLog: a link is not followed.
func truncateLog(path string, size int64) error {
	f, err := atomicfile.OpenLog(path, 0o644)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// jsonDiff names the first difference between two JSON documents, keys in
// sorted order: "KEY.PATH: A vs B" (values cut to 60 bytes), or
// "the texts differ" when either is not JSON or they differ only in form.
func jsonDiff(a, b []byte) string {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return "the texts differ"
	}
	if d := diffValue("", va, vb); d != "" {
		return d
	}
	return "the texts differ"
}

func diffValue(path string, a, b any) string {
	name := path
	if name == "" {
		name = "the config"
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %s vs %s", name, short(a), short(b))
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, okA := x[k]
			vb, okB := y[k]
			switch {
			case !okA:
				return fmt.Sprintf("%s: absent vs %s", p, short(vb))
			case !okB:
				return fmt.Sprintf("%s: %s vs absent", p, short(va))
			}
			if d := diffValue(p, va, vb); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: %s vs %s", name, short(a), short(b))
		}
		for i := range min(len(x), len(y)) {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: %d entries vs %d", name, len(x), len(y))
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s: %s vs %s", name, short(a), short(b))
	}
	return ""
}

// short returns v as JSON, cut after 60 bytes.
func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}
