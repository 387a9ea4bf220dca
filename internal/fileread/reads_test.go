package fileread_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notUserInput lists the non-test files of the module allowed to open a
// file for reading without package fileread, each with the file it reads.
var notUserInput = map[string]string{
	// go generate reads the module's own go.mod, never a user's file.
	"bots/registry/internal/famgen/famgen.go": "the module's go.mod",
	// outdir probes a lock file for another holder (flock); it reads nothing.
	"internal/outdir/lock_unix.go": "a lock file, opened for its flock only",
}

// directReads returns, for one Go source, the calls that open a file for
// reading outside package fileread: os.ReadFile, os.Open, ioutil.ReadFile,
// and os.OpenFile with flags that name neither O_WRONLY nor O_CREATE (a
// writer or a lock file), as "file:line: call".
func directReads(fset *token.FileSet, f *ast.File, name string) []string {
	local := map[string]string{} // local package name -> import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		n := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			n = imp.Name.Name
		}
		local[n] = path
	}
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
		if !ok {
			return true
		}
		fn := local[pkg.Name] + "." + sel.Sel.Name
		switch fn {
		case "os.ReadFile", "os.Open", "io/ioutil.ReadFile":
		case "os.OpenFile":
			if len(call.Args) > 1 {
				flags := idents(call.Args[1])
				if slices.Contains(flags, "O_WRONLY") || slices.Contains(flags, "O_CREATE") {
					return true
				}
			}
		default:
			return true
		}
		out = append(out, fmt.Sprintf("%s:%d: %s", name, fset.Position(call.Pos()).Line, fn))
		return true
	})
	return out
}

// idents returns the names of the identifiers in e (os.O_WRONLY|os.O_CREATE
// gives O_WRONLY, O_CREATE and os).
func idents(e ast.Expr) []string {
	var names []string
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names = append(names, id.Name)
		}
		return true
	})
	return names
}

// TestEveryReadGoesThroughFileread walks the module's non-test Go files
// and fails on a file opened for reading other than through package
// fileread, whose reads refuse FIFOs and devices and are capped.
func TestEveryReadGoesThroughFileread(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var found, unbounded []string
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p == root {
				return nil
			}
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") || rel == "internal/fileread" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own (examples/outside-bot)
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		if _, ok := notUserInput[rel]; ok {
			return nil
		}
		found = append(found, directReads(fset, f, rel)...)
		unbounded = append(unbounded, unboundedLines(fset, f, rel)...)
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the walk found the module's files")
	assert.Empty(t, found, "files opened for reading outside package fileread: use fileread.ReadFile or fileread.Open")
	assert.Empty(t, unbounded, "lines read without a cap: use fileread.NewLineReader")
}

// unboundedLines returns the calls of one Go source that read a line
// without a cap on its length, as "file:line: call": ReadBytes and
// ReadString (of a bufio.Reader or any other reader), and bufio.NewScanner
// in a function that never sets the scanner's cap with Buffer.
func unboundedLines(fset *token.FileSet, f *ast.File, name string) []string {
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		var scanners []token.Pos
		buffered := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg := ""
			if id, ok := sel.X.(*ast.Ident); ok {
				pkg = id.Name
			}
			switch sel.Sel.Name {
			case "ReadBytes", "ReadString":
				out = append(out, fmt.Sprintf("%s:%d: %s", name, fset.Position(call.Pos()).Line, sel.Sel.Name))
			case "NewDecoder":
				// A JSON decoder on a stream holds a whole value, however
				// long: it may decode a line already read, or bytes in memory.
				if pkg == "json" && len(call.Args) == 1 && !callOf(call.Args[0], "bytes.NewReader", "strings.NewReader", "bytes.NewBuffer") {
					out = append(out, fmt.Sprintf("%s:%d: json.NewDecoder of a stream", name, fset.Position(call.Pos()).Line))
				}
			case "ReadFile":
				// A log is read a line at a time: whole, it would be held
				// up to the Log kind's 4 GiB.
				if pkg == "fileread" && len(call.Args) == 2 && isSel(call.Args[1], "fileread.Log") {
					out = append(out, fmt.Sprintf("%s:%d: fileread.ReadFile of a Log", name, fset.Position(call.Pos()).Line))
				}
			case "ReadAll":
				if (pkg == "io" || pkg == "ioutil") && len(call.Args) == 1 && !callOf(call.Args[0], "io.LimitReader", "http.MaxBytesReader") {
					out = append(out, fmt.Sprintf("%s:%d: %s.ReadAll without a limit", name, fset.Position(call.Pos()).Line, pkg))
				}
			case "NewScanner":
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "bufio" {
					scanners = append(scanners, call.Pos())
				}
			case "Buffer":
				buffered = true
			}
			return true
		})
		if !buffered {
			for _, pos := range scanners {
				out = append(out, fmt.Sprintf("%s:%d: bufio.NewScanner without Buffer", name, fset.Position(pos).Line))
			}
		}
	}
	return out
}

// callOf reports whether e is a call of one of the functions fns, each
// written "pkg.Name".
func callOf(e ast.Expr, fns ...string) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && slices.Contains(fns, id.Name+"."+sel.Sel.Name)
}

// isSel reports whether e is the selector sel, written "pkg.Name".
func isSel(e ast.Expr, sel string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name+"."+s.Sel.Name == sel
}

// TestUnboundedLines: the check finds each unbounded line read and lets a
// scanner with a cap through.
func TestUnboundedLines(t *testing.T) {
	src := `package p

import "bufio"

func a(br *bufio.Reader) { br.ReadBytes('\n'); br.ReadString('\n') }
func b(r io.Reader) { sc := bufio.NewScanner(r); sc.Scan() }
func c(r io.Reader) { sc := bufio.NewScanner(r); sc.Buffer(nil, 1<<20); sc.Scan() }
func d(br *bufio.Reader) { br.ReadSlice('\n') }
func e(f io.Reader, line []byte) { json.NewDecoder(f); json.NewDecoder(bytes.NewReader(line)) }
func g(f io.Reader, r *http.Request) { io.ReadAll(f); io.ReadAll(io.LimitReader(f, 10)); io.ReadAll(http.MaxBytesReader(nil, r.Body, 10)) }
func h() { fileread.ReadFile("games.jsonl", fileread.Log); fileread.ReadFile("g.jsonl", fileread.GameLog) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"p.go:5: ReadBytes", "p.go:5: ReadString", "p.go:6: bufio.NewScanner without Buffer",
		"p.go:9: json.NewDecoder of a stream", "p.go:10: io.ReadAll without a limit", "p.go:11: fileread.ReadFile of a Log"}, unboundedLines(fset, f, "p.go"))
}

// TestDirectReads: the check finds each way of opening a file for reading
// and lets writers through.
func TestDirectReads(t *testing.T) {
	t.Parallel()
	src := `package p

import (
	"io/ioutil"
	xos "os"
)

func f() {
	xos.ReadFile("a")
	xos.Open("b")
	xos.OpenFile("c", xos.O_RDONLY, 0)
	xos.OpenFile("d", xos.O_WRONLY|xos.O_APPEND, 0)
	xos.OpenFile("e", xos.O_RDWR|xos.O_CREATE, 0)
	ioutil.ReadFile("g")
	xos.Stat("h")
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"p.go:9: os.ReadFile", "p.go:10: os.Open", "p.go:11: os.OpenFile", "p.go:14: io/ioutil.ReadFile"},
		directReads(fset, f, "p.go"))
}
