package learn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// maxLine is the longest request line Serve reads, in bytes; a longer one
// gets an error answer and is skipped.
const maxLine = 1 << 16

// request is one parsed request line of the JSON-lines protocol (see
// Serve).
type request struct {
	// Cmd is "reset", "step" or "close".
	Cmd string
	// Seed is reset's seed, 0..2^64-1.
	Seed uint64
	// Action is step's action.
	Action int
}

// parseRequest parses one request line: a JSON object with a key "cmd"
// ("reset", "step" or "close"), "seed" (an integer 0..2^64-1, reset only,
// required) and "action" (an integer, step only, required). Unknown keys,
// missing ones, keys of another command, non-integers and anything after
// the object are errors naming the problem.
func parseRequest(line []byte) (request, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return request{}, errors.New("empty line: want a JSON object such as {\"cmd\":\"reset\",\"seed\":7}")
	}
	raw, err := decodeRequest(line)
	if err != nil {
		return request{}, err
	}
	if raw.Cmd == nil {
		return request{}, errors.New(`missing key "cmd": want "reset", "step" or "close"`)
	}
	var cmd string
	if err := json.Unmarshal(*raw.Cmd, &cmd); err != nil {
		return request{}, fmt.Errorf(`key "cmd" %s: want "reset", "step" or "close"`, string(*raw.Cmd))
	}
	req := request{Cmd: cmd}
	switch req.Cmd {
	case "reset":
		if raw.Action != nil {
			return request{}, errors.New(`reset: unexpected key "action"`)
		}
		if raw.Seed == nil {
			return request{}, errors.New(`reset: missing key "seed": want an integer 0..18446744073709551615`)
		}
		s, err := strconv.ParseUint(string(*raw.Seed), 10, 64)
		if err != nil {
			return request{}, fmt.Errorf("reset: seed %s: want an integer 0..18446744073709551615", string(*raw.Seed))
		}
		req.Seed = s
	case "step":
		if raw.Seed != nil {
			return request{}, errors.New(`step: unexpected key "seed"`)
		}
		if raw.Action == nil {
			return request{}, errors.New(`step: missing key "action": want an integer`)
		}
		a, err := strconv.ParseInt(string(*raw.Action), 10, 32)
		if errors.Is(err, strconv.ErrRange) {
			return request{}, fmt.Errorf(`step: action %s: out of range: want 0..actions-1 (the "actions" of the reset reply)`, string(*raw.Action))
		}
		if err != nil {
			return request{}, fmt.Errorf("step: action %s: want an integer", string(*raw.Action))
		}
		req.Action = int(a)
	case "close":
		if raw.Seed != nil || raw.Action != nil {
			return request{}, errors.New(`close: takes no other key`)
		}
	default:
		return request{}, fmt.Errorf(`unknown cmd %q: want "reset", "step" or "close"`, req.Cmd)
	}
	return req, nil
}

// requestKeys holds a request's keys as parseRequest reads them.
type requestKeys struct {
	Cmd, Seed, Action *json.RawMessage
}

// decodeRequest reads one JSON object and its keys strictly: each key is
// "cmd", "seed" or "action", spelt exactly so (encoding/json alone would
// take "CMD" for "cmd"), at most once, and nothing follows the object.
func decodeRequest(line []byte) (requestKeys, error) {
	var raw requestKeys
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return raw, fmt.Errorf("malformed request: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return raw, errors.New("malformed request: want a JSON object such as {\"cmd\":\"reset\",\"seed\":7}")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return raw, fmt.Errorf("malformed request: %v", err)
		}
		key, _ := tok.(string)
		var dst **json.RawMessage
		switch key {
		case "cmd":
			dst = &raw.Cmd
		case "seed":
			dst = &raw.Seed
		case "action":
			dst = &raw.Action
		default:
			return raw, fmt.Errorf("malformed request: unknown key %q: want \"cmd\", \"seed\" or \"action\" (spelt so)", key)
		}
		if *dst != nil {
			return raw, fmt.Errorf("malformed request: key %q given twice", key)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw, fmt.Errorf("malformed request: key %q: %v", key, err)
		}
		*dst = &v
	}
	if _, err := dec.Token(); err != nil {
		return raw, fmt.Errorf("malformed request: %v", err)
	}
	if dec.More() {
		return raw, errors.New("malformed request: data after the JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return raw, errors.New("malformed request: data after the JSON object")
	}
	return raw, nil
}

// resetReply, stepReply and errorReply are the answer lines.
type resetReply struct {
	Obs      []float64 `json:"obs"`
	Actions  int       `json:"actions"`
	Done     bool      `json:"done,omitempty"`
	Features []string  `json:"features"`
	Names    []string  `json:"action_names"`
	Info     Info      `json:"info"`
}

type stepReply struct {
	Obs    []float64 `json:"obs"`
	Reward float64   `json:"reward"`
	Done   bool      `json:"done"`
	Info   Info      `json:"info"`
}

type errorReply struct {
	Error string `json:"error"`
}

type closeReply struct {
	Closed bool `json:"closed"`
}

// Serve speaks the environment over a JSON-lines exchange: it reads one
// request per line from in and writes one answer per line to out.
//
//	{"cmd":"reset","seed":7}   → {"obs":[...],"actions":3,"features":[...],"action_names":[...],"info":{...}}
//	{"cmd":"step","action":1}  → {"obs":[...],"reward":-1,"done":false,"info":{...}}
//	{"cmd":"close"}            → {"closed":true}, and Serve returns
//
// A malformed line, an unknown command, an action out of range, a step
// before reset or after done gets {"error":"..."} naming the problem, and
// the exchange goes on. Serve returns nil at close or at the end of in,
// and the error of a failed write; it closes env either way. It stops
// when ctx is done, after the request being served.
func Serve(ctx context.Context, env *Env, in io.Reader, out io.Writer) error {
	defer env.Close()
	br := bufio.NewReaderSize(in, maxLine)
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	write := func(v any) error {
		err := enc.Encode(v)
		var bad *json.UnsupportedValueError
		if errors.As(err, &bad) {
			// A number JSON cannot write (the rewards are bounded, so
			// this is a bug): an error reply, so that the client still
			// reads one JSON line.
			err = enc.Encode(errorReply{fmt.Sprintf("reply: %v", err)})
		}
		if err != nil {
			return fmt.Errorf("env serve: %w", err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("env serve: %w", err)
		}
		return nil
	}
	for ctx.Err() == nil {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if werr := write(errorReply{fmt.Sprintf("line longer than %d bytes", maxLine)}); werr != nil {
				return werr
			}
			if err != nil {
				return nil
			}
			continue
		}
		if err != nil && len(bytes.TrimSpace(line)) == 0 {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("env serve: %w", err)
		}
		req, perr := parseRequest(line)
		var reply any
		switch {
		case perr != nil:
			reply = errorReply{perr.Error()}
		case req.Cmd == "close":
			return write(closeReply{true})
		case req.Cmd == "reset":
			obs, info, err := env.Reset(req.Seed)
			if err != nil {
				reply = errorReply{fmt.Sprintf("reset: %v", err)}
				break
			}
			reply = resetReply{Obs: obs, Actions: env.NumActions(), Done: env.Done(),
				Features: env.observationNames(), Names: env.ActionNames(), Info: info}
		default:
			obs, reward, done, info, err := env.Step(req.Action)
			if err != nil {
				reply = errorReply{fmt.Sprintf("step: %v", err)}
				break
			}
			reply = stepReply{Obs: obs, Reward: reward, Done: done, Info: info}
		}
		if err := write(reply); err != nil {
			return err
		}
	}
	return ctx.Err()
}
