package configs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeStrict(t *testing.T) {
	type inner struct {
		B int `toml:"b"`
	}
	type file struct {
		A  int     `toml:"a"`
		T  inner   `toml:"t"`
		A2 []inner `toml:"a2"`
	}
	cases := []struct {
		name, data, want, err string
		a, b                  int
	}{
		{"ok", "a = 1\n[t]\nb = 2\n", "a, t.b", "", 1, 2},
		{"empty", "", "a", "", 0, 0},
		{"syntax", "a = \n", "a", "x.toml: toml: ", 0, 0},
		{"type", "a = \"one\"\n", "a", "x.toml: toml: ", 0, 0},
		{"unknown", "a = 1\nc = 3\n", "a, t.b", "x.toml: unknown key c (want a, t.b)", 1, 0},
		{"unknown nested", "[t]\nb = 2\nd = 4\n", "a, t.b", "x.toml: unknown key t.d (want a, t.b)", 0, 2},
		{"two unknown", "c = 3\ne = 5\n", "a", "x.toml: unknown key c, e (want a)", 0, 0},
		{"no want", "c = 3\n", "", "x.toml: unknown key c", 0, 0},
		// Issue 25, item 14: a key repeated in an array of tables is listed once.
		{"array of tables", "[[r]]\nstep = 1\n[[r]]\nstep = 2\n", "a", "x.toml: unknown key r (want a)", 0, 0},
		{"in an array of tables", "[[a2]]\nb = 1\nstep = 1\n[[a2]]\nb = 2\nstep = 2\n", "a", "x.toml: unknown key a2.step (want a)", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f file
			err := DecodeStrict("x.toml", []byte(c.data), &f, c.want)
			if c.err == "" {
				require.NoError(t, err)
				assert.Equal(t, c.a, f.A)
				assert.Equal(t, c.b, f.T.B)
				return
			}
			require.Error(t, err)
			if c.name == "syntax" || c.name == "type" {
				assert.Contains(t, err.Error(), c.err)
				assert.NotContains(t, err.Error(), "(want")
				return
			}
			assert.EqualError(t, err, c.err)
		})
	}
}

func TestKeyError(t *testing.T) {
	assert.EqualError(t, KeyError("x.toml", "seed", "%d: want >= %d", -1, 0), "x.toml: key seed: -1: want >= 0")
	assert.EqualError(t, KeyError("x.toml", "rules", "missing"), "x.toml: key rules: missing")
	bad := KeyErrors("y.toml")
	assert.EqualError(t, bad("players", "%d: want 2..6", 7), "y.toml: key players: 7: want 2..6")
}

func ExampleDecodeStrict() {
	var f struct {
		Seed int64 `toml:"seed"`
	}
	err := DecodeStrict("run.toml", []byte("seed = 3\nsede = 4\n"), &f, "seed")
	fmt.Println(f.Seed, err)
	// Output: 3 run.toml: unknown key sede (want seed)
}
