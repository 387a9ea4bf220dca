package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepeatedEntries: every list of a notebook config that is a set (a
// grid, a panel, the bots of a ladder, the values of a curve, the points
// of a table) refuses a repeated entry, naming the file, the key and the
// entry; a shipped config with one entry repeated is refused. (Line-ups of
// seats, such as a field's opponents, may seat a bot twice.)
func TestRepeatedEntries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		notebook, from, to, want string
	}{
		{"ladder", `"aggressive", "pacifist", "passive"`, `"aggressive", "pacifist", "aggressive"`, `key ladder.bots[2]: aggressive repeats entry 0: want distinct entries`},
		{"ladder", `challengers = ["mcts", "mars@paper"`, `challengers = ["mcts", "mcts"`, `key field.challengers[1]: mcts repeats entry 0`},
		{"ladder", `values = [25, 50, 100`, `values = [25, 25, 100`, `key curve.values[1]: 25 repeats entry 0`},
		{"tuners", `thresholds = [4, 6, 8]`, `thresholds = [4, 6, 4]`, `key tuners.thresholds[2]: 4 repeats entry 0`},
		{"dice-literature", `sides = [4, 6, 8, 10, 12]`, `sides = [4, 6, 8, 6, 12]`, `key literature.sides[3]: 6 repeats entry 1`},
		{"dice-literature", `defence_attackers = [10, 20, 30]`, `defence_attackers = [10, 20, 20]`, `key literature.defence_attackers[2]: 20 repeats entry 1`},
		{"dice-literature", `defence_armies = [6, 10, 15, 20]`, `defence_armies = [6, 6, 15, 20]`, `key literature.defence_armies[1]: 6 repeats entry 0`},
		{"dice-literature", `defence_territories = [2, 3, 4, 5]`, `defence_territories = [2, 3, 4, 2]`, `key literature.defence_territories[3]: 2 repeats entry 0`},
		{"dice", `[[1, 1], [2, 1], [3, 2]`, `[[1, 1], [2, 1], [1, 1]`, `key dice.loss_battles[2]: [1 1] repeats entry 0`},
		{"dice", `chain_armies = [3, 5, 8`, `chain_armies = [3, 5, 3`, `key dice.chain_armies[2]: 3 repeats entry 0`},
		{"engine", `length_rules = ["classic", "mars2006"`, `length_rules = ["classic", "classic"`, `key engine.length_rules[1]: classic repeats entry 0`},
		{"engine", `name = "aggressive x6"`, `name = "random x6"`, `key engine.lineups[1].name: random x6 repeats entry 0`},
		{"engine", `workers = [`, `workers = [1, `, `key engine.workers[`},
		{"calibration-strong", `versus = ["mars@paperfield"]`, `versus = ["mars@paperfield", "mars@paperfield"]`, `key calibration.versus[1]: mars@paperfield repeats entry 0`},
		{"calibration-paper", `seats = ["mars"]`, `seats = ["mars", "mars"]`, `key tournament.seats[1]: mars repeats entry 0`},
		{"recognition", `compare = ["mission-w4", "mission-w100"]`, `compare = ["mission-w4", "mission-w4"]`, `key recognition.compare[1]: mission-w4 repeats entry 0`},
		{"recognition", `base = "mission-w100", variant = "mission-w100-spread"`, `base = "mission-w4", variant = "mission-w4-spread"`, `key recognition.differences[1]: [mission-w4 mission-w4-spread] repeats entry 0`},
		{"transfer", `players = [`, `players = [2, 2, `, `key transfer.players[1]: 2 repeats entry 0`},
	} {
		t.Run(tc.notebook+" "+tc.want, func(t *testing.T) {
			path := filepath.Join("..", "notebooks", tc.notebook, configFile)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			_, err = Parse(path, data)
			require.NoError(t, err, "the shipped config")
			cfg := strings.Replace(string(data), tc.from, tc.to, 1)
			require.NotEqual(t, string(data), cfg, "the replacement must change the config")
			_, err = Parse(path, []byte(cfg))
			require.Error(t, err)
			assert.ErrorContains(t, err, path+": "+tc.want)
		})
	}
}
