package docs_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docPackage is a package's files and names for resolving doc links.
type docPackage struct {
	name  string
	files []*ast.File
	// syms has every top-level name, "Type.Method" and "Type.Field".
	syms map[string]bool
	// imports maps the name a file uses for an import to its path.
	imports map[string]string
}

// parseDocPackage parses the non-test Go files of dir that the default
// build context selects.
func parseDocPackage(fset *token.FileSet, dir string) (*docPackage, error) {
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil, err
	}
	p := &docPackage{name: bp.Name, syms: map[string]bool{}, imports: map[string]string{}}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
		p.collect(f)
	}
	return p, nil
}

// importName is the name a file refers to the package at path by, absent a
// rename: its last element, without a major-version suffix.
func importName(imp string) string {
	base := path.Base(imp)
	if strings.HasPrefix(base, "v") && len(base) > 1 {
		if _, err := strconv.Atoi(base[1:]); err == nil {
			base = path.Base(path.Dir(imp))
		}
	}
	return base
}

// collect adds f's declared names and imports to p.
func (p *docPackage) collect(f *ast.File) {
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		name := importName(ip)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		p.imports[name] = ip
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				p.syms[receiverName(d.Recv)+"."+d.Name.Name] = true
			} else {
				p.syms[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						p.syms[n.Name] = true
					}
				case *ast.TypeSpec:
					p.syms[s.Name.Name] = true
					var fields *ast.FieldList
					switch t := s.Type.(type) {
					case *ast.StructType:
						fields = t.Fields
					case *ast.InterfaceType:
						fields = t.Methods
					}
					if fields == nil {
						continue
					}
					for _, fl := range fields.List {
						for _, n := range fl.Names {
							p.syms[s.Name.Name+"."+n.Name] = true
						}
						if len(fl.Names) == 0 { // embedded: named by its type
							typ := fl.Type
							if st, ok := typ.(*ast.StarExpr); ok {
								typ = st.X
							}
							switch e := typ.(type) {
							case *ast.Ident:
								p.syms[s.Name.Name+"."+e.Name] = true
							case *ast.SelectorExpr:
								p.syms[s.Name.Name+"."+e.Sel.Name] = true
							}
						}
					}
				}
			}
		}
	}
}

// docLinkResolver resolves doc links against the module's packages and,
// through the go command, against the packages they import.
type docLinkResolver struct {
	fset *token.FileSet
	root string
	// local maps the module's import paths to their folders; name the
	// module's package names to their import paths.
	local map[string]string
	names map[string][]string
	pkgs  map[string]*docPackage
}

// load returns the package at import path ip, parsed once.
func (r *docLinkResolver) load(ip string) (*docPackage, error) {
	if p, ok := r.pkgs[ip]; ok {
		return p, nil
	}
	dir, ok := r.local[ip]
	if !ok {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}", ip).Output()
		if err != nil {
			return nil, fmt.Errorf("go list %s: %w", ip, err)
		}
		dir = strings.TrimSpace(string(out))
	}
	p, err := parseDocPackage(r.fset, dir)
	if err != nil {
		return nil, err
	}
	r.pkgs[ip] = p
	return p, nil
}

// notImported marks a doc link to a package of the module that the
// linking package does not import: go/doc leaves such a link plain text.
const notImported = "not imported: "

// linkErrors returns a line for every doc link in the comments of package
// ip (file and line, link, what is wrong) that does not resolve. Every
// bracketed text that has a doc link's form ([Name], [Name.Name],
// [pkg.Name], [pkg.Name.Name], [pkg]) is taken as a link, resolved or not,
// so that a link to a renamed name fails here rather than turning into
// plain text; two forms are read as text when they do not resolve: an
// upper-case [NAME] of the package itself (a usage placeholder such as
// [CONFIG]) and [name] alone, the name of a package of the module not
// imported (a TOML table such as [cmaes]).
func (r *docLinkResolver) linkErrors(ip string) ([]string, error) {
	p, err := r.load(ip)
	if err != nil {
		return nil, err
	}
	parse := comment.Parser{
		LookupSym: func(recv, name string) bool { return true },
		LookupPackage: func(name string) (string, bool) {
			if imp, ok := p.imports[name]; ok {
				return imp, true
			}
			if name == p.name {
				return ip, true
			}
			if paths := r.names[name]; len(paths) > 0 {
				return notImported + name, true
			}
			return "", false // the standard library's names, or no link
		},
	}
	var errs []string
	for _, f := range p.files {
		for _, cg := range f.Comments {
			pos := r.fset.Position(cg.Pos())
			where := fmt.Sprintf("%s:%d", filepath.ToSlash(relPath(r.root, pos.Filename)), pos.Line)
			for _, l := range docLinks(parse.Parse(cg.Text())) {
				if msg := r.check(ip, p, l); msg != "" {
					errs = append(errs, fmt.Sprintf("%s: [%s]: %s", where, linkText(l), msg))
				}
			}
		}
	}
	return errs, nil
}

// check returns what is wrong with link l in package ip, "" for nothing.
func (r *docLinkResolver) check(ip string, p *docPackage, l *comment.DocLink) string {
	target := p
	if l.ImportPath != "" && l.ImportPath != ip {
		if name, ok := strings.CutPrefix(l.ImportPath, notImported); ok {
			if l.Name == "" {
				return "" // [name] alone: a TOML table, a word in brackets
			}
			return fmt.Sprintf("package %s is not imported here (go doc shows plain text)", name)
		}
		var err error
		if target, err = r.load(l.ImportPath); err != nil {
			return err.Error()
		}
	}
	switch {
	case l.Name == "":
		return "" // a package link
	case l.Recv != "" && !target.syms[l.Recv+"."+l.Name]:
		return fmt.Sprintf("%s has no method or field %s", l.Recv, l.Name)
	case l.Recv == "" && !target.syms[l.Name]:
		if target == p && strings.ToUpper(l.Name) == l.Name {
			return "" // a usage placeholder: "marslab env serve [CONFIG]"
		}
		return fmt.Sprintf("no name %s in %s", l.Name, target.name)
	}
	return ""
}

// linkText is the link as written, without its package's path.
func linkText(l *comment.DocLink) string {
	s := l.Name
	if l.Recv != "" {
		s = l.Recv + "." + s
	}
	if l.ImportPath != "" {
		pkg := importName(strings.TrimPrefix(l.ImportPath, notImported))
		if s == "" {
			return pkg
		}
		s = pkg + "." + s
	}
	return s
}

// docLinks returns the doc links of d.
func docLinks(d *comment.Doc) []*comment.DocLink {
	var out []*comment.DocLink
	var text func([]comment.Text)
	text = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				out = append(out, t)
			case *comment.Link:
				text(t.Text)
			}
		}
	}
	var block func(comment.Block)
	block = func(b comment.Block) {
		switch b := b.(type) {
		case *comment.Paragraph:
			text(b.Text)
		case *comment.Heading:
			text(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					block(c)
				}
			}
		}
	}
	for _, b := range d.Content {
		block(b)
	}
	return out
}

func relPath(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return rel
	}
	return p
}

// newDocLinkResolver finds the module's packages under root (testdata/,
// examples/ and hidden folders left out).
func newDocLinkResolver(t *testing.T, root string) *docLinkResolver {
	t.Helper()
	r := &docLinkResolver{fset: token.NewFileSet(), root: root, local: map[string]string{}, names: map[string][]string{}, pkgs: map[string]*docPackage{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != root && (d.Name() == "testdata" || d.Name() == "examples" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		bp, err := build.Default.ImportDir(p, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		ip := module
		if rel != "." {
			ip += "/" + filepath.ToSlash(rel)
		}
		r.local[ip] = p
		if bp.Name != "main" {
			r.names[bp.Name] = append(r.names[bp.Name], ip)
		}
		return nil
	})
	require.NoError(t, err)
	return r
}

// TestDocLinks: every doc link in the comments of the module's non-test
// Go files ([Name], [Type.Method], [Type.Field], [pkg.Name], [pkg])
// resolves to a name of its package or of a package it imports (the
// standard library's by name), so that a rename that leaves a link behind
// fails here instead of turning the link into plain text.
func TestDocLinks(t *testing.T) {
	r := newDocLinkResolver(t, "..")
	var errs []string
	for _, ip := range slices.Sorted(maps.Keys(r.local)) {
		e, err := r.linkErrors(ip)
		require.NoError(t, err, ip)
		errs = append(errs, e...)
	}
	assert.Empty(t, errs, "doc links that do not resolve")
}

// TestDocLinksCheck checks the checker on a package written for it: links
// to its own names, a method, a field, an imported package's name and a
// standard library name resolve, and the forms read as text are not
// reported; a missing name, a missing field, a
// missing name of an imported package and a package of the module that is
// not imported are reported, each once.
func TestDocLinksCheck(t *testing.T) {
	dir := t.TempDir()
	src := `// Package p links [T], [T.M], [T.F], [sim.Game], [sort.Ints] and [sim].
// Text: the usage "p [FLAGS]" and the TOML table [mars].
//
// Broken: [Gone], [T.Gone], [sim.Gone] and [mars.Bot].
package p

import "github.com/marslab-risk/marslab/sim"

// T is a type; the value [x] and the interval [0, 1] are no links.
type T struct{ F int }

// M is a method of [T] returning a [sim.Game].
func (T) M() *sim.Game { return nil }
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	r := newDocLinkResolver(t, "..")
	const ip = module + "/docs/testlink"
	r.local[ip] = dir
	errs, err := r.linkErrors(ip)
	require.NoError(t, err)
	for i := range errs {
		_, errs[i], _ = strings.Cut(errs[i], ": ") // drop the position
	}
	assert.Equal(t, []string{
		"[Gone]: no name Gone in p",
		"[T.Gone]: T has no method or field Gone",
		"[sim.Gone]: no name Gone in sim",
		"[mars.Bot]: package mars is not imported here (go doc shows plain text)",
	}, errs)
}
