package configs

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// DecodeStrict decodes the TOML data, read from source (a file name), into
// v, a pointer to a struct whose fields carry toml tags, and returns the
// decoder's metadata. A syntax error is "source: <the parser's error>",
// with its line. A value of the wrong type is reported with its line, its
// full key (array indices included) and what it must be:
//
//	my.toml:5: continents[0].bonus = 2.5: must be an integer (TOML value has type float)
//
// A key that v has no field for is an error ([UnknownKey]):
//
//	my.toml:7: unknown key "continents[1].colour" (allowed: name, bonus)
func DecodeStrict(source string, data []byte, v any) (toml.MetaData, error) {
	var raw map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		return toml.MetaData{}, fmt.Errorf("%s: %w", source, err)
	}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(v)
	if err != nil {
		return md, decodeError(source, data, raw, reflect.TypeOf(v).Elem(), err)
	}
	return md, unknownKey(source, data, raw, md.Undecoded(), v)
}

// UnknownKey returns the error for the first (by line) of the keys of data
// that were not decoded into v ([toml.MetaData.Undecoded], or some of them),
// nil when keys is empty:
//
//	source:LINE: unknown key "a.b.c" (allowed: x, y, z)
//
// with the index of the table in an array of tables ("param[2].bogus"), the
// keys an unknown table holds left out, and the allowed keys those of the
// table that holds it, read from the toml tags of v's type (nested tables,
// arrays of tables and embedded structs included; the list is left out
// where the table is a map). v is the value data was decoded into.
func UnknownKey(source string, data []byte, keys []toml.Key, v any) error {
	if len(keys) == 0 {
		return nil
	}
	var raw map[string]any
	_, _ = toml.Decode(string(data), &raw)
	return unknownKey(source, data, raw, keys, v)
}

// unknownKey is [UnknownKey] of data decoded into raw.
func unknownKey(source string, data []byte, raw map[string]any, keys []toml.Key, v any) error {
	var top []toml.Key
	for _, k := range keys {
		// An unknown table, not also every key inside it.
		if !slices.ContainsFunc(keys, func(p toml.Key) bool { return len(p) < len(k) && slices.Equal(k[:len(p)], p) }) {
			top = append(top, k)
		}
	}
	if len(top) == 0 {
		return nil
	}
	key, line := "", 0
	var first toml.Key
	for _, k := range top {
		path := indexedPath(raw, k)
		n := lineOf(data, path)
		if first == nil || n > 0 && (line == 0 || n < line) {
			first, key, line = k, pathString(path), n
		}
	}
	where := source
	if line > 0 {
		where = fmt.Sprintf("%s:%d", source, line)
	}
	allowed := allowedKeys(reflect.TypeOf(v), first[:len(first)-1])
	if len(allowed) == 0 {
		return fmt.Errorf("%s: unknown key %q", where, key)
	}
	return fmt.Errorf("%s: unknown key %q (allowed: %s)", where, key, strings.Join(allowed, ", "))
}

// allowedKeys returns the keys of the table at path in a value of type t:
// the toml names of its struct's fields in order, those of embedded
// structs in their place; nil if the table is not a struct.
func allowedKeys(t reflect.Type, path toml.Key) []string {
	t = tableType(t)
	for _, piece := range path {
		switch t.Kind() {
		case reflect.Struct:
			f, ok := fieldOf(t, piece)
			if !ok {
				return nil
			}
			t = tableType(f.typ)
		case reflect.Map:
			t = tableType(t.Elem())
		default:
			return nil
		}
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for _, f := range fields(t) {
		keys = append(keys, f.name)
	}
	return keys
}

// tableType is t without its pointers, slices and arrays: the type of a
// table, or of each table of an array of tables.
func tableType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	return t
}

// field is a field of a struct as TOML names it.
type field struct {
	name string
	typ  reflect.Type
}

// fields returns the fields of the struct type t that TOML decodes, by
// their toml names (the field's name when it has no tag), those of an
// untagged embedded struct in its place.
func fields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && tableType(f.Type).Kind() == reflect.Struct:
			out = append(out, fields(tableType(f.Type))...)
		case !f.IsExported():
		case tag == "":
			out = append(out, field{f.Name, f.Type})
		default:
			out = append(out, field{tag, f.Type})
		}
	}
	return out
}

// fieldOf returns the field of struct type t that the key name decodes
// into (TOML matches an untagged field's name case-insensitively).
func fieldOf(t reflect.Type, name string) (field, bool) {
	for _, f := range fields(t) {
		if f.name == name {
			return f, true
		}
	}
	for _, f := range fields(t) {
		if strings.EqualFold(f.name, name) {
			return f, true
		}
	}
	return field{}, false
}

// indexedPath returns the key k as a path into raw (table keys as strings,
// array indices as ints): where k passes through an array of tables, the
// index of the first table that holds the rest of k.
func indexedPath(raw map[string]any, k toml.Key) []any {
	var path []any
	var cur any = raw
	for j, piece := range k {
		path = append(path, piece)
		var next any
		if t, ok := cur.(map[string]any); ok {
			next = t[piece]
		}
		if elems := elements(next); elems != nil && j+1 < len(k) {
			for i, e := range elems {
				if t, ok := e.(map[string]any); ok {
					if _, ok := t[k[j+1]]; ok {
						path, next = append(path, i), t
						break
					}
				}
			}
		}
		cur = next
	}
	return path
}

// elements returns the elements of a raw TOML array (either form), or nil.
func elements(v any) []any {
	switch a := v.(type) {
	case []any:
		return a
	case []map[string]any:
		out := make([]any, len(a))
		for i, t := range a {
			out[i] = t
		}
		return out
	}
	return nil
}

// pathString writes a path as a key with array indices:
// "continents[0].bonus".
func pathString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch x := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(toml.Key{x}.String())
		}
	}
	return b.String()
}

// valueAt returns the raw value at path, or nil.
func valueAt(v any, path []any) any {
	for _, p := range path {
		switch x := p.(type) {
		case int:
			e := elements(v)
			if x >= len(e) {
				return nil
			}
			v = e[x]
		case string:
			t, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = t[x]
		}
	}
	return v
}

// lineOf returns the line of data (from 1) on which the value at path is
// defined: the first line n such that the first n lines parse and define
// it; 0 if there is none. Only lines that hold the last key of the path
// are tried, by bisection (a prefix that does not parse counts as not
// defining the value).
func lineOf(data []byte, path []any) int {
	last := ""
	for _, p := range path {
		if s, ok := p.(string); ok {
			last = s
		}
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	var cands []int // line counts whose last line mentions the key
	end := make([]int, len(lines)+1)
	for i, l := range lines {
		end[i+1] = end[i] + len(l)
		if bytes.Contains(l, []byte(last)) {
			cands = append(cands, i+1)
		}
	}
	defined := func(n int) bool {
		var raw map[string]any
		if _, err := toml.NewDecoder(bytes.NewReader(data[:end[n]])).Decode(&raw); err != nil {
			return false
		}
		return valueAt(raw, path) != nil
	}
	lo, hi := 0, len(cands) // the answer is cands[lo..hi-1] or none
	for lo < hi {
		mid := (lo + hi) / 2
		if defined(cands[mid]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo == len(cands) {
		return 0
	}
	return cands[lo]
}

// KeyErrors returns the function that words the error for a bad value of
// a key in the config named source: "source: key <key>: <message>", the
// message formatted as by [fmt.Sprintf].
func KeyErrors(source string) func(key, format string, a ...any) error {
	return func(key, format string, a ...any) error {
		return fmt.Errorf("%s: key %s: %s", source, key, fmt.Sprintf(format, a...))
	}
}
