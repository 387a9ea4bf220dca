package textfmt

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOrdinal(t *testing.T) {
	t.Parallel()
	for k, want := range map[int]string{0: "0th", 1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 6: "6th", 11: "11th",
		12: "12th", 13: "13th", 21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th", 112: "112th"} {
		assert.Equal(t, want, Ordinal(k), "%d", k)
	}
}

func TestFixed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{{41.06, 1, "41.1"}, {0.5, 0, "0"}, {1.5, 0, "2"}, {-0.04, 1, "-0.0"}, {2, 3, "2.000"}, {1e6 * 1.25e-4, 2, "125.00"}} {
		assert.Equal(t, c.want, Fixed(c.v, c.prec), "%v %d", c.v, c.prec)
	}
}

func TestShortestSignedP(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{0.1: "0.1", 1.0 / 3: "0.3333333333333333", 2: "2", -1e-7: "-1e-07", math.NaN(): "NaN"} {
		assert.Equal(t, want, Shortest(v), "%v", v)
	}
	for v, want := range map[float64]string{0.0312: "+0.031", 0: "+0.000", -0.0312: "-0.031"} {
		assert.Equal(t, want, Signed(v, 3), "%v", v)
	}
	for p, want := range map[float64]string{0.0004: "< 0.001", 0.001: "0.001", 0.2345: "0.234"} {
		assert.Equal(t, want, P(p), "%v", p)
		if want[0] != '<' {
			want = "= " + want
		}
		assert.Equal(t, want, PRel(p), "%v", p)
	}
}

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"mars@paper", "mars@paper"},
		{"a\nb\tc", "a\nb\tc"},
		{"W\x1b[31m_p", `W\x1b[31m_p`},
		{"bell\a del\x7f", `bell\x07 del\x7f`},
		{"c1\u0085 ls\u2028", `c1\x85 ls\u2028`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"cr\r", `cr\x0d`},
		{"Zürich ♞", "Zürich ♞"},
	} {
		assert.Equal(t, tc.want, Printable(tc.in), "%q", tc.in)
	}
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, `a\x0ab\x09c \x1b`, OneLine("a\nb\tc \x1b"))
	assert.Equal(t, "plain", OneLine("plain"))
}
