// Command marslab is the marslab research toolkit's command line: it plays
// and replays Risk games, runs batches, tournaments and parameter searches,
// prints exact dice odds and drives the MARS bot. Run "marslab help" for the
// commands. It is package cli with the bots of registry.Default.
package main

import (
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/cli"
)

func main() { cli.Main(registry.Default()) }
