package configs

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// DecodeStrict decodes the TOML data into v, which must be a pointer, and
// rejects every key v has no field for. source names the data in errors:
// a syntax or type error is "source: <the decoder's error>", unknown keys
// are "source: unknown key a, b.c (want <want>)", with the "(want ...)"
// left out when want is empty. want lists the allowed keys for the reader.
func DecodeStrict(source string, data []byte, v any, want string) error {
	md, err := toml.Decode(string(data), v)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	und := md.Undecoded()
	if len(und) == 0 {
		return nil
	}
	// A key repeated in an array of tables ([[param]]) is listed once, and
	// the keys inside an unknown table are not listed.
	var keys []string
	seen := make(map[string]bool, len(und))
	for _, k := range und {
		known := false
		for i := 1; i <= len(k); i++ {
			if seen[k[:i].String()] {
				known = true
				break
			}
		}
		if !known {
			seen[k.String()] = true
			keys = append(keys, k.String())
		}
	}
	if want == "" {
		return fmt.Errorf("%s: unknown key %s", source, strings.Join(keys, ", "))
	}
	return fmt.Errorf("%s: unknown key %s (want %s)", source, strings.Join(keys, ", "), want)
}

// KeyError returns the error for a bad value of key in the config named
// source: "source: key <key>: <message>", the message formatted as by
// fmt.Sprintf.
func KeyError(source, key, format string, a ...any) error {
	return fmt.Errorf("%s: key %s: %s", source, key, fmt.Sprintf(format, a...))
}

// KeyErrors returns KeyError bound to source, for a parser that reports
// many keys of one config.
func KeyErrors(source string) func(key, format string, a ...any) error {
	return func(key, format string, a ...any) error { return KeyError(source, key, format, a...) }
}
