package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// configFile is the name of a notebook's config inside its folder.
const configFile = "config.toml"

// ReportFile is the name of a notebook's generated report.
const ReportFile = "README.md"

// timingsFile is the CSV file that holds a notebook's measured timings, the
// only numbers that vary from run to run.
const timingsFile = "timings.csv"

// timingBegin and timingEnd enclose, each on a line of its own, every part
// of a report that holds measured timings.
const (
	timingBegin = "<!-- timing: begin -->"
	timingEnd   = "<!-- timing: end -->"
)

// timingMarker is printed in the heading of every block of timings.
const timingMarker = "(timing, varies)"

// Header holds the keys every notebook config has.
type Header struct {
	// Kind selects the experiment: one of the notebook kinds of
	// docs/notebooks.md (dice, ladder, tuners, ...).
	Kind string `toml:"kind"`
	// Title is the report's title; Summary its one-line description in
	// the index of notebooks.
	Title   string `toml:"title"`
	Summary string `toml:"summary"`
	// Question says what the experiment asks.
	Question string `toml:"question"`
	// Seed is the experiment seed of every random stream of the run.
	Seed uint64 `toml:"seed"`
	// Thumbnail is the figure (a PNG file the run writes) shown in the index.
	Thumbnail string `toml:"thumbnail"`
	// Notes holds the interpreting prose, by section (see the kind's
	// template for the section names).
	Notes map[string]string `toml:"notes"`
}

// Notebook is a loaded notebook config.
type Notebook struct {
	Header
	// Dir is the notebook's folder; Name its base name.
	Dir, Name string
	// Path is the config file's path, used in error messages.
	Path string
	exp  experiment
}

// Options are the settings of one run of a notebook.
type Options struct {
	// Out is the folder to write into; "" means the notebook's own folder.
	Out string
	// Quick runs the config's [quick] sizes instead of [full].
	Quick bool
	// Registry gives the bots of experiments that seat bots; it must not
	// be nil (cmd/marslab hands in bots/registry.Default()).
	Registry *bots.Registry
	// Log, when not nil, receives one line per step of the run.
	Log io.Writer
	// Progress, when not nil, receives the progress display of the
	// games (package internal/progress): a bar, or plain lines when
	// ProgressLines is set.
	Progress      io.Writer
	ProgressLines bool
	// Work, when not "", is a folder that keeps the intermediate results
	// of the notebooks that log them (the calibration's searches,
	// validations and tournaments, each in its own subfolder with its
	// fingerprint): a run interrupted and started again with the same Work
	// continues where it stopped, and a finished part is read back, not
	// played again. The results are the same with or without it.
	Work string
	// Shard, when its Count is above 1, plays only this shard's part of a
	// notebook whose kind shards (transfer: the conditions c of the grid
	// with c % Count == Index) into Work, and writes no report: a run
	// without Shard on a Work that holds every shard's part reads them back
	// and writes the report, byte-identical to one run's.
	Shard arena.Shard
}

// errNoShards is returned by Notebook.Run for a Shard of a notebook whose
// kind plays in one piece.
var errNoShards = errors.New("this kind of notebook does not shard (a transfer notebook does)")

// experiment is one kind of notebook: its parsed config, run and template.
type experiment interface {
	// run computes the results and writes the CSV files and figures into
	// w, returning the template data.
	run(ctx context.Context, w *writer) (any, error)
	// template is the name of the kind's embedded template.
	template() string
	// sizes describes the sizes run ("verify_trials = 200000, ...").
	sizes(quick bool) string
}

// kind describes a notebook kind: the note sections its template shows
// and the parser of its config.
type kind struct {
	notes []string
	parse func(path string, data []byte) (experiment, error)
}

var kinds = map[string]kind{
	"dice":            {diceNotes, parseDice},
	"dice-literature": {diceLiteratureNotes, parseDiceLiterature},
	"engine":          {engineNotes, parseEngine},
	"calibration":     {calibrationNotes, parseCalibration},
	"recognition":     {recognitionNotes, parseRecognition},
	"strategist":      {strategistNotes, parseStrategist},
	"readings":        {readingsNotes, parseReadings},
	"tournament":      {tournamentNotes, parseTournament},
	"transfer":        {transferNotes, parseTransfer},
	"ladder":          {ladderNotes, parseLadder},
	"tuners":          {tunersNotes, parseTuners},
}

// kindNames returns the notebook kinds, sorted.
func kindNames() []string {
	ks := make([]string, 0, len(kinds))
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Load reads the notebook in folder dir (its config.toml) and checks every
// key: an unknown key, a value out of range or a missing one is an error
// naming the file, the key and the allowed values.
func Load(dir string) (*Notebook, error) {
	path := filepath.Join(dir, configFile)
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("notebook %s: %w", dir, err)
	}
	return Parse(path, data)
}

// notebookPath returns the path of a file a notebook config in folder dir
// names: a relative path is relative to dir, an absolute one is itself.
func notebookPath(dir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

// Parse parses a notebook config read from path (which names the notebook:
// its folder is the file's folder).
func Parse(path string, data []byte) (*Notebook, error) {
	var h struct{ Header }
	if _, err := toml.Decode(string(data), &h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	k, ok := kinds[h.Kind]
	if !ok {
		return nil, fmt.Errorf("%s: key kind: %q is not a notebook kind (allowed: %s)", path, h.Kind,
			strings.Join(kindNames(), ", "))
	}
	if err := checkHeader(path, &h.Header, k.notes); err != nil {
		return nil, err
	}
	exp, err := k.parse(path, data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Notebook{Header: h.Header, Dir: dir, Name: filepath.Base(abs), Path: path, exp: exp}, nil
}

func checkHeader(path string, h *Header, notes []string) error {
	for _, kv := range []struct{ key, val string }{{"title", h.Title}, {"summary", h.Summary}, {"question", h.Question}} {
		if strings.TrimSpace(kv.val) == "" {
			return fmt.Errorf("%s: key %s: missing (a non-empty string)", path, kv.key)
		}
	}
	if strings.Contains(h.Summary, "\n") {
		return fmt.Errorf("%s: key summary: must be one line", path)
	}
	if h.Thumbnail == "" || filepath.Base(h.Thumbnail) != h.Thumbnail || filepath.Ext(h.Thumbnail) != ".png" {
		return fmt.Errorf("%s: key thumbnail: %q must be the file name of a PNG figure the run writes", path, h.Thumbnail)
	}
	keys := make([]string, 0, len(h.Notes))
	for k := range h.Notes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(notes, k) {
			return fmt.Errorf("%s: key notes.%s: not a section of this kind (allowed: %s)", path, k, strings.Join(notes, ", "))
		}
	}
	return nil
}

// decodeStrict decodes data into v and reports the first key that v does
// not have (configs.DecodeStrict).
func decodeStrict(path string, data []byte, v any) error {
	_, err := configs.DecodeStrict(path, data, v)
	return err
}

// Run runs the notebook and writes its report, CSV files and figures into
// opt.Out (the notebook's folder if empty), which it creates if needed.
func (nb *Notebook) Run(ctx context.Context, opt Options) error {
	out := opt.Out
	if out == "" {
		out = nb.Dir
	}
	if opt.Registry == nil {
		return fmt.Errorf("notebook %s: no bot registry (Options.Registry is nil)", nb.Name)
	}
	if opt.Shard.Count <= 1 { // a shard writes only into Work
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("notebook %s: %w", nb.Name, err)
		}
	}
	w := &writer{dir: out, quick: opt.Quick, seed: nb.Seed, reg: opt.Registry, log: opt.Log, work: opt.Work,
		progress: opt.Progress, progressLines: opt.ProgressLines, shard: opt.Shard}
	if opt.Shard.Count > 1 {
		if err := opt.Shard.Validate(); err != nil {
			return fmt.Errorf("notebook %s: %w", nb.Name, err)
		}
		if _, ok := nb.exp.(*transferConfig); !ok {
			return fmt.Errorf("notebook %s (kind %s): %w", nb.Name, nb.Kind, errNoShards)
		}
		if opt.Work == "" {
			return fmt.Errorf("notebook %s: shard %s: a shard keeps its part in the work folder, and none is given", nb.Name, opt.Shard)
		}
	}
	data, err := nb.exp.run(ctx, w)
	if err != nil {
		return fmt.Errorf("notebook %s: %w", nb.Name, err)
	}
	if opt.Shard.Count > 1 {
		return nil // a shard's part is in Work; the report waits for every part
	}
	if _, err := os.Stat(filepath.Join(out, nb.Thumbnail)); err != nil {
		return fmt.Errorf("notebook %s: thumbnail: %w", nb.Name, err)
	}
	cmd := "marslab report notebooks/" + nb.Name
	size := "full"
	if opt.Quick {
		cmd = "marslab report -quick -out DIR notebooks/" + nb.Name
		size = "quick"
	}
	page := pageData{Notebook: nb, Command: cmd, Size: size, Sizes: nb.exp.sizes(opt.Quick),
		Files: w.files, Data: data}
	var buf bytes.Buffer
	if err := templates.ExecuteTemplate(&buf, nb.exp.template(), page); err != nil {
		return fmt.Errorf("notebook %s: report template: %w", nb.Name, err)
	}
	if err := atomicfile.WriteFile(filepath.Join(out, ReportFile), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("notebook %s: %w", nb.Name, err)
	}
	return nil
}

// pageData is what a report template sees.
type pageData struct {
	*Notebook
	// Command regenerates the report.
	Command string
	// Size is "full" or "quick"; Sizes lists the sizes' values.
	Size, Sizes string
	// Files are the files the run wrote, in order.
	Files []string
	// Data is the kind's results.
	Data any
}

// Note returns the note of a section, or "".
func (p pageData) Note(section string) string { return strings.TrimSpace(p.Notes[section]) }

// StripTimings returns the report text without its timing blocks (the
// lines from timingBegin to timingEnd): what must be byte-identical between
// two runs of the same config.
func StripTimings(report []byte) []byte {
	var out bytes.Buffer
	in := false
	for _, line := range bytes.SplitAfter(report, []byte("\n")) {
		t := string(bytes.TrimSpace(line))
		switch {
		case t == timingBegin:
			in = true
		case t == timingEnd:
			in = false
		case !in:
			out.Write(line)
		}
	}
	return out.Bytes()
}

// Find returns the notebooks under root: root itself if it holds a
// config.toml, else every direct subfolder that does, sorted by name; the
// bool reports the second case, a folder of notebooks that has an index.
func Find(root string) ([]*Notebook, bool, error) {
	if _, err := os.Stat(filepath.Join(root, configFile)); err == nil {
		nb, err := Load(root)
		if err != nil {
			return nil, false, err
		}
		return []*Notebook{nb}, false, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, false, fmt.Errorf("notebooks: %w", err)
	}
	var nbs []*Notebook
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, configFile)); err != nil {
			continue
		}
		nb, err := Load(dir)
		if err != nil {
			return nil, false, err
		}
		nbs = append(nbs, nb)
	}
	if len(nbs) == 0 {
		return nil, false, fmt.Errorf("notebooks: %s holds no %s, nor does any folder in it", root, configFile)
	}
	return nbs, true, nil
}

// WriteIndex writes dir/README.md, the index of the notebooks: one line
// and one thumbnail each, linking to the notebook's folder under dir.
func WriteIndex(dir string, nbs []*Notebook) error {
	if len(nbs) == 0 {
		return errors.New("notebooks index: no notebooks")
	}
	type row struct {
		*Notebook
		Written bool // dir or the notebook's own folder holds its report
	}
	rows := make([]row, len(nbs))
	for i, nb := range nbs {
		_, err1 := os.Stat(filepath.Join(dir, nb.Name, ReportFile))
		_, err2 := os.Stat(filepath.Join(nb.Dir, ReportFile))
		rows[i] = row{nb, err1 == nil || err2 == nil}
	}
	var buf bytes.Buffer
	if err := templates.ExecuteTemplate(&buf, "index.md.tmpl", rows); err != nil {
		return fmt.Errorf("notebooks index: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, ReportFile), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("notebooks index: %w", err)
	}
	return nil
}
