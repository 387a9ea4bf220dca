package configs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeStrict(t *testing.T) {
	t.Parallel()
	type inner struct {
		B int `toml:"b"`
	}
	type Embedded struct {
		E int `toml:"e"`
	}
	type file struct {
		A  int     `toml:"a"`
		T  inner   `toml:"t"`
		A2 []inner `toml:"a2"`
		Embedded
		M     map[string]inner `toml:"m"`
		Plain int
		skip  int //lint:ignore U1000 an unexported field TOML does not decode into
	}
	cases := []struct {
		name, data, err string
		a, b            int
	}{
		{"ok", "a = 1\n[t]\nb = 2\n", "", 1, 2},
		{"empty", "", "", 0, 0},
		{"embedded and untagged", "e = 1\nPlain = 2\n[m.x]\nb = 3\n", "", 0, 0},
		{"syntax", "a = \n", "x.toml: toml: ", 0, 0},
		{"type", "a = \"one\"\n", `x.toml:1: a = "one": must be an integer (TOML value has type string)`, 0, 0},
		{"unknown", "a = 1\nc = 3\n", `x.toml:2: unknown key "c" (allowed: a, t, a2, e, m, Plain)`, 1, 0},
		{"unknown nested", "[t]\nb = 2\nd = 4\n", `x.toml:3: unknown key "t.d" (allowed: b)`, 0, 2},
		{"two unknown: the first by line", "e = 1\nz = 5\n\nc = 3\n", `x.toml:2: unknown key "z" (allowed: a, t, a2, e, m, Plain)`, 0, 0},
		{"unknown table", "a = 1\n[r]\nx = 1\ny = 2\n", `x.toml:2: unknown key "r" (allowed: a, t, a2, e, m, Plain)`, 1, 0},
		{"array of tables", "[[r]]\nstep = 1\n[[r]]\nstep = 2\n", `x.toml:1: unknown key "r" (allowed: a, t, a2, e, m, Plain)`, 0, 0},
		{"in an array of tables", "[[a2]]\nb = 1\n[[a2]]\nb = 2\nstep = 2\n", `x.toml:5: unknown key "a2[1].step" (allowed: b)`, 0, 0},
		{"in a map's table", "[m.x]\nb = 1\nc = 2\n", `x.toml:3: unknown key "m.x.c" (allowed: b)`, 0, 0},
		{"unexported field", "skip = 1\n", `x.toml:1: unknown key "skip" (allowed: a, t, a2, e, m, Plain)`, 0, 0},
		{"inline table", "t = { b = 1, q = 2 }\n", `x.toml:1: unknown key "t.q" (allowed: b)`, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f file
			_, err := DecodeStrict("x.toml", []byte(c.data), &f)
			if c.err == "" {
				require.NoError(t, err)
				assert.Equal(t, c.a, f.A)
				assert.Equal(t, c.b, f.T.B)
				return
			}
			require.Error(t, err)
			if c.name == "syntax" {
				assert.Contains(t, err.Error(), c.err)
				assert.NotContains(t, err.Error(), "unknown key")
				return
			}
			assert.EqualError(t, err, c.err)
			assert.Equal(t, c.a, f.A)
		})
	}
}

func TestKeyError(t *testing.T) {
	t.Parallel()
	assert.EqualError(t, KeyErrors("x.toml")("seed", "%d: want >= %d", -1, 0), "x.toml: key seed: -1: want >= 0")
	assert.EqualError(t, KeyErrors("x.toml")("rules", "missing"), "x.toml: key rules: missing")
	bad := KeyErrors("y.toml")
	assert.EqualError(t, bad("players", "%d: want 2..6", 7), "y.toml: key players: 7: want 2..6")
}

func ExampleDecodeStrict() {
	var f struct {
		Seed int64  `toml:"seed"`
		Out  string `toml:"out"`
	}
	_, err := DecodeStrict("run.toml", []byte("seed = 3\nsede = 4\n"), &f)
	fmt.Println(f.Seed, err)
	// Output: 3 run.toml:2: unknown key "sede" (allowed: seed, out)
}
