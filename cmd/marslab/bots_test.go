package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"marslab/bots/registry"
)

func runBots(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), registry.Default(), append([]string{"bots"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

func TestBotsList(t *testing.T) {
	out, _, err := runBots(t)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"BOT", "aggressive", "mars", "pacifist", "passive", "random"}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if f := strings.Fields(lines[i]); f[0] != w {
			t.Errorf("line %d = %q, want bot %q first", i, lines[i], w)
		}
	}
	// The parameter counts.
	for _, c := range []struct{ line, count string }{{lines[1], "0"}, {lines[5], "1"}} {
		if f := strings.Fields(c.line); f[1] != c.count {
			t.Errorf("%q: %s params, want %s", c.line, f[1], c.count)
		}
	}
}

func TestBotsParams(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "calm.toml")
	if err := os.WriteFile(file, []byte("bot = \"random\"\n[params]\nstop = 0.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args  []string
		label string
		value string
	}{
		{[]string{"-params", "random"}, "random", "0.2"},
		{[]string{"-params", "random(stop=0.5)"}, "random(stop=0.5)", "0.5"},
		{[]string{"-params", "random(stop=0.5)", "-param", "random.stop=0.75"}, "random(stop=0.75)", "0.75"},
		{[]string{"-params", "random@" + file}, "random@calm", "0.9"},
	}
	for _, tt := range tests {
		out, _, err := runBots(t, tt.args...)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 {
			t.Fatalf("%v: want 3 lines, got:\n%s", tt.args, out)
		}
		if !strings.HasPrefix(lines[0], tt.label+": ") {
			t.Errorf("%v: first line %q, want label %q", tt.args, lines[0], tt.label)
		}
		f := strings.Fields(lines[2])
		want := []string{"stop", tt.value, "0.2", "[0,", "1]", "linear", "-", "probability"}
		for i, w := range want {
			if f[i] != w {
				t.Errorf("%v: parameter line %q: field %d = %q, want %q", tt.args, lines[2], i, f[i], w)
			}
		}
	}

	out, _, err := runBots(t, "-params", "aggressive")
	if err != nil || !strings.Contains(out, "no parameters") {
		t.Errorf("aggressive: %v\n%s", err, out)
	}
	out, _, err = runBots(t, "-params", "mars")
	if err != nil || !strings.Contains(out, "W_p ") || !strings.Contains(out, "integer") {
		t.Errorf("mars: %v\n%s", err, out)
	}
}

func TestBotsErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-params", "lux"}, `unknown bot "lux"`},
		{[]string{"-params", "passive(x=1)"}, `bot "passive" takes no parameters`},
		{[]string{"-params", "random", "-param", "random.stop=2"}, `-param random.stop = 2: must be in [0, 1]`},
		{[]string{"-params", "random", "-param", "lux.x=2"}, `unknown bot "lux"`},
		{[]string{"-params", "random", "-param", "stop=2"}, `want bot.K=V`},
		{[]string{"-param", "random.stop=0.5"}, `-param needs -params NAME`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-nosuchflag"}, `flag provided but not defined`},
	}
	for _, tt := range tests {
		_, _, err := runBots(t, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}
