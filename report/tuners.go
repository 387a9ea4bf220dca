package report

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/table"
)

// tunersNotes are the note sections of the tuners template.
var tunersNotes = []string{"intro", "methods", "curves", "verdicts"}

// tunersConfig is the config of a tuners notebook: search methods on one
// calibration problem at equal budgets in games, each method's
// recommendation at every checkpoint validated against a reference on one
// common set of fresh blocks.
type tunersConfig struct {
	Header
	Tuners struct {
		// Methods are the benchmarked methods: a name, a search config
		// (package search's format, relative to the notebook's folder) and
		// the method of its tables to run. Every config must describe the
		// same field and parameters.
		Methods []tunerMethod `toml:"method"`
		// Checkpoints are the budgets in games, ascending, at which each
		// run's recommendation is validated.
		Checkpoints []int `toml:"checkpoints"`
		// Seeds is the number of seeds of each method (the notebook's seed
		// plus 0..Seeds-1); LongSeeds of them run to the last checkpoint,
		// the others to ShortBudget games.
		Seeds       int `toml:"seeds"`
		LongSeeds   int `toml:"long_seeds"`
		ShortBudget int `toml:"short_budget"`
		// Against is the reference seat; ValidateBlocks the fresh blocks
		// every recommendation and the reference play (the same blocks for
		// all, from block 2^30 of the notebook's seed).
		Against        string `toml:"against"`
		ValidateBlocks int    `toml:"validate_blocks"`
		// Thresholds are the gains in points whose first reaching the
		// sentences report.
		Thresholds []float64 `toml:"thresholds"`
		Workers    int       `toml:"workers"`
	} `toml:"tuners"`
	// Quick is the reduced size: checkpoints, seeds, validation blocks,
	// and the blocks per evaluation of every method (blocks, max_blocks,
	// mean_blocks of CMA-ES; blocks of the others).
	Quick struct {
		Checkpoints    []int `toml:"checkpoints"`
		Seeds          int   `toml:"seeds"`
		ValidateBlocks int   `toml:"validate_blocks"`
		Blocks         int   `toml:"blocks"`
	} `toml:"quick"`
	path string
}

// tunerMethod is one [[tuners.method]] table.
type tunerMethod struct {
	Name   string `toml:"name"`
	Config string `toml:"config"`
	Method string `toml:"method"`
}

func parseTuners(path string, data []byte) (experiment, error) {
	c := tunersConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	k := &c.Tuners
	if len(k.Methods) == 0 {
		ck.fail("tuners.method", "missing: want at least one [[tuners.method]] table (name, config, method)")
	}
	names := map[string]bool{}
	for i, m := range k.Methods {
		p := fmt.Sprintf("tuners.method[%d].", i)
		ck.nonEmpty(p+"name", m.Name)
		ck.nonEmpty(p+"config", m.Config)
		if names[m.Name] {
			ck.fail(p+"name", "%q names two methods: want distinct names", m.Name)
		}
		names[m.Name] = true
		if !slices.Contains([]string{"cmaes", "spsa", "surrogate", "halving"}, m.Method) {
			ck.fail(p+"method", "%q: want cmaes, spsa, surrogate or halving", m.Method)
		}
	}
	ck.ints("tuners.checkpoints", k.Checkpoints, 1, 20, 1, 1<<30)
	ck.intIn("tuners.seeds", k.Seeds, 1, 100)
	ck.intIn("tuners.long_seeds", k.LongSeeds, 0, k.Seeds)
	ck.intIn("tuners.short_budget", k.ShortBudget, 1, 1<<30)
	ck.nonEmpty("tuners.against", k.Against)
	ck.intIn("tuners.validate_blocks", k.ValidateBlocks, 2, 1<<20)
	ck.intIn("tuners.workers", k.Workers, 0, maxWorkers)
	for i, t := range k.Thresholds {
		ck.floatIn(fmt.Sprintf("tuners.thresholds[%d]", i), t, -100, 100)
	}
	distinct(ck, "tuners.thresholds", k.Thresholds)
	q := &c.Quick
	ck.ints("quick.checkpoints", q.Checkpoints, 1, 20, 1, 1<<30)
	ck.intIn("quick.seeds", q.Seeds, 1, 100)
	ck.intIn("quick.validate_blocks", q.ValidateBlocks, 2, 1000)
	ck.intIn("quick.blocks", q.Blocks, 1, 100)
	for _, cp := range [][]int{k.Checkpoints, q.Checkpoints} {
		if !slices.IsSorted(cp) || len(slices.Compact(slices.Clone(cp))) != len(cp) {
			ck.fail("tuners.checkpoints", "%v: want ascending budgets", cp)
		}
	}
	if ck.err != nil {
		return nil, ck.err
	}
	var field string
	for i, m := range k.Methods {
		sc, err := search.LoadConfig(notebookPath(filepath.Dir(path), m.Config))
		if err != nil {
			return nil, fmt.Errorf("%s: key tuners.method[%d].config: %w", path, i, err)
		}
		f := problemKey(sc)
		if i > 0 && f != field {
			return nil, fmt.Errorf("%s: key tuners.method[%d].config: %s describes another field or parameters than %s", path, i, sc.Source, k.Methods[0].Config)
		}
		field = f
	}
	return &c, nil
}

// problemKey returns a text that is the same for two search configs of the
// same problem: field, base, parameters and ranges.
func problemKey(c *search.Config) string {
	v := struct {
		Base, Rules, Map string
		Players          int
		Opponents        []string
		Sample           bool
		Params           []search.ParamRange
		Conditions       []search.ConditionSection
	}{c.Base, c.Rules, c.Map, c.Players, c.Opponents, c.Sample, c.Params, c.Conditions}
	b, _ := json.Marshal(v)
	return string(b)
}

func (c *tunersConfig) template() string { return "tuners.md.tmpl" }

func (c *tunersConfig) sizes(quick bool) string {
	k := c.Tuners
	if quick {
		q := c.Quick
		return fmt.Sprintf("checkpoints %s games, %d seed(s) a method, every method at %d block(s) an evaluation; validation %d blocks",
			ints(q.Checkpoints), q.Seeds, q.Blocks, q.ValidateBlocks)
	}
	return fmt.Sprintf("checkpoints %s games; %d seeds a method, %d of them to the last checkpoint and the others to %d games; validation %d blocks",
		ints(k.Checkpoints), k.Seeds, k.LongSeeds, k.ShortBudget, k.ValidateBlocks)
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// tunerPoint is one validated recommendation: method, seed, checkpoint.
type tunerPoint struct {
	Method     string
	Seed       uint64
	Checkpoint int
	Games      int
	X          []float64
	cand       int // index into the validation's candidates
	search.Comparison
}

// tunerCell is one method at one checkpoint over its seeds.
type tunerCell struct {
	Method     string
	Checkpoint int
	Seeds      int
	// Mean, Lo and Hi are the mean over the seeds of the validated
	// difference and of its 95 % interval's ends, in points.
	Mean, Lo, Hi float64
	// Min and Max are the smallest and largest difference of a seed.
	Min, Max float64
}

// tunersData is what the tuners template sees.
type tunersData struct {
	Field, Against string
	Methods        []tunerMethodData
	Checkpoints    string
	Validate       int
	Short          int // the short seeds' budget in games
	Table          table.Table
	Sentences      []string
	runTiming
}

// grouped writes n with a comma between groups of three digits (70,000).
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// tunerMethodData describes one benchmarked method.
type tunerMethodData struct {
	Name, Config, Method, What string
}

func (c *tunersConfig) run(ctx context.Context, w *writer) (any, error) {
	start := time.Now()
	k := c.Tuners
	checkpoints, seeds, vblocks := k.Checkpoints, k.Seeds, k.ValidateBlocks
	long, short := k.LongSeeds, k.ShortBudget
	if w.quick {
		checkpoints, seeds, vblocks = c.Quick.Checkpoints, c.Quick.Seeds, c.Quick.ValidateBlocks
		long, short = seeds, checkpoints[len(checkpoints)-1]
	}
	last := checkpoints[len(checkpoints)-1]
	dir := filepath.Dir(c.path)
	count := &counter{}
	var points []*tunerPoint
	var setup0 *search.Setup
	d := &tunersData{Against: k.Against, Checkpoints: ints(checkpoints), Validate: vblocks, Short: short}
	for _, m := range k.Methods {
		d.Methods = append(d.Methods, tunerMethodData{Name: m.Name, Config: m.Config, Method: m.Method, What: searchreport.MethodText(m.Method)})
		for s := 0; s < seeds; s++ {
			seed := w.seed + uint64(s)
			sc, err := search.LoadConfig(notebookPath(dir, m.Config))
			if err != nil {
				return nil, err
			}
			sc.Seed = seed
			if w.quick {
				quickBlocks(sc, c.Quick.Blocks)
			}
			setup, err := sc.Resolve(w.reg)
			if err != nil {
				return nil, err
			}
			setup.Field.Workers = k.Workers
			if setup0 == nil {
				setup0 = setup
			}
			_, mk, err := setup.Recommender(m.Method)
			if err != nil {
				return nil, err
			}
			budget := short
			if s < long {
				budget = last
			}
			newM := func() (*search.Budgeted, error) {
				r, err := mk()
				if err != nil {
					return nil, err
				}
				return &search.Budgeted{Method: r, Budget: budget, Players: setup.Field.Players}, nil
			}
			// The budget is not part of the fingerprint: the log of a
			// smaller budget is a prefix of a larger one's (steps past the
			// budget are empty and write nothing), so a work folder grows
			// with the budget.
			fp := setup.Fingerprint(m.Method)
			key := fmt.Sprintf("%s-seed%d", m.Name, seed)
			w.logf("tuners: %s, seed %d, budget %d games", m.Name, seed, budget)
			b, _, err := playSearch(ctx, w, key, fp, newM, count.wrap(setup.Field), nil)
			if err != nil {
				return nil, err
			}
			for _, cp := range checkpoints {
				if cp > budget {
					break
				}
				games, x := b.At(cp)
				points = append(points, &tunerPoint{Method: m.Name, Seed: seed, Checkpoint: cp, Games: games, X: x})
			}
		}
	}
	d.Field = searchreport.FieldText(setup0)
	// One validation of every distinct recommendation against the
	// reference, on the same fresh blocks of the notebook's seed.
	ref, err := w.reg.ParseSeat(k.Against, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: key tuners.against: %w", c.path, err)
	}
	if ref.Factory.Name != setup0.Field.Base.Factory.Name {
		return nil, fmt.Errorf("%s: key tuners.against: %s is a %s seat, but the searches tune %s", c.path, k.Against, ref.Factory.Name, setup0.Field.Base.Factory.Name)
	}
	vsc, err := search.LoadConfig(notebookPath(dir, k.Methods[0].Config))
	if err != nil {
		return nil, err
	}
	vsc.Seed = w.seed
	vsetup, err := vsc.Resolve(w.reg)
	if err != nil {
		return nil, err
	}
	vsetup.Field.Workers = k.Workers
	full := search.FullSpace(vsetup.Field)
	base := vsetup.Field.Base.Params
	var xs [][]float64
	var names []string
	index := map[string]int{}
	for _, p := range points {
		vals := base.Clone()
		for i, d := range vsetup.Space {
			vals[d.Param.Name] = p.X[i]
		}
		x := search.SeatValues(full, vals)
		label := vsetup.Space.Label(p.X)
		i, ok := index[label]
		if !ok {
			i = len(xs)
			index[label] = i
			xs = append(xs, x)
			names = append(names, label)
		}
		p.cand = i
	}
	refX := search.SeatValues(full, ref.Params)
	vcfg := search.PanelConfig{Sets: xs, Ref: refX, Blocks: vblocks, Chunk: 10}
	if _, err := search.NewPanel(vcfg); err != nil {
		return nil, err
	}
	vfield := *vsetup.Field
	vfield.Space = full
	fp := vsetup.ValidationSetFingerprint(names, k.Against, vcfg)
	w.logf("tuners: validation of %d recommendations against %s on %d blocks", len(xs), k.Against, vblocks)
	// The validation's folder is named by its fingerprint: the candidates
	// change with the checkpoints, and a work folder keeps each set's.
	sum := sha256.Sum256(fp)
	panel, _, err := playSearch(ctx, w, "validate-"+hex.EncodeToString(sum[:6]), fp, func() (*search.Panel, error) {
		return search.NewPanel(vcfg)
	}, count.wrap(&vfield), nil)
	if err != nil {
		return nil, err
	}
	cands, _, err := panel.Candidates(names)
	if err != nil {
		return nil, err
	}
	for _, p := range points {
		p.Comparison = cands[p.cand].Comparison
	}
	if err := c.write(w, d, vsetup.Space, points, checkpoints); err != nil {
		return nil, err
	}
	if err := d.finish(w, count.games, start); err != nil {
		return nil, err
	}
	return d, nil
}

// quickBlocks sets every method table of sc to n blocks an evaluation.
func quickBlocks(sc *search.Config, n int) {
	if m := sc.CMAES; m != nil {
		m.Blocks, m.MaxBlocks, m.MeanBlocks = n, n, n
	}
	if m := sc.SPSA; m != nil {
		m.Blocks = n
	}
	if m := sc.Surrogate; m != nil {
		m.Blocks = n
	}
	if m := sc.Halving; m != nil {
		m.Blocks = n
	}
}

// cells returns each method's cells at the checkpoints, over the seeds
// that reached them.
func tunerCells(methods []tunerMethodData, points []*tunerPoint, checkpoints []int) []tunerCell {
	var out []tunerCell
	for _, m := range methods {
		for _, cp := range checkpoints {
			cell := tunerCell{Method: m.Name, Checkpoint: cp, Min: math.Inf(1), Max: math.Inf(-1)}
			for _, p := range points {
				if p.Method != m.Name || p.Checkpoint != cp {
					continue
				}
				v := 100 * p.Diff.Mean
				cell.Seeds++
				cell.Mean += v
				cell.Lo += 100 * p.Diff.Interval.Lo
				cell.Hi += 100 * p.Diff.Interval.Hi
				cell.Min, cell.Max = min(cell.Min, v), max(cell.Max, v)
			}
			if cell.Seeds == 0 {
				continue
			}
			n := float64(cell.Seeds)
			cell.Mean, cell.Lo, cell.Hi = cell.Mean/n, cell.Lo/n, cell.Hi/n
			out = append(out, cell)
		}
	}
	return out
}

// write writes tuners.csv (every validated recommendation), curves.png
// and the table and sentences of d.
func (c *tunersConfig) write(w *writer, d *tunersData, sp search.Space, points []*tunerPoint, checkpoints []int) error {
	header := []string{"method", "seed", "checkpoint", "games"}
	for _, dm := range sp {
		header = append(header, dm.Param.Name)
	}
	header = append(header, "blocks", "win_rate", "reference_win_rate", "diff", "diff_lo", "diff_hi", "p")
	var rows [][]string
	for _, p := range points {
		row := []string{p.Method, strconv.FormatUint(p.Seed, 10), strconv.Itoa(p.Checkpoint), strconv.Itoa(p.Games)}
		for _, v := range p.X {
			row = append(row, num(v))
		}
		row = append(row, strconv.Itoa(p.Blocks), fmt.Sprintf("%.4f", p.WinA), fmt.Sprintf("%.4f", p.WinB),
			fmt.Sprintf("%.4f", p.Diff.Mean), fmt.Sprintf("%.4f", p.Diff.Interval.Lo), fmt.Sprintf("%.4f", p.Diff.Interval.Hi), fmt.Sprintf("%.4g", p.Diff.P))
		rows = append(rows, row)
	}
	if err := w.csv("tuners.csv", header, rows); err != nil {
		return err
	}
	cells := tunerCells(d.Methods, points, checkpoints)
	t := table.Table{Header: []string{"method", "games", "seeds", "gain (points)", "mean 95 % interval", "seeds' range"}}
	for _, cl := range cells {
		t.Rows = append(t.Rows, []string{cl.Method, strconv.Itoa(cl.Checkpoint), strconv.Itoa(cl.Seeds), fmt.Sprintf("%+.1f", cl.Mean),
			fmt.Sprintf("[%+.1f, %+.1f]", cl.Lo, cl.Hi), fmt.Sprintf("%+.1f .. %+.1f", cl.Min, cl.Max)})
	}
	d.Table = t
	var series []plots.Series
	for _, m := range d.Methods {
		s := plots.Series{Name: m.Name}
		for _, cl := range cells {
			if cl.Method == m.Name {
				s.X = append(s.X, float64(cl.Checkpoint)/1000)
				s.Y = append(s.Y, cl.Mean)
				s.Lo = append(s.Lo, min(cl.Lo, cl.Mean))
				s.Hi = append(s.Hi, max(cl.Hi, cl.Mean))
			}
		}
		if len(s.X) > 0 {
			series = append(series, s)
		}
	}
	if len(series) > 0 {
		fig := &plots.LineChart{Bands: true, Series: series, Title: "Validated gain over " + d.Against + " against games spent",
			XLabel: "games spent by the search (thousands)", YLabel: "difference in win rate (points)"}
		if err := w.figure("curves", fig); err != nil {
			return err
		}
	}
	d.Sentences = tunerSentences(c.Tuners.Thresholds, d.Short, cells, points, d.Methods)
	return nil
}

// tunerSentences states, for each threshold, which method's mean over its
// seeds first reaches it and at how many games, and which methods do not
// at any checkpoint; then the acceptance count: the seeds whose validated
// gain is at least 7 points with the interval's lower end above 4, at
// short games or fewer (the short seeds' budget).
func tunerSentences(thresholds []float64, short int, cells []tunerCell, points []*tunerPoint, methods []tunerMethodData) []string {
	var out []string
	for _, th := range thresholds {
		best := -1
		for i, cl := range cells {
			if cl.Mean >= th && (best < 0 || cl.Checkpoint < cells[best].Checkpoint) {
				best = i
			}
		}
		if best < 0 {
			out = append(out, fmt.Sprintf("No method's mean validated gain reaches %+g points at any checkpoint.", th))
			continue
		}
		var also []string
		for _, cl := range cells {
			if cl.Checkpoint == cells[best].Checkpoint && cl.Mean >= th && cl.Method != cells[best].Method {
				also = append(also, cl.Method)
			}
		}
		s := fmt.Sprintf("First to a mean validated gain of %+g points: %s, at %d games (%+.1f points over %d seed(s), mean 95 %% interval [%+.1f, %+.1f])",
			th, cells[best].Method, cells[best].Checkpoint, cells[best].Mean, cells[best].Seeds, cells[best].Lo, cells[best].Hi)
		if len(also) > 0 {
			s += "; at the same budget also " + strings.Join(also, ", ")
		}
		out = append(out, s+".")
	}
	for _, m := range methods {
		seeds := map[uint64]bool{}
		all := map[uint64]bool{}
		for _, p := range points {
			if p.Method != m.Name {
				continue
			}
			all[p.Seed] = true
			if p.Checkpoint <= short && p.Diff.Mean >= 0.07 && p.Diff.Interval.Lo > 0.04 {
				seeds[p.Seed] = true
			}
		}
		out = append(out, fmt.Sprintf("%s: %d of %d seeds reach a validated gain of at least +7 points with the interval's lower end above +4 within %s games.", m.Name, len(seeds), len(all), grouped(short)))
	}
	return out
}
