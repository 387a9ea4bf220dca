//go:build ignore

// gen writes families.go, the list of bot families Default registers:
// every package under bots/ and mars exporting Factories() []bots.Factory
// or Factory() [bots.Factory]. Run it with go generate ./bots/registry.
package main

import (
	"log"
	"os"

	"github.com/marslab-risk/marslab/bots/registry/internal/famgen"
)

func main() {
	src, err := famgen.Generate("../..")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("families.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
