package bots

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/marslab-risk/marslab/sim"
)

// Factory makes players of one kind: a bot family's entry in a registry.
type Factory struct {
	// Name is the bot's registry name, e.g. "aggressive"; it matches
	// [A-Za-z_][A-Za-z0-9_-]*.
	Name string
	// Doc is a one-line description.
	Doc string
	// Params are the bot's tunable parameters, in display order.
	Params []Param
	// New returns a new player with the given parameter values (every Param
	// present and checked by the caller; see [Seat.New]).
	New func(params Values) (sim.Player, error)
}

// Validate checks the factory's definition: a well-formed name, a non-nil
// New and well-formed, distinct parameters (see [Param.Validate]).
func (f Factory) Validate() error {
	if !ValidName(f.Name) {
		return fmt.Errorf("bot %q: name must match [A-Za-z_][A-Za-z0-9_-]*", f.Name)
	}
	if f.New == nil {
		return fmt.Errorf("bot %q: New is nil", f.Name)
	}
	for i, p := range f.Params {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("bot %q: %w", f.Name, err)
		}
		for _, q := range f.Params[:i] {
			if q.Name == p.Name {
				return fmt.Errorf("bot %q: parameter %s defined twice", f.Name, p.Name)
			}
		}
	}
	return nil
}

// Param returns the parameter called name.
func (f Factory) Param(name string) (Param, bool) {
	for _, p := range f.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Defaults returns a fresh map of every parameter's default value.
func (f Factory) Defaults() Values {
	m := make(Values, len(f.Params))
	for _, p := range f.Params {
		m[p.Name] = p.Default
	}
	return m
}

// ParamNames lists the factory's parameter names, comma-separated, or
// "none", for error messages.
func (f Factory) ParamNames() string {
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
	Params Values
	// Label names the seat in results: seats with equal labels are pooled,
	// so a label names one configuration (factory and values).
	Label string
}

// New returns a new player of the seat's kind with the seat's parameters.
// Each call returns a distinct player (arena gives one to each worker). A
// factory that panics, or returns a nil player without an error, is an
// error wrapping errBadNew, naming the seat and the bot: a factory from
// outside the module never crashes the command that seats it.
func (s Seat) New() (p sim.Player, err error) {
	if s.Factory == nil || s.Factory.New == nil {
		return nil, fmt.Errorf("seat %q: %w", s.Label, errNoFactory)
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("seat %s: bot %s: %w: New panicked: %v", s.Label, s.Factory.Name, errBadNew, r)
		}
	}()
	p, err = s.Factory.New(s.Params.Clone())
	if err != nil {
		return nil, fmt.Errorf("seat %s: %w", s.Label, err)
	}
	if isNil(p) {
		return nil, fmt.Errorf("seat %s: bot %s: %w: New returned a nil player and no error", s.Label, s.Factory.Name, errBadNew)
	}
	return p, nil
}

// errBadNew is wrapped by [Seat.New]'s error for a factory's New that
// panicked or returned a nil player without an error.
var errBadNew = errors.New("bad factory")

// isNil reports whether p is nil, or an interface holding a nil pointer,
// map, slice, channel or function.
func isNil(p sim.Player) bool {
	if p == nil {
		return true
	}
	switch v := reflect.ValueOf(p); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Explainer is implemented by bots that can narrate their decisions (MARS's
// -explain flag): after SetExplain(w) the bot writes a human-readable
// account of each decision to w; SetExplain(nil) turns narration off.
type Explainer interface {
	SetExplain(w io.Writer)
}

// Stat is one named count a bot keeps about its own play in a game, e.g.
// MARS's "place_offensive", the placement auctions won by offensive bids.
type Stat struct {
	// Name matches [a-z][a-z0-9_]*; a bot reports its names in a fixed
	// order.
	Name string
	// Count is the count over the bot's last game (>= 0).
	Count int64
}

// StatReporter is implemented by bots that count events of their own play
// (MARS's placement auction winners). GameStats appends the counts of the
// game the bot is playing or last played (from its last Start) to buf and
// returns it: the same names, in the same order, after every game. The
// arena sums them per seat label into the batch's summary; the counts of a
// game depend on that game alone, so the sums are the same for any number
// of workers or shards.
type StatReporter interface {
	GameStats(buf []Stat) []Stat
}
