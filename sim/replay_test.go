package sim

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chaosSeats returns the players of a logged chaos game (bad 0.05).
func chaosSeats(h LogHeader) ([]Player, error) { return newChaos(len(h.Seats), 0.05), nil }

// TestReplay: an untouched log replays; a log changed anywhere (an event,
// the result, the header's configuration or its names) or cut short fails
// at the line that differs.
func TestReplay(t *testing.T) {
	t.Parallel()
	log := string(logGame(t, ringMap(3, 4), testRules(FortifyOneStep), 3, 0.05, 5, 2))
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	rep, err := Replay(context.Background(), strings.NewReader(log), chaosSeats)
	require.NoError(t, err)
	assert.Equal(t, len(lines)-2, rep.Events)
	assert.Equal(t, uint64(5), rep.Header.Seed)
	assert.Equal(t, uint64(2), rep.Header.Index)
	assert.Equal(t, lines[len(lines)-1], string(ResultLine(rep.Result)))

	roll := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, `{"e":"roll"`) && strings.Contains(l, `"def_loss":1`) })
	require.Positive(t, roll)
	turns := regexp.MustCompile(`"turns":(\d+)`)
	cases := []struct {
		name   string
		change func(ls []string) []string
		want   string
	}{
		{"a roll changed", func(ls []string) []string {
			ls[roll] = strings.Replace(ls[roll], `"def_loss":1`, `"def_loss":2`, 1)
			return ls
		}, "line " + strconv.Itoa(roll+1) + ": the replay differs:\n  log:    " + strconv.Quote(strings.Replace(lines[roll], `"def_loss":1`, `"def_loss":2`, 1))},
		{"an event left out", func(ls []string) []string { return append(ls[:roll:roll], ls[roll+1:]...) },
			"line " + strconv.Itoa(roll+1) + ": the replay differs"},
		{"no result line", func(ls []string) []string { return ls[:len(ls)-1] }, "no result line"},
		{"result cut", func(ls []string) []string { ls[len(ls)-1] = ls[len(ls)-1][:20]; return ls }, "truncated or malformed result line"},
		{"events missing at the end", func(ls []string) []string { return append(ls[:len(ls)-3:len(ls)-3], ls[len(ls)-1]) },
			"line " + strconv.Itoa(len(lines)-2) + ": the log ends (result line), the replay goes on"},
		{"an event too many", func(ls []string) []string {
			return append(ls[:len(ls)-1:len(ls)-1], ls[len(ls)-2], ls[len(ls)-1])
		}, "line " + strconv.Itoa(len(lines)) + ": the replay has ended, the log goes on"},
		{"result changed", func(ls []string) []string {
			ls[len(ls)-1] = turns.ReplaceAllStringFunc(ls[len(ls)-1], func(s string) string {
				n, _ := strconv.Atoi(turns.FindStringSubmatch(s)[1])
				return `"turns":` + strconv.Itoa(n+1)
			})
			return ls
		}, "line " + strconv.Itoa(len(lines)) + ": the result differs"},
		{"rules changed", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `round_limit = 200`, `round_limit = 199`, 1)
			return ls
		}, `line 1 (header): rules_sha256 = "`},
		{"map changed", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `bonus = 3`, `bonus = 4`, 1)
			return ls
		}, `line 1 (header): map_sha256 = "`},
		{"digest removed", func(ls []string) []string {
			ls[0] = regexp.MustCompile(`,"rules_sha256":"[0-9a-f]*"`).ReplaceAllString(ls[0], "")
			return ls
		}, `line 1 (header): rules_sha256: missing`},
		{"rules name changed", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"rules_name":"rules.toml"`, `"rules_name":"classic"`, 1)
			return ls
		}, `line 1 (header): rules_name = "classic": the rules played (rules_toml) are named "test-one-step"`},
		{"map name changed", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"map_name":"map.toml"`, `"map_name":"classic"`, 1)
			return ls
		}, `line 1 (header): map_name = "classic": the map played (map_toml) is named "ring3x4"`},
		{"seed changed", func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"seed":5`, `"seed":6`, 1)
			return ls
		}, "the replay differs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			changed := c.change(append([]string(nil), lines...))
			_, err := Replay(context.Background(), strings.NewReader(strings.Join(changed, "\n")+"\n"), chaosSeats)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestReplayPlayers: the players function sees the header, and its error
// or a wrong number of players stops the replay.
func TestReplayPlayers(t *testing.T) {
	t.Parallel()
	log := string(logGame(t, ringMap(2, 3), testRules(FortifySingle), 2, 0, 1, 0))
	boom := errors.New("boom")
	_, err := Replay(context.Background(), strings.NewReader(log), func(h LogHeader) ([]Player, error) {
		assert.Equal(t, "chaos1", h.Seats[1].Label)
		return nil, boom
	})
	require.ErrorIs(t, err, boom)
	_, err = Replay(context.Background(), strings.NewReader(log), func(LogHeader) ([]Player, error) {
		return newChaos(3, 0), nil
	})
	require.ErrorContains(t, err, "line 1 (header): 2 seats, but 3 players")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Replay(ctx, strings.NewReader(log), chaosSeats)
	require.ErrorIs(t, err, context.Canceled)
}

func BenchmarkReplay(b *testing.B) {
	log := string(logGame(b, ringMap(3, 4), testRules(FortifyOneStep), 4, 0, 1, 0))
	players := func(h LogHeader) ([]Player, error) { return newChaos(len(h.Seats), 0), nil }
	b.ReportAllocs()
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		if _, err := Replay(context.Background(), strings.NewReader(log), players); err != nil {
			b.Fatal(err)
		}
	}
}
