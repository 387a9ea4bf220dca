package searchreport

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

// MainRun is the result of marslab run (the main job, `make run`): a
// narrowing search of two parameters, then one validation on fresh blocks
// of several candidates (the narrowing optimum and named seats) against a
// reference, the paper's parameters, with Holm's correction over the
// candidates. Its methods render the report's sentences from the numbers.
type MainRun struct {
	// Setup is the search config's setup; Narrowing the finished search,
	// or nil when the run searched by another method, which Method then
	// names (cmaes, spsa, surrogate or halving) and Recommended holds the
	// values it recommends.
	Setup       *search.Setup
	Narrowing   *search.Narrowing
	Method      string
	Recommended []float64
	// Reference names the reference seat (e.g. "mars@paper"); RefNarrow
	// holds its values of the narrowed parameters: the paper's point,
	// marked on the surface.
	Reference string
	RefNarrow []float64
	// Candidates are the validated candidates against the reference on
	// the same blocks, Holm their Holm-adjusted p-values (same order).
	Candidates []search.Candidate
	Holm       []float64
}

// detect is the power of the validation: with the per-block differences'
// standard deviation SD (the largest of the candidates'), Blocks blocks
// detect a difference of Diff in win rate with probability 0.8 at Holm's
// strictest level Alpha = 0.05/K (K candidates).
type detect struct {
	SD, Diff, Alpha float64
	Blocks          int
}

// detect returns the difference the validation's blocks detect with
// power 0.8 (see detectableDiff).
func (r *MainRun) detect() (detect, error) {
	d := detect{Alpha: 0.05 / float64(len(r.Candidates))}
	for _, c := range r.Candidates {
		d.SD = max(d.SD, c.Diff.SD)
		d.Blocks = c.Blocks
	}
	var err error
	d.Diff, err = detectableDiff(d.SD, d.Blocks, d.Alpha, 0.8)
	return d, err
}

// paper returns the reference's values of the narrowed parameters by name.
func (r *MainRun) paper() map[string]float64 {
	m := map[string]float64{}
	for i, d := range r.Narrowing.Config().Space {
		m[d.Param.Name] = r.RefNarrow[i]
	}
	return m
}

// calibration is r seen as a search.Calibration, whose tables and
// sentences on the narrowing and the paper's point it shares.
func (r *MainRun) calibration() *search.Calibration {
	return &search.Calibration{Reference: r.Reference, Narrowing: r.Narrowing, RefNarrow: r.RefNarrow, Validations: r.Candidates, Holm: r.Holm}
}

// windowText is the sentence stating whether the paper's point (the
// reference's values) lies inside the narrowing's last window, with that
// window.
func (r *MainRun) windowText() string {
	_, last := r.Narrowing.Best()
	sp := r.Narrowing.Config().Space
	return fmt.Sprintf("%s (%s); the last window is %s.", PaperText(r.calibration(), r.paper()), sp.Label(r.RefNarrow), window(sp, last))
}

// candidateText is the sentence stating candidate i's validated
// difference from the reference: better (mean above 0, Holm-adjusted p
// below 0.05), worse (mean below 0, Holm p below 0.05) or not shown
// different, in points of win rate with the 95 % interval.
func (r *MainRun) candidateText(i int) string {
	c, holm := r.Candidates[i], r.Holm[i]
	num := fmt.Sprintf("%s points of win rate (95 %% interval [%s, %s], Holm-adjusted p %s, %d blocks)",
		textfmt.Signed(100*c.Diff.Mean, 1), textfmt.Signed(100*c.Diff.Interval.Lo, 1), textfmt.Signed(100*c.Diff.Interval.Hi, 1), pRel(holm), c.Blocks)
	switch {
	case holm < 0.05 && c.Diff.Mean > 0:
		return fmt.Sprintf("`%s` is better than `%s`: %s.", c.Name, r.Reference, num)
	case holm < 0.05 && c.Diff.Mean < 0:
		return fmt.Sprintf("`%s` is worse than `%s`: %s.", c.Name, r.Reference, num)
	}
	return fmt.Sprintf("`%s` is not shown different from `%s`: %s.", c.Name, r.Reference, num)
}

// detectText is the sentence stating what difference the validation's
// blocks detect.
func (r *MainRun) detectText() string {
	d, err := r.detect()
	if err != nil {
		return "The validation's power is unknown: " + err.Error() + "."
	}
	return fmt.Sprintf("The validation's %d blocks detect a difference of %s points with 80 %% power at Holm's strictest level %s (the largest per-block standard deviation of the differences, %s).",
		d.Blocks, textfmt.Fixed(100*d.Diff, 1), strconv.FormatFloat(d.Alpha, 'g', 3, 64), textfmt.Fixed(d.SD, 3))
}

// Verdicts returns the report's verdict lines: the paper's point against
// the last window, each candidate's difference and the validation's power.
func (r *MainRun) Verdicts() []string {
	var v []string
	if r.Narrowing != nil {
		v = append(v, r.windowText())
	}
	for i := range r.Candidates {
		v = append(v, r.candidateText(i))
	}
	return append(v, r.detectText())
}

// markdown returns report.md: the verdicts, the surface (figure files
// figs, relative to the report), the table against the paper, the
// validation table and the narrowing's levels. narrowDir is the
// narrowing's folder relative to the report.
func (r *MainRun) markdown(narrowDir string, figs []string) []byte {
	c := r.Setup.Config
	var b bytes.Buffer
	if r.Narrowing == nil {
		return r.methodMarkdown(narrowDir)
	}
	fmt.Fprintf(&b, "# %s: MARS's (%s) narrowed in the paper's field, validated against `%s`\n\n", c.Name, strings.Join(names(r.Narrowing.Config().Space), ", "), r.Reference)
	fmt.Fprintf(&b, "Bot `%s` in %d-player games (rules %s, seed %d) against line-ups of %d drawn per block from %s. A block is one deal played %d times with the candidate in every seat.\n\n",
		c.Base, c.Players, r.Setup.Field.Rules.Name, c.Seed, c.Players-1, strings.Join(c.Opponents, ", "), c.Players)
	b.WriteString("## Verdicts\n\n")
	for _, v := range r.Verdicts() {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	b.WriteString("\n## The surface\n\n")
	fmt.Fprintf(&b, "%s. Win rate of every cell the narrowing played, each level's window, the best cell and `%s` (the paper's point) marked.\n", BestText(r.Narrowing), r.Reference)
	if r.Narrowing.Levels()[0].Ref != nil {
		fmt.Fprintf(&b, "Each level plays `%s` beside its cells on its own blocks; the surface shows each cell's difference from it on those blocks (the levels' win rates are not comparable: each level played other deals).\n", r.Reference)
	}
	for _, f := range figs {
		fmt.Fprintf(&b, "\n![%s](%s)\n", f, filepath.ToSlash(filepath.Join(narrowDir, f)))
	}
	b.WriteString("\n## What the racing told apart\n\n")
	for _, t := range racingText(r.Narrowing) {
		fmt.Fprintf(&b, "- %s\n", t)
	}
	if c := r.Narrowing.Config(); c.Fit {
		var parts []string
		for k, levels := 0, r.Narrowing.Levels(); k < len(levels); k++ {
			if l := &levels[k]; l.Centre >= 0 {
				parts = append(parts, fmt.Sprintf("after level %d on %s (its best cell: %s)", k+1, c.Space.Label(l.Cells[l.Centre].X), c.Space.Label(l.Cells[l.Best].X)))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "\nWhere the cells left spanned more than the zoom allows, the next window was centred on the cell alive of highest fitted win rate (a quadratic fitted to every cell of the level, weighted by blocks), not on the single best cell: %s.\n", strings.Join(parts, "; "))
		}
	}
	b.WriteString("\n## Against the paper\n\n")
	b.WriteString(PaperTable(r.calibration(), r.paper()).Markdown())
	b.WriteString("\n")
	b.WriteString(Levels(r.Narrowing).Markdown())
	fmt.Fprintf(&b, "\nEvery cell: [%s](%s); the narrowing's own report: [%s](%s).\n",
		filepath.ToSlash(filepath.Join(narrowDir, "cells.csv")), filepath.ToSlash(filepath.Join(narrowDir, "cells.csv")),
		filepath.ToSlash(filepath.Join(narrowDir, "report.md")), filepath.ToSlash(filepath.Join(narrowDir, "report.md")))
	b.WriteString("\n## Validation on fresh deals\n\n")
	fmt.Fprintf(&b, "Every candidate and `%s` on the same %d fresh blocks (deals the search never played, from block %d); the difference is paired by block (t test), its p-value Holm-adjusted over the %d candidates.\n\n",
		r.Reference, r.Candidates[0].Blocks, r.Candidates[0].FirstBlock, len(r.Candidates))
	b.WriteString(candidatesShown(r.Reference, r.Candidates, r.Holm).Markdown())
	b.WriteString("\nAs CSV: [validation.csv](validation.csv).\n")
	return b.Bytes()
}

// methodMarkdown returns report.md of a run that searched by Method: the
// verdicts, the recommendation and the validation table. searchDir is the
// search's folder relative to the report.
func (r *MainRun) methodMarkdown(searchDir string) []byte {
	c := r.Setup.Config
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: %d parameters of `%s` searched by %s, validated against `%s`\n\n", c.Name, len(r.Setup.Space), c.Base, r.Method, r.Reference)
	fmt.Fprintf(&b, "Field: %s; seed %d. A block is one deal played once with the candidate in every seat.\n\n", FieldText(r.Setup), c.Seed)
	b.WriteString("## Verdicts\n\n")
	for _, v := range r.Verdicts() {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	fmt.Fprintf(&b, "\n## The search\n\nThe %s search's recommendation: `%s` (its log and report: [%s](%s)).\n",
		r.Method, r.Setup.Space.Label(r.Recommended), filepath.ToSlash(filepath.Join(searchDir, "report.md")), filepath.ToSlash(filepath.Join(searchDir, "report.md")))
	b.WriteString("\n## Validation on fresh deals\n\n")
	fmt.Fprintf(&b, "Every candidate and `%s` on the same %d fresh blocks (deals the search never played, from block %d); the difference is paired by block (t test), its p-value Holm-adjusted over the %d candidates.\n\n",
		r.Reference, r.Candidates[0].Blocks, r.Candidates[0].FirstBlock, len(r.Candidates))
	b.WriteString(candidatesShown(r.Reference, r.Candidates, r.Holm).Markdown())
	b.WriteString("\nAs CSV: [validation.csv](validation.csv).\n")
	return b.Bytes()
}

// outcome returns outcome.md: the verdict lines as a Markdown list (the
// README's first screen shows them).
func (r *MainRun) outcome() []byte {
	var b bytes.Buffer
	for _, v := range r.Verdicts() {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	return b.Bytes()
}

// Write writes report.md, outcome.md and validation.csv of a finished
// main run into dir; the narrowing's report and figures are in
// dir/narrowDir (figs names them).
func (r *MainRun) Write(dir, narrowDir string, figs []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if err := writeCSV(filepath.Join(dir, "validation.csv"), candidatesCSV(r.Candidates, r.Holm)); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"report.md": r.markdown(narrowDir, figs), "outcome.md": r.outcome()} {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("search: %w", err)
		}
	}
	return nil
}

// detectableDiff returns the smallest difference in win rate that a
// paired t test over blocks blocks, with the per-block differences'
// standard deviation sd, finds at two-sided level alpha with probability
// power (normal approximation: (z_{1-alpha/2} + z_power)·sd/√blocks).
func detectableDiff(sd float64, blocks int, alpha, power float64) (float64, error) {
	if blocks < 2 || !(sd >= 0) || !(alpha > 0 && alpha < 1) || !(power > 0.5 && power < 1) {
		return 0, fmt.Errorf("search: detectable difference: sd %v, %d blocks, alpha %v, power %v: want sd >= 0, blocks >= 2, alpha and power in (0.5, 1)", sd, blocks, alpha, power)
	}
	za, err := stats.NormalQuantile(1 - alpha) // two-sided: z_{1-alpha/2}
	if err != nil {
		return 0, err
	}
	zp, err := stats.NormalQuantile(2*power - 1) // one-sided: z_power
	if err != nil {
		return 0, err
	}
	return (za + zp) * sd / math.Sqrt(float64(blocks)), nil
}
