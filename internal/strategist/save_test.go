package strategist

import (
	"bytes"
	"context"
	"github.com/marslab-risk/marslab/learn"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/fuzzfile"
)

const resumeConfig = `seed = 1
out = "unused"
[env]
features = ["territories", "armies", "round", "threat"]
[train]
games = 30
batch = 3
block = 8
[q]
features = ["territories", "round"]
bins = 3
alpha = 0.1
gamma = 0.9
epsilon = 0.2
[eval]
seed = 2
games = 4
[dqn]
hidden = [6]
batch_size = 8
replay = 40
train_every = 4
target_every = 3
`

// resultFiles are the files a resumed run must write as an uninterrupted
// one does.
var resultFiles = []string{"curve.csv", PolicyName, "eval.csv", "paired.csv"}

// An interrupted run resumed from its checkpoint writes the files of an
// uninterrupted run, byte for byte, for both learners and any number of
// workers.
func TestResumeIdentical(t *testing.T) {
	t.Parallel()
	for _, learner := range []string{"q", "dqn"} {
		for _, workers := range []int{1, 2} {
			t.Run(learner+"/"+string(rune('0'+workers)), func(t *testing.T) {
				e, err := parseExperiment("resume.toml", []byte("learner = \""+learner+"\"\n"+resumeConfig))
				require.NoError(t, err)
				dir := t.TempDir()
				full, cut := filepath.Join(dir, "full"), filepath.Join(dir, "cut")
				res, err := e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: workers, Checkpoint: filepath.Join(full, CheckpointName)})
				require.NoError(t, err)
				require.Len(t, res.Curve, 3)
				require.NoError(t, res.Write(full))

				// Cancelled after the first block's checkpoint (blocks and
				// batches do not align: it holds one game of the next block).
				ctx, cancel := context.WithCancel(context.Background())
				var saved []int
				ckpt := filepath.Join(cut, CheckpointName)
				part, err := e.RunWith(ctx, registry.Default(), RunOptions{Workers: workers, Checkpoint: ckpt,
					Checkpointed: func(games int) { saved = append(saved, games); cancel() }})
				require.ErrorIs(t, err, context.Canceled)
				assert.Equal(t, []int{9}, saved)
				require.Len(t, part.Curve, 1)
				assert.Equal(t, res.Curve[0], part.Curve[0])
				assert.Nil(t, part.Evaluations)

				// A resumed run is cut again after its next checkpoint, then
				// resumed to the end.
				ctx2, cancel2 := context.WithCancel(context.Background())
				saved = nil
				part, err = e.RunWith(ctx2, registry.Default(), RunOptions{Workers: workers, Checkpoint: ckpt, Resume: true,
					Checkpointed: func(games int) { saved = append(saved, games); cancel2() }})
				require.ErrorIs(t, err, context.Canceled)
				assert.Equal(t, []int{18}, saved)
				require.Len(t, part.Curve, 2)
				saved = nil
				got, err := e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: workers, Checkpoint: ckpt, Resume: true,
					Checkpointed: func(games int) { saved = append(saved, games) }})
				require.NoError(t, err)
				assert.Equal(t, []int{24, 30}, saved)
				require.NoError(t, got.Write(cut))
				for _, f := range resultFiles {
					a, err := os.ReadFile(filepath.Join(full, f))
					require.NoError(t, err)
					b, err := os.ReadFile(filepath.Join(cut, f))
					require.NoError(t, err)
					assert.Equal(t, string(a), string(b), f)
				}

				// The saved policy, loaded, plays as the trained one.
				l, err := e.LoadPolicy(filepath.Join(full, PolicyName), registry.Default())
				require.NoError(t, err)
				ev, err := e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: workers, Policy: l, PolicySource: "policy.json"})
				require.NoError(t, err)
				assert.Empty(t, ev.Curve)
				assert.Equal(t, res.Evaluations, ev.Evaluations)
				assert.Equal(t, res.Comparisons, ev.Comparisons)
				evDir := filepath.Join(dir, "eval")
				require.NoError(t, ev.Write(evDir))
				for _, f := range []string{"eval.csv", "paired.csv"} {
					a, _ := os.ReadFile(filepath.Join(full, f))
					b, _ := os.ReadFile(filepath.Join(evDir, f))
					assert.Equal(t, string(a), string(b), f)
				}
				assert.NoFileExists(t, filepath.Join(evDir, "curve.csv"))
				assert.NoFileExists(t, filepath.Join(evDir, PolicyName))
			})
		}
	}
}

// A resumed run without the random source's state would not match: the
// DQN's minibatch draws continue the saved stream.
func TestDQNStateRoundTrip(t *testing.T) {
	t.Parallel()
	d, err := newDQN(DQNConfig{Hidden: []int{4}, LearningRate: 0.01, Gamma: 0.9, BatchSize: 4, Replay: 10, TrainEvery: 1,
		TargetEvery: 2, Policy: "epsilon", Epsilon: 0.1, RewardScale: 1, Seed: 3}, 2, 2)
	require.NoError(t, err)
	ep := Episode{Dim: 2, Obs: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}, Actions: []int{0, 1, 1, 0}, Outcome: learn.Outcome{PerTurn: -1, Final: 5}}
	d.Learn([]Episode{ep, ep})
	st, err := d.save(true)
	require.NoError(t, err)
	d2, err := newDQNFrom(st)
	require.NoError(t, err)
	d.Learn([]Episode{ep})
	d2.Learn([]Episode{ep})
	assert.Equal(t, d.online.W, d2.online.W)
	assert.Equal(t, d.targ.W, d2.targ.W)
	assert.Equal(t, d.rng.Uint64(), d2.rng.Uint64())
	assert.Equal(t, d.Steps(), d2.Steps())
	assert.Positive(t, d.Steps())
}

func TestLoadPolicyErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	q, err := NewQTable(QConfig{Features: []int{1}, Bins: 2, Alpha: 0.5, Gamma: 0.9}, 2)
	require.NoError(t, err)
	q.Q[1] = 0.1 + 0.2 // not exactly 0.3
	good := filepath.Join(dir, "good.json")
	require.NoError(t, SavePolicy(good, q, []string{"a", "b"}, []string{"x", "y"}))
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), `{"format":"`+policyFormat+`",`), string(data))
	l, f, err := LoadPolicy(good)
	require.NoError(t, err)
	assert.Equal(t, q.Q, l.(*QTable).Q)
	assert.Equal(t, []string{"x", "y"}, f.Actions)

	for _, c := range []struct{ name, data, want string }{
		{"empty", ``, "EOF"},
		{"format", strings.Replace(string(data), policyFormat, "marslab-policy/9", 1), `key format "marslab-policy/9"`},
		{"learner", strings.Replace(string(data), `"learner":"q"`, `"learner":"dqn"`, 1), `key learner "dqn"`},
		{"unknown", strings.Replace(string(data), `"learner"`, `"x":1,"learner"`, 1), `unknown field "x"`},
		{"feature", strings.Replace(string(data), `"Features":[1]`, `"Features":[7]`, 1), "index 7: want 0..1"},
		{"values", strings.Replace(string(data), `"values":[0,`, `"values":[`, 1), "values"},
		{"actions", strings.Replace(string(data), `"actions":["x","y"]`, `"actions":["x"]`, 1), "key q.actions 2: want 1"},
		{"tampered", strings.Replace(string(data), `"values":[0,0.3,`, `"values":[0,0.7,`, 1), "key sha256 "},
		{"unsigned", strings.Replace(string(data), `"sha256":"`, `"sha256":"","x":"`, 1), `unknown field "x"`},
		{"nosum", regexp.MustCompile(`,"sha256":"[0-9a-f]*"`).ReplaceAllString(string(data), ""), "key sha256: missing"},
	} {
		p := filepath.Join(dir, c.name+".json")
		require.NoError(t, os.WriteFile(p, []byte(c.data), 0o644))
		_, _, err := LoadPolicy(p)
		require.Error(t, err, c.name)
		assert.ErrorContains(t, err, p, c.name)
		assert.ErrorContains(t, err, c.want, c.name)
	}
	_, _, err = LoadPolicy(filepath.Join(dir, "missing.json"))
	assert.ErrorContains(t, err, "missing.json")
}

func TestCheckpointErrors(t *testing.T) {
	t.Parallel()
	e, err := parseExperiment("resume.toml", []byte(resumeConfig))
	require.NoError(t, err)
	dir := t.TempDir()
	ckpt := filepath.Join(dir, CheckpointName)
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, ckpt)
	require.NoError(t, os.WriteFile(ckpt, []byte("something else\n"), 0o644))
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, `first line "something else"`)
	require.NoError(t, os.WriteFile(ckpt, []byte(checkpointFormat+"\ngarbage"), 0o644))
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, ckpt)
	// A checkpoint of another config is refused.
	ctx, cancel := context.WithCancel(context.Background())
	_, err = e.RunWith(ctx, registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Checkpointed: func(int) { cancel() }})
	require.ErrorIs(t, err, context.Canceled)
	e.Q.Alpha = 0.2
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	// Issue 25, item 14: the setting that differs is named, with no dump
	// of the whole config.
	require.Error(t, err)
	assert.Equal(t, "learn: checkpoint "+ckpt+": written for another config: Q.Alpha 0.1 (this config: 0.2)", err.Error())
	assert.ErrorIs(t, err, ErrOtherConfig)

	// A directory where the checkpoint goes, or a device, is no checkpoint.
	require.NoError(t, os.Remove(ckpt))
	require.NoError(t, os.Mkdir(ckpt, 0o755))
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, ckpt+": not a regular file (a directory): a checkpoint must be a regular file")
	require.NoError(t, os.Remove(ckpt))
	require.NoError(t, os.Symlink("/dev/zero", ckpt))
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, ckpt+": not a regular file (a character device): a checkpoint must be a regular file")
}

func TestFingerprintDiff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want, msg string }{
		{`{"Games":10,"Env":{"Players":4,"Rules":"a"}}`, `{"Games":10,"Env":{"Players":3,"Rules":"a"}}`,
			"Env.Players 4 (this config: 3)"},
		{`{"Games":10,"Extra":1}`, `{"Games":20}`,
			"Extra 1 (this config: null), Games 10 (this config: 20)"},
		{`{"Games":1`, `{"Games":20}`, "its record of the config is unreadable: the file is corrupt (remove it and train again)"},
		{`{"a":1}`, `{"a":1.0}`, "the settings compare equal"},
	} {
		assert.Equal(t, c.msg, fingerprintDiff(c.got, c.want))
	}
}

// firstCheckpoint runs the experiment resumeConfig until its first
// checkpoint, in a temporary folder, and returns the experiment, the
// checkpoint's path and its bytes.
func firstCheckpoint(tb testing.TB) (*Experiment, string, []byte) {
	tb.Helper()
	e, err := parseExperiment("resume.toml", []byte(resumeConfig))
	require.NoError(tb, err)
	ckpt := filepath.Join(tb.TempDir(), CheckpointName)
	ctx, cancel := context.WithCancel(context.Background())
	_, err = e.RunWith(ctx, registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Checkpointed: func(int) { cancel() }})
	require.ErrorIs(tb, err, context.Canceled)
	good, err := os.ReadFile(ckpt)
	require.NoError(tb, err)
	return e, ckpt, good
}

// A checkpoint with one flipped bit is refused before it is decoded, and
// so is one without its checksum line.
func TestCheckpointDamaged(t *testing.T) {
	t.Parallel()
	e, ckpt, good := firstCheckpoint(t)
	require.Greater(t, len(good), 1800)
	lines := strings.SplitN(string(good), "\n", 3)
	require.Equal(t, checkpointFormat, lines[0])
	require.Regexp(t, `^sha256 [0-9a-f]{64}$`, lines[1])

	bad := bytes.Clone(good)
	bad[1800] ^= 0x04
	require.NoError(t, os.WriteFile(ckpt, bad, 0o644))
	_, err := e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, "learn: checkpoint "+ckpt+": damaged: the file records SHA-256 ")
	assert.ErrorIs(t, err, ErrDamaged)

	require.NoError(t, os.WriteFile(ckpt, []byte(lines[0]+"\n"+lines[2]), 0o644))
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	assert.ErrorContains(t, err, `second line`)

	require.NoError(t, os.WriteFile(ckpt, good, 0o644))
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, Checkpoint: ckpt, Resume: true})
	require.NoError(t, err, "the undamaged checkpoint resumes")
}

// TestCheckpointHeaderFirst: a big file that is not a checkpoint, or is a
// damaged one, is refused without being held in memory: its header lines
// are checked first and the rest is streamed through its checksum.
func TestCheckpointHeaderFirst(t *testing.T) {
	dir := t.TempDir()
	const size = 64 << 20
	for _, tc := range []struct {
		name, head, want string
	}{
		{"junk", "junk", `first line "junk\x00\x00`},
		{"no newline", "", `first line "\x00\x00`},
		{"second line", checkpointFormat + "\nsha256 ", `second line "sha256 \x00\x00`},
		{"damaged", checkpointFormat + "\nsha256 " + strings.Repeat("0", 64) + "\n", "damaged: the file records SHA-256 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			require.NoError(t, os.WriteFile(path, []byte(tc.head), 0o644))
			require.NoError(t, os.Truncate(path, size)) // sparse: zeros after the head
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := loadCheckpoint(path, "{}")
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "learn: checkpoint "+path+": "+tc.want)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated to refuse a %d MiB file", size>>20)
		})
	}
}

// LoadPolicy never panics; a policy it accepts acts on any observation of
// its size.
func FuzzLoadPolicy(f *testing.F) {
	dir := f.TempDir()
	q, err := NewQTable(QConfig{Features: []int{1, 0}, Bins: 2, Alpha: 0.5, Gamma: 0.9}, 2)
	require.NoError(f, err)
	d, err := newDQN(DQNConfig{Hidden: []int{3}, LearningRate: 0.01, Gamma: 0.9, BatchSize: 2, Replay: 4, TrainEvery: 1,
		TargetEvery: 1, Policy: "boltzmann", Temperature: 1, Epsilon: 0.1, RewardScale: 1}, 2, 2)
	require.NoError(f, err)
	for i, l := range []Learner{q, d} {
		p := filepath.Join(dir, string(rune('a'+i)))
		require.NoError(f, SavePolicy(p, l, []string{"a", "b"}, []string{"x", "y"}))
		data, err := os.ReadFile(p)
		require.NoError(f, err)
		f.Add(data, false)
	}
	f.Add([]byte(`{"format":"marslab-policy/2"}`), false)
	f.Add([]byte{}, true)
	f.Fuzz(func(t *testing.T, data []byte, over bool) {
		p := fuzzfile.Write(t, t.TempDir(), "p.json", data, over, fileread.Policy)
		l, pf, err := LoadPolicy(p)
		if fuzzfile.Refused(t, err, over, p) {
			return
		}
		a := l.NewActor()
		act := a.Act(make([]float64, len(pf.Observation)), nil)
		assert.True(t, act >= 0 && act < len(pf.Actions), act)
	})
}

// FuzzLoadCheckpoint: loadCheckpoint never panics; it accepts a file only
// whole (a checkpoint with any byte changed fails its checksum); a file
// over the cap (sparse, one byte over, when over) is refused unread; every
// error names the file.
func FuzzLoadCheckpoint(f *testing.F) {
	e, _, good := firstCheckpoint(f)
	fp, err := e.fingerprint()
	require.NoError(f, err)
	f.Add(good, 0, byte(0), false)
	f.Add(good, 1800, byte(4), false)
	f.Add([]byte(checkpointFormat+"\nsha256 00\n"), 0, byte(0), false)
	f.Add([]byte{}, 0, byte(0), true)
	f.Fuzz(func(t *testing.T, data []byte, at int, flip byte, over bool) {
		if len(data) > 0 && flip != 0 {
			data = bytes.Clone(data)
			data[uint(at)%uint(len(data))] ^= flip
		}
		p := fuzzfile.Write(t, t.TempDir(), CheckpointName, data, over, fileread.Checkpoint)
		c, l, err := loadCheckpoint(p, fp)
		if fuzzfile.Refused(t, err, over, p) {
			return
		}
		require.NotNil(t, c)
		require.NotNil(t, l)
		assert.Equal(t, good, data, "only the saved checkpoint loads")
	})
}

// GreedyOnly evaluates the greedy policy alone, on the episodes the full
// evaluation gives it, and the curve counts the learner's steps.
func TestGreedyOnly(t *testing.T) {
	t.Parallel()
	e, err := parseExperiment("e.toml", []byte(resumeConfig))
	require.NoError(t, err)
	full, err := e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 2})
	require.NoError(t, err)
	only, err := e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1, GreedyOnly: true})
	require.NoError(t, err)
	require.Len(t, only.Evaluations, 1)
	assert.Empty(t, only.Comparisons)
	assert.Equal(t, full.Evaluations[0], only.Evaluations[0])
	steps := 0
	for _, c := range full.Curve {
		assert.Positive(t, c.Steps)
		steps += c.Steps
	}
	assert.Equal(t, steps, full.TrainSteps())
	assert.Equal(t, full.Curve, only.Curve)
}
