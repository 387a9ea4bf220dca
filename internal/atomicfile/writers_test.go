package atomicfile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writers are the functions of packages os and io/ioutil that write a
// file by its name, following a link at it.
var writers = map[string]bool{"os.Create": true, "os.WriteFile": true, "os.OpenFile": true, "os.Truncate": true,
	"ioutil.WriteFile": true}

// allowedWriters are the files of the module, relative to its root, that
// may call writers, and why.
var allowedWriters = map[string]string{
	"internal/atomicfile/atomicfile.go":   "the atomic writer and OpenLog themselves",
	"internal/outdir/lock_unix.go":        "lock files, opened without following links and checked",
	"internal/outdir/lock_other.go":       "lock files on systems without O_NOFOLLOW, checked",
	"internal/fuzzfile/fuzzfile.go":       "fuzz tests' scratch files in the test's own temporary folder",
	"bots/registry/gen.go":                "go generate writes families.go into the source tree",
	"internal/browsertest/browsertest.go": "the browser tests' screenshots, in the test's folder or docs/figures (make figures)",
}

// TestOnlyAtomicWrites walks the module's Go files (tests excluded) and
// fails on a call of os.Create, os.WriteFile, os.OpenFile or os.Truncate
// outside allowedWriters: every file a command writes goes through this
// package, which replaces a link at the name instead of writing through it
// (WriteFile, Create) or refuses it (OpenLog).
func TestOnlyAtomicWrites(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the module root")
	var found []string
	seen := map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own (examples/outside-bot)
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := map[string]string{} // local name of an import -> its path
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := filepath.Base(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = path
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			path := names[x.Name]
			if path != "os" && path != "io/ioutil" {
				return true
			}
			call := filepath.Base(path) + "." + sel.Sel.Name
			if writers[call] && allowedWriters[rel] == "" {
				found = append(found, fset.Position(sel.Pos()).String()+": "+call)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	sort.Strings(found)
	assert.Empty(t, found, "files written by name outside package atomicfile (use atomicfile.WriteFile, Create or OpenLog)")
	for f := range allowedWriters {
		assert.True(t, seen[f], "allowedWriters names %s, which is not in the module", f)
	}
}
