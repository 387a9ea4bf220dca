package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// searchDowncasts returns one line per type assertion in the file f whose
// type is package search's (x.(*search.Narrowing), x.(search.Method), a
// type switch's case *search.Panel): the commands and the notebooks read
// a search's method through its typed Search[M] and State[M], never by
// asserting a search.Method's dynamic type.
func searchDowncasts(fset *token.FileSet, f *ast.File) []string {
	name := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/search" {
			name = "search"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" {
		return nil
	}
	fromSearch := func(e ast.Expr) bool {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		if ix, ok := e.(*ast.IndexExpr); ok {
			e = ix.X
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == name
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil && fromSearch(n.Type) {
				out = append(out, fmt.Sprintf("%s: .(%s)", fset.Position(n.Pos()), types(n.Type)))
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if fromSearch(e) {
						out = append(out, fmt.Sprintf("%s: case %s", fset.Position(e.Pos()), types(e)))
					}
				}
			}
		}
		return true
	})
	return out
}

// types prints a type expression of searchDowncasts.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// TestNoSearchMethodDowncasts: no file of cli or report asserts a type of
// package search.
func TestNoSearchMethodDowncasts(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	for _, dir := range []string{"cli", "report"} {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, p := range files {
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			found = append(found, searchDowncasts(fset, f)...)
		}
	}
	assert.Empty(t, found, "read the method through search.Search[M] and search.State[M]")
}

// TestSearchDowncastsCheck: the check finds assertions and type switches
// to search's types under any import name, and leaves other assertions
// alone.
func TestSearchDowncastsCheck(t *testing.T) {
	for src, want := range map[string][]string{
		`import "github.com/marslab-risk/marslab/search"
func f(m search.Method) { _ = m.(*search.Narrowing) }`: {"x.go:3:31: .(*search.Narrowing)"},
		`import s "github.com/marslab-risk/marslab/search"
func f(m any) { _, _ = m.(s.Method) }`: {"x.go:3:24: .(s.Method)"},
		`import "github.com/marslab-risk/marslab/search"
func f(m search.Method) { switch m.(type) { case *search.Panel, int: } }`: {"x.go:3:50: case *search.Panel"},
		`import "github.com/marslab-risk/marslab/search"
func f(e error, m any) { _, _ = e.(interface{ Unwrap() error }); _ = m.(int); var _ search.Eval }`: nil,
		`func f(m any) { _ = m.(*search.Narrowing) }`: nil, // another package named search
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package x\n"+src+"\n", 0)
		require.NoError(t, err, src)
		assert.Equal(t, want, searchDowncasts(fset, f), src)
	}
}
