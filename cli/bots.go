package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/table"
)

// cmdBots lists the registered bots, or with -params SEAT the parameters of
// one seat specification (a bot name, name(K=V;...) or name@file.toml), with
// -param bot.K=V overrides applied.
func cmdBots(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bots", "usage: marslab bots [-params NAME|SEAT] [-param bot.K=V ...]", stderr)
	seat := fs.String("params", "", "list the parameters of this bot or seat spec (name, name(K=V;...), name@set, name@file.toml)")
	var params multiFlag
	fs.Var(&params, "param", "override bot.K=V (repeatable), shown in the -params listing")
	if err := parseNoArgs(fs, args, stdout); err != nil {
		return err
	}
	over, err := bots.ParseOverrides(params)
	if err != nil {
		return err
	}
	if err := reg.CheckOverrides(over); err != nil {
		return err
	}
	if *seat == "" {
		if len(params) > 0 {
			return errors.New("-param needs -params NAME")
		}
		tab := table.Table{Header: []string{"BOT", "PARAMS", "DESCRIPTION"}}
		for _, name := range reg.Names() {
			f, _ := reg.Lookup(name)
			tab.Add(name, strconv.Itoa(len(f.Params)), f.Doc)
		}
		return tab.WriteText(stdout)
	}
	s, err := reg.ParseSeat(*seat, over)
	if err != nil {
		return err
	}
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
