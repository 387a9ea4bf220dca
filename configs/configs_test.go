package configs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	if got, want := MapNames(), []string{"classic"}; !slices.Equal(got, want) {
		t.Errorf("MapNames() = %q, want %q", got, want)
	}
	if got, want := RulesNames(), []string{"classic", "fixedcards", "mars2006", "missions"}; !slices.Equal(got, want) {
		t.Errorf("RulesNames() = %q, want %q", got, want)
	}
	for _, want := range []string{"mars-paper", "mars-tuned"} {
		if got := BotNames(); !slices.Contains(got, want) {
			t.Errorf("BotNames() = %q, want it to contain %s", got, want)
		}
	}
}

func TestRead(t *testing.T) {
	cases := []struct {
		name string
		get  func(string) ([]byte, error)
		arg  string
		want string // substring of the data, or of the error if err is set
		err  bool
	}{
		{"map", Map, "classic", `name = "Kamchatka"`, false},
		{"rules", Rules, "mars2006", "round_limit = 100", false},
		{"rules fixed", Rules, "fixedcards", `mode = "connected"`, false},
		{"bot", Bot, "mars-paper", `bot = "mars"`, false},
		{"tuned bot", Bot, "mars-tuned", `W_p = 0.8 `, false},
		{"unknown map", Map, "earth", `no embedded map named "earth" (have classic)`, true},
		{"unknown rules", Rules, "lux", `no embedded rules named "lux" (have classic, fixedcards, mars2006, missions)`, true},
		{"path-like", Rules, "rules/classic", `no embedded rules named "rules/classic"`, true},
		{"with extension", Map, "classic.toml", `no embedded map named "classic.toml"`, true},
		{"parent", Map, "../maps/classic", `no embedded map named`, true},
		{"empty", Bot, "", `no embedded bot named ""`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := c.get(c.arg)
			if c.err {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error = %v, want it to contain %q", err, c.want)
				}
				if data != nil {
					t.Errorf("data = %q, want nil", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), c.want) {
				t.Errorf("data does not contain %q", c.want)
			}
		})
	}
}

func TestEveryNameReads(t *testing.T) {
	for _, kind := range []struct {
		names []string
		get   func(string) ([]byte, error)
	}{{MapNames(), Map}, {RulesNames(), Rules}, {BotNames(), Bot}} {
		for _, n := range kind.names {
			if data, err := kind.get(n); err != nil || len(data) == 0 {
				t.Errorf("%s: %d bytes, error %v", n, len(data), err)
			}
		}
	}
}

func TestPath(t *testing.T) {
	if got := Path("rules", "classic"); got != "configs/rules/classic.toml" {
		t.Errorf(`Path("rules", "classic") = %q`, got)
	}
}

func ExampleRulesNames() {
	fmt.Println(RulesNames())
	// Output: [classic fixedcards mars2006 missions]
}
