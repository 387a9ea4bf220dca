// Package mdtable is the Markdown pipe table of the module's reports: the
// notebooks of package report and the report.md files of the experiment
// packages (search, tourney) print their tables through it.
package mdtable

import "strings"

// Table is a header and rows of formatted cells, printed as a Markdown
// pipe table with the first column aligned left and the others right.
type Table struct {
	Header []string
	Rows   [][]string
}

// Align returns the table's alignment row: "|---|---:|...|", the first
// column left, the others right.
func (t Table) Align() string {
	var b strings.Builder
	b.WriteString("|")
	for i := range t.Header {
		if i == 0 {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	return b.String()
}

// Markdown returns the table as Markdown: the header line, the alignment
// row and one line per row, each ending in a newline. A "|" inside a cell
// is escaped as `\|`.
func (t Table) Markdown() string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	line(t.Header)
	b.WriteString(t.Align() + "\n")
	for _, r := range t.Rows {
		line(r)
	}
	return b.String()
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }
