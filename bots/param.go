package bots

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Param describes one tunable parameter of a bot: its name, default, closed
// range and scale, for the registry (seat specs, parameter files, -param
// flags) and for parameter searches.
//
// A parameter with named choices (Choices non-empty) takes one of a fixed
// list of names; its value is the index of the name in Choices, so Min is
// 0, Max is len(Choices)-1 and Integer is true. It is written and shown by
// name ("goal_value=target"), never by number.
type Param struct {
	// Name is the parameter's name as used in TOML files, seat specs and
	// -param flags, e.g. "W_p". It matches [A-Za-z_][A-Za-z0-9_]*.
	Name string
	// Default is the value used when no file, seat spec or override sets it
	// (for a parameter with choices, the index of the default choice).
	Default float64
	// Min and Max bound the allowed values (a closed range, Min <= Max).
	Min, Max float64
	// Integer restricts the parameter to whole numbers.
	Integer bool
	// Log says the parameter varies on a logarithmic scale: a search should
	// sample log(v) uniformly in [log(Min), log(Max)]. It requires Min > 0.
	Log bool
	// Choices, when non-empty, are the names of the parameter's values, in
	// index order; each matches [A-Za-z_][A-Za-z0-9_-]*.
	Choices []string
	// Doc says what the parameter means, with units and paper reference.
	Doc string
}

// Check reports whether v is an allowed value of p; the error says why not
// (e.g. "must be in [0, 1]" or "must be one of sum, target").
func (p Param) Check(v float64) error {
	if len(p.Choices) > 0 {
		if !(v >= 0 && v < float64(len(p.Choices))) || v != math.Trunc(v) {
			return fmt.Errorf("choice index %s: must be one of %s", FormatNum(v), strings.Join(p.Choices, ", "))
		}
		return nil
	}
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("must be a finite number in [%s, %s]", FormatNum(p.Min), FormatNum(p.Max))
	case v < p.Min || v > p.Max:
		return fmt.Errorf("must be in [%s, %s]", FormatNum(p.Min), FormatNum(p.Max))
	case p.Integer && v != math.Trunc(v):
		return fmt.Errorf("must be an integer in [%s, %s]", FormatNum(p.Min), FormatNum(p.Max))
	}
	return nil
}

// Parse parses the text of a value of p: a choice name for a parameter
// with choices, otherwise a number. It checks the value (see Check).
func (p Param) Parse(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if len(p.Choices) > 0 {
		if i := slices.Index(p.Choices, s); i >= 0 {
			return float64(i), nil
		}
		return 0, fmt.Errorf("%q is not a choice: must be one of %s", s, strings.Join(p.Choices, ", "))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if err := p.Check(v); err != nil {
		return 0, err
	}
	return v, nil
}

// Format returns the text of value v of p: the choice name for a
// parameter with choices, otherwise the number's shortest exact form.
// It is the inverse of Parse for allowed values.
func (p Param) Format(v float64) string {
	if len(p.Choices) > 0 && v >= 0 && v < float64(len(p.Choices)) && v == math.Trunc(v) {
		return p.Choices[int(v)]
	}
	return FormatNum(v)
}

// Validate checks the definition of p: a well-formed name, a non-empty
// range of finite width (Max-Min, as a float64) holding the default, Min > 0 for a log scale, and for choices
// distinct well-formed names with Min 0, Max len(Choices)-1, Integer set
// and no log scale.
func (p Param) Validate() error {
	if !validParamName(p.Name) {
		return fmt.Errorf("parameter %q: name must match [A-Za-z_][A-Za-z0-9_]*", p.Name)
	}
	if !(p.Min <= p.Max) || math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) {
		return fmt.Errorf("parameter %s: range [%s, %s] is empty or unbounded", p.Name, FormatNum(p.Min), FormatNum(p.Max))
	}
	if math.IsInf(p.Max-p.Min, 0) {
		// A search samples Min + u*(Max-Min): the width must be finite.
		return fmt.Errorf("parameter %s: range [%s, %s]: its width Max-Min overflows a float64", p.Name, FormatNum(p.Min), FormatNum(p.Max))
	}
	if p.Log && !(p.Min > 0) {
		return fmt.Errorf("parameter %s: log scale needs Min > 0, have %s", p.Name, FormatNum(p.Min))
	}
	if len(p.Choices) > 0 {
		if p.Min != 0 || p.Max != float64(len(p.Choices)-1) || !p.Integer || p.Log {
			return fmt.Errorf("parameter %s: %d choices need Min 0, Max %d, Integer and no log scale", p.Name, len(p.Choices), len(p.Choices)-1)
		}
		for i, c := range p.Choices {
			if !ValidName(c) || slices.Contains(p.Choices[:i], c) {
				return fmt.Errorf("parameter %s: bad or duplicate choice %q", p.Name, c)
			}
		}
	}
	if err := p.Check(p.Default); err != nil {
		return fmt.Errorf("parameter %s: default %s: %w", p.Name, FormatNum(p.Default), err)
	}
	return nil
}

// Values holds parameter values by parameter name (a choice parameter's
// value is its choice index).
type Values map[string]float64

// Clone returns a copy of v.
func (v Values) Clone() Values {
	out := make(Values, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// equal reports whether v and w hold the same parameters with the same
// values.
func (v Values) equal(w Values) bool {
	if len(v) != len(w) {
		return false
	}
	for k, x := range v {
		if y, ok := w[k]; !ok || y != x {
			return false
		}
	}
	return true
}

// FormatNum formats a number in its shortest exact form ("0.8", "150",
// "1e-06").
func FormatNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// ValidName reports whether s is a well-formed bot or choice name:
// [A-Za-z_][A-Za-z0-9_-]*.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// validParamName reports whether s is a well-formed parameter name:
// [A-Za-z_][A-Za-z0-9_]*.
func validParamName(s string) bool {
	return ValidName(s) && !strings.Contains(s, "-")
}

var errNoFactory = errors.New("no factory")

// parseNum parses a finite number.
func parseNum(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}
