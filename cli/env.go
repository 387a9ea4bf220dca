package cli

import (
	"context"
	"fmt"

	"github.com/marslab-risk/marslab/learn"
)

const envUsage = "usage: marslab env serve [CONFIG]\n\n" +
	"Serves the learning environment (docs/learn.md) over standard input and output,\n" +
	"one JSON object per line: {\"cmd\":\"reset\",\"seed\":7}, {\"cmd\":\"step\",\"action\":1},\n" +
	"{\"cmd\":\"close\"}. CONFIG is an environment TOML file (default: the set-up of\n" +
	"Sciberras 2022: 4 players, actions passive, pacifist, aggressive)."

// cmdEnv runs "marslab env serve [CONFIG]": the learning environment over
// a JSON-lines exchange on stdin and stdout (learn.Serve).
func cmdEnv(ctx context.Context, in *invocation, _ struct{}) error {
	pos := in.args
	if len(pos) == 0 || pos[0] != "serve" || len(pos) > 2 {
		in.fs.Usage()
		return fmt.Errorf("want \"serve [CONFIG]\", got %q", pos)
	}
	cfg := learn.DefaultConfig()
	if len(pos) == 2 {
		var err error
		if cfg, err = learn.LoadConfig(pos[1]); err != nil {
			return err
		}
	}
	env, err := learn.NewEnv(cfg, in.reg)
	if err != nil {
		return err
	}
	return learn.Serve(ctx, env, in.stdin, in.stdout)
}
