package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// tournamentNotes are the note sections of a tournament notebook.
var tournamentNotes = []string{"intro", "table5", "table6", "rank", "stalemates", "turns", "placement",
	"headtohead", "figures", "timing", "replicated", "conclusion"}

// tournamentConfig is the config of a tournament notebook: a round-robin
// tournament of package tourney compared with a paper's Tables 5 and 6.
type tournamentConfig struct {
	Header
	Tournament struct {
		// Config is the tournament's config file (package tourney's
		// format), relative to the notebook's folder.
		Config string `toml:"config"`
		// Replications is the replications per line-up of the second run.
		Replications int `toml:"replications"`
		// Workers is the worker count of both runs; 0 means every core.
		Workers int `toml:"workers"`
		// Permutations is the number of random permutations behind the
		// Spearman p-value when there are more bots than
		// stats.MaxExactSpearman.
		Permutations int `toml:"permutations"`
		// HeadToHead names the two bots whose head-to-head record is
		// compared with the paper's.
		HeadToHead []string `toml:"head_to_head"`
	} `toml:"tournament"`
	// Quick is the reduced size: the first Bots bots of the tournament,
	// Players per game, Replications per line-up in the second run.
	Quick struct {
		Bots         int `toml:"bots"`
		Players      int `toml:"players"`
		Replications int `toml:"replications"`
	} `toml:"quick"`
	Paper paperTournament `toml:"paper"`
	path  string
	tc    *tourney.Config
}

// paperTournament holds a paper's published tournament results.
type paperTournament = tourney.Published

// Bounds of the tournament config.
const (
	maxReplications = 1000
	maxPermutations = 10_000_000
)

func parseTournament(path string, data []byte) (experiment, error) {
	c := tournamentConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	t := &c.Tournament
	ck.nonEmpty("tournament.config", t.Config)
	if ck.err != nil {
		return nil, ck.err
	}
	tc, err := tourney.Load(notebookPath(filepath.Dir(path), t.Config))
	if err != nil {
		return nil, fmt.Errorf("%s: key tournament.config: %w", path, err)
	}
	c.tc = tc
	ck.intIn("tournament.replications", t.Replications, 1, maxReplications)
	ck.intIn("tournament.workers", t.Workers, 0, maxWorkers)
	ck.intIn("tournament.permutations", t.Permutations, 1000, maxPermutations)
	if len(t.HeadToHead) != 2 || t.HeadToHead[0] == t.HeadToHead[1] {
		ck.fail("tournament.head_to_head", "%q: want two different bots of the tournament", t.HeadToHead)
	}
	for i, b := range t.HeadToHead {
		if !slices.Contains(tc.Bots, b) {
			ck.fail(fmt.Sprintf("tournament.head_to_head[%d]", i), "%q is not a bot of %s (%s)", b, tc.Source,
				strings.Join(tc.Bots, ", "))
		}
	}
	q := &c.Quick
	ck.intIn("quick.players", q.Players, 2, 6)
	ck.intIn("quick.bots", q.Bots, max(q.Players, 2), len(tc.Bots))
	ck.intIn("quick.replications", q.Replications, 1, maxReplications)
	p := &c.Paper
	ck.nonEmpty("paper.source", p.Source)
	ck.intIn("paper.games", p.Games, 1, maxEngineGames)
	ck.intIn("paper.stalemates", p.Stalemates, 0, p.Games)
	for _, b := range tc.Bots {
		if _, ok := p.Bots[b]; !ok {
			ck.fail("paper.bots."+b, "missing: the paper's row of bot %q (every bot of %s needs one)", b, tc.Source)
		}
	}
	for _, label := range sortedKeys(p.Bots) {
		b, key := p.Bots[label], "paper.bots."+label
		if !slices.Contains(tc.Bots, label) {
			ck.fail(key, "%q is not a bot of %s (%s)", label, tc.Source, strings.Join(tc.Bots, ", "))
		}
		ck.nonEmpty(key+".name", b.Name)
		ck.ints(key+".placements", b.Placements, tc.Players, tc.Players, 0, p.Games)
		ck.intIn(key+".sm", b.Sm, 0, p.Stalemates)
		ck.floatIn(key+".win_pct", b.WinPct, 0, 100)
		ck.floatOpen(key+".t_match", b.TMatch, 0, 1e6)
		ck.floatOpen(key+".turns_per_match", b.TurnsPerMatch, 0, 1e6)
		ck.floatOpen(key+".t_turn", b.TTurn, 0, 1e6)
		ck.floatIn(key+".win_per_t_turn", b.WinPerTTurn, 0, 1e6)
	}
	h := &p.HeadToHead
	ck.intIn("paper.head_to_head.met", h.Met, 0, p.Games)
	ck.intIn("paper.head_to_head.a_won", h.AWon, 0, h.Met)
	ck.intIn("paper.head_to_head.b_won", h.BWon, 0, h.Met-h.AWon)
	ck.intIn("paper.head_to_head.last_two", h.LastTwo, 0, h.Met)
	ck.intIn("paper.head_to_head.a_won_last_two", h.AWonLastTwo, 0, h.LastTwo)
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

// floatIn checks lo <= v <= hi.
func (c *checker) floatIn(key string, v, lo, hi float64) {
	if !(v >= lo && v <= hi) {
		c.fail(key, "%v outside [%v, %v]", v, lo, hi)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (c *tournamentConfig) template() string { return "tournament.md.tmpl" }

// sized returns the tournament config of the first run and the
// replications of the second at the full or quick size.
func (c *tournamentConfig) sized(quick bool) (tourney.Config, int) {
	tc := *c.tc
	if !quick {
		return tc, c.Tournament.Replications
	}
	tc.Bots = tc.Bots[:c.Quick.Bots]
	tc.Players = c.Quick.Players
	return tc, c.Quick.Replications
}

func (c *tournamentConfig) sizes(quick bool) string {
	tc, r2 := c.sized(quick)
	g1 := tc.Games()
	tc.Replications = r2
	return fmt.Sprintf("%d bots, %d players per game, %d games; second run %d replications per line-up, %d games",
		len(tc.Bots), tc.Players, g1, r2, tc.Games())
}

// tournamentData is the template data of a tournament notebook: the
// comparisons with the paper of both runs (package tourney renders their
// tables and sentences) and the runs' sizes and speeds.
type tournamentData struct {
	// Config is the tournament config's path as the notebook names it.
	Config       string
	Bots         []string
	Players      int
	Games        int
	Rules        string
	Paper        *paperTournament
	PaperPlayers int
	// Cmp and Cmp2 compare the first and the replicated run with the
	// paper.
	Cmp, Cmp2 *tourney.Comparison
	// First and Second are the runs' sizes and speeds.
	First, Second runSummary
}

// runSummary is one run's size and speed.
type runSummary struct {
	Replications, Games, Stalemates int
	Seconds, GamesPerSecond         float64
}

// play runs the tournament tc into a temporary folder and returns the
// results, the records and the run's size and speed.
func (c *tournamentConfig) play(ctx context.Context, w *writer, tc *tourney.Config) (*tourney.Results, []arena.Record, runSummary, error) {
	var sum runSummary
	setup, err := tc.Resolve(w.reg)
	if err != nil {
		return nil, nil, sum, err
	}
	tmp, err := os.MkdirTemp("", "marslab-tournament-")
	if err != nil {
		return nil, nil, sum, err
	}
	defer os.RemoveAll(tmp)
	w.logf("tournament: %d bots, %d players, %d replications, %d games", len(tc.Bots), tc.Players,
		tc.Replications, tc.Games())
	rep, res, err := tourney.Run(ctx, tc, setup, tourney.Options{Out: tmp, Workers: c.Tournament.Workers, Progress: w.progress, ProgressLines: w.progressLines})
	if err != nil {
		return nil, nil, sum, fmt.Errorf("tournament %s: %w", tc.Source, err)
	}
	recs, err := tourney.ReadGames(filepath.Join(tmp, "games.jsonl"), tc.Players)
	if err != nil {
		return nil, nil, sum, err
	}
	sum = runSummary{Replications: tc.Replications, Games: res.Games, Stalemates: res.Stalemates,
		Seconds: rep.Timing.WallSeconds}
	if sum.Seconds > 0 {
		sum.GamesPerSecond = float64(res.Games) / sum.Seconds
	}
	return res, recs, sum, nil
}

func (c *tournamentConfig) run(ctx context.Context, w *writer) (any, error) {
	tc, r2 := c.sized(w.quick)
	d := &tournamentData{Config: c.Tournament.Config, Bots: tc.Bots, Players: tc.Players, Rules: tc.Rules,
		Paper: &c.Paper, PaperPlayers: c.tc.Players}
	h2h := [2]string{c.Tournament.HeadToHead[0], c.Tournament.HeadToHead[1]}
	res, recs, first, err := c.play(ctx, w, &tc)
	if err != nil {
		return nil, err
	}
	d.First, d.Games = first, res.Games
	if d.Cmp, err = tourney.Compare(res, recs, &c.Paper, h2h, c.Tournament.Permutations); err != nil {
		return nil, err
	}
	timings := [][]string{{"games_per_second", "first run", num(first.GamesPerSecond), "games/s"}}
	timings = append(timings, d.Cmp.TimingRows()...)
	if err := w.table("table5.csv", d.Cmp.Table5CSV(d.PaperPlayers)); err != nil {
		return nil, err
	}
	if err := w.table("table6.csv", d.Cmp.Table6CSV()); err != nil {
		return nil, err
	}
	for _, t := range []table.Table{res.PlacementTable(), res.WinRateTable(), res.HeadToHeadTable(), res.RatingsTable()} {
		var buf bytes.Buffer
		if err := t.WriteCSV(&buf); err != nil {
			return nil, fmt.Errorf("%s.csv: %w", t.Name, err)
		}
		if err := w.file(t.Name+".csv", buf.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := c.figures(w, res); err != nil {
		return nil, err
	}
	tc2 := tc
	tc2.Replications = r2
	res2, recs2, second, err := c.play(ctx, w, &tc2)
	if err != nil {
		return nil, err
	}
	d.Second = second
	timings = append(timings, []string{"games_per_second", "second run", num(second.GamesPerSecond), "games/s"})
	if d.Cmp2, err = tourney.Compare(res2, recs2, &c.Paper, h2h, c.Tournament.Permutations); err != nil {
		return nil, err
	}
	if err := w.table("replicated.csv", d.Cmp2.ReplicatedCSV()); err != nil {
		return nil, err
	}
	if err := w.csv(timingsFile, []string{"measure", "subject", "value", "unit"}, timings); err != nil {
		return nil, err
	}
	return d, nil
}

// figures writes tourney's figures (Figures 3 and 4 of the paper, the
// placements and the win % with intervals) as PNG and SVG.
func (c *tournamentConfig) figures(w *writer, res *tourney.Results) error {
	for _, fig := range figures.Tournament(res) {
		for _, ext := range []string{".png", ".svg"} {
			name := fig.Name + ext
			if err := plots.Save(filepath.Join(w.dir, name), fig.Chart); err != nil {
				return fmt.Errorf("figure %s: %w", fig.Name, err)
			}
			w.files = append(w.files, name)
		}
	}
	return nil
}
