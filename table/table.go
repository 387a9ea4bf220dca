// Package table is the one table type of marslab's reports: a header and
// rows of formatted cells, written as a Markdown pipe table (the
// notebooks' README.md files and the experiments' report.md), as CSV (the
// notebooks' and experiments' .csv files) or as aligned text (the command
// line's summaries). It imports only internal/textfmt of the module, so an
// outside program can read or build the tables the experiment packages
// return.
package table

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/marslab-risk/marslab/internal/textfmt"
)

// Table is a header and rows of formatted cells. Name and Title are
// optional: Name is the base of the table's file names ("table5" for
// table5.md and table5.csv) and Title its heading (WriteMarkdown).
type Table struct {
	// Name is the base of the table's file names, "" if it has none.
	Name string
	// Title describes the table: the "## " heading WriteMarkdown writes
	// above it, "" for none.
	Title string
	// Header holds the column names.
	Header []string
	// Rows hold the cells, one slice per row, each as long as Header.
	Rows [][]string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// check returns an error naming the table and the row (1-based) of the
// first row whose length differs from the header's.
func (t Table) check() error {
	for i, r := range t.Rows {
		if len(r) != len(t.Header) {
			return fmt.Errorf("table %s: row %d has %d cells under a header of %d", t.label(), i+1, len(r), len(t.Header))
		}
	}
	return nil
}

// label names the table in errors: its Name, else its Title, else its
// first column.
func (t Table) label() string {
	switch {
	case t.Name != "":
		return fmt.Sprintf("%q", t.Name)
	case t.Title != "":
		return fmt.Sprintf("%q", t.Title)
	case len(t.Header) > 0:
		return fmt.Sprintf("with first column %q", t.Header[0])
	}
	return "without columns"
}

// Markdown returns the table as a Markdown pipe table: the header line,
// the alignment row (the first column aligned left, the others right) and
// one line per row, each ending in a newline. A "|" inside a cell is
// escaped as `\|`, and control characters as Go escapes
// ([textfmt.OneLine]: a newline is \x0a).
func (t Table) Markdown() string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(textfmt.OneLine(c), "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	line(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		if i == 0 {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		line(r)
	}
	return b.String()
}

// WriteMarkdown writes the table to w as Markdown: "## Title" and a blank
// line when the table has a title, then the pipe table (Markdown).
func (t Table) WriteMarkdown(w io.Writer) error {
	s := t.Markdown()
	if t.Title != "" {
		s = "## " + t.Title + "\n\n" + s
	}
	_, err := io.WriteString(w, s)
	return err
}

// CSV returns the table as RFC 4180 CSV (encoding/csv: the header line,
// then one line per row; a cell holding a comma, quote or newline is
// quoted). A row whose length differs from the header's is an error
// (Check).
func (t Table) CSV() ([]byte, error) {
	var b bytes.Buffer
	if err := t.WriteCSV(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteCSV writes the table to w as CSV (see CSV).
func (t Table) WriteCSV(w io.Writer) error {
	if err := t.check(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	return cw.Error()
}

// WriteText writes the table to w as aligned plain text: the header line
// and one line per row, each column padded with spaces to its widest
// cell and separated from the next by two spaces (text/tabwriter), for a
// terminal. Control characters, tabs and newlines in a cell are written as
// Go escapes ([textfmt.OneLine]).
func (t Table) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(cells []string) error {
		for i, c := range cells {
			if i > 0 {
				if _, err := io.WriteString(tw, "\t"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(tw, textfmt.OneLine(c)); err != nil {
				return err
			}
		}
		_, err := io.WriteString(tw, "\n")
		return err
	}
	if err := line(t.Header); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := line(r); err != nil {
			return err
		}
	}
	return tw.Flush()
}
