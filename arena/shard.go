package arena

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the part of a batch that one process plays: shard Index of
// Count plays the game indices g with g % Count == Index (a stride, so that
// every shard gets every seat rotation and a fair share of slow games). The
// zero Shard means the whole batch (0/1).
type Shard struct {
	// Index is the shard number, 0 <= Index < Count.
	Index int `json:"index"`
	// Count is the number of shards, >= 1 (0 is read as 1).
	Count int `json:"count"`
}

// norm returns s with a zero Count replaced by 1.
func (s Shard) norm() Shard {
	if s.Count == 0 {
		return Shard{Index: s.Index, Count: 1}
	}
	return s
}

// String returns the shard as "Index/Count".
func (s Shard) String() string {
	s = s.norm()
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

// Validate reports whether 0 <= Index < Count.
func (s Shard) Validate() error {
	s = s.norm()
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want 0 <= index < count and count >= 1", s.Index, s.Count)
	}
	return nil
}

// Len returns how many of the game indices 0..games-1 belong to the shard.
func (s Shard) Len(games int) int {
	s = s.norm()
	if games <= s.Index {
		return 0
	}
	return (games - s.Index + s.Count - 1) / s.Count
}

// Game returns the k-th game index of the shard (k = 0, 1, ...).
func (s Shard) Game(k int) int {
	s = s.norm()
	return s.Index + k*s.Count
}

// ParseShard parses "i/n" (0 <= i < n).
func ParseShard(text string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want INDEX/COUNT, e.g. 0/4", text)
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want INDEX/COUNT with integers, e.g. 0/4", text)
	}
	s := Shard{Index: i, Count: n}
	if n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want 0 <= INDEX < COUNT and COUNT >= 1", text)
	}
	return s, nil
}

// ShardFromEnv derives the shard from the environment of an array job, as
// read by getenv ([os.Getenv] in a command):
//
//   - Slurm job arrays: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; the
//     index is relative to SLURM_ARRAY_TASK_MIN when that is set (so that
//     --array=1-8 gives shards 0/8..7/8).
//   - Kubernetes indexed Jobs: JOB_COMPLETION_INDEX, with the count taken
//     from JOB_COMPLETIONS (Kubernetes does not set a count itself: set it
//     in the pod spec to the Job's completions, or pass -shard explicitly).
//
// ok is false when none of the variables is set (the whole batch).
func ShardFromEnv(getenv func(string) string) (s Shard, ok bool, err error) {
	atoi := func(name string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
		if err != nil {
			return 0, fmt.Errorf("environment %s=%q: not an integer", name, getenv(name))
		}
		return v, nil
	}
	// indexCount reads the index and the count of an array job; hint says
	// how to supply a missing count.
	indexCount := func(indexKey, countKey, hint string) (index, count int, err error) {
		if index, err = atoi(indexKey); err != nil {
			return 0, 0, err
		}
		if getenv(countKey) == "" {
			if hint != "" {
				hint = ": " + hint
			}
			return 0, 0, fmt.Errorf("%w: environment %s=%d but %s is not set%s", ErrNoShardCount, indexKey, index, countKey, hint)
		}
		count, err = atoi(countKey)
		return index, count, err
	}
	switch {
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		id, n, err := indexCount("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "")
		if err != nil {
			return Shard{}, false, err
		}
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			lo, err := atoi("SLURM_ARRAY_TASK_MIN")
			if err != nil {
				return Shard{}, false, err
			}
			id -= lo
		}
		s = Shard{Index: id, Count: n}
		if err := s.Validate(); err != nil {
			return Shard{}, false, fmt.Errorf("environment SLURM_ARRAY_TASK_*: %w (the array must be a contiguous range)", err)
		}
		return s, true, nil
	case getenv("JOB_COMPLETION_INDEX") != "":
		id, n, err := indexCount("JOB_COMPLETION_INDEX", "JOB_COMPLETIONS", "set it to the Job's completions")
		if err != nil {
			return Shard{}, false, err
		}
		s = Shard{Index: id, Count: n}
		if err := s.Validate(); err != nil {
			return Shard{}, false, fmt.Errorf("environment JOB_COMPLETION_INDEX/JOB_COMPLETIONS: %w", err)
		}
		return s, true, nil
	}
	return Shard{}, false, nil
}
