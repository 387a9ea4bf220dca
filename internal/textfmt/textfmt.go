// Package textfmt holds the small text formats the tables and reports of
// several packages share.
package textfmt

import "strconv"

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
