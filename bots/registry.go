package bots

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// Registry maps bot names to factories and parses seat specifications
// into Seat values. The zero value is unusable: use [NewRegistry], or
// bots/registry.Default for every family of marslab. A Registry is a
// value: registering in one leaves every other untouched. It is safe for
// concurrent reads once built.
//
// A seat specification names a bot and optionally its parameter values:
//
//	aggressive               the bot with its default parameters
//	random(stop=0.3)         inline values (';' or ',' between them)
//	mars@paper               an embedded parameter set (configs/bots/mars-paper.toml)
//	mars@runs/best.toml      a parameter file (a path with a separator or .toml)
//	mars@paperfield(W_p=0.8) both
type Registry struct {
	factories map[string]*Factory
	names     []string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{factories: make(map[string]*Factory)}
}

// Register adds a factory. It fails if the name is taken, also in another
// case ("Mars" beside "mars": file systems and readers would confuse
// them), or the factory is malformed (see [Factory.Validate]).
func (r *Registry) Register(f Factory) error {
	if err := f.Validate(); err != nil {
		return fmt.Errorf("registry: register: %w", err)
	}
	if _, dup := r.factories[f.Name]; dup {
		return fmt.Errorf("registry: register %q: name already registered", f.Name)
	}
	for _, n := range r.names {
		if strings.EqualFold(n, f.Name) {
			return fmt.Errorf("registry: register %q: name already registered as %q (names differ in more than case)", f.Name, n)
		}
	}
	fc := f
	fc.Params = slices.Clone(f.Params)
	for i := range fc.Params {
		fc.Params[i].Choices = slices.Clone(fc.Params[i].Choices)
	}
	r.factories[f.Name] = &fc
	i, _ := slices.BinarySearch(r.names, f.Name)
	r.names = slices.Insert(r.names, i, f.Name)
	return nil
}

// Names returns the registered bot names, sorted.
func (r *Registry) Names() []string { return slices.Clone(r.names) }

// Lookup returns the factory registered under name.
func (r *Registry) Lookup(name string) (*Factory, bool) {
	f, ok := r.factories[name]
	return f, ok
}

// Overrides maps a bot name to parameter values given as text (numbers, or
// choice names), from -param flags; see [ParseOverrides].
type Overrides map[string]map[string]string

// ParseSeat parses one seat specification (see Registry):
//
//	name                    the bot with its default parameters
//	name(K=V;K=V)           inline parameter values (',' may separate them too)
//	name@set                the embedded parameter set configs/bots/name-set.toml
//	name@path/to/file.toml  parameter values from a TOML file (a path holding
//	                        a separator or ending in .toml)
//	name@set(K=V)           both
//
// Values are applied in the order defaults < set or file < inline <
// overrides, where only the overrides of this seat's bot are used. A value
// is a number, or a choice name for a parameter with choices. Every value is
// checked against its Param; unknown bots and parameters are errors.
//
// The label is "name", then "@set" or "@filebase" (the file's base name
// without .toml), then "(K=V;...)" listing the parameters set inline or by
// overrides in the order first given, choices by name.
func (r *Registry) ParseSeat(spec string, overrides Overrides) (Seat, error) {
	s, _, err := r.parseSeat(spec, overrides)
	return s, err
}

// parseSeat is ParseSeat, also returning the label with the file's path as
// written in place of its base name.
func (r *Registry) parseSeat(spec string, overrides Overrides) (seat Seat, pathLabel string, err error) {
	name, path, inline, err := splitSpec(spec)
	if err != nil {
		return Seat{}, "", fmt.Errorf("seat %q: %w", spec, err)
	}
	f, ok := r.factories[name]
	if !ok {
		return Seat{}, "", fmt.Errorf("seat %q: unknown bot %q (registered: %s)", spec, name, strings.Join(r.names, ", "))
	}
	params := f.Defaults()
	label, pathLabel := name, name
	if path != "" {
		var fileVals Values
		if isFile(path) {
			// The file's name becomes the seat's label, which tables,
			// logs, reports and the terminal show.
			if i := strings.IndexFunc(path, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
				return Seat{}, "", fmt.Errorf("seat %q: parameter file %q: byte %d is a control character: rename the file (its name labels the seat)", spec, path, i)
			}
			fileVals, err = ReadParamFile(f, path)
			label += "@" + strings.TrimSuffix(filepath.Base(path), ".toml")
		} else {
			fileVals, err = embeddedParams(f, path)
			label += "@" + path
		}
		if err != nil {
			return Seat{}, "", fmt.Errorf("seat %q: %w", spec, err)
		}
		for k, v := range fileVals {
			params[k] = v
		}
		pathLabel += "@" + path
	}
	var shown []string // parameter names in label order
	if inline != "" {
		if len(f.Params) == 0 {
			return Seat{}, "", fmt.Errorf("seat %q: bot %q takes no parameters", spec, name)
		}
		for item := range strings.SplitSeq(strings.ReplaceAll(inline, ",", ";"), ";") {
			k, vs, found := strings.Cut(item, "=")
			k, vs = strings.TrimSpace(k), strings.TrimSpace(vs)
			if !found || k == "" || vs == "" {
				return Seat{}, "", fmt.Errorf("seat %q: parameter %q: want K=V", spec, strings.TrimSpace(item))
			}
			p, ok := f.Param(k)
			if !ok {
				return Seat{}, "", fmt.Errorf("seat %q: bot %q has no parameter %q (parameters: %s)", spec, name, k, f.ParamNames())
			}
			if slices.Contains(shown, k) {
				return Seat{}, "", fmt.Errorf("seat %q: parameter %s given twice", spec, k)
			}
			v, err := p.Parse(vs)
			if err != nil {
				return Seat{}, "", fmt.Errorf("seat %q: %s = %s: %w", spec, k, vs, err)
			}
			params[k] = v
			shown = append(shown, k)
		}
	}
	if ov := overrides[name]; len(ov) > 0 {
		for _, k := range sortedKeys(ov) {
			p, ok := f.Param(k)
			if !ok {
				return Seat{}, "", fmt.Errorf("%w %s.%s: bot %q has no parameter %q (parameters: %s)", ErrOverride, name, k, name, k, f.ParamNames())
			}
			v, err := p.Parse(ov[k])
			if err != nil {
				return Seat{}, "", fmt.Errorf("%w %s.%s = %s: %w", ErrOverride, name, k, ov[k], err)
			}
			params[k] = v
			if !slices.Contains(shown, k) {
				shown = append(shown, k)
			}
		}
	}
	if len(shown) > 0 {
		var b strings.Builder
		b.WriteByte('(')
		for i, k := range shown {
			if i > 0 {
				b.WriteByte(';')
			}
			p, _ := f.Param(k)
			b.WriteString(k)
			b.WriteByte('=')
			b.WriteString(p.Format(params[k]))
		}
		b.WriteByte(')')
		label += b.String()
		pathLabel += b.String()
	}
	return Seat{Factory: f, Params: params, Label: label}, pathLabel, nil
}

// ParseSeats parses a comma-separated list of seat specifications (commas
// inside parentheses belong to the seat) with ParseSeat. It also checks that
// every override names a registered bot and one of its parameters, so that
// a misspelt -param flag is an error even if that bot has no seat.
//
// Labels are unique per configuration: seats with the same bot and values
// share a label (their results are pooled), and where ParseSeat would give
// seats of different configurations the same label (mars@x/a.toml and
// mars@y/a.toml are both "mars@a"), those seats are labelled with the
// parameter file's path as written ("mars@x/a.toml"), and, should that
// still be shared, with "#N" appended, N the 1-based number of the first
// seat of that configuration.
func (r *Registry) ParseSeats(list string, overrides Overrides) ([]Seat, error) {
	if err := r.CheckOverrides(overrides); err != nil {
		return nil, err
	}
	specs, err := splitList(list)
	if err != nil {
		return nil, err
	}
	seats := make([]Seat, 0, len(specs))
	pathLabels := make([]string, 0, len(specs))
	for _, spec := range specs {
		s, pl, err := r.parseSeat(spec, overrides)
		if err != nil {
			return nil, err
		}
		seats = append(seats, s)
		pathLabels = append(pathLabels, pl)
	}
	uniqueLabels(seats, pathLabels)
	return seats, nil
}

// sameConfig reports whether seats a and b play the same bot with the same
// parameter values.
func sameConfig(a, b Seat) bool {
	return a.Factory.Name == b.Factory.Name && a.Params.equal(b.Params)
}

// uniqueLabels relabels the seats whose label is shared with a seat of a
// different configuration: first with their path labels, then by appending
// "#N" (see ParseSeats). Seats of the same configuration end with the same
// label.
func uniqueLabels(seats []Seat, pathLabels []string) {
	// first[i] is the index of the first seat with seat i's configuration.
	first := make([]int, len(seats))
	for i := range seats {
		first[i] = i
		for j := range i {
			if sameConfig(seats[i], seats[j]) {
				first[i] = first[j]
				break
			}
		}
	}
	relabel := []func(i int) string{
		func(i int) string { return pathLabels[first[i]] },
		func(i int) string { return pathLabels[first[i]] + "#" + strconv.Itoa(first[i]+1) },
	}
	// A configuration's first seat's label stands for the configuration.
	for i := range seats {
		seats[i].Label = seats[first[i]].Label
	}
	for _, next := range relabel {
		clash := clashing(seats, first)
		if len(clash) == 0 {
			return
		}
		for _, i := range clash {
			seats[i].Label = next(i)
		}
	}
}

// clashing returns the indices of the seats whose label is also the label
// of a seat of a different configuration.
func clashing(seats []Seat, first []int) []int {
	var out []int
	for i := range seats {
		for j := range seats {
			if first[i] != first[j] && seats[i].Label == seats[j].Label {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// ErrOverride is wrapped by every refusal of a parameter override
// (Overrides, [ParseOverrides]): its text is "parameter override", followed
// by the override (bot.K or bot.K = V) and what is wrong with it.
var ErrOverride = errors.New("parameter override")

// CheckOverrides checks that every override names a registered bot, one of
// its parameters and an allowed value.
func (r *Registry) CheckOverrides(overrides Overrides) error {
	for _, b := range sortedKeys(overrides) {
		f, ok := r.factories[b]
		if !ok {
			return fmt.Errorf("%w %s.*: unknown bot %q (registered: %s)", ErrOverride, b, b, strings.Join(r.names, ", "))
		}
		for _, k := range sortedKeys(overrides[b]) {
			p, ok := f.Param(k)
			if !ok {
				return fmt.Errorf("%w %s.%s: bot %q has no parameter %q (parameters: %s)", ErrOverride, b, k, b, k, f.ParamNames())
			}
			if _, err := p.Parse(overrides[b][k]); err != nil {
				return fmt.Errorf("%w %s.%s = %s: %w", ErrOverride, b, k, overrides[b][k], err)
			}
		}
	}
	return nil
}

// ParseOverrides parses -param flag values of the form "bot.K=V" (e.g.
// "mars.W_p=0.8", "mars.goal_value=target") into Overrides. Later flags
// win over earlier ones. Only the syntax is checked here (V a finite number
// or a name); the registry checks bots, parameters and values
// (CheckOverrides, ParseSeats).
func ParseOverrides(flags []string) (Overrides, error) {
	out := make(Overrides)
	for _, fl := range flags {
		lhs, vs, found := strings.Cut(fl, "=")
		if !found {
			return nil, fmt.Errorf("%w %q: want bot.K=V, e.g. mars.W_p=0.8", ErrOverride, fl)
		}
		bot, k, found := strings.Cut(strings.TrimSpace(lhs), ".")
		if !found || !ValidName(bot) || !validParamName(k) {
			return nil, fmt.Errorf("%w %q: want bot.K=V, e.g. mars.W_p=0.8", ErrOverride, fl)
		}
		vs = strings.TrimSpace(vs)
		if !ValidName(vs) {
			if _, err := parseNum(vs); err != nil {
				return nil, fmt.Errorf("%w %q: %q is not a finite number or a choice name", ErrOverride, fl, vs)
			}
		}
		if out[bot] == nil {
			out[bot] = make(map[string]string)
		}
		out[bot][k] = vs
	}
	return out, nil
}

// isFile reports whether the text after '@' in a seat spec names a file (it
// holds a path separator or ends in .toml) rather than an embedded set.
func isFile(path string) bool {
	return !configs.IsName(path)
}

// embeddedParams returns the values set by the embedded parameter set
// called set of factory f: the file configs/bots/NAME-SET.toml, NAME being
// f.Name (mars@paper is configs/bots/mars-paper.toml).
func embeddedParams(f *Factory, set string) (Values, error) {
	data, err := configs.Bot(f.Name + "-" + set)
	if err != nil {
		return nil, fmt.Errorf("no embedded parameter set %q for bot %q (have %s; a file needs a path separator or .toml)",
			set, f.Name, strings.Join(EmbeddedSets(f.Name), ", "))
	}
	return parseParamFile(f, configs.Path("bots", f.Name+"-"+set), data)
}

// EmbeddedSets returns the names of the embedded parameter sets of the bot
// called bot, sorted ("paper", "paperfield", "robust", "strong", "tuned" for mars), or nil.
func EmbeddedSets(bot string) []string {
	var out []string
	for _, n := range configs.BotNames() {
		if set, ok := strings.CutPrefix(n, bot+"-"); ok && set != "" {
			out = append(out, set)
		}
	}
	return out
}

// ReadParamFile reads the bot parameter file at path for factory f: TOML
// with a key bot naming the bot (it must be f.Name) and a table [params] of
// parameter values, numbers or, for a parameter with choices, a choice name
// as a string, e.g.
//
//	bot = "mars"
//	[params]
//	W_p = 0.7375
//
// It returns the values the file sets (parameters it omits keep their
// defaults). Unknown keys, unknown parameters, values of the wrong type and
// values outside a parameter's range are errors naming path, the key and
// the range.
func ReadParamFile(f *Factory, path string) (Values, error) {
	data, err := fileread.ReadFile(path, fileread.Params)
	if err != nil {
		return nil, fmt.Errorf("bot parameter file: %w", err)
	}
	return parseParamFile(f, path, data)
}

// parseParamFile parses the bot parameter file data (see ReadParamFile),
// naming it source in errors.
func parseParamFile(f *Factory, source string, data []byte) (Values, error) {
	var doc struct {
		Bot    *string        `toml:"bot"`
		Params map[string]any `toml:"params"`
	}
	if _, err := configs.DecodeStrict(source, data, &doc); err != nil {
		return nil, err
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
	vals := make(Values, len(doc.Params))
	for _, k := range sortedKeys(doc.Params) {
		p, ok := f.Param(k)
		if !ok {
			return nil, fmt.Errorf("%s: params.%s: bot %q has no parameter %q (parameters: %s)", source, k, f.Name, k, f.ParamNames())
		}
		var v float64
		switch x := doc.Params[k].(type) {
		case int64:
			v = float64(x)
		case float64:
			v = x
		case string:
			if len(p.Choices) == 0 {
				return nil, fmt.Errorf("%s: params.%s = %q: not a number", source, k, x)
			}
			var err error
			if v, err = p.Parse(x); err != nil {
				return nil, fmt.Errorf("%s: params.%s: %w", source, k, err)
			}
		default:
			return nil, fmt.Errorf("%s: params.%s = %v: not a number", source, k, x)
		}
		if len(p.Choices) > 0 {
			if _, ok := doc.Params[k].(string); !ok {
				return nil, fmt.Errorf("%s: params.%s = %v: want a choice name in quotes, one of %s", source, k, doc.Params[k], strings.Join(p.Choices, ", "))
			}
		}
		if err := p.Check(v); err != nil {
			return nil, fmt.Errorf("%s: params.%s = %s: %w", source, k, FormatNum(v), err)
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
			return "", "", "", errors.New("empty parameter set or file after '@'")
		}
	} else {
		name = strings.TrimSpace(s)
	}
	if strings.ContainsAny(name, "()") || (path == "" && strings.ContainsAny(name, "=;")) {
		return "", "", "", errors.New("want name, name(K=V;...), name@set or name@file.toml")
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

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
