package strategist

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/internal/fileread"
)

// policyFormat is the value of the "format" key that opens a policy file.
const policyFormat = "marslab-policy/2"

// checkpointFormat is the first line of a checkpoint file. The second line
// is "sha256 HEX", the SHA-256 of the rest of the file (the gob encoding
// of the learner's state), checked before anything is decoded.
const checkpointFormat = "marslab-learn-checkpoint/2"

// PolicyFile is a trained policy as it is saved: a JSON object whose
// first key, format, is policyFormat. Floats are written in the shortest
// form that reads back to the same float64, so a loaded policy acts
// exactly as the saved one.
type PolicyFile struct {
	Format string `json:"format"`
	// Learner is "q" or "dqn".
	Learner string `json:"learner"`
	// Observation names the observation's values and Actions the actions,
	// in order, of the environment the policy was trained in.
	Observation []string `json:"observation"`
	Actions     []string `json:"actions"`
	// Q is the Q-table of a "q" learner; DQN the network of a "dqn" one.
	Q   *QState   `json:"q,omitempty"`
	DQN *DQNState `json:"dqn,omitempty"`
	// SHA256 is the SHA-256, in hex, of the file's JSON encoding with
	// this key empty: LoadPolicy refuses a policy whose values changed
	// after it was saved.
	SHA256 string `json:"sha256"`
}

// checksum returns the SHA-256 of f's JSON encoding with f.SHA256 empty.
func (f PolicyFile) checksum() (string, error) {
	f.SHA256 = ""
	b, err := json.Marshal(&f)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// QState is a QTable's whole state: its configuration (Features index
// the observation), its values Q[state·actions + action] and visits.
type QState struct {
	Config  QConfig   `json:"config"`
	Actions int       `json:"actions"`
	Q       []float64 `json:"values"`
	Visit   []int     `json:"visits"`
}

// DQNState is a DQN's state. A policy file holds Config, Sizes and the
// online network (W, B: per layer, W out×in row-major); a checkpoint
// holds the rest too: the target network, the Adam moments and step, the
// replay memory, the counters and the random source.
type DQNState struct {
	Config DQNConfig   `json:"config"`
	Sizes  []int       `json:"sizes"`
	W      [][]float64 `json:"weights"`
	B      [][]float64 `json:"biases"`

	TW, TB         [][]float64 `json:"-"`
	MW, VW, MB, VB [][]float64 `json:"-"`
	T              int         `json:"-"`
	RS, RS2, RR    []float64   `json:"-"`
	RA             []int       `json:"-"`
	RDone          []bool      `json:"-"`
	RN, RAt        int         `json:"-"`
	Fresh, Steps   int         `json:"-"`
	Source         []byte      `json:"-"`
}

// save returns a copy of the table's state.
func (q *QTable) save() *QState {
	c := q.cfg
	c.Features = slices.Clone(c.Features)
	return &QState{Config: c, Actions: q.nact, Q: slices.Clone(q.Q), Visit: slices.Clone(q.Visit)}
}

// newQTableFrom returns the table of a saved state.
func newQTableFrom(st *QState) (*QTable, error) {
	// Check the sizes before NewQTable allocates.
	want := float64(st.Actions) * math.Pow(float64(st.Config.Bins), float64(len(st.Config.Features)))
	if st.Actions < 1 || float64(len(st.Q)) != want || len(st.Visit) != len(st.Q) {
		return nil, fmt.Errorf("learn: q: %d values and %d visits: want %.0f of each (%d actions, %d bins, %d features)",
			len(st.Q), len(st.Visit), want, st.Actions, st.Config.Bins, len(st.Config.Features))
	}
	q, err := NewQTable(st.Config, st.Actions)
	if err != nil {
		return nil, err
	}
	if len(st.Q) != len(q.Q) || len(st.Visit) != len(q.Visit) {
		return nil, fmt.Errorf("learn: q: %d values and %d visits: want %d of each", len(st.Q), len(st.Visit), len(q.Q))
	}
	copy(q.Q, st.Q)
	copy(q.Visit, st.Visit)
	return q, nil
}

func cloneAll(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, v := range x {
		out[i] = slices.Clone(v)
	}
	return out
}

// save returns a copy of the DQN's state; full adds what training needs
// besides the online network (see DQNState).
func (d *DQN) save(full bool) (*DQNState, error) {
	c := d.cfg
	c.Hidden = slices.Clone(c.Hidden)
	st := &DQNState{Config: c, Sizes: slices.Clone(d.online.sizes), W: cloneAll(d.online.W), B: cloneAll(d.online.B)}
	if !full {
		return st, nil
	}
	src, err := d.src.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("learn: dqn: random source: %w", err)
	}
	st.TW, st.TB = cloneAll(d.targ.W), cloneAll(d.targ.B)
	st.MW, st.VW, st.MB, st.VB, st.T = cloneAll(d.mW), cloneAll(d.vW), cloneAll(d.mB), cloneAll(d.vB), d.t
	st.RS, st.RS2, st.RR = slices.Clone(d.rs), slices.Clone(d.rs2), slices.Clone(d.rr)
	st.RA, st.RDone, st.RN, st.RAt = slices.Clone(d.ra), slices.Clone(d.rdone), d.rn, d.rat
	st.Fresh, st.Steps, st.Source = d.fresh, d.steps, src
	return st, nil
}

// newDQNFrom returns the DQN of a saved state. A state without the
// training part (a policy file's) gives a DQN that acts as the saved one
// and would train on from an empty replay memory and fresh optimiser.
func newDQNFrom(st *DQNState) (*DQN, error) {
	if len(st.Sizes) < 2 {
		return nil, fmt.Errorf("learn: dqn: %d layer sizes: want >= 2", len(st.Sizes))
	}
	dim, nact := st.Sizes[0], st.Sizes[len(st.Sizes)-1]
	if !slices.Equal(st.Sizes[1:len(st.Sizes)-1], st.Config.Hidden) {
		return nil, fmt.Errorf("learn: dqn: layer sizes %v do not match hidden %v", st.Sizes, st.Config.Hidden)
	}
	d, err := newDQN(st.Config, dim, nact)
	if err != nil {
		return nil, err
	}
	set := func(what string, dst, src [][]float64) error {
		if len(src) != len(dst) {
			return fmt.Errorf("learn: dqn: %s: %d layers: want %d", what, len(src), len(dst))
		}
		for l := range dst {
			if len(src[l]) != len(dst[l]) {
				return fmt.Errorf("learn: dqn: %s: layer %d has %d values: want %d", what, l, len(src[l]), len(dst[l]))
			}
			copy(dst[l], src[l])
		}
		return nil
	}
	if err := set("weights", d.online.W, st.W); err != nil {
		return nil, err
	}
	if err := set("biases", d.online.B, st.B); err != nil {
		return nil, err
	}
	if st.Source == nil {
		d.targ.copyFrom(d.online)
		return d, nil
	}
	for _, p := range []struct {
		what     string
		dst, src [][]float64
	}{{"target weights", d.targ.W, st.TW}, {"target biases", d.targ.B, st.TB}, {"adam m (weights)", d.mW, st.MW},
		{"adam v (weights)", d.vW, st.VW}, {"adam m (biases)", d.mB, st.MB}, {"adam v (biases)", d.vB, st.VB}} {
		if err := set(p.what, p.dst, p.src); err != nil {
			return nil, err
		}
	}
	R := st.Config.Replay
	if st.RN < 0 || st.RN > R || st.RAt < 0 || st.RAt >= R || st.T < 0 || st.Steps < 0 || st.Fresh < 0 {
		return nil, fmt.Errorf("learn: dqn: counters out of range (replay %d at %d of %d, step %d)", st.RN, st.RAt, R, st.T)
	}
	if st.RS != nil || st.RN > 0 {
		if len(st.RS) != R*dim || len(st.RS2) != R*dim || len(st.RR) != R || len(st.RA) != R || len(st.RDone) != R {
			return nil, fmt.Errorf("learn: dqn: replay memory of the wrong size: want %d transitions of %d values", R, dim)
		}
		for _, a := range st.RA {
			if a < 0 || a >= nact {
				return nil, fmt.Errorf("learn: dqn: replay action %d: want 0..%d", a, nact-1)
			}
		}
		d.allocReplay()
	}
	copy(d.rs, st.RS)
	copy(d.rs2, st.RS2)
	copy(d.rr, st.RR)
	copy(d.ra, st.RA)
	copy(d.rdone, st.RDone)
	d.rn, d.rat, d.t, d.fresh, d.steps = st.RN, st.RAt, st.T, st.Fresh, st.Steps
	if err := d.src.UnmarshalBinary(st.Source); err != nil {
		return nil, fmt.Errorf("learn: dqn: random source: %w", err)
	}
	return d, nil
}

// SavePolicy writes the greedy policy of l (a *QTable or *DQN) trained in
// the environment with the given observation and action names to path,
// through a temporary file renamed into place.
func SavePolicy(path string, l Learner, observation, actions []string) error {
	f := PolicyFile{Format: policyFormat, Observation: observation, Actions: actions}
	switch l := l.(type) {
	case *QTable:
		f.Learner, f.Q = "q", l.save()
	case *DQN:
		st, err := l.save(false)
		if err != nil {
			return err
		}
		f.Learner, f.DQN = "dqn", st
	default:
		return fmt.Errorf("learn: save policy %s: learner %T: want *QTable or *DQN", path, l)
	}
	sum, err := f.checksum()
	if err != nil {
		return fmt.Errorf("learn: save policy %s: %w", path, err)
	}
	f.SHA256 = sum
	data, err := json.Marshal(&f)
	if err != nil {
		return fmt.Errorf("learn: save policy %s: %w", path, err)
	}
	return writeAtomic(path, append(data, '\n'))
}

// LoadPolicy reads a policy file written by SavePolicy and returns the
// learner (a *QTable or *DQN) with the file's contents. Errors name path.
func LoadPolicy(path string) (Learner, *PolicyFile, error) {
	data, err := fileread.ReadFile(path, fileread.Policy)
	if err != nil {
		return nil, nil, fmt.Errorf("learn: %w", err)
	}
	var f PolicyFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("learn: policy %s: %w", path, err)
	}
	if f.Format != policyFormat {
		return nil, nil, fmt.Errorf("learn: policy %s: key format %q: want %q", path, f.Format, policyFormat)
	}
	if len(f.Actions) < 1 || len(f.Observation) < 1 {
		return nil, nil, fmt.Errorf("learn: policy %s: keys observation and actions: want both non-empty", path)
	}
	var l Learner
	switch {
	case f.Learner == "q" && f.Q != nil && f.DQN == nil:
		if f.Q.Actions != len(f.Actions) {
			return nil, nil, fmt.Errorf("learn: policy %s: key q.actions %d: want %d (the actions)", path, f.Q.Actions, len(f.Actions))
		}
		for _, i := range f.Q.Config.Features {
			if i < 0 || i >= len(f.Observation) {
				return nil, nil, fmt.Errorf("learn: policy %s: key q.config.Features: index %d: want 0..%d", path, i, len(f.Observation)-1)
			}
		}
		l, err = newQTableFrom(f.Q)
	case f.Learner == "dqn" && f.DQN != nil && f.Q == nil:
		s := f.DQN.Sizes
		if len(s) < 2 || s[0] != len(f.Observation) || s[len(s)-1] != len(f.Actions) {
			return nil, nil, fmt.Errorf("learn: policy %s: key dqn.sizes %v: want %d observation values in, %d actions out", path, s, len(f.Observation), len(f.Actions))
		}
		l, err = newDQNFrom(f.DQN)
	default:
		return nil, nil, fmt.Errorf("learn: policy %s: key learner %q: want \"q\" with key q or \"dqn\" with key dqn", path, f.Learner)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("learn: policy %s: %w", path, err)
	}
	sum, err := f.checksum()
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("learn: policy %s: %w", path, err)
	case f.SHA256 == "":
		return nil, nil, fmt.Errorf("learn: policy %s: key sha256: missing (the checksum marslab learn writes)", path)
	case f.SHA256 != sum:
		return nil, nil, fmt.Errorf("learn: policy %s: key sha256 %.12s...: the content's is %.12s...: the file was changed or damaged after it was saved", path, f.SHA256, sum)
	}
	return l, &f, nil
}

// checkpoint is a checkpoint file's content after its format line, gob
// encoded.
type checkpoint struct {
	// Fingerprint identifies the experiment's config (JSON of every
	// setting the training depends on).
	Fingerprint string
	State       TrainState
	Q           *QState
	DQN         *DQNState
}

// saveCheckpoint writes a checkpoint of training l to path: the line
// checkpointFormat, then the gob encoding of the checkpoint.
func saveCheckpoint(path, fingerprint string, st *TrainState, l Learner) error {
	c := checkpoint{Fingerprint: fingerprint, State: *st}
	switch l := l.(type) {
	case *QTable:
		c.Q = l.save()
	case *DQN:
		s, err := l.save(true)
		if err != nil {
			return err
		}
		c.DQN = s
	default:
		return fmt.Errorf("learn: checkpoint %s: learner %T: want *QTable or *DQN", path, l)
	}
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(&c); err != nil {
		return fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	if n := int64(body.Len()) + 100; n > fileread.Checkpoint.Max() {
		return fmt.Errorf("learn: checkpoint %s: %d bytes: over the %s cap of a checkpoint (fileread.Checkpoint): a smaller dqn replay memory fits", path, n, fileread.Size(fileread.Checkpoint.Max()))
	}
	sum := sha256.Sum256(body.Bytes())
	b := make([]byte, 0, len(checkpointFormat)+len(checksumPrefix)+2*len(sum)+2+body.Len())
	b = append(b, checkpointFormat+"\n"+checksumPrefix...)
	b = hex.AppendEncode(b, sum[:])
	b = append(b, '\n')
	return writeAtomic(path, append(b, body.Bytes()...))
}

// loadCheckpoint reads a checkpoint and checks it was written for the
// same fingerprint. It reads the two header lines first (a file that is
// not a checkpoint is refused after a few bytes), then streams the rest
// through its SHA-256, and decodes it, in a second pass, only if the
// checksum holds: memory holds the decoded state, never the file.
func loadCheckpoint(path, fingerprint string) (*checkpoint, Learner, error) {
	f, err := fileread.Open(path, fileread.Checkpoint)
	if err != nil {
		return nil, nil, fmt.Errorf("learn: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	line, err := headerLine(br, len(checkpointFormat))
	if err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	if line != checkpointFormat {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: first line %q: want %q", path, trimLine(line), checkpointFormat)
	}
	line2, err := headerLine(br, len(checksumPrefix)+2*sha256.Size)
	if err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	want, ok := strings.CutPrefix(line2, checksumPrefix)
	if !ok || len(want) != 2*sha256.Size {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: second line %q: want %q and the 64 hex digits of the SHA-256 of the rest", path, trimLine(line2), checksumPrefix)
	}
	h := sha256.New()
	if _, err := io.Copy(h, br); err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w: the file records SHA-256 %.12s..., the content has %.12s", path, ErrDamaged, want, got)
	}
	if err := f.Rewind(); err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	br.Reset(f)
	if _, err := br.Discard(len(line) + len(line2) + 2); err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	var c checkpoint
	if err := gob.NewDecoder(br).Decode(&c); err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	if c.Fingerprint != fingerprint {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w: %s", path, ErrOtherConfig, fingerprintDiff(c.Fingerprint, fingerprint))
	}
	var l Learner
	switch {
	case c.Q != nil && c.DQN == nil:
		l, err = newQTableFrom(c.Q)
	case c.DQN != nil && c.Q == nil && c.DQN.Source != nil:
		l, err = newDQNFrom(c.DQN)
	default:
		err = fmt.Errorf("want the state of one learner")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	return &c, l, nil
}

// ErrDamaged is wrapped by the refusal of a checkpoint whose content does
// not match its recorded SHA-256.
var ErrDamaged = errors.New("damaged")

// ErrOtherConfig is wrapped by the refusal of a checkpoint written for
// another config than the run's.
var ErrOtherConfig = errors.New("written for another config")

// fingerprintDiff says how a checkpoint's config fingerprint got differs
// from this config's, want (both JSON objects): the settings that differ,
// by name, with both values, or that got is unreadable.
func fingerprintDiff(got, want string) string {
	var g, w map[string]any
	if json.Unmarshal([]byte(got), &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return "its record of the config is unreadable: the file is corrupt (remove it and train again)"
	}
	var diffs []string
	var walk func(prefix string, g, w map[string]any)
	walk = func(prefix string, g, w map[string]any) {
		keys := make([]string, 0, len(g)+len(w))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			gv, wv := g[k], w[k]
			gm, gok := gv.(map[string]any)
			wm, wok := wv.(map[string]any)
			if gok && wok {
				walk(prefix+k+".", gm, wm)
				continue
			}
			gb, _ := json.Marshal(gv)
			wb, _ := json.Marshal(wv)
			if string(gb) != string(wb) {
				diffs = append(diffs, fmt.Sprintf("%s%s %s (this config: %s)", prefix, k, trimLine(string(gb)), trimLine(string(wb))))
			}
		}
	}
	walk("", g, w)
	if len(diffs) == 0 {
		return "the settings compare equal"
	}
	return strings.Join(diffs, ", ")
}

// headerLine reads one line of at most max bytes (without its newline)
// from r, reading no more than max+1 bytes: a longer line is returned cut,
// for the caller's error, and the rest of the file is not read.
func headerLine(r *bufio.Reader, max int) (string, error) {
	var line []byte
	for len(line) <= max {
		c, err := r.ReadByte()
		if err == io.EOF {
			return string(line), nil
		}
		if err != nil {
			return "", err
		}
		if c == '\n' {
			return string(line), nil
		}
		line = append(line, c)
	}
	return string(line), nil
}

// checksumPrefix opens the second line of a checkpoint.
const checksumPrefix = "sha256 "

func trimLine(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}

// writeAtomic writes data to a temporary file beside path and renames it
// to path, so that path holds either its old content or data.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}
