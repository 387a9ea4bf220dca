package arena

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/sim"
)

// HeaderFormat identifies the config.json layout.
const HeaderFormat = "marslab-batch/2"

// Header is the content of config.json: everything that decides a batch's
// results. Resuming or merging checks that the headers agree.
type Header struct {
	// Format is [HeaderFormat].
	Format string `json:"format"`
	// Seed is the experiment seed.
	Seed uint64 `json:"seed"`
	// Games is the number of games of the whole batch (all shards).
	Games int `json:"games"`
	// Seats are the configured entries, in the order the schedule indexes
	// them.
	Seats []SeatInfo `json:"seats"`
	// Schedule is the batch's schedule: who plays each game.
	Schedule ScheduleSpec `json:"schedule"`
	// Rules and Map are the names of the rule set and the map.
	Rules string `json:"rules"`
	Map   string `json:"map"`
	// RulesSHA256 fingerprints the loaded rules: [sim.RulesDigest], as a game
	// log's header has it. MapSHA256 fingerprints the loaded map
	// ([MapFingerprint]: its layout left out). An edited file is noticed.
	RulesSHA256 string `json:"rules_sha256"`
	MapSHA256   string `json:"map_sha256"`
	// RoundLimit is the rules' round limit (0 = none), against which the
	// records of games.jsonl are checked.
	RoundLimit int `json:"round_limit"`
	// Shard is the part of the batch this directory holds.
	Shard Shard `json:"shard"`
}

// SeatInfo describes one configured seat.
type SeatInfo struct {
	// Label is the seat's label, the bot's name in the results.
	Label string `json:"label"`
	// Bot is the registered bot name.
	Bot string `json:"bot"`
	// Params are the bot's parameter overrides, if any.
	Params map[string]float64 `json:"params,omitempty"`
}

// Labels returns the seat labels in configured order.
func (h *Header) Labels() []string {
	ls := make([]string, len(h.Seats))
	for i, s := range h.Seats {
		ls[i] = s.Label
	}
	return ls
}

// header builds the Header of a validated Config.
func (cfg *Config) header() (Header, error) {
	h := Header{Format: HeaderFormat, Seed: cfg.Seed, Games: cfg.Games, Rules: cfg.Rules.Name, Map: cfg.Map.Name,
		Shard: cfg.Shard.norm(), RoundLimit: cfg.Rules.End.RoundLimit}
	pc := cfg.pool()
	h.Schedule = pc.schedule().Spec()
	var err error
	if h.RulesSHA256, err = sim.RulesDigest(cfg.Rules); err != nil {
		return h, fmt.Errorf("rules %q: %w", cfg.Rules.Name, err)
	}
	if h.MapSHA256, err = MapFingerprint(cfg.Map); err != nil {
		return h, fmt.Errorf("map %q: %w", cfg.Map.Name, err)
	}
	for _, s := range cfg.Seats {
		si := SeatInfo{Label: s.Label, Bot: s.Factory.Name}
		if len(s.Params) > 0 {
			si.Params = maps.Clone(s.Params)
		}
		h.Seats = append(h.Seats, si)
	}
	return h, nil
}

// diff describes the first difference between two headers, ignoring the
// shard index when ignoreShardIndex is set; "" when they agree.
func (h *Header) diff(o *Header, ignoreShardIndex bool) string {
	switch {
	case h.Format != o.Format:
		return fmt.Sprintf("format %q vs %q", h.Format, o.Format)
	case h.Seed != o.Seed:
		return fmt.Sprintf("seed %d vs %d", h.Seed, o.Seed)
	case h.Games != o.Games:
		return fmt.Sprintf("games %d vs %d", h.Games, o.Games)
	case h.Rules != o.Rules:
		return fmt.Sprintf("rules %q vs %q", h.Rules, o.Rules)
	case h.Map != o.Map:
		return fmt.Sprintf("map %q vs %q", h.Map, o.Map)
	case h.RulesSHA256 != o.RulesSHA256:
		return fmt.Sprintf("rules %q: contents differ (rules_sha256 %.12s vs %.12s)", h.Rules, h.RulesSHA256, o.RulesSHA256)
	case h.MapSHA256 != o.MapSHA256:
		return fmt.Sprintf("map %q: contents differ (map_sha256 %.12s vs %.12s)", h.Map, h.MapSHA256, o.MapSHA256)
	case !slices.Equal(h.Labels(), o.Labels()):
		return fmt.Sprintf("seats [%s] vs [%s]", strings.Join(h.Labels(), ","), strings.Join(o.Labels(), ","))
	case h.RoundLimit != o.RoundLimit:
		return fmt.Sprintf("round_limit %d vs %d", h.RoundLimit, o.RoundLimit)
	case h.Schedule != o.Schedule:
		return fmt.Sprintf("schedule %s vs %s", h.Schedule, o.Schedule)
	}
	for i := range h.Seats {
		a, b := &h.Seats[i], &o.Seats[i]
		if a.Bot != b.Bot {
			return fmt.Sprintf("seat %d (%s): bot %q vs %q", i, a.Label, a.Bot, b.Bot)
		}
		if !maps.Equal(a.Params, b.Params) {
			return fmt.Sprintf("seat %d (%s): params %s vs %s", i, a.Label, paramList(a.Params), paramList(b.Params))
		}
	}
	if h.Shard.Count != o.Shard.Count || (!ignoreShardIndex && h.Shard.Index != o.Shard.Index) {
		return fmt.Sprintf("shard %s vs %s", h.Shard, o.Shard)
	}
	return ""
}

func paramList(p map[string]float64) string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		kv = append(kv, fmt.Sprintf("%s=%g", k, p[k]))
	}
	return "{" + strings.Join(kv, ";") + "}"
}

// validate checks a header read from disk.
func (h *Header) validate() error {
	if h.Format != HeaderFormat {
		return fmt.Errorf("format %q: want %q", h.Format, HeaderFormat)
	}
	sched, err := h.Schedule.Schedule()
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	if len(h.Seats) != sched.Pool() {
		return fmt.Errorf("seats: %d, want the schedule's pool of %d", len(h.Seats), sched.Pool())
	}
	for i, s := range h.Seats {
		if s.Label == "" {
			return fmt.Errorf("seats[%d].label: empty", i)
		}
	}
	if h.Games < 1 {
		return fmt.Errorf("games %d: want >= 1", h.Games)
	}
	if gc, ok := sched.(gameCounter); ok && h.Games > gc.Games() {
		return fmt.Errorf("games %d: schedule %s has %d games", h.Games, h.Schedule, gc.Games())
	}
	if h.RoundLimit < 0 {
		return fmt.Errorf("round_limit %d: want >= 0 (0 = no limit)", h.RoundLimit)
	}
	if h.Shard.Count < 1 {
		return fmt.Errorf("shard %d/%d: want count >= 1", h.Shard.Index, h.Shard.Count)
	}
	return h.Shard.Validate()
}

// ReadHeader reads and checks dir/config.json.
func ReadHeader(dir string) (Header, error) {
	path := filepath.Join(dir, configFile)
	var h Header
	b, err := fileread.ReadFile(path, fileread.Record)
	if err != nil {
		return h, err
	}
	var f struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	if f.Format != HeaderFormat {
		return h, fmt.Errorf("%s: format %q: want %q (the record of a batch or a tournament)", path, f.Format, HeaderFormat)
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	if err := h.validate(); err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// File names in an output directory.
const (
	configFile  = "config.json"
	gamesFile   = "games.jsonl"
	summaryFile = "summary.json"
	timingFile  = "timing.json"
)

// summaryJSON encodes a summary as a JSON list with one bot per line.
func summaryJSON(sum []BotSummary) ([]byte, error) {
	b := []byte("[\n")
	for i := range sum {
		line, err := json.Marshal(&sum[i])
		if err != nil {
			return nil, err
		}
		b = append(b, "  "...)
		b = append(b, line...)
		if i < len(sum)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	return append(b, "]\n"...), nil
}

// writeFile writes b to dir/name so that a reader never sees half a file
// ([atomicfile.WriteFile]).
func writeFile(dir, name string, b []byte) error {
	return atomicfile.WriteFile(filepath.Join(dir, name), b, 0o644)
}

// writeJSON writes v, indented, with a final newline, to dir/name through a
// temporary file and a rename, so that a reader never sees half a file.
func writeJSON(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return writeFile(dir, name, append(b, '\n'))
}

// writeSummary writes summary.json.
func writeSummary(dir string, sum []BotSummary) error {
	b, err := summaryJSON(sum)
	if err != nil {
		return fmt.Errorf("%s: %w", summaryFile, err)
	}
	return writeFile(dir, summaryFile, b)
}

// MapFingerprint returns the map_sha256 of config.json: the SHA-256, in
// hex, of m's JSON encoding, which leaves out the drawing layout (a game
// log's map_sha256, [sim.MapDigest], covers it), so that adding a layout to a
// map does not stop a batch played on it from resuming.
func MapFingerprint(m *sim.Map) (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
