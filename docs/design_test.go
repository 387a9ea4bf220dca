// Package docs_test checks that the manual says what the code is: the
// package graph in design.md is the module's import graph.
package docs_test

import (
	"errors"
	"flag"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the package graph in design.md from the module's imports")

const module = "github.com/marslab-risk/marslab"

// imports returns, for every package of the module (its path relative to
// the module root), the module's packages its non-test files import.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if p != root && (name == "testdata" || name == "examples" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		pkg, err := build.Default.ImportDir(p, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return err
		}
		if len(pkg.GoFiles) == 0 {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		var deps []string
		for _, imp := range pkg.Imports {
			if dep, ok := strings.CutPrefix(imp, module+"/"); ok {
				deps = append(deps, dep)
			}
		}
		out[filepath.ToSlash(rel)] = deps
		return nil
	})
	require.NoError(t, err)
	return out
}

// height is the length of the longest import chain below a package.
func height(g map[string][]string, p string, memo map[string]int) int {
	if h, ok := memo[p]; ok {
		return h
	}
	h := 0
	for _, d := range g[p] {
		h = max(h, height(g, d, memo)+1)
	}
	memo[p] = h
	return h
}

// graph renders the import graph, the packages highest above the leaves
// first, one line each: "pkg -> its imports of the module".
func graph(g map[string][]string) string {
	memo := map[string]int{}
	pkgs := make([]string, 0, len(g))
	width := 0
	for p := range g {
		pkgs = append(pkgs, p)
		width = max(width, len(p))
	}
	slices.SortFunc(pkgs, func(a, b string) int {
		if ha, hb := height(g, a, memo), height(g, b, memo); ha != hb {
			return hb - ha
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	for _, p := range pkgs {
		b.WriteString(p)
		if len(g[p]) == 0 {
			b.WriteString(strings.Repeat(" ", width-len(p)) + "    (nothing of ours)\n")
			continue
		}
		b.WriteString(strings.Repeat(" ", width-len(p)) + " -> " + strings.Join(g[p], ", ") + "\n")
	}
	return b.String()
}

// TestDesignPackageGraph: the block under "## Packages" in design.md is the
// import graph of the module's packages (non-test files), as go/build reads
// it. Run with -update after adding a package or an import.
func TestDesignPackageGraph(t *testing.T) {
	const file = "design.md"
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	text := string(data)
	head := strings.Index(text, "## Packages")
	require.GreaterOrEqual(t, head, 0, "%s: no \"## Packages\" section", file)
	open := strings.Index(text[head:], "```\n")
	require.GreaterOrEqual(t, open, 0, "%s: no code block under \"## Packages\"", file)
	start := head + open + len("```\n")
	end := strings.Index(text[start:], "```")
	require.GreaterOrEqual(t, end, 0, "%s: unterminated code block", file)
	want := graph(imports(t, ".."))
	if *update {
		text = text[:start] + want + text[start+end:]
		require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
		return
	}
	require.Equal(t, want, text[start:start+end], "%s's package graph differs from the module's imports (go test ./docs -update rewrites it)", file)
}

// TestBenchmarkNames: every benchmark the manual, the README or a package
// doc names exists in a test file of the module.
func TestBenchmarkNames(t *testing.T) {
	mention := regexp.MustCompile(`\bBenchmark[A-Z][A-Za-z0-9_]*`)
	define := regexp.MustCompile(`(?m)^func (Benchmark[A-Z][A-Za-z0-9_]*)\(`)
	defined := map[string]bool{}
	mentioned := map[string][]string{}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (n == "testdata" || n == "notebooks" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		isTest := strings.HasSuffix(name, "_test.go")
		if !isTest && !strings.HasSuffix(name, ".md") && name != "doc.go" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if isTest {
			for _, m := range define.FindAllStringSubmatch(string(data), -1) {
				defined[m[1]] = true
			}
			return nil
		}
		for _, m := range mention.FindAllString(string(data), -1) {
			mentioned[m] = append(mentioned[m], p)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, defined)
	for name, files := range mentioned {
		if !defined[name] {
			t.Errorf("%s names %s, which no test file defines", strings.Join(slices.Compact(files), ", "), name)
		}
	}
}
