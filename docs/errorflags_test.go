package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flagDefiners are the flag.FlagSet methods (and package flag functions)
// that define a flag, its name the first string argument.
var flagDefiners = map[string]bool{
	"String": true, "StringVar": true, "Int": true, "IntVar": true, "Int64": true, "Int64Var": true,
	"Uint": true, "UintVar": true, "Uint64": true, "Uint64Var": true, "Float64": true, "Float64Var": true,
	"Bool": true, "BoolVar": true, "Duration": true, "DurationVar": true, "Var": true, "Func": true,
	"BoolFunc": true, "TextVar": true,
}

// cliFlags returns the names of the flags the command line defines: the
// first string literal argument of every flag-defining call in cli.
func cliFlags(t *testing.T, root string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, "cli", "*.go"))
	require.NoError(t, err)
	names := map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !flagDefiners[sel.Sel.Name] {
				return true
			}
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						names[s] = true
					}
					break
				}
			}
			return true
		})
	}
	return names
}

// flagWord is a word written as a flag: a dash not after a letter, digit
// or dash, then a lower-case name ("-resume", "(-out", " -param").
var flagWord = regexp.MustCompile(`(?:^|[^\w-])-([a-z][a-z0-9-]*)`)

// flagsInErrors returns, for one Go source, the string literals inside a
// call of fmt.Errorf or errors.New that name one of flags, as
// "file:line: -flag".
func flagsInErrors(fset *token.FileSet, f *ast.File, name string, flags map[string]bool) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !(pkg.Name == "fmt" && sel.Sel.Name == "Errorf" || pkg.Name == "errors" && sel.Sel.Name == "New") {
			return true
		}
		for _, a := range call.Args {
			ast.Inspect(a, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, m := range flagWord.FindAllStringSubmatch(s, -1) {
					if flags[m[1]] {
						out = append(out, fmt.Sprintf("%s:%d: -%s", name, fset.Position(lit.Pos()).Line, m[1]))
					}
				}
				return true
			})
		}
		return true
	})
	return out
}

// TestNoFlagsInLibraryErrors walks the module: no error string of a
// package outside cli and cmd names a command-line flag. Libraries return
// typed errors (errors.Is-able) and cli words the advice ("use -resume").
func TestNoFlagsInLibraryErrors(t *testing.T) {
	root := ".."
	flags := cliFlags(t, root)
	require.Contains(t, flags, "resume", "the flag names are read from cli")
	require.Contains(t, flags, "param")
	fset := token.NewFileSet()
	var bad []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if slices.Contains([]string{"cli", "cmd", "examples", "testdata", ".git"}, d.Name()) && rel == d.Name() || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		bad = append(bad, flagsInErrors(fset, f, rel, flags)...)
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, bad, "library error strings naming a flag: return a typed error and word the advice in cli (cli/outdir.go advise)")
}

// TestFlagsInErrorsCheck checks the check on sources that break and keep
// the rule.
func TestFlagsInErrorsCheck(t *testing.T) {
	flags := map[string]bool{"resume": true, "out": true, "param": true}
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`return fmt.Errorf("run again with -resume: %w", err)`, []string{"x.go:3: -resume"}},
		{`return errors.New("choose another output directory (-out)")`, []string{"x.go:3: -out"}},
		{`return fmt.Errorf("%s: " + "-param " + "x", s)`, []string{"x.go:3: -param"}},
		{`return fmt.Errorf("want -1 or a non-negative count, the -games flag")`, nil},
		{`return fmt.Errorf("sbatch option --out: %w", err)`, nil},
		{`s := "use -resume"; return errors.New(s)`, nil},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package x\nfunc f() error {\n"+tc.src+"\n}\n", 0)
		require.NoError(t, err, tc.src)
		assert.Equal(t, tc.want, flagsInErrors(fset, f, "x.go", flags), tc.src)
	}
}
