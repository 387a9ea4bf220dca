package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/outdir"
)

// report -out and -work refuse a folder holding another command's run, the
// report of another notebook, or a folder inside one a running command
// holds; the folder keeps its files.
func TestReportRefusesOtherRuns(t *testing.T) {
	dir := t.TempDir()
	tour := filepath.Join(dir, "t")
	out, err := runOut(t, "tournament", tournamentConfig(t, dir), "-quiet", "-figures=false", "-out", tour)
	require.NoError(t, err, out)
	batch := filepath.Join(dir, "b")
	_, err = runOut(t, "batch", "-players", "aggressive,random", "-games", "4", "-seed", "1", "-out", batch)
	require.NoError(t, err)
	learn := filepath.Join(dir, "l")
	require.NoError(t, os.MkdirAll(learn, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(learn, "policy.json"), []byte("{}"), 0o644))
	other := filepath.Join(dir, "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "README.md"),
		[]byte("Regenerate: `marslab report -quick -out DIR notebooks/engine`\n"), 0o644))
	before := func(d string) map[string]string {
		files := map[string]string{}
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		for _, e := range entries {
			if !e.IsDir() {
				b, err := os.ReadFile(filepath.Join(d, e.Name()))
				require.NoError(t, err)
				files[e.Name()] = string(b)
			}
		}
		return files
	}
	nb := "../notebooks/dice"
	for _, tc := range []struct {
		name string
		args []string
		dir  string
		want string
	}{
		{"-out a tournament", []string{"-quick", "-out", tour, nb}, tour, "report: -out: " + tour + " already holds a tournament (config.json), not a notebook report: choose another output directory"},
		{"-out a batch", []string{"-quick", "-out", batch, nb}, batch, "already holds a batch (config.json), not a notebook report"},
		{"-out a learning run", []string{"-quick", "-out", learn, nb}, learn, "already holds a learning run (policy.json), not a notebook report"},
		{"-out another notebook", []string{"-quick", "-out", other, nb}, other, "report: " + other + " already holds a report of notebook engine (README.md), not a report of notebook dice: choose another output directory"},
		{"-work a tournament", []string{"-quick", "-out", filepath.Join(dir, "o1"), "-work", tour, nb}, tour, "report: -work: " + tour + " already holds a tournament (config.json), not a notebook work folder"},
		{"-work a report", []string{"-quick", "-out", filepath.Join(dir, "o2"), "-work", other, nb}, other, "already holds a notebook report (README.md), not a notebook work folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			was := before(tc.dir)
			_, err := runReport(t, tc.args...)
			assert.ErrorContains(t, err, tc.want)
			assert.Equal(t, was, before(tc.dir), "the folder keeps its files")
		})
	}

	// A folder inside one that a running command holds.
	run := filepath.Join(dir, "run")
	lock, err := outdir.Acquire(run)
	require.NoError(t, err)
	defer lock.Release()
	_, err = runReport(t, "-quick", "-out", filepath.Join(run, "narrow"), nb)
	require.ErrorIs(t, err, outdir.ErrInsideRun)
	_, err = runOut(t, "batch", "-players", "aggressive,random", "-games", "2", "-out", filepath.Join(run, "x"))
	require.ErrorIs(t, err, outdir.ErrInsideRun)
	assert.NoDirExists(t, filepath.Join(run, "x"))
}

// TestOneFolderCheck walks cli's files: a command takes an output folder's
// lock only through the functions that check the folder first (ownDir,
// ownWork, lockSearch; lockedUnless for a notebook's own folder and an
// index, checked by its callers), and each of the first three refuses a
// folder inside a held run.
func TestOneFolderCheck(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := filepath.Glob("*.go")
	require.NoError(t, err)
	lockers := map[string]bool{"ownDir": true, "ownWork": true, "lockSearch": true, "lockedUnless": true}
	ancestors := map[string]bool{}
	for _, p := range pkgs {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "outdir" {
					switch sel.Sel.Name {
					case "Acquire", "AcquireShard":
						assert.True(t, lockers[fn.Name.Name], "%s: %s calls outdir.%s outside the folder checks", fset.Position(call.Pos()), fn.Name.Name, sel.Sel.Name)
					case "CheckAncestors":
						ancestors[fn.Name.Name] = true
					}
				}
				return true
			})
		}
	}
	for _, f := range []string{"ownDir", "ownWork", "lockSearch"} {
		assert.True(t, ancestors[f], "%s checks the folders above", f)
	}
}
