package bots_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
)

func ExampleRegistry_ParseSeats() {
	reg := registry.Default()
	over, err := bots.ParseOverrides([]string{"random.stop=0.5"})
	if err != nil {
		panic(err)
	}
	seats, err := reg.ParseSeats("aggressive,random,random(stop=0.25),passive,mars@paper", over)
	if err != nil {
		panic(err)
	}
	for _, s := range seats {
		fmt.Println(s.Label, s.Params["stop"], s.Params["W_p"])
	}
	// Output:
	// aggressive 0 0
	// random(stop=0.5) 0.5 0
	// random(stop=0.5) 0.5 0
	// passive 0 0
	// mars@paper 0 0.7375
}

func ExampleRegistry_ParseSeat_error() {
	_, err := registry.Default().ParseSeat("random(stop=1.5)", nil)
	fmt.Println(err)
	_, err = registry.Default().ParseSeat("mars@best", nil)
	fmt.Println(err)
	// Output:
	// seat "random(stop=1.5)": stop = 1.5: must be in [0, 1]
	// seat "mars@best": no embedded parameter set "best" for bot "mars" (have paper, paperfield, robust, strong, tuned; a file needs a path separator or .toml)
}
