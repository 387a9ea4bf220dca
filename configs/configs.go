// Package configs holds marslab's embedded configuration files: the maps
// (maps/*.toml), the rule sets (rules/*.toml) and the bot parameter sets
// (bots/*.toml). A configuration is named by its file name without the
// ".toml" extension, e.g. Map("classic") returns maps/classic.toml.
//
// The package hands out bytes; parsing and validation live in the
// packages that use them (sim.ParseMap, sim.ParseRules, the bot registry).
// It also holds what every TOML parser of the module shares: [DecodeStrict],
// which decodes TOML and rejects unknown keys, [UnknownKey], the one error for
// an unknown key (file, line, key and the keys allowed there, read from the
// struct's toml tags), and [KeyErrors], the errors naming the file and the key
// of a bad value.
package configs

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed maps/*.toml rules/*.toml bots/*.toml
var files embed.FS

// Map returns the TOML text of the embedded map with the given name
// (e.g. "classic").
func Map(name string) ([]byte, error) { return read("maps", "map", name) }

// Rules returns the TOML text of the embedded rule set with the given name
// (e.g. "classic", "mars2006", "mars2006-escalating", "lux", "lux-escalating",
// "fixedcards", "missions").
func Rules(name string) ([]byte, error) { return read("rules", "rules", name) }

// Bot returns the TOML text of the embedded bot parameter set with the
// given name (e.g. "mars-paper").
func Bot(name string) ([]byte, error) { return read("bots", "bot", name) }

// MapNames returns the names of the embedded maps, sorted.
func MapNames() []string { return names("maps") }

// RulesNames returns the names of the embedded rule sets, sorted.
func RulesNames() []string { return names("rules") }

// BotNames returns the names of the embedded bot parameter sets, sorted.
func BotNames() []string { return names("bots") }

// Path returns the path, relative to the repository root, of the embedded
// file of the given kind ("maps", "rules" or "bots") and name, for use in
// messages: Path("rules", "classic") is "configs/rules/classic.toml".
func Path(dir, name string) string { return "configs/" + dir + "/" + name + ".toml" }

// IsName reports whether nameOrPath, as a rules, map or parameter-set
// argument gives it, names an embedded file (no path separator, no ".toml"
// suffix: "classic", "paper") rather than the path of a file ("my.toml",
// "runs/best.toml"). Every reader of such an argument decides by it.
func IsName(nameOrPath string) bool {
	return !strings.ContainsAny(nameOrPath, `/\`) && !strings.HasSuffix(nameOrPath, ".toml")
}

func read(dir, kind, name string) ([]byte, error) {
	if name == "" || !IsName(name) {
		return nil, fmt.Errorf("no embedded %s named %q (have %s)", kind, name, strings.Join(names(dir), ", "))
	}
	data, err := files.ReadFile(dir + "/" + name + ".toml")
	if err != nil {
		return nil, fmt.Errorf("no embedded %s named %q (have %s)", kind, name, strings.Join(names(dir), ", "))
	}
	return data, nil
}

func names(dir string) []string {
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && path.Ext(n) == ".toml" {
			out = append(out, strings.TrimSuffix(n, ".toml"))
		}
	}
	sort.Strings(out)
	return out
}
