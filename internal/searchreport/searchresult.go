package searchreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/search"
)

// MethodNames describes each search method of marslab evolve, and says
// what its recommendation is.
var methodNames = map[string]string{
	"cmaes":     "CMA-ES (the recommendation is the distribution mean)",
	"spsa":      "SPSA with common random numbers and fishtest's gain sequences (the recommendation is the average of the last iterates)",
	"surrogate": "a Gaussian-process surrogate with expected improvement under noise (the recommendation is the point of largest posterior mean among those evaluated)",
	"halving":   "successive halving of blocks among proposed candidates (the recommendation is the incumbent, the last bracket's winner)",
}

// MethodText describes search method (cmaes, spsa, surrogate, halving) and
// says what its recommendation is.
func MethodText(method string) string { return methodNames[method] }

// WriteSearchResult writes the result of a finished search by method (spsa,
// surrogate or halving; marslab evolve -method) to dir: best.toml (the
// recommendation as a parameter file) and report.md (the config, the
// recommendation and its estimate on the method's final blocks).
func WriteSearchResult(dir string, setup *search.Setup, method string, m search.Recommender) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	c := setup.Config
	x := m.Recommend()
	comment := fmt.Sprintf("The recommendation of the %s search %s (marslab evolve -method %s): %s\n(not validated: see marslab validate).",
		method, c.Name, method, setup.Space.Label(x))
	if err := writeParamFile(filepath.Join(dir, "best.toml"), setup.Field, x, comment); err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Search %s: %s\n\n", c.Name, method)
	fmt.Fprintf(&b, "Bot `%s`, %d parameters searched from the base values by %s, seed %d. Field: %s.\n\n",
		c.Base, len(setup.Space), methodNames[method], c.Seed, FieldText(setup))
	fmt.Fprintf(&b, "Recommendation: `%s` (the log: [log.jsonl](log.jsonl)). A validation on fresh deals: `marslab validate %s -a %s@%s`.\n",
		setup.Space.Label(x), c.Source, setup.Field.Base.Factory.Name, filepath.Join(dir, "best.toml"))
	if err := atomicfile.WriteFile(filepath.Join(dir, "report.md"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
