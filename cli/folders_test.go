package cli

import (
	"flag"
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
	rec := filepath.Join(dir, "r")
	rcfg, err := filepath.Abs("../internal/recognition/testdata/small.toml")
	require.NoError(t, err)
	_, err = runOut(t, "recognize", rcfg, "-games", "1", "-train-games", "1", "-out", rec)
	require.NoError(t, err)
	sweep := filepath.Join(dir, "s")
	_, err = runOut(t, "sweep", sweepConfig(t, dir, 1), "-figures=false", "-out", sweep)
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
		{"-out a recognition run", []string{"-quick", "-out", rec, nb}, rec, "report: -out: " + rec + " already holds a recognition run (config.json), not a notebook report"},
		{"-out a sweep", []string{"-quick", "-out", sweep, nb}, sweep, "report: -out: " + sweep + " already holds a search (config.json), not a notebook report"},
		{"-work a recognition run", []string{"-quick", "-out", filepath.Join(dir, "o3"), "-work", rec, nb}, rec, "report: -work: " + rec + " already holds a recognition run (config.json), not a notebook work folder"},
		{"-work a sweep", []string{"-quick", "-out", filepath.Join(dir, "o4"), "-work", sweep, nb}, sweep, "report: -work: " + sweep + " already holds a search (config.json), not a notebook work folder"},
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

// fileOutputs are the commands whose -out names one file, not a folder,
// each with why the folder check does not apply.
var fileOutputs = map[string]string{
	"view": "-out names one page, written atomically and refused over a file that is not a page of marslab view",
}

// writingCommands returns the flags of the command table that name a
// folder a command writes, as "COMMAND -FLAG": every -out and -work but
// those of fileOutputs.
func writingCommands(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, c := range commands() {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.setup(fs)
		for _, name := range []string{"out", "work"} {
			if fs.Lookup(name) == nil {
				continue
			}
			if _, ok := fileOutputs[c.name]; ok && name == "out" {
				continue
			}
			out = append(out, c.name+" -"+name)
		}
	}
	return out
}

// uncovered returns the entries of writers (writingCommands) that no case
// exercises, and the cases of no writer.
func uncovered(writers []string, cases []folderCase) (missing, stray []string) {
	covered := map[string]bool{}
	for _, c := range cases {
		covered[strings.Fields(c.name)[0]+" -"+c.flag] = true
	}
	for _, w := range writers {
		if !covered[w] {
			missing = append(missing, w)
		}
		delete(covered, w)
	}
	for w := range covered {
		stray = append(stray, w)
	}
	return missing, stray
}

// TestEveryWritingCommandChecksItsFolder walks the command table: every
// flag that names a folder a command writes (-out, -work) is exercised by
// a case of folderCases, and each case, given a folder inside one that
// another command holds, is refused by the one folder check
// (outdir.CheckAncestors, which only ownDir, ownWork and lockSearch call:
// TestOneFolderCheck) before anything is written there.
func TestEveryWritingCommandChecksItsFolder(t *testing.T) {
	t.Parallel()
	writers := writingCommands(t)
	require.Contains(t, writers, "report -work")
	for name := range fileOutputs {
		c := lookup(commands(), name)
		require.NotNil(t, c, "fileOutputs names a command that does not exist: %s", name)
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		c.setup(fs)
		require.NotNil(t, fs.Lookup("out"), "fileOutputs: %s has no -out", name)
	}
	cases, calls := folderCases(t)
	missing, stray := uncovered(writers, cases)
	assert.Empty(t, missing, "commands writing a folder without a case in folderCases")
	assert.Empty(t, stray, "cases of no writing command")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			held := filepath.Join(t.TempDir(), "held")
			l, err := outdir.Acquire(held)
			require.NoError(t, err)
			defer l.Release()
			out := filepath.Join(held, "x")
			_, err = runOut(t, tc.args(out)...)
			require.ErrorIs(t, err, outdir.ErrInsideRun)
			assert.ErrorContains(t, err, held+" is held by another marslab command")
			assert.NoDirExists(t, out, "nothing written inside the held folder")
		})
	}
	assert.NoFileExists(t, calls, "nothing submitted")
}

// TestUncovered: the coverage check finds a writing command without a
// case, and a case of no writing command.
func TestUncovered(t *testing.T) {
	missing, stray := uncovered([]string{"batch -out", "report -out", "report -work"},
		[]folderCase{{name: "batch", flag: "out"}, {name: "report", flag: "out"}, {name: "play -log", flag: "log"}})
	assert.Equal(t, []string{"report -work"}, missing)
	assert.Equal(t, []string{"play -log"}, stray)
}
