package configs

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

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
	where := source
	if n := lineOf(data, path); n > 0 {
		where = fmt.Sprintf("%s:%d", source, n)
	}
	if value == "" {
		return fmt.Errorf("%s: %s: %s", where, key, msg)
	}
	return fmt.Errorf("%s: %s = %s: %s", where, key, value, msg)
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

var textUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
