package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxFuncLines bounds a function of package cli: a command is its flags,
// its checks and its orchestration, each a function of its own.
const maxFuncLines = 60

// TestFunctionLength fails on a function of package cli (tests aside)
// longer than maxFuncLines lines, from func to its closing brace.
func TestFunctionLength(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n++
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			assert.LessOrEqual(t, lines, maxFuncLines, "%s: func %s is %d lines: split it (flags, checks, orchestration)", fset.Position(fd.Pos()), fd.Name.Name, lines)
		}
	}
	assert.Greater(t, n, 100, "the functions of package cli")
}

// doubled returns a command's name that msg names twice among its parts
// ("run: run: ...", "run: narrowing: run: ..."), or "".
func doubled(msg string) string {
	seen := map[string]bool{}
	for _, part := range strings.Split(msg, ": ") {
		if lookup(commands(), part) == nil {
			continue
		}
		if seen[part] {
			return part
		}
		seen[part] = true
	}
	return ""
}

// TestErrorPrefixOnce: every command's error names the command once, at
// its start: a bad -workers for the commands that have it, another bad
// input for the others. Every command of the table is in the test.
func TestErrorPrefixOnce(t *testing.T) {
	t.Parallel()
	exp := func(name string) string { return filepath.Join("..", "configs", "experiments", name) }
	out := filepath.Join(t.TempDir(), "out")
	cases := map[string][]string{
		"batch":      {"-workers", "-1"},
		"tournament": {exp("demo-tournament.toml"), "-workers", "-1", "-out", out},
		"recognize":  {exp("phatt.toml"), "-workers", "-1", "-out", out},
		"learn":      {exp("strategist.toml"), "-workers", "-1", "-out", out},
		"sweep":      {exp("narrow-wp-pob.toml"), "-workers", "-1", "-out", out},
		"evolve":     {exp("cmaes-all.toml"), "-workers", "-1", "-out", out},
		"validate":   {exp("narrow-wp-pob.toml"), "-a", "mars@paper", "-workers", "-1", "-out", out},
		"run":        {exp("paper-run.toml"), "-workers", "-1", "-out", out},
		"slurm":      {"submit", "-out", out, "-tasks", "2", "-marslab", "marslab", "batch", "--", "-workers", "-1"},
		"bots":       {"-params", "mars(W_p=2)"},
		"compare":    {out, out, "-permutations", "1"},
		"env":        {"serve", filepath.Join(out, "none.toml")},
		"map":        {"-json", "-toml"},
		"merge":      {"-out", out},
		"odds":       {"-table", "0"},
		"play":       {"-players", "aggressive"},
		"rate":       {"-holdout", "2", "x"},
		"replay":     {filepath.Join(out, "none.jsonl")},
		"report":     {"-quick", filepath.Join(out, "none")},
		"view":       {filepath.Join(out, "none.jsonl")},
	}
	for _, c := range commands() {
		args, ok := cases[c.name]
		require.True(t, ok, "command %s: add a bad command line of it to the test", c.name)
		_, _, err := runCmd(t, append([]string{c.name}, args...)...)
		require.Error(t, err, c.name)
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, c.name+": "), "%s: %q names another command", c.name, msg)
		assert.Empty(t, doubled(msg), "%s: %q names a command twice", c.name, msg)
		if slices.Contains(args, "-workers") {
			assert.Contains(t, msg, "-workers -1: must be >= 0 (0 = every core)", c.name)
		}
	}
}

// TestDoubled: doubled finds a name said twice and passes a nested
// command's.
func TestDoubled(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]string{
		"run: run: -workers -1: must be >= 0":             "run",
		"sweep: sweep: x":                                 "sweep",
		"learn: learn: checkpoint x: damaged":             "learn",
		"run: narrowing: run: x":                          "run",
		"slurm: batch: -workers -1: must be >= 0":         "",
		"run: -workers -1: must be >= 0 (0 = every core)": "",
	} {
		assert.Equal(t, want, doubled(msg), msg)
	}
}
