package report

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/table"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// templates are the report templates, one per kind, the shared parts and
// the index.
var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"f":      textfmt.Fixed,
	"pct":    func(p float64, digits int) string { return textfmt.Fixed(100*p, digits) + " %" },
	"signed": signed,
	"ratio": func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	},
	"join": strings.Join,
	// timingMarker, timingBegin and timingEnd mark the timing blocks.
	"timingMarker": func() string { return timingMarker },
	"timingBegin":  func() string { return timingBegin },
	"timingEnd":    func() string { return timingEnd },
	"inc":          func(i int) int { return i + 1 },
	"mul":          func(a, b float64) float64 { return a * b },
	"double":       func(i int) int { return 2 * i },
}).ParseFS(templateFS, "templates/*.tmpl"))

// writer writes a notebook's files into dir and keeps their names.
type writer struct {
	dir   string
	quick bool
	seed  uint64
	reg   *bots.Registry
	log   io.Writer
	files []string
	work  string // Options.Work
	// progress and progressLines are Options.Progress and ProgressLines.
	progress      io.Writer
	progressLines bool
	// readBack counts the games read back from work instead of played.
	readBack int
	// shard is Options.Shard: with a Count above 1 the run plays only its
	// part into work.
	shard arena.Shard
}

// logf writes one progress line to the log, if any.
func (w *writer) logf(format string, args ...any) {
	if w.log != nil {
		fmt.Fprintf(w.log, format+"\n", args...)
	}
}

// csv writes name (a .csv file) with the header and rows.
func (w *writer) csv(name string, header []string, rows [][]string) error {
	return w.table(name, table.Table{Header: header, Rows: rows})
}

// table writes name (a .csv file) with t's header and rows.
func (w *writer) table(name string, t table.Table) error {
	data, err := t.CSV()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return w.file(name, data)
}

// file writes one file and records its name.
func (w *writer) file(name string, data []byte) error {
	if err := atomicfile.WriteFile(filepath.Join(w.dir, name), data, 0o644); err != nil {
		return err
	}
	w.files = append(w.files, name)
	return nil
}

// figure is a plots figure that draws itself in a format.
type figure interface {
	Write(w io.Writer, format string) error
}

// figure writes base.png and base.svg.
func (w *writer) figure(base string, f figure) error {
	for _, format := range []string{"png", "svg"} {
		var buf bytes.Buffer
		if err := f.Write(&buf, format); err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		if err := w.file(base+"."+format, buf.Bytes()); err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
	}
	return nil
}

// num formats a CSV number: the shortest text that reads back to v.
func num(v float64) string { return textfmt.Shortest(v) }
