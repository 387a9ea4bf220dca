package recognition

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// headerFile is the run's config.json in Options.Out: its Header, which a
// resumed run and a merge check against their own.
const headerFile = "config.json"

// headerFormat identifies the config.json layout.
const headerFormat = "marslab-recognize/1"

// header is everything that decides a run's games and predictions: the
// whole resolved config (the rule set's and the map's SHA-256 included),
// the sizes in force (after -games and -train-games) and the shard.
type header struct {
	Format      string `json:"format"`
	Rules       string `json:"rules"`
	RulesSHA256 string `json:"rules_sha256"`
	MapSHA256   string `json:"map_sha256"`
	Seed        uint64 `json:"seed"`
	TrainSeed   uint64 `json:"train_seed"`
	// Games and TrainGames are the test and training games per arm.
	Games      int         `json:"games"`
	TrainGames int         `json:"train_games"`
	Arms       []headerArm `json:"arms"`
	PHATT      struct {
		WSuccess   float64 `json:"w_success"`
		WFailed    float64 `json:"w_failed"`
		Up         float64 `json:"up"`
		Down       float64 `json:"down"`
		StateScale float64 `json:"state_scale"`
	} `json:"phatt"`
	Data struct {
		Alpha  float64 `json:"alpha"`
		PerArm bool    `json:"per_arm"`
	} `json:"data"`
	// Shard is the part of the games the folder holds, "INDEX/COUNT".
	Shard string `json:"shard"`
}

// headerArm is one arm of a Header: its seats with every parameter value.
type headerArm struct {
	Name  string       `json:"name"`
	Seats []headerSeat `json:"seats"`
}

// headerSeat is one seat of an arm.
type headerSeat struct {
	Label  string             `json:"label"`
	Bot    string             `json:"bot"`
	Params map[string]float64 `json:"params,omitempty"`
}

// sha returns the SHA-256 of v's JSON encoding, in hex.
func sha(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// newHeader returns the header of a run of cfg resolved as s, with games
// and train test and training games per arm, playing shard.
func newHeader(cfg *Config, s *Setup, games, train int, shard arena.Shard) (*header, error) {
	h := &header{Format: headerFormat, Rules: cfg.Rules, Seed: cfg.Seed, TrainSeed: cfg.TrainSeed,
		Games: games, TrainGames: train, Shard: shard.String()}
	var err error
	if h.RulesSHA256, err = sha(s.Rules); err != nil {
		return nil, fmt.Errorf("rules %q: %w", cfg.Rules, err)
	}
	if h.MapSHA256, err = sha(s.Map); err != nil {
		return nil, fmt.Errorf("map %q: %w", s.Map.Name, err)
	}
	p := cfg.Params
	h.PHATT.WSuccess, h.PHATT.WFailed, h.PHATT.Up, h.PHATT.Down, h.PHATT.StateScale = p.WSuccess, p.WFailed, p.Up, p.Down, p.StateScale
	h.Data.Alpha, h.Data.PerArm = cfg.Alpha, cfg.PerArm
	for a, arm := range cfg.Arms {
		ha := headerArm{Name: arm.Name}
		for _, st := range s.Seats[a] {
			hs := headerSeat{Label: st.Label, Bot: st.Factory.Name}
			if len(st.Params) > 0 {
				hs.Params = maps.Clone(map[string]float64(st.Params))
			}
			ha.Seats = append(ha.Seats, hs)
		}
		h.Arms = append(h.Arms, ha)
	}
	return h, nil
}

// diff names the first key in which h and o differ ("phatt.w_success:
// 0.02 vs 0.5"), ignoring the shard when ignoreShard is set (the shards of one run); "" when
// they agree.
func (h *header) diff(o *header, ignoreShard bool) string {
	a, b := *h, *o
	if ignoreShard {
		a.Shard, b.Shard = "", ""
	}
	fa, fb := flatten(&a), flatten(&b)
	for _, k := range slices.Sorted(maps.Keys(merged(fa, fb))) {
		va, oka := fa[k]
		vb, okb := fb[k]
		if !oka {
			va = "(none)"
		}
		if !okb {
			vb = "(none)"
		}
		if va != vb {
			return fmt.Sprintf("%s: %s vs %s", k, va, vb)
		}
	}
	return ""
}

func merged(a, b map[string]string) map[string]string {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

// flatten returns the leaves of v's JSON encoding by dotted key
// ("arms[0].seats[1].params.w"), each as its JSON text.
func flatten(v any) map[string]string {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	out := map[string]string{}
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if prefix != "" {
					k = prefix + "." + k
				}
				walk(k, v)
			}
		case []any:
			out[prefix+".length"] = fmt.Sprint(len(x))
			for i, v := range x {
				walk(fmt.Sprintf("%s[%d]", prefix, i), v)
			}
		default:
			s, _ := json.Marshal(x)
			out[prefix] = string(s)
		}
	}
	walk("", x)
	return out
}

// writeHeader writes h to dir/headerFile through a temporary file.
func writeHeader(dir string, h *header) error {
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, headerFile), append(b, '\n'), 0o644)
}

// readHeader reads dir/headerFile; an error wrapping os.ErrNotExist when
// there is none.
func readHeader(dir string) (*header, error) {
	path := filepath.Join(dir, headerFile)
	b, err := fileread.ReadFile(path, fileread.Record)
	if err != nil {
		return nil, err
	}
	var h header
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if h.Format != headerFormat {
		return nil, fmt.Errorf("%s: key format %q: want %q", path, h.Format, headerFormat)
	}
	return &h, nil
}

// checkHeader checks that dir's config.json is h (the shard aside when
// ignoreShard is set). A folder with games but no config.json is
// refused: its games cannot be told from another config's.
func checkHeader(dir string, h *header, ignoreShard bool) error {
	old, err := readHeader(dir)
	if errors.Is(err, os.ErrNotExist) {
		if _, gerr := os.Stat(filepath.Join(dir, gamesFile)); gerr == nil {
			return fmt.Errorf("%s holds %s but no %s: its config is unknown (run it again in a new folder)", dir, gamesFile, headerFile)
		}
		return err
	}
	if err != nil {
		return err
	}
	if d := old.diff(h, ignoreShard); d != "" {
		return fmt.Errorf("%s was written by another config (%s; the file's vs this run's): use the same config and flags, or another output directory", filepath.Join(dir, headerFile), d)
	}
	return nil
}
