package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/bots"
)

// Dim is one searched parameter: a bot parameter and the range searched,
// inside the parameter's own bounds. A search works in the normalised
// coordinate u in [0, 1] of each dimension: u = 0 is Lo, u = 1 is Hi,
// linear in the value, or in its logarithm for a log-scale parameter.
// Integer parameters and named choices are rounded to the nearest allowed
// value.
type Dim struct {
	// Param is the bot's parameter spec (bounds, scale, choices).
	Param bots.Param
	// Lo and Hi bound the searched range, Param.Min <= Lo <= Hi <= Param.Max
	// (Lo > 0 for a log-scale parameter).
	Lo, Hi float64
}

// value returns the parameter value at normalised coordinate u (clamped to
// [0, 1]): rounded to an integer for integer and choice parameters, to 4
// significant digits otherwise.
func (d Dim) value(u float64) float64 {
	u = math.Max(0, math.Min(1, u))
	var v float64
	if d.Param.Log {
		v = math.Exp(math.Log(d.Lo) + u*(math.Log(d.Hi)-math.Log(d.Lo)))
	} else {
		v = d.Lo + u*(d.Hi-d.Lo)
	}
	if d.Param.Integer {
		v = math.Round(v)
		v = math.Max(math.Ceil(d.Lo), math.Min(math.Floor(d.Hi), v))
	} else {
		v = roundSig(v, 4)
	}
	// Keep the value inside the range despite rounding of exp/log.
	return math.Max(d.Lo, math.Min(d.Hi, v))
}

// roundSig rounds v to n significant digits, so that searched values print
// short ("11.86", not "11.856868528308278").
func roundSig(v float64, n int) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	m := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(v))))
	r := math.Round(v*m) / m
	// Parse the shortest text to remove float noise (0.30000000000000004).
	f, err := strconv.ParseFloat(strconv.FormatFloat(r, 'g', n, 64), 64)
	if err != nil {
		return r
	}
	return f
}

// Unit returns the normalised coordinate of value v (not clamped).
func (d Dim) Unit(v float64) float64 {
	if d.Hi == d.Lo {
		return 0
	}
	if d.Param.Log {
		return (math.Log(v) - math.Log(d.Lo)) / (math.Log(d.Hi) - math.Log(d.Lo))
	}
	return (v - d.Lo) / (d.Hi - d.Lo)
}

// validate checks the range against the parameter's spec.
func (d Dim) validate() error {
	p := d.Param
	switch {
	case math.IsNaN(d.Lo) || math.IsNaN(d.Hi) || d.Lo > d.Hi:
		return fmt.Errorf("parameter %s: range [%s, %s]: want min <= max", p.Name, bots.FormatNum(d.Lo), bots.FormatNum(d.Hi))
	case d.Lo < p.Min || d.Hi > p.Max:
		return fmt.Errorf("parameter %s: range [%s, %s]: want inside the parameter's bounds [%s, %s]",
			p.Name, bots.FormatNum(d.Lo), bots.FormatNum(d.Hi), bots.FormatNum(p.Min), bots.FormatNum(p.Max))
	case p.Log && d.Lo <= 0:
		return fmt.Errorf("parameter %s: range [%s, %s]: a log-scale parameter needs min > 0", p.Name, bots.FormatNum(d.Lo), bots.FormatNum(d.Hi))
	case p.Integer && math.Floor(d.Hi) < math.Ceil(d.Lo):
		return fmt.Errorf("parameter %s: range [%s, %s] holds no integer", p.Name, bots.FormatNum(d.Lo), bots.FormatNum(d.Hi))
	}
	return nil
}

// Space is the searched dimensions, in configured order.
type Space []Dim

// Values returns the parameter values at normalised point u (len(u) ==
// len(s)).
func (s Space) Values(u []float64) []float64 {
	x := make([]float64, len(s))
	for i, d := range s {
		x[i] = d.value(u[i])
	}
	return x
}

// units returns the normalised coordinates of the values x.
func (s Space) units(x []float64) []float64 {
	u := make([]float64, len(s))
	for i, d := range s {
		u[i] = d.Unit(x[i])
	}
	return u
}

// Label returns the text "K=V;K=V" of values x, choices by name, as a seat
// specification writes them.
func (s Space) Label(x []float64) string {
	var b strings.Builder
	for i, d := range s {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(d.Param.Name)
		b.WriteByte('=')
		b.WriteString(d.Param.Format(x[i]))
	}
	return b.String()
}

// key returns a map key identifying values x exactly.
func key(x []float64) string {
	var b strings.Builder
	for i, v := range x {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(bots.FormatNum(v))
	}
	return b.String()
}
