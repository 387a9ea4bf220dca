package sim

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// decodeTOML decodes data into v (a pointer to a struct with toml tags) and
// into maps and slices (raw, for the questions MetaData cannot answer about
// the tables of an array). A syntax error is reported as the TOML parser
// words it, with its line. A value of the wrong type is reported with the
// line that holds it and its full key, array indices included, e.g.
//
//	my.toml: line 5: continents[0].bonus = 2.5: must be an integer (TOML value has type float)
func decodeTOML(source string, data []byte, v any) (toml.MetaData, map[string]any, error) {
	var raw map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		return toml.MetaData{}, nil, fmt.Errorf("%s: %w", source, err)
	}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(v)
	if err != nil {
		return md, nil, decodeError(source, data, raw, reflect.TypeOf(v).Elem(), err)
	}
	return md, raw, nil
}

// decodeError finds the value of raw that cannot be decoded into a t and
// words the error: the line, the key path, the value and what is wrong.
// err is the decoder's own error, used when the value cannot be found.
func decodeError(source string, data []byte, raw map[string]any, t reflect.Type, err error) error {
	path, msg := locate(raw, t, nil)
	if path == nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	key := pathString(path)
	leaf := valueAt(raw, path)
	value := ""
	if _, table := leaf.(map[string]any); !table {
		if s, ok := leaf.(string); ok {
			value = strconv.Quote(s)
		} else if text, e := tomlValue(leaf); e == nil {
			value = text
		}
	}
	// A mode's own error repeats the value: "\"x\": must be ...".
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, value+": "), strconv.Quote(value)+": ")
	line := ""
	if n := lineOf(data, path); n > 0 {
		line = fmt.Sprintf("line %d: ", n)
	}
	if value == "" {
		return fmt.Errorf("%s: %s%s: %s", source, line, key, msg)
	}
	return fmt.Errorf("%s: %s%s = %s: %s", source, line, key, value, msg)
}

// locate returns the path (table keys as strings, array indices as ints) of
// the first value of v that cannot be decoded into a t, walking the fields
// of structs in order, and the decoder's message about it; a nil path if
// every value decodes.
func locate(v any, t reflect.Type, path []any) ([]any, string) {
	err := trialDecode(v, t)
	if err == nil {
		return nil, ""
	}
	if t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return path, decodeMessage(err)
	}
	switch t.Kind() {
	case reflect.Struct:
		table, ok := v.(map[string]any)
		if !ok {
			break
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			if fv, ok := table[name]; ok {
				if p, msg := locate(fv, f.Type, append(path, name)); p != nil {
					return p, msg
				}
			}
		}
	case reflect.Slice, reflect.Array:
		elems := elements(v)
		if elems == nil || (t.Kind() == reflect.Array && len(elems) != t.Len()) {
			break
		}
		for i, e := range elems {
			if p, msg := locate(e, t.Elem(), append(path, i)); p != nil {
				return p, msg
			}
		}
	}
	return append([]any(nil), path...), decodeMessage(err)
}

var textUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()

// trialDecode decodes the raw value v alone into a value of type t: it
// writes v as TOML and decodes that, so that the decoder's own rules decide.
func trialDecode(v any, t reflect.Type) error {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(map[string]any{"v": v}); err != nil {
		return err
	}
	holder := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "V", Type: t, Tag: `toml:"v"`}}))
	_, err := toml.NewDecoder(&buf).Decode(holder.Interface())
	return err
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

// decodeMessage returns the decoder's message without its "toml: line N
// (last key ...): " prefix, a type mismatch worded as what the value must
// be.
func decodeMessage(err error) string {
	var pe toml.ParseError
	msg := err.Error()
	if errors.As(err, &pe) {
		msg = pe.Message
	} else if strings.HasPrefix(msg, "toml: ") {
		msg = strings.TrimPrefix(msg, "toml: ")
		if strings.HasPrefix(msg, "line ") || strings.HasPrefix(msg, "(last key ") {
			if i := strings.Index(msg, "): "); i >= 0 {
				msg = msg[i+3:]
			}
		}
	}
	const mismatch = "incompatible types: TOML value has type "
	if rest, ok := strings.CutPrefix(msg, mismatch); ok {
		got, dst, _ := strings.Cut(rest, "; destination has type ")
		want := map[string]string{
			"integer": "must be an integer", "float": "must be a number", "string": "must be a string",
			"boolean": "must be true or false", "slice": "must be an array", "map": "must be a table",
			"primitive (string-like)": "must be a string",
		}[dst]
		if want != "" {
			return fmt.Sprintf("%s (TOML value has type %s)", want, strings.TrimSuffix(got, "64"))
		}
	}
	return msg
}

// pathString writes a path as a TOML key with array indices:
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

// tomlValue writes a raw value as TOML writes it on the right of "=".
func tomlValue(v any) (string, error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(map[string]any{"v": v}); err != nil {
		return "", err
	}
	s, ok := strings.CutPrefix(strings.TrimSpace(buf.String()), "v = ")
	if !ok {
		return "", errors.New("not a simple value")
	}
	return s, nil
}

// lineOf returns the line of data (from 1) on which the value at path is
// complete: the first line n such that the first n lines parse and define
// the value; 0 if there is none. Only lines that hold the last key of the
// path are tried, by bisection (a prefix that does not parse counts as not
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
