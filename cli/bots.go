package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/table"
)

const botsUsage = "usage: marslab bots [-params NAME|SEAT] [-param bot.K=V ...]"

// botsFlags are the flags of marslab bots.
type botsFlags struct {
	seat   *string
	params *multiFlag
}

func botsFlagSet(fs *flag.FlagSet) *botsFlags {
	f := &botsFlags{seat: fs.String("params", "", "list the parameters of this bot or seat spec (name, name(K=V;...), name@set, name@file.toml)"),
		params: &multiFlag{}}
	fs.Var(f.params, "param", "override bot.K=V (repeatable), shown in the -params listing")
	return f
}

// cmdBots lists the registered bots, or with -params SEAT the parameters
// of one seat specification (a bot name, name(K=V;...) or name@file.toml),
// with -param bot.K=V overrides applied.
func cmdBots(_ context.Context, in *invocation, f *botsFlags) error {
	if err := in.noArgs(); err != nil {
		return err
	}
	over, err := bots.ParseOverrides(*f.params)
	if err != nil {
		return err
	}
	if err := in.reg.CheckOverrides(over); err != nil {
		return err
	}
	if *f.seat == "" {
		if len(*f.params) > 0 {
			return errors.New("-param needs -params NAME")
		}
		tab := table.Table{Header: []string{"BOT", "PARAMS", "DESCRIPTION"}}
		for _, name := range in.reg.Names() {
			f, _ := in.reg.Lookup(name)
			tab.Add(name, strconv.Itoa(len(f.Params)), f.Doc)
		}
		return tab.WriteText(in.stdout)
	}
	s, err := in.reg.ParseSeat(*f.seat, over)
	if err != nil {
		return err
	}
	return printSeatParams(in.stdout, s)
}

// printSeatParams prints the parameters of the seat s: values, defaults,
// ranges, scales and choices, and its bot's embedded parameter sets.
func printSeatParams(stdout io.Writer, s bots.Seat) error {
	f := s.Factory
	fmt.Fprintf(stdout, "%s: %s\n", s.Label, f.Doc)
	if len(f.Params) == 0 {
		fmt.Fprintln(stdout, "no parameters")
		return nil
	}
	tab := table.Table{Header: []string{"PARAM", "VALUE", "DEFAULT", "RANGE", "SCALE", "CHOICES", "MEANING"}}
	for _, p := range f.Params {
		rng := "[" + bots.FormatNum(p.Min) + ", " + bots.FormatNum(p.Max) + "]"
		if p.Integer {
			rng += " integer"
		}
		scale, choices := "linear", "-"
		switch {
		case len(p.Choices) > 0:
			scale, choices = "choice", strings.Join(p.Choices, "|")
		case p.Log:
			scale = "log"
		}
		tab.Add(p.Name, p.Format(s.Params[p.Name]), p.Format(p.Default), rng, scale, choices, p.Doc)
	}
	if err := tab.WriteText(stdout); err != nil {
		return err
	}
	if sets := bots.EmbeddedSets(f.Name); len(sets) > 0 {
		fmt.Fprintf(stdout, "embedded parameter sets (%s@SET): %s\n", f.Name, strings.Join(sets, ", "))
	}
	return nil
}
