package arena

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// Merge joins the output directories of the shards of one batch into out:
// it checks that their config.json files agree (except for the shard
// index), that every shard 0..Count-1 is given exactly once and is
// complete, and writes config.json, games.jsonl (every game, in index
// order), summary.json (byte-identical to a one-shard run of the batch) and
// timing.json (the shards' timings added up). Games are copied line by line,
// so memory stays small whatever the batch size.
func Merge(out string, dirs []string) (*Report, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no shard directories")
	}
	var h Header
	byIndex := map[int]string{}
	for i, d := range dirs {
		dh, err := ReadHeader(d)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if i == 0 {
			h = dh
		} else if diff := h.diff(&dh, true); diff != "" {
			return nil, fmt.Errorf("merge: %s and %s are not shards of the same batch: %s", dirs[0], d, diff)
		}
		if prev, ok := byIndex[dh.Shard.Index]; ok {
			return nil, fmt.Errorf("merge: shard %s is given twice (%s and %s)", dh.Shard, prev, d)
		}
		byIndex[dh.Shard.Index] = d
	}
	count := h.Shard.Count
	var missing []string
	for i := 0; i < count; i++ {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, Shard{Index: i, Count: count}.String())
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge: shard(s) %s missing: the shards must cover games 0..%d exactly once", strings.Join(missing, ", "), h.Games-1)
	}
	for _, d := range dirs {
		if same, err := sameDir(d, out); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		} else if same {
			return nil, fmt.Errorf("merge: output directory %s is one of the shards", out)
		}
	}

	// Check every shard completely before writing anything.
	for i := 0; i < count; i++ {
		d := byIndex[i]
		sh := h
		sh.Shard = Shard{Index: i, Count: count}
		f, err := fileread.Open(filepath.Join(d, gamesFile), fileread.Log)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		_, _, err = scanGames(f, filepath.Join(d, gamesFile), &sh, newTally(h.Labels(), h.Schedule.Players), sh.Shard.Len(h.Games))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}

	mh := h
	mh.Shard = Shard{Index: 0, Count: 1}
	if err := checkMergeOut(out, &mh); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	rep := &Report{Header: mh, Total: h.Games}
	tal := newTally(h.Labels(), h.Schedule.Players)
	if err := mergeGames(out, &h, byIndex, tal); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	rep.Done = h.Games
	var err error
	if rep.Summary, err = tal.summary(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	for i := 0; i < count; i++ {
		// Timings are measurements: a shard without a readable timing.json
		// only leaves its part out of the combined figures.
		var t Timing
		if b, err := fileread.ReadFile(filepath.Join(byIndex[i], timingFile), fileread.Record); err == nil && json.Unmarshal(b, &t) == nil {
			rep.Timing.add(t)
		}
	}
	rep.Timing.finish()
	if err := writeJSON(out, configFile, mh); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := writeSummary(out, rep.Summary); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := writeJSON(out, timingFile, rep.Timing); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return rep, nil
}

// sameDir reports whether a and b name the same existing directory (false
// when b does not exist yet).
func sameDir(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// checkMergeOut refuses an output directory that holds a batch other than
// the merged one mh (re-merging into a directory of the same batch is
// allowed).
func checkMergeOut(out string, mh *Header) error {
	cpath := filepath.Join(out, configFile)
	_, cerr := os.Stat(cpath)
	_, gerr := os.Stat(filepath.Join(out, gamesFile))
	if errors.Is(cerr, os.ErrNotExist) {
		if gerr == nil {
			return fmt.Errorf("output directory %s holds a %s without %s: choose another output directory", out, gamesFile, configFile)
		}
		return nil
	}
	old, err := ReadHeader(out)
	if err != nil {
		return fmt.Errorf("output directory %s already holds a batch: %w", out, err)
	}
	if d := old.diff(mh, false); d != "" {
		return fmt.Errorf("output directory %s holds a different batch (%s; %s vs the shards): choose another output directory", out, d, cpath)
	}
	return nil
}

// mergeGames writes out/games.jsonl from the shards' files (byIndex[i] is
// shard i's directory), checking every line again and adding it to tal.
// It writes through a temporary file, removed on every error.
func mergeGames(out string, h *Header, byIndex map[int]string, tal *tally) (err error) {
	count := h.Shard.Count
	readers := make([]*fileread.LineReader, count)
	for i := range readers {
		path := filepath.Join(byIndex[i], gamesFile)
		f, err := fileread.Open(path, fileread.Log)
		if err != nil {
			return err
		}
		defer f.Close()
		readers[i] = fileread.NewLineReader(f, path, fileread.MaxRecordLine)
	}
	lc, err := newLineChecker(h)
	if err != nil {
		return err
	}
	gpath := filepath.Join(out, gamesFile)
	of, err := atomicfile.Create(gpath, 0o644)
	if err != nil {
		return err
	}
	defer of.Abort()
	bw := bufio.NewWriterSize(of, 1<<16)
	for g := 0; g < h.Games; g++ {
		src := filepath.Join(byIndex[g%count], gamesFile)
		line, err := readers[g%count].Next()
		if err != nil {
			if err == io.EOF {
				err = fmt.Errorf("%s: game %d missing (file changed while merging?)", src, g)
			}
			return err
		}
		rec, err := lc.check(line, g)
		if err == nil {
			err = tal.add(&rec)
		}
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", src, g/count+1, err)
		}
		if _, err := bw.Write(append(line, '\n')); err != nil {
			return fmt.Errorf("%s: %w", gpath, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", gpath, err)
	}
	return of.Commit()
}
