package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestMergeErrors(t *testing.T) {
	base := t.TempDir()
	s0 := filepath.Join(base, "s0")
	s1 := filepath.Join(base, "s1")
	batchIn(t, s0, "-shard", "0/2")
	batchIn(t, s1, "-shard", "1/2")
	other := filepath.Join(base, "other")
	if out, err := runOut(t, "batch", "-quiet", "-players", "random,random", "-games", "30", "-seed", "3", "-shard", "1/2", "-out", other); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out := filepath.Join(base, "m")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{s0, s1}, "merge: -out is required"},
		{[]string{"-out", out}, "no shard directories given"},
		{[]string{"-out", out, s0}, "shard(s) 1/2 missing"},
		{[]string{"-out", out, s0, s0, s1}, "shard 0/2 is given twice"},
		{[]string{"-out", out, s0, other}, "seats [aggressive,random,aggressive] vs [random,random]"},
		{[]string{"-out", out, s0, filepath.Join(base, "nope")}, "no such file"},
	}
	for _, tt := range tests {
		_, err := runOut(t, append([]string{"merge"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("merge %v: want error containing %q, got %v", tt.args, tt.want, err)
		}
	}
	if _, err := runOut(t, "merge", "-quiet", "-out", out, s1, s0); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(readText(t, filepath.Join(out, "games.jsonl")), "\n"); n != 30 {
		t.Errorf("merged %d games, want 30", n)
	}
}
