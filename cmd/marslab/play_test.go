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

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestPlaySummary(t *testing.T) {
	out, _, err := runCmd(t, "play", "-players", "aggressive,pacifist,passive,random,aggressive,random", "-seed", "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"seed 7", "rules mars2006 on map classic, 6 players", "seat", "place", "territories"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "winner: seat") && !strings.Contains(out, "stalemate after") {
		t.Errorf("summary names no winner or stalemate:\n%s", out)
	}
	// The same seed prints the same game.
	again, _, err := runCmd(t, "play", "-players", "aggressive,pacifist,passive,random,aggressive,random", "-seed", "7")
	if err != nil || again != out {
		t.Fatalf("same seed, different output (err %v)", err)
	}
}

func TestPlayLogReplay(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "game.jsonl")
	for _, rules := range []string{"mars2006", "classic", "fixedcards", "missions"} {
		if _, _, err := runCmd(t, "play", "-players", "aggressive,random,pacifist,random", "-seed", "3", "-rules", rules, "-log", log); err != nil {
			t.Fatalf("%s: %v", rules, err)
		}
		out, _, err := runCmd(t, "replay", log)
		if err != nil {
			t.Fatalf("%s: replay of an untouched log failed: %v", rules, err)
		}
		if !strings.Contains(out, "identical") {
			t.Fatalf("%s: replay output %q", rules, out)
		}
	}
	// Tamper with one roll: the replay must fail and name the line.
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"e":"roll"`) && strings.Contains(l, `"def_loss":1`) {
			lines[i] = strings.Replace(l, `"def_loss":1`, `"def_loss":2`, 1)
			break
		}
	}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "replay", log)
	if err == nil || !strings.Contains(err.Error(), "replay differs") || !strings.Contains(err.Error(), "line ") {
		t.Fatalf("tampered log: err = %v", err)
	}
}

func TestPlayErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"play", "-players", "aggressive"}, "2..6"},
		{[]string{"play", "-players", "nosuchbot,random"}, "nosuchbot"},
		{[]string{"play", "-rules", "nosuchrules"}, "nosuchrules"},
		{[]string{"replay"}, "exactly one"},
		{[]string{"nosuchcommand"}, "unknown command"},
	}
	for _, c := range cases {
		_, _, err := runCmd(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want it to mention %q", c.args, err, c.want)
		}
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	a, _, err := runCmd(t, "map", "classic", "-json")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCmd(t, "map", "-json", "classic")
	if err != nil {
		t.Fatal(err)
	}
	if a != b || !strings.HasPrefix(a, `{"territories":[{"name":"Alaska"`) {
		t.Fatalf("map classic -json and map -json classic differ or are not JSON:\n%.80s\n%.80s", a, b)
	}
	if _, _, err := runCmd(t, "map", "classic", "-nosuchflag"); err == nil {
		t.Fatal("an unknown flag after the argument was accepted")
	}
}
