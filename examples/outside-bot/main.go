// Command mybot is marslab with one more bot: every marslab command
// (play, batch, tournament, sweep, ...) with "mybot" among the seats.
package main

import (
	"log"

	"example.com/mybot/bully"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/cli"
)

func main() {
	reg := registry.Default()
	if err := reg.Register(bully.Factory()); err != nil {
		log.Fatal(err)
	}
	cli.Main(reg)
}
