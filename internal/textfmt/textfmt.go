// Package textfmt holds the small text formats the tables and reports of
// several packages share.
package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ordinal returns k as an English ordinal: "1st", "2nd", "3rd", "4th",
// "11th", "12th", "13th", "21st", ... (k >= 0).
func Ordinal(k int) string {
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(k) + suffix
}

// Fixed formats v in fixed-point notation with prec digits after the
// point (prec >= 0): Fixed(41.06, 1) is "41.1". NaN and infinities come
// out as "NaN", "+Inf" and "-Inf".
func Fixed(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

// Shortest formats v as the shortest text that reads back to v ("NaN"
// for NaN): the numbers of CSV files.
func Shortest(v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Signed formats v like Fixed with a "+" before values >= 0.
func Signed(v float64, prec int) string {
	s := Fixed(v, prec)
	if v >= 0 {
		s = "+" + s
	}
	return s
}

// P formats a p-value with three decimals, "< 0.001" below 0.001.
func P(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return Fixed(p, 3)
}

// PRel formats a p-value as a relation: "= 0.023" or "< 0.001".
func PRel(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return "= " + Fixed(p, 3)
}

// Printable returns s with every control character other than newline and
// tab (C0, DEL, C1, and the Unicode line and paragraph separators) and
// every byte that is not UTF-8 written as a Go escape (\x1b, \u2028), so
// that a name read from a user's file cannot move a terminal's cursor or
// change its colours. Printable text is returned as it is.
func Printable(s string) string { return quote(s, true) }

// OneLine returns s as Printable does, with newlines and tabs escaped too
// (\x0a, \x09): the text of one table cell or one line of a report.
func OneLine(s string) string { return quote(s, false) }

func quote(s string, layout bool) string {
	esc := func(r rune) bool {
		if r == '\n' || r == '\t' {
			return !layout
		}
		return r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}
	if !strings.ContainsFunc(s, esc) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case esc(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case esc(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
