package configs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNames(t *testing.T) {
	assert.Equal(t, []string{"classic"}, MapNames())
	assert.Equal(t, []string{"classic", "fixedcards", "lux", "lux-escalating", "mars2006", "mars2006-escalating", "missions"}, RulesNames())
	for _, want := range []string{"mars-paper", "mars-paperfield", "mars-tuned"} {
		assert.Contains(t, BotNames(), want)
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
		{"tuned bot", Bot, "mars-paperfield", "\n[params]\n", false},
		{"unknown map", Map, "earth", `no embedded map named "earth" (have classic)`, true},
		{"unknown rules", Rules, "hasbro", `no embedded rules named "hasbro" (have classic, fixedcards, lux, lux-escalating, mars2006, mars2006-escalating, missions)`, true},
		{"path-like", Rules, "rules/classic", `no embedded rules named "rules/classic"`, true},
		{"with extension", Map, "classic.toml", `no embedded map named "classic.toml"`, true},
		{"parent", Map, "../maps/classic", `no embedded map named`, true},
		{"empty", Bot, "", `no embedded bot named ""`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := c.get(c.arg)
			if c.err {
				require.ErrorContains(t, err, c.want)
				assert.Nil(t, data)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, string(data), c.want)
		})
	}
}

func TestEveryNameReads(t *testing.T) {
	for _, kind := range []struct {
		names []string
		get   func(string) ([]byte, error)
	}{{MapNames(), Map}, {RulesNames(), Rules}, {BotNames(), Bot}} {
		for _, n := range kind.names {
			data, err := kind.get(n)
			if assert.NoError(t, err, n) {
				assert.NotEmpty(t, data, n)
			}
		}
	}
}

func TestPath(t *testing.T) {
	assert.Equal(t, "configs/rules/classic.toml", Path("rules", "classic"))
}

func ExampleRulesNames() {
	fmt.Println(RulesNames())
	// Output: [classic fixedcards lux lux-escalating mars2006 mars2006-escalating missions]
}

func TestIsName(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want bool
	}{
		{"classic", true}, {"mars2006-escalating", true}, {"paper", true},
		{"my.toml", false}, {"rules/x", false}, {`rules\x`, false}, {"/abs/x.toml", false}, {"./x", false},
	} {
		assert.Equal(t, tc.want, IsName(tc.arg), tc.arg)
	}
}
