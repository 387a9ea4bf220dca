// Package registry lists marslab's bot families: Default returns a
// [bots.Registry] holding every one of them, which cmd/marslab hands to
// cli.Main.
//
// The families are the packages under bots/ and mars that export
// Factories() []bots.Factory or Factory() [bots.Factory], listed in
// families.go, which go generate writes (see gen.go); a test fails when
// that file is stale. Seat parsing, parameter files and embedded parameter
// sets belong to [bots.Registry], so that a package parsing seats imports
// bots, not the families. This package also holds the golden games
// (testdata/golden), which replay every family under every embedded rule
// set.
package registry

//go:generate go run gen.go

import "github.com/marslab-risk/marslab/bots"

// Default returns a registry holding every bot family of marslab (see
// families.go): the baseline bots (aggressive, pacifist, passive, random),
// cautious, the mission bots, mars and the Lux-style bots of package lux.
// Each call returns a new registry, so registering in one leaves every
// other untouched.
func Default() *bots.Registry {
	r := bots.NewRegistry()
	for _, f := range families() {
		if err := r.Register(f); err != nil {
			// The families are fixed at compile time; a bad entry is a
			// programming error caught by this package's tests.
			panic(err)
		}
	}
	return r
}
