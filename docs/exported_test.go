package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exportedBudget is the most exported names the packages outside
// internal/, cmd/, examples/, testdata/ and notebooks/ may declare, counted
// as exportedNames counts them. A package's API is what other packages
// and outside bot authors use; a name only its own package uses is
// unexported.
const exportedBudget = 900

// packageBudgets bound the exported names of single packages: search's
// are what a caller of its algorithms needs (the methods, their configs
// and results, the search folder), its reports are internal/searchreport's.
var packageBudgets = map[string]int{"search": 80}

// exportedName is one exported name a source file declares: "Name" or
// "Type.Method", where the file declares it ("dir/file.go:line") and
// whether a doc comment says what it is.
type exportedName struct {
	name       string
	at         string
	documented bool
}

// receiverName returns the name of a method's receiver type (without
// pointer or type parameters), "" when it is not a plain name.
func receiverName(recv *ast.FieldList) string {
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// exportedNames returns the exported names of one parsed file: every
// exported top-level func, type, var and const, and every exported method
// of an exported type. A name is documented by its own doc comment, by
// the doc comment of the group it is declared in, or (a value or type in
// a group) by a comment on its line.
func exportedNames(fset *token.FileSet, f *ast.File, rel string) []exportedName {
	var out []exportedName
	add := func(id *ast.Ident, name string, docs ...*ast.CommentGroup) {
		documented := false
		for _, d := range docs {
			if d != nil && strings.TrimSpace(d.Text()) != "" {
				documented = true
			}
		}
		out = append(out, exportedName{name, fmt.Sprintf("%s:%d", rel, fset.Position(id.Pos()).Line), documented})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv)
				if !ast.IsExported(recv) {
					continue
				}
				name = recv + "." + name
			}
			add(d.Name, name, d.Doc)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						add(s.Name, s.Name.Name, s.Doc, s.Comment, d.Doc)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							add(n, n.Name, s.Doc, s.Comment, d.Doc)
						}
					}
				}
			}
		}
	}
	return out
}

// moduleExportedNames walks the module from root and returns the exported
// names of every non-test Go file outside internal/, cmd/, examples/,
// testdata/, notebooks/ and hidden folders, by package folder.
func moduleExportedNames(t *testing.T, root string) map[string][]exportedName {
	t.Helper()
	fset := token.NewFileSet()
	names := map[string][]exportedName{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || slices.Contains([]string{"internal", "cmd", "examples", "testdata", "notebooks"}, d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := path.Dir(rel)
		names[dir] = append(names[dir], exportedNames(fset, f, rel)...)
		return nil
	})
	require.NoError(t, err)
	return names
}

// budgetReport returns "" when the names fit the budget, else the total
// and the count of each package, largest first.
func budgetReport(names map[string][]exportedName, budget int) string {
	total := 0
	var dirs []string
	for dir, ns := range names {
		total += len(ns)
		dirs = append(dirs, dir)
	}
	if total <= budget {
		return ""
	}
	sort.Slice(dirs, func(i, j int) bool {
		if len(names[dirs[i]]) != len(names[dirs[j]]) {
			return len(names[dirs[i]]) > len(names[dirs[j]])
		}
		return dirs[i] < dirs[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d exported names, budget %d; by package:\n", total, budget)
	for _, dir := range dirs {
		fmt.Fprintf(&b, "%5d %s\n", len(names[dir]), dir)
	}
	return b.String()
}

// TestExportedBudget walks the module: the exported names outside
// internal/ and the commands number at most exportedBudget, and every one
// has a doc comment.
func TestExportedBudget(t *testing.T) {
	names := moduleExportedNames(t, "..")
	require.Contains(t, names, "sim", "the walk reaches the engine")
	assert.Empty(t, budgetReport(names, exportedBudget), "unexport the names only their own package uses")
	for dir, budget := range packageBudgets {
		require.Contains(t, names, dir)
		assert.LessOrEqual(t, len(names[dir]), budget, "package %s exports more than its budget", dir)
	}
	var undocumented []string
	for _, ns := range names {
		for _, n := range ns {
			if !n.documented {
				undocumented = append(undocumented, n.at+": "+n.name)
			}
		}
	}
	sort.Strings(undocumented)
	assert.Empty(t, undocumented, "exported names without a doc comment")
}

// TestExportedNamesCheck checks the counting and the doc-comment check on
// sources that keep and break the rules.
func TestExportedNamesCheck(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // name, with a "!" suffix when undocumented
	}{
		{"// F does.\nfunc F() {}\nfunc g() {}", []string{"F"}},
		{"func F() {}", []string{"F!"}},
		{"// T is.\ntype T int\n// M is.\nfunc (T) M() {}\nfunc (*T) N() {}\nfunc (T) m() {}", []string{"T", "T.M", "T.N!"}},
		{"type t int\nfunc (t) M() {}\nfunc (*t) N() {}", nil},
		{"// G is.\ntype G[E any] []E\n// Len is.\nfunc (g G[E]) Len() int { return len(g) }", []string{"G", "G.Len"}},
		{"// Kinds.\nconst (\n\tA = iota\n\tB\n\tc\n)", []string{"A", "B"}},
		{"const (\n\t// A is.\n\tA = 1\n\tB = 2 // B is.\n\tC = 3\n)", []string{"A", "B", "C!"}},
		{"var X, y, Z int", []string{"X!", "Z!"}},
		{"// V are.\nvar V, W = 1, 2", []string{"V", "W"}},
		{"type (\n\t// P is.\n\tP int\n\tQ int\n)", []string{"P", "Q!"}},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package x\n"+tc.src+"\n", parser.ParseComments)
		require.NoError(t, err, tc.src)
		var got []string
		for _, n := range exportedNames(fset, f, "x.go") {
			if n.documented {
				got = append(got, n.name)
			} else {
				got = append(got, n.name+"!")
			}
		}
		assert.Equal(t, tc.want, got, tc.src)
	}
	names := map[string][]exportedName{"a": make([]exportedName, 3), "b": make([]exportedName, 2)}
	assert.Empty(t, budgetReport(names, 5))
	assert.Equal(t, "5 exported names, budget 4; by package:\n    3 a\n    2 b\n", budgetReport(names, 4))
}
