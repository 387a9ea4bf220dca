package docs_test

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importRules are the imports each package of the module may have among
// the module's packages, in the notation of go/build's deps_test:
// "a, b < c, d" says c and d may import a and b and everything a and b may
// import; packages on one right-hand side may not import each other unless
// another rule says so. NONE stands for no package. Every package of the
// module (cmd, internal and test-helper packages included, examples/ and
// testdata/ left out) is on the right of exactly one rule, so a new package
// needs a rule and a new import must follow one. design.md's package graph
// (## Packages) draws the same arrows.
const importRules = `
	NONE
	< configs, dice, stats, rating, search/cmaes,
	  internal/atomicfile, internal/cputime, internal/fileread, internal/gamebench,
	  internal/progress, internal/race, internal/textfmt, bots/registry/internal/famgen,
	  internal/browsertest;

	internal/textfmt < table;

	internal/atomicfile < plots, internal/slurm;
	internal/atomicfile, internal/fileread < internal/fuzzfile, internal/outdir;
	configs, internal/fileread < sim;
	sim < bots/blocks, recog, internal/gameconf, internal/pageevent;
	internal/pageevent < view;
	dice, sim, stats < dice/dicetest;

	# bots: the shared types and the registry; the families sit above it,
	# side by side, and bots/registry lists them for cmd/marslab only.
	sim < bots;
	configs, sim < sim/simtest;
	bots, internal/gamebench, sim/simtest < internal/bottest;
	bots, bots/blocks < bots/baseline, bots/example, bots/lux, bots/mission;
	bots < bots/mcts;
	bots, bots/blocks, dice < mars;
	bots/baseline, bots/example, bots/lux, bots/mcts, bots/mission, mars < bots/registry;

	# The experiment packages take a *bots.Registry from their caller and
	# import no bot family.
	bots, internal/atomicfile, internal/outdir, internal/progress, internal/textfmt, stats, table < arena;
	# The algorithms compute and return numbers and draw nothing (see
	# TestAlgorithmsDrawNothing); their reports and figures are drawn by
	# the packages above them.
	arena, internal/gameconf, rating < tourney;
	arena, internal/gameconf, search/cmaes < search;
	bots < learn;
	arena, learn < internal/strategist;
	arena, recog < internal/recognition;
	plots, search < internal/searchreport;
	internal/recognition, internal/strategist, plots, tourney < internal/figures;
	dice/dicetest, internal/figures, internal/searchreport < report;
	bots, internal/atomicfile, view < internal/human;
	internal/human, internal/slurm, report, view < cli;
	bots/registry, cli < cmd/marslab;
`

// parseImportRules returns, for every package a rule names on its right,
// the packages it may import: the left side of its rule and, transitively,
// everything those may import.
func parseImportRules(rules string) (map[string][]string, error) {
	allowed := map[string]map[string]bool{"NONE": {}}
	var lines []string
	for l := range strings.SplitSeq(rules, "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	list := func(s string) []string {
		var out []string
		for p := range strings.SplitSeq(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	for stmt := range strings.SplitSeq(strings.Join(lines, "\n"), ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		lhs, rhs, ok := strings.Cut(stmt, "<")
		if !ok || strings.Contains(rhs, "<") {
			return nil, fmt.Errorf("rule %q: want \"a, b < c, d\"", strings.TrimSpace(stmt))
		}
		below := map[string]bool{}
		for _, p := range list(lhs) {
			deps, ok := allowed[p]
			if !ok {
				return nil, fmt.Errorf("rule %q: %s is used before a rule names it", strings.TrimSpace(stmt), p)
			}
			if p != "NONE" {
				below[p] = true
			}
			for d := range deps {
				below[d] = true
			}
		}
		for _, p := range list(rhs) {
			if _, dup := allowed[p]; dup {
				return nil, fmt.Errorf("rule %q: %s has a rule already", strings.TrimSpace(stmt), p)
			}
			allowed[p] = below
		}
	}
	delete(allowed, "NONE")
	out := make(map[string][]string, len(allowed))
	for p, deps := range allowed {
		out[p] = nil
		for d := range deps {
			out[p] = append(out[p], d)
		}
		slices.Sort(out[p])
	}
	return out, nil
}

// importViolations returns one line per package of graph without a rule,
// per import graph has against the rules, and per rule naming no package
// of graph.
func importViolations(graph, allowed map[string][]string) []string {
	var out []string
	for _, p := range sortedKeys(graph) {
		ok, has := allowed[p]
		if !has {
			out = append(out, fmt.Sprintf("package %s has no import rule: add one to importRules in docs/imports_test.go", p))
			continue
		}
		for _, d := range graph[p] {
			if !slices.Contains(ok, d) {
				out = append(out, fmt.Sprintf("package %s imports %s, which importRules does not allow (allowed: %s)", p, d, strings.Join(ok, ", ")))
			}
		}
	}
	for _, p := range sortedKeys(allowed) {
		if _, ok := graph[p]; !ok {
			out = append(out, fmt.Sprintf("importRules names %s, which is not a package of the module", p))
		}
	}
	return out
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestImportRules: every package of the module imports only what
// importRules allows it, and every package has a rule.
func TestImportRules(t *testing.T) {
	allowed, err := parseImportRules(importRules)
	require.NoError(t, err)
	for _, v := range importViolations(imports(t, ".."), allowed) {
		t.Error(v)
	}
}

// TestImportRulesCheck: the checker itself catches a wrong arrow, a
// package without a rule and a stale rule, and the parser refuses
// malformed rules.
func TestImportRulesCheck(t *testing.T) {
	allowed, err := parseImportRules(`NONE < sim; sim < bots; bots < mars, search; mars < bots/registry`)
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{
		"sim": nil, "bots": {"sim"}, "mars": {"bots", "sim"}, "search": {"bots", "sim"},
		"bots/registry": {"bots", "mars", "sim"},
	}, allowed)

	good := map[string][]string{"sim": nil, "bots": {"sim"}, "mars": {"bots"}, "search": {"bots", "sim"}, "bots/registry": {"mars"}}
	assert.Empty(t, importViolations(good, allowed))

	tests := []struct {
		name  string
		graph map[string][]string
		want  string
	}{
		{"upward", map[string][]string{"sim": nil, "bots": {"sim"}, "mars": {"bots"}, "search": {"bots/registry"}, "bots/registry": {"mars"}},
			"package search imports bots/registry, which importRules does not allow (allowed: bots, sim)"},
		{"sideways", map[string][]string{"sim": nil, "bots": {"sim"}, "mars": {"search"}, "search": nil, "bots/registry": nil},
			"package mars imports search"},
		{"no rule", map[string][]string{"sim": nil, "bots": nil, "mars": nil, "search": nil, "bots/registry": nil, "view": {"sim"}},
			"package view has no import rule"},
		{"stale rule", map[string][]string{"sim": nil, "bots": nil, "mars": nil, "search": nil},
			"importRules names bots/registry, which is not a package of the module"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := importViolations(tt.graph, allowed)
			require.Len(t, v, 1, "%q", v)
			assert.Contains(t, v[0], tt.want)
		})
	}

	for rules, want := range map[string]string{
		`NONE < sim; sim < sim`:  "sim has a rule already",
		`NONE < sim; view < cli`: "view is used before a rule names it",
		`NONE < sim < bots`:      `want "a, b < c, d"`,
		`sim`:                    `want "a, b < c, d"`,
	} {
		_, err := parseImportRules(rules)
		assert.ErrorContains(t, err, want, rules)
	}
}

// deps returns p's transitive imports in graph, sorted.
func deps(graph map[string][]string, p string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(q string) {
		for _, d := range graph[q] {
			if !seen[d] {
				seen[d] = true
				walk(d)
			}
		}
	}
	walk(p)
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// TestExperimentsImportNoBotFamily: the packages that seat bots take a
// *bots.Registry from their caller, so none of them depends, even
// indirectly, on a bot family, its building blocks or the families' list.
func TestExperimentsImportNoBotFamily(t *testing.T) {
	graph := imports(t, "..")
	families := []string{"bots/baseline", "bots/blocks", "bots/example", "bots/lux", "bots/mission", "bots/registry", "mars"}
	for _, p := range []string{"arena", "learn", "internal/strategist", "internal/recognition", "report", "search", "tourney", "cli"} {
		require.Contains(t, graph, p)
		for _, d := range deps(graph, p) {
			assert.NotContains(t, families, d, "%s depends on %s", p, d)
		}
	}
	assert.Contains(t, deps(graph, "cmd/marslab"), "mars", "cmd/marslab hands in every family")
}

// drawing are the packages that draw figures: gonum/plot's and ours.
func drawing(pkg string) bool {
	return strings.HasPrefix(pkg, "gonum.org/v1/plot") || pkg == module+"/plots"
}

// TestAlgorithmsDrawNothing: the algorithm packages compute and return
// numbers; none of them depends, even indirectly, on a package that draws
// figures (gonum/plot and its fonts, PDF and LaTeX back ends, or plots),
// as go list -deps reads the build. internal/figures, which draws their
// figures, does.
func TestAlgorithmsDrawNothing(t *testing.T) {
	pkgs := []string{"search", "tourney", "internal/strategist", "internal/recognition", "internal/figures"}
	args := []string{"list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}"}
	for _, p := range pkgs {
		args = append(args, module+"/"+p)
	}
	out, err := exec.Command("go", args...).Output()
	require.NoError(t, err, "go list")
	deps := map[string][]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[strings.TrimPrefix(f[0], module+"/")] = f[1:]
	}
	for _, p := range pkgs[:4] {
		require.Contains(t, deps, p)
		for _, d := range deps[p] {
			assert.False(t, drawing(d), "%s depends on %s", p, d)
		}
	}
	assert.True(t, slices.ContainsFunc(deps["internal/figures"], drawing), "the check sees a package that draws")
}
