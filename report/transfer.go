package report

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/gameconf"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"

	"gonum.org/v1/plot/vg"
)

// transferNotes are the note sections of a transfer notebook.
var transferNotes = []string{"intro", "grid", "table", "where", "conclusion", "timing"}

// maxTransferCells bounds the conditions of a transfer grid.
const maxTransferCells = 512

// transferConfig is the config of a transfer notebook: parameter sets of
// one bot, each compared with a reference set on common deals in every
// condition of a grid of rule sets, maps, player counts and opponent
// fields.
type transferConfig struct {
	Header
	Transfer struct {
		// Reference is the reference seat (e.g. mars@paper); Sets the seats
		// compared with it (shipped sets, or BOT@FILE parameter files,
		// relative paths from the notebook's folder), of the same bot.
		Reference string   `toml:"reference"`
		Sets      []string `toml:"sets"`
		// Rules are the rule sets of the grid; Maps its maps (empty: each
		// rule set's own map); Players its player counts.
		Rules   []string `toml:"rules"`
		Maps    []string `toml:"maps"`
		Players []int    `toml:"players"`
		// Fields are the opponent fields: each block draws players-1
		// distinct seats of the field's pool.
		Fields []transferField `toml:"field"`
		// Blocks is the number of fresh blocks per condition; Workers the
		// games played at once (0 = every core).
		Blocks  int `toml:"blocks"`
		Workers int `toml:"workers"`
	} `toml:"transfer"`
	// Quick is the reduced size: the blocks per condition.
	Quick struct {
		Blocks int `toml:"blocks"`
	} `toml:"quick"`
	path string
}

// transferField is one [[transfer.field]] table: a named pool of
// opponent seats.
type transferField struct {
	Name      string   `toml:"name"`
	Opponents []string `toml:"opponents"`
}

func parseTransfer(path string, data []byte) (experiment, error) {
	c := transferConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	t := &c.Transfer
	ck.nonEmpty("transfer.reference", t.Reference)
	if len(t.Sets) == 0 || len(t.Sets) > 32 {
		ck.fail("transfer.sets", "%d seats: want 1 to 32 parameter sets", len(t.Sets))
	}
	if len(t.Rules) == 0 {
		ck.fail("transfer.rules", "missing: want at least one rule set")
	}
	ck.ints("transfer.players", t.Players, 1, 5, 2, 6)
	distinct(ck, "transfer.sets", t.Sets)
	distinct(ck, "transfer.rules", t.Rules)
	distinct(ck, "transfer.maps", t.Maps)
	distinct(ck, "transfer.players", t.Players)
	if len(t.Fields) == 0 {
		ck.fail("transfer.field", "missing: want at least one [[transfer.field]] table")
	}
	most := 0
	for _, p := range t.Players {
		most = max(most, p)
	}
	names := map[string]bool{}
	for i, f := range t.Fields {
		key := fmt.Sprintf("transfer.field[%d]", i)
		switch {
		case f.Name == "" || !bots.ValidName(f.Name) || len(f.Name) > maxFieldName:
			ck.fail(key+".name", "%q: want a name [A-Za-z_][A-Za-z0-9_-]* of at most %d bytes", textfmt.OneLine(f.Name), maxFieldName)
		case names[f.Name]:
			ck.fail(key+".name", "%q names two fields", f.Name)
		case len(f.Opponents) < most-1:
			ck.fail(key+".opponents", "a pool of %d seats: want at least %d (the most players, %d, less one)", len(f.Opponents), most-1, most)
		}
		names[f.Name] = true
		distinct(ck, key+".opponents", f.Opponents)
	}
	ck.intIn("transfer.blocks", t.Blocks, 2, 1<<20)
	ck.intIn("transfer.workers", t.Workers, 0, maxWorkers)
	ck.intIn("quick.blocks", c.Quick.Blocks, 2, 1000)
	maps := max(1, len(t.Maps))
	if n := len(t.Rules) * maps * len(t.Players) * len(t.Fields); n > maxTransferCells {
		ck.fail("transfer.rules", "a grid of %d conditions: want at most %d", n, maxTransferCells)
	}
	if ck.err == nil {
		for _, cd := range c.conditions() {
			if n := cellDir(cd.Name()); len(n) > maxCellDir {
				ck.fail("transfer.rules", "condition %s: its -work folder name %s is %d bytes: want at most %d (shorter rule set or map names)", cd.Name(), n, len(n), maxCellDir)
				break
			}
		}
	}
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

// maxFieldName bounds a field's name in bytes; maxCellDir a cell's folder
// name in a -work folder (file systems allow 255 bytes).
const (
	maxFieldName = 64
	maxCellDir   = 255
)

// cellDir is the name of a condition's folder in a -work folder.
func cellDir(condition string) string { return "cell-" + strings.ReplaceAll(condition, "/", "-") }

func (c *transferConfig) template() string { return "transfer.md.tmpl" }

func (c *transferConfig) sizes(quick bool) string {
	b := c.Transfer.Blocks
	if quick {
		b = c.Quick.Blocks
	}
	return fmt.Sprintf("%d blocks per condition, %d conditions", b, len(c.conditions()))
}

// transferCondition is one condition of the grid.
type transferCondition struct {
	Rules, Map string
	Players    int
	Field      transferField
}

// Name names the condition: RULES[/MAP]/Np/FIELD.
func (tc transferCondition) Name() string {
	parts := []string{tc.Rules}
	if tc.Map != "" {
		parts = append(parts, strings.TrimSuffix(filepath.Base(tc.Map), ".toml"))
	}
	return strings.Join(append(parts, fmt.Sprintf("%dp", tc.Players), tc.Field.Name), "/")
}

// conditions returns the grid in its order: rules, then maps, then
// players, then fields.
func (c *transferConfig) conditions() []transferCondition {
	t := c.Transfer
	maps := t.Maps
	if len(maps) == 0 {
		maps = []string{""}
	}
	var out []transferCondition
	for _, r := range t.Rules {
		for _, m := range maps {
			for _, p := range t.Players {
				for _, f := range t.Fields {
					out = append(out, transferCondition{Rules: r, Map: m, Players: p, Field: f})
				}
			}
		}
	}
	return out
}

// transferCell is one set's comparison with the reference in one
// condition.
type transferCell struct {
	Set, Condition string
	search.Comparison
	// Holm is the p-value Holm-adjusted over every cell.
	Holm float64
}

// Sign returns +1 when the cell shows the set better (Holm-adjusted p
// below 0.05 and a positive difference), -1 when it shows it worse, else
// 0.
func (tc transferCell) Sign() int {
	switch {
	case tc.Holm >= 0.05:
		return 0
	case tc.Diff.Mean > 0:
		return 1
	case tc.Diff.Mean < 0:
		return -1
	}
	return 0
}

// transferData is what the transfer template sees.
type transferData struct {
	Reference string
	Sets      []string
	Blocks    int
	Grid      table.Table // the conditions
	Table     table.Table // conditions by sets
	Overall   table.Table // each set over the grid
	Where     []string    // per set: where it is shown better and worse
	Cells     int
	runTiming
}

func (c *transferConfig) run(ctx context.Context, w *writer) (any, error) {
	start := time.Now()
	t := c.Transfer
	blocks := t.Blocks
	if w.quick {
		blocks = c.Quick.Blocks
	}
	dir := filepath.Dir(c.path)
	seat := func(key, spec string) (bots.Seat, error) {
		s, err := w.reg.ParseSeat(seatFile(dir, spec), nil)
		if err != nil {
			return s, fmt.Errorf("%s: key %s: %w", c.path, key, err)
		}
		return s, nil
	}
	ref, err := seat("transfer.reference", t.Reference)
	if err != nil {
		return nil, err
	}
	sets := make([]bots.Seat, len(t.Sets))
	for i, spec := range t.Sets {
		if sets[i], err = seat(fmt.Sprintf("transfer.sets[%d]", i), spec); err != nil {
			return nil, err
		}
		if sets[i].Factory.Name != ref.Factory.Name {
			return nil, fmt.Errorf("%s: key transfer.sets[%d]: %s is a %s seat, the reference %s a %s seat: want sets of one bot",
				c.path, i, spec, sets[i].Factory.Name, t.Reference, ref.Factory.Name)
		}
	}
	pools := map[string][]bots.Seat{}
	for i, f := range t.Fields {
		for j, spec := range f.Opponents {
			s, err := seat(fmt.Sprintf("transfer.field[%d].opponents[%d]", i, j), spec)
			if err != nil {
				return nil, err
			}
			pools[f.Name] = append(pools[f.Name], s)
		}
	}
	type board struct {
		r *sim.Rules
		m *sim.Map
	}
	boards := map[[2]string]board{}
	count := &counter{}
	conds := c.conditions()
	var cells []transferCell
	grid := table.Table{Header: []string{"condition", "rules", "map", "players", "field", "opponents"}}
	for ci, cd := range conds {
		if w.shard.Count > 1 && ci%w.shard.Count != w.shard.Index {
			continue // another shard's condition
		}
		k := [2]string{cd.Rules, cd.Map}
		b, ok := boards[k]
		if !ok {
			if b.r, b.m, err = gameconf.Load(c.path, cd.Rules, cd.Map); err != nil {
				return nil, fmt.Errorf("key transfer.rules or transfer.maps: %w", err)
			}
			boards[k] = b
		}
		g := &search.Games{Map: b.m, Rules: b.r, Base: ref, Players: cd.Players, Opponents: pools[cd.Field.Name],
			Sample: true, Seed: w.seed, Workers: t.Workers}
		g.Space = search.FullSpace(g)
		pc := search.PanelConfig{Ref: search.SeatValues(g.Space, ref.Params), Blocks: blocks, Chunk: min(blocks, 50)}
		for _, s := range sets {
			pc.Sets = append(pc.Sets, search.SeatValues(g.Space, s.Params))
		}
		name := cd.Name()
		grid.Add(name, b.r.Name, b.m.Name, strconv.Itoa(cd.Players), cd.Field.Name, strings.Join(cd.Field.Opponents, ", "))
		w.logf("transfer: %s", name)
		panel, _, err := playSearch(ctx, w, cellDir(name), search.PanelFingerprint(name, g, t.Sets, t.Reference, pc),
			func() (*search.Panel, error) { return search.NewPanel(pc) }, count.wrap(g), nil)
		if err != nil {
			return nil, err
		}
		for i := range sets {
			cmp, err := panel.Compare(i)
			if err != nil {
				return nil, fmt.Errorf("transfer %s, %s: %w", name, t.Sets[i], err)
			}
			cells = append(cells, transferCell{Set: t.Sets[i], Condition: name, Comparison: cmp})
		}
	}
	if w.shard.Count > 1 {
		return nil, nil
	}
	ps := make([]float64, len(cells))
	for i, cl := range cells {
		ps[i] = cl.Diff.P
	}
	holm, err := stats.Holm(ps)
	if err != nil {
		return nil, fmt.Errorf("transfer: %w", err)
	}
	for i := range cells {
		cells[i].Holm = holm[i]
	}
	d := &transferData{Reference: t.Reference, Sets: t.Sets, Blocks: blocks, Grid: grid, Cells: len(cells)}
	if err := c.render(w, d, conds, cells); err != nil {
		return nil, err
	}
	if err := d.finish(w, count.games, start); err != nil {
		return nil, err
	}
	return d, nil
}

// render writes transfer.csv, the heat map and the where-file, and fills
// d's tables; cells are set-major within each condition, in the order of
// conds.
func (c *transferConfig) render(w *writer, d *transferData, conds []transferCondition, cells []transferCell) error {
	sets := c.Transfer.Sets
	ns := len(sets)
	at := func(s, k int) transferCell { return cells[k*ns+s] }
	csv := table.Table{Header: []string{"set", "reference", "condition", "blocks", "games", "win_set", "win_reference",
		"diff", "lo", "hi", "p", "p_holm", "shown"}}
	for _, cl := range cells {
		csv.Add(cl.Set, c.Transfer.Reference, cl.Condition, strconv.Itoa(cl.Blocks), strconv.Itoa(cl.Games), num(cl.WinA), num(cl.WinB),
			num(cl.Diff.Mean), num(cl.Diff.Interval.Lo), num(cl.Diff.Interval.Hi), num(cl.Diff.P), num(cl.Holm), shownWord(cl.Sign()))
	}
	if err := w.table("transfer.csv", csv); err != nil {
		return err
	}
	d.Table = table.Table{Header: append([]string{"condition"}, sets...)}
	for k, cd := range conds {
		row := []string{cd.Name()}
		for s := range sets {
			cl := at(s, k)
			mark := ""
			switch cl.Sign() {
			case 1:
				mark = " **better**"
			case -1:
				mark = " **worse**"
			}
			row = append(row, fmt.Sprintf("%+.1f [%+.1f, %+.1f] p̃ %.2g%s", 100*cl.Diff.Mean, 100*cl.Diff.Interval.Lo, 100*cl.Diff.Interval.Hi, cl.Holm, mark))
		}
		d.Table.Rows = append(d.Table.Rows, row)
	}
	// Over the grid: the mean of the conditions' differences, each weighted
	// equally, with a normal interval from their standard errors.
	d.Overall = table.Table{Header: []string{"set", "conditions", "mean difference (points)", "95 % interval", "p", "better in", "worse in"}}
	overall := table.Table{Header: []string{"set", "conditions", "diff", "lo", "hi", "p", "better", "worse"}}
	hm := &plots.DiffMap{Title: fmt.Sprintf("win %% minus %s's (crossed: not shown different, Holm)", c.Transfer.Reference), Rows: sets,
		ColorLabel: "points", Width: plotWidth(len(conds)), Height: plotHeight(ns)}
	for _, cd := range conds {
		hm.Columns = append(hm.Columns, cd.Name())
	}
	z, err := stats.NormalQuantile(stats.Level)
	if err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	for s, name := range sets {
		var sum, v float64
		var better, worse, same []string
		for k := range conds {
			cl := at(s, k)
			sum += cl.Diff.Mean
			v += cl.Diff.SE * cl.Diff.SE
			hm.Values = append(hm.Values, 100*cl.Diff.Mean)
			hm.Significant = append(hm.Significant, cl.Sign() != 0)
			switch cl.Sign() {
			case 1:
				better = append(better, cl.Condition)
			case -1:
				worse = append(worse, cl.Condition)
			default:
				same = append(same, cl.Condition)
			}
		}
		n := float64(len(conds))
		mean, se := sum/n, math.Sqrt(v)/n
		p := 1.0
		if se > 0 {
			p = math.Erfc(math.Abs(mean/se) / math.Sqrt2)
		}
		lo, hi := mean-z*se, mean+z*se
		d.Overall.Add("`"+name+"`", strconv.Itoa(len(conds)), fmt.Sprintf("%+.1f", 100*mean), fmt.Sprintf("[%+.1f, %+.1f]", 100*lo, 100*hi),
			fmt.Sprintf("%.2g", p), strconv.Itoa(len(better)), strconv.Itoa(len(worse)))
		overall.Add(name, strconv.Itoa(len(conds)), num(mean), num(lo), num(hi), num(p), strconv.Itoa(len(better)), strconv.Itoa(len(worse)))
		d.Where = append(d.Where, whereText(name, c.Transfer.Reference, d.Blocks, len(cells), better, worse, same, mean, lo, hi))
	}
	if err := w.table("transfer-overall.csv", overall); err != nil {
		return err
	}
	if err := w.figure("transfer", hm); err != nil {
		return err
	}
	return w.file("where.txt", []byte(strings.Join(d.Where, "\n")+"\n"))
}

// whereText is the comment line of a parameter file that says where the
// set is shown better and worse than the reference, and its mean
// difference over the grid (mean, with its normal interval [lo, hi] at
// stats.Level, in win rate).
func whereText(set, ref string, blocks, cells int, better, worse, same []string, mean, lo, hi float64) string {
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("# %s against %s (notebooks/transfer, %d fresh blocks per condition, Holm over %d cells): "+
		"over the grid's conditions, equally weighted, %+.1f points [%+.1f, %+.1f]; shown better in %s; shown worse in %s; no difference shown in %d conditions.",
		set, ref, blocks, cells, 100*mean, 100*lo, 100*hi, list(better), list(worse), len(same))
}

// shownWord names a cell's sign.
func shownWord(s int) string {
	switch s {
	case 1:
		return "better"
	case -1:
		return "worse"
	}
	return ""
}

// plotWidth and plotHeight size the heat map for its columns and rows.
func plotWidth(cols int) vg.Length  { return vg.Length(max(16, 4+1.1*float64(cols))) * vg.Centimeter }
func plotHeight(rows int) vg.Length { return vg.Length(max(9, 7+1.6*float64(rows))) * vg.Centimeter }

// seatFile returns the seat specification spec with a parameter file
// (BOT@PATH, PATH holding a separator or ending in .toml) given relative
// to the notebook's folder dir made relative to dir's parent, as
// bots.Registry.ParseSeat reads it.
func seatFile(dir, spec string) string {
	at := strings.IndexByte(spec, '@')
	if at < 0 {
		return spec
	}
	file, rest := spec[at+1:], ""
	if i := strings.IndexByte(file, '('); i >= 0 {
		file, rest = file[:i], file[i:]
	}
	if !strings.ContainsAny(file, `/\`) && !strings.HasSuffix(file, ".toml") || filepath.IsAbs(file) {
		return spec
	}
	return spec[:at+1] + notebookPath(dir, file) + rest
}
