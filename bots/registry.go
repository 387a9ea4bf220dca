package bots

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"marslab/sim"
)

// Param describes one tunable parameter of a bot.
type Param struct {
	// Name is the parameter's name as used in TOML files, seat specs and
	// -param flags, e.g. "W_p". It matches [A-Za-z_][A-Za-z0-9_]*.
	Name string
	// Default is the value used when no file, seat spec or override sets it.
	Default float64
	// Min and Max bound the allowed values (a closed range).
	Min, Max float64
	// Integer restricts the parameter to whole numbers.
	Integer bool
	// Doc says what the parameter means, with units and paper reference.
	Doc string
}

// Check reports whether v is an allowed value of p; the error says why not
// (e.g. "must be in [0, 1]").
func (p Param) Check(v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("must be a finite number in [%s, %s]", fmtNum(p.Min), fmtNum(p.Max))
	case v < p.Min || v > p.Max:
		return fmt.Errorf("must be in [%s, %s]", fmtNum(p.Min), fmtNum(p.Max))
	case p.Integer && v != math.Trunc(v):
		return fmt.Errorf("must be an integer in [%s, %s]", fmtNum(p.Min), fmtNum(p.Max))
	}
	return nil
}

// Factory makes players of one kind.
type Factory struct {
	// Name is the bot's registry name, e.g. "aggressive".
	Name string
	// Doc is a one-line description.
	Doc string
	// Params are the bot's tunable parameters, in display order.
	Params []Param
	// New returns a new player with the given parameter values (every Param
	// present and validated by the caller; see Seat.New).
	New func(params map[string]float64) (sim.Player, error)
}

// Param returns the parameter called name.
func (f *Factory) Param(name string) (Param, bool) {
	for _, p := range f.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Defaults returns a fresh map of every parameter's default value.
func (f *Factory) Defaults() map[string]float64 {
	m := make(map[string]float64, len(f.Params))
	for _, p := range f.Params {
		m[p.Name] = p.Default
	}
	return m
}

// paramNames lists the factory's parameter names for error messages.
func (f *Factory) paramNames() string {
	if len(f.Params) == 0 {
		return "none"
	}
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Seat is a parsed seat specification: a factory, the values of all its
// parameters, and the label that names the seat in tables.
type Seat struct {
	Factory *Factory
	// Params holds a value for every parameter of Factory.
	Params map[string]float64
	// Label is "name", "name(K=V;...)", "name@filebase" or
	// "name@filebase(K=V;...)", listing the parameters set inline or by
	// overrides in the order they were first given.
	Label string
}

// New returns a new player of the seat's kind with the seat's parameters.
// Each call returns a distinct player (arena gives one to each worker).
func (s Seat) New() (sim.Player, error) {
	if s.Factory == nil || s.Factory.New == nil {
		return nil, fmt.Errorf("seat %q: no factory", s.Label)
	}
	params := make(map[string]float64, len(s.Params))
	for k, v := range s.Params {
		params[k] = v
	}
	p, err := s.Factory.New(params)
	if err != nil {
		return nil, fmt.Errorf("seat %s: %w", s.Label, err)
	}
	return p, nil
}

// Explainer is implemented by bots that can narrate their decisions (MARS's
// -explain flag): after SetExplain(w) the bot writes a human-readable
// account of each decision to w; SetExplain(nil) turns narration off.
type Explainer interface {
	SetExplain(w io.Writer)
}

// Registry maps bot names to factories. The zero value is unusable: use
// NewRegistry. A Registry is safe for concurrent reads once built.
type Registry struct {
	factories map[string]*Factory
	names     []string
}

// builtins returns the table of builtin bots (fresh values on every call,
// so no Registry can change another's factories).
func builtins() []Factory {
	return []Factory{
		randomFactory(),
		sciberrasFactory(Passive),
		sciberrasFactory(Pacifist),
		sciberrasFactory(Aggressive),
		marsFactory(),
	}
}

// NewRegistry returns a registry holding every builtin bot: random,
// passive, pacifist, aggressive and mars.
func NewRegistry() *Registry {
	r := &Registry{factories: make(map[string]*Factory)}
	for _, f := range builtins() {
		if err := r.Register(f); err != nil {
			// The builtin table is fixed at compile time; a bad entry is a
			// programming error caught by the package's tests.
			panic(err)
		}
	}
	return r
}

// Register adds a factory. It fails if the name is taken or malformed, New
// is nil, or a parameter is malformed (bad name, duplicate, Min > Max, or a
// default outside its range).
func (r *Registry) Register(f Factory) error {
	if !validName(f.Name) {
		return fmt.Errorf("bots: register %q: name must match [A-Za-z_][A-Za-z0-9_-]*", f.Name)
	}
	if _, dup := r.factories[f.Name]; dup {
		return fmt.Errorf("bots: register %q: name already registered", f.Name)
	}
	if f.New == nil {
		return fmt.Errorf("bots: register %q: New is nil", f.Name)
	}
	seen := make(map[string]bool, len(f.Params))
	for _, p := range f.Params {
		if !validParamName(p.Name) || seen[p.Name] {
			return fmt.Errorf("bots: register %q: bad or duplicate parameter name %q", f.Name, p.Name)
		}
		seen[p.Name] = true
		if !(p.Min <= p.Max) {
			return fmt.Errorf("bots: register %q: parameter %s: range [%s, %s] is empty", f.Name, p.Name, fmtNum(p.Min), fmtNum(p.Max))
		}
		if err := p.Check(p.Default); err != nil {
			return fmt.Errorf("bots: register %q: parameter %s: default %s %v", f.Name, p.Name, fmtNum(p.Default), err)
		}
	}
	fc := f
	fc.Params = append([]Param(nil), f.Params...)
	r.factories[f.Name] = &fc
	i := sort.SearchStrings(r.names, f.Name)
	r.names = append(r.names, "")
	copy(r.names[i+1:], r.names[i:])
	r.names[i] = f.Name
	return nil
}

// Names returns the registered bot names, sorted.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

// Lookup returns the factory registered under name.
func (r *Registry) Lookup(name string) (*Factory, bool) {
	f, ok := r.factories[name]
	return f, ok
}

// ParseSeat parses one seat specification:
//
//	name                    the bot with its default parameters
//	name(K=V;K=V)           inline parameter values (',' may separate them too)
//	name@path/to/file.toml  parameter values from a TOML file
//	name@path(K=V)          both
//
// Values are applied in the order defaults < file < inline < overrides,
// where overrides maps a bot name to parameter values (see ParseOverrides)
// and only the entry of this seat's bot is used. Every value is checked
// against its Param's range; unknown bots and parameters are errors.
func (r *Registry) ParseSeat(spec string, overrides map[string]map[string]float64) (Seat, error) {
	name, path, inline, err := splitSpec(spec)
	if err != nil {
		return Seat{}, fmt.Errorf("seat %q: %w", spec, err)
	}
	f, ok := r.factories[name]
	if !ok {
		return Seat{}, fmt.Errorf("seat %q: unknown bot %q (registered: %s)", spec, name, strings.Join(r.names, ", "))
	}
	params := f.Defaults()
	label := name
	if path != "" {
		fileVals, err := ReadParamFile(f, path)
		if err != nil {
			return Seat{}, fmt.Errorf("seat %q: %w", spec, err)
		}
		for k, v := range fileVals {
			params[k] = v
		}
		label += "@" + strings.TrimSuffix(filepath.Base(path), ".toml")
	}
	var shown []string // parameter names in label order
	if inline != "" {
		if len(f.Params) == 0 {
			return Seat{}, fmt.Errorf("seat %q: bot %q takes no parameters", spec, name)
		}
		for item := range strings.SplitSeq(strings.ReplaceAll(inline, ",", ";"), ";") {
			k, vs, found := strings.Cut(item, "=")
			k, vs = strings.TrimSpace(k), strings.TrimSpace(vs)
			if !found || k == "" || vs == "" {
				return Seat{}, fmt.Errorf("seat %q: parameter %q: want K=V", spec, strings.TrimSpace(item))
			}
			p, ok := f.Param(k)
			if !ok {
				return Seat{}, fmt.Errorf("seat %q: bot %q has no parameter %q (parameters: %s)", spec, name, k, f.paramNames())
			}
			if slices.Contains(shown, k) {
				return Seat{}, fmt.Errorf("seat %q: parameter %s given twice", spec, k)
			}
			v, err := strconv.ParseFloat(vs, 64)
			if err != nil {
				return Seat{}, fmt.Errorf("seat %q: %s = %q: not a number", spec, k, vs)
			}
			if err := p.Check(v); err != nil {
				return Seat{}, fmt.Errorf("seat %q: %s = %s: %w", spec, k, vs, err)
			}
			params[k] = v
			shown = append(shown, k)
		}
	}
	if ov := overrides[name]; len(ov) > 0 {
		keys := make([]string, 0, len(ov))
		for k := range ov {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := f.Param(k)
			if !ok {
				return Seat{}, fmt.Errorf("-param %s.%s: bot %q has no parameter %q (parameters: %s)", name, k, name, k, f.paramNames())
			}
			if err := p.Check(ov[k]); err != nil {
				return Seat{}, fmt.Errorf("-param %s.%s = %s: %w", name, k, fmtNum(ov[k]), err)
			}
			params[k] = ov[k]
			if !slices.Contains(shown, k) {
				shown = append(shown, k)
			}
		}
	}
	if len(shown) > 0 {
		var b strings.Builder
		b.WriteString(label)
		b.WriteByte('(')
		for i, k := range shown {
			if i > 0 {
				b.WriteByte(';')
			}
			b.WriteString(k)
			b.WriteByte('=')
			b.WriteString(fmtNum(params[k]))
		}
		b.WriteByte(')')
		label = b.String()
	}
	return Seat{Factory: f, Params: params, Label: label}, nil
}

// ParseSeats parses a comma-separated list of seat specifications (commas
// inside parentheses belong to the seat) with ParseSeat. It also checks that
// every override names a registered bot and one of its parameters, so that
// a misspelt -param flag is an error even if that bot has no seat.
func (r *Registry) ParseSeats(list string, overrides map[string]map[string]float64) ([]Seat, error) {
	if err := r.CheckOverrides(overrides); err != nil {
		return nil, err
	}
	specs, err := splitList(list)
	if err != nil {
		return nil, err
	}
	seats := make([]Seat, 0, len(specs))
	for _, spec := range specs {
		s, err := r.ParseSeat(spec, overrides)
		if err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	return seats, nil
}

// CheckOverrides checks that every override names a registered bot, one of
// its parameters and an allowed value.
func (r *Registry) CheckOverrides(overrides map[string]map[string]float64) error {
	bots := make([]string, 0, len(overrides))
	for b := range overrides {
		bots = append(bots, b)
	}
	sort.Strings(bots)
	for _, b := range bots {
		f, ok := r.factories[b]
		if !ok {
			return fmt.Errorf("-param %s.*: unknown bot %q (registered: %s)", b, b, strings.Join(r.names, ", "))
		}
		keys := make([]string, 0, len(overrides[b]))
		for k := range overrides[b] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := f.Param(k)
			if !ok {
				return fmt.Errorf("-param %s.%s: bot %q has no parameter %q (parameters: %s)", b, k, b, k, f.paramNames())
			}
			if err := p.Check(overrides[b][k]); err != nil {
				return fmt.Errorf("-param %s.%s = %s: %w", b, k, fmtNum(overrides[b][k]), err)
			}
		}
	}
	return nil
}

// ParseOverrides parses -param flag values of the form "bot.K=V" (e.g.
// "mars.W_p=0.8") into a map from bot name to parameter to value. Later
// flags win over earlier ones. Only the syntax is checked here; the
// registry checks names and ranges (CheckOverrides, ParseSeats).
func ParseOverrides(flags []string) (map[string]map[string]float64, error) {
	out := make(map[string]map[string]float64)
	for _, fl := range flags {
		lhs, vs, found := strings.Cut(fl, "=")
		if !found {
			return nil, fmt.Errorf("-param %q: want bot.K=V, e.g. mars.W_p=0.8", fl)
		}
		bot, k, found := strings.Cut(strings.TrimSpace(lhs), ".")
		if !found || !validName(bot) || !validParamName(k) {
			return nil, fmt.Errorf("-param %q: want bot.K=V, e.g. mars.W_p=0.8", fl)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(vs), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("-param %q: %q is not a finite number", fl, strings.TrimSpace(vs))
		}
		if out[bot] == nil {
			out[bot] = make(map[string]float64)
		}
		out[bot][k] = v
	}
	return out, nil
}

// ReadParamFile reads a bot parameter file for factory f (see
// ParseParamFile) and returns the values it sets.
func ReadParamFile(f *Factory, path string) (map[string]float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bot parameter file: %w", err)
	}
	return ParseParamFile(f, path, data)
}

// ParseParamFile parses a bot parameter file: TOML with a key bot naming the
// bot (it must be f.Name) and a table [params] of parameter values, e.g.
//
//	bot = "mars"
//	[params]
//	W_p = 0.7375
//
// It returns the values the file sets (parameters it omits keep their
// defaults). Unknown keys, unknown parameters, non-numbers and values outside
// a parameter's range are errors naming source, the key and the range.
func ParseParamFile(f *Factory, source string, data []byte) (map[string]float64, error) {
	var doc struct {
		Bot    *string        `toml:"bot"`
		Params map[string]any `toml:"params"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %q (allowed: bot, params)", source, und[0].String())
	}
	if doc.Bot == nil {
		return nil, fmt.Errorf("%s: missing key bot (want bot = %q)", source, f.Name)
	}
	if *doc.Bot != f.Name {
		return nil, fmt.Errorf("%s: bot = %q: this seat is a %q bot", source, *doc.Bot, f.Name)
	}
	if len(doc.Params) > 0 && len(f.Params) == 0 {
		return nil, fmt.Errorf("%s: bot %q takes no parameters", source, f.Name)
	}
	keys := make([]string, 0, len(doc.Params))
	for k := range doc.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make(map[string]float64, len(keys))
	for _, k := range keys {
		p, ok := f.Param(k)
		if !ok {
			return nil, fmt.Errorf("%s: params.%s: bot %q has no parameter %q (parameters: %s)", source, k, f.Name, k, f.paramNames())
		}
		var v float64
		switch x := doc.Params[k].(type) {
		case int64:
			v = float64(x)
		case float64:
			v = x
		default:
			return nil, fmt.Errorf("%s: params.%s = %v: not a number", source, k, x)
		}
		if err := p.Check(v); err != nil {
			return nil, fmt.Errorf("%s: params.%s = %s: %w", source, k, fmtNum(v), err)
		}
		vals[k] = v
	}
	return vals, nil
}

// splitSpec splits "name@path(inline)" into its parts.
func splitSpec(spec string) (name, path, inline string, err error) {
	s := strings.TrimSpace(spec)
	if s == "" {
		return "", "", "", errors.New("empty seat")
	}
	if strings.HasSuffix(s, ")") {
		i := strings.LastIndexByte(s, '(')
		if i < 0 {
			return "", "", "", errors.New("unbalanced ')'")
		}
		inline = strings.TrimSpace(s[i+1 : len(s)-1])
		if inline == "" {
			return "", "", "", errors.New("empty parameter list ()")
		}
		s = s[:i]
	}
	if at := strings.IndexByte(s, '@'); at >= 0 {
		name, path = strings.TrimSpace(s[:at]), strings.TrimSpace(s[at+1:])
		if path == "" {
			return "", "", "", errors.New("empty parameter file after '@'")
		}
	} else {
		name = strings.TrimSpace(s)
	}
	if strings.ContainsAny(name, "()") || (path == "" && strings.ContainsAny(name, "=;")) {
		return "", "", "", errors.New("want name, name(K=V;...) or name@file.toml")
	}
	if strings.ContainsAny(inline, "()") {
		return "", "", "", errors.New("unbalanced parentheses")
	}
	if name == "" {
		return "", "", "", errors.New("missing bot name")
	}
	return name, path, inline, nil
}

// splitList splits a comma-separated seat list, keeping commas inside
// parentheses with their seat.
func splitList(list string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(list); i++ {
		switch list[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("seats %q: unbalanced ')'", list)
			}
		case ',':
			if depth == 0 {
				out = append(out, list[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("seats %q: unbalanced '('", list)
	}
	out = append(out, list[start:])
	for i, s := range out {
		out[i] = strings.TrimSpace(s)
		if out[i] == "" {
			return nil, fmt.Errorf("seats %q: seat %d is empty", list, i+1)
		}
	}
	return out, nil
}

func validName(s string) bool {
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

func validParamName(s string) bool {
	return validName(s) && !strings.Contains(s, "-")
}

// fmtNum formats a number in its shortest exact form ("0.8", "150", "1e-06").
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
