package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/internal/recognition"
)

// cmdRecognize runs the mission-recognition experiment of a TOML config
// and prints the paper's tables.
func cmdRecognize(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("recognize", `usage: marslab recognize CONFIG [flags]

Plays the mission-mode games of CONFIG (a TOML file, e.g. configs/experiments/phatt.toml):
GAMES games of every arm (line-up), every player watched by four recognisers of its secret
mission card (plain PHATT after Khan & Rovatsos 2013, PHATT with their section 6.0.3's
state-dependent weights, and a data-driven recogniser, joint and choice likelihoods, trained
first on TRAIN_GAMES games of every arm with another seed), and prints the paper's tables: correct and incorrect predictions
at 25/50/75/100 % of the game, winners and losers apart, accuracy per mission, 95 % Wilson
intervals, the binomial test against a random guess, and paired comparisons of the
recognisers (exact McNemar, Holm), as Markdown with sentences that state what the tables show. One line per game goes to OUT/games.jsonl (byte-identical
for any number of workers); -resume continues an interrupted run; the tables go to
OUT/tables.txt too, and the tables notebooks/recognition shares (game length, every
recogniser, paired comparisons, counting rules) to OUT/report.md. The CSV files
notebooks/recognition writes go to OUT as well (length.csv, accuracy.csv under the paper's
counting and ours, missions.csv and pairs.csv, by the paper's counting whatever -clock, -ties
and -end say) and, unless -figures=false, its figures (accuracy, winners-losers and
recognisers-ARM, each .png and .svg). -shard i/n plays every n-th game only (each shard trains the whole data
model); -merge DIR,DIR,... joins the shards' games into OUT and prints the tables of them all.
The tables count as the paper did: "% of game" includes the setup's steps (every starting
army placed after the deal), a prediction tied between cards is wrong (the share of ties is
printed beside), and the end of the game is the last end of turn before the turn that ended
it (the paper's program sampled at turn ends only); -clock turns counts player-turns only,
-ties share breaks ties at random, -end game takes the end after the game's last action.`, stderr)
	out := fs.String("out", "", "output directory (default: the config's out key)")
	workers := fs.Int("workers", 0, "games played at once, >= 0 (0 = every core)")
	games := fs.Int("games", 0, "test games per arm, >= 0 (0 = the config's games)")
	train := fs.Int("train-games", 0, "training games per arm, >= 0 (0 = the config's train_games)")
	resume := fs.Bool("resume", false, "continue the run in the output directory: keep its games and play the missing ones")
	quiet := fs.Bool("quiet", false, "print no progress")
	shardArg := fs.String("shard", "", "play only shard INDEX/COUNT (the experiment's k-th game when k % COUNT == INDEX); default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS, else 0/1")
	clock := fs.String("clock", "paper", "sampling points of a game: paper (setup steps counted as turns) or turns (player-turns only)")
	ties := fs.String("ties", "wrong", "a prediction tied between cards: wrong (the paper's counting) or share (broken at random)")
	end := fs.String("end", "turn", "the end of the game: turn (the last turn's end before the final turn, the paper's sampling) or game (after the last action)")
	drawFigures := fs.Bool("figures", true, "draw the figures (PNG and SVG)")
	merge := fs.String("merge", "", "join the games of these comma-separated shard output directories into -out (plays nothing)")
	path, err := parseConfigArg(fs, args, stdout)
	if err != nil {
		return err
	}
	switch {
	case *workers < 0:
		return fmt.Errorf("-workers %d: must be >= 0 (0 = every core)", *workers)
	case *games < 0 || *games > recognition.MaxGames:
		return fmt.Errorf("-games %d: must be in [0, %d] (0 = the config's)", *games, recognition.MaxGames)
	case *train < 0 || *train > recognition.MaxGames:
		return fmt.Errorf("-train-games %d: must be in [0, %d] (0 = the config's)", *train, recognition.MaxGames)
	}
	counting, err := recognition.ParseCounting(*clock, *ties, *end)
	if err != nil {
		return fmt.Errorf("-%w", err)
	}
	shard, _, err := shardOf(*shardArg)
	if err != nil {
		return err
	}
	cfg, err := recognition.Load(path)
	if err != nil {
		return err
	}
	setup, err := cfg.Resolve(reg)
	if err != nil {
		return err
	}
	opt := recognition.Options{Out: *out, Workers: *workers, Games: *games, TrainGames: *train, Resume: *resume, Shard: shard}
	if opt.Out == "" {
		opt.Out = cfg.Out
	}
	if opt.Out == "" {
		return fmt.Errorf("-out: an output directory is required (%s has no out key)", path)
	}
	if *merge != "" && *resume {
		return fmt.Errorf("-merge and -resume exclude each other (a merge writes its folder again)")
	}
	lock, err := ownDir(opt.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	if !*quiet {
		opt.Log = stderr
	}
	var res *recognition.Results
	if *merge != "" {
		res, err = recognition.Merge(cfg, setup, strings.Split(*merge, ","), opt)
	} else {
		res, err = recognition.Run(ctx, cfg, setup, opt)
	}
	if err != nil {
		return err
	}
	sum, err := recognition.Summarize(res, counting)
	if err != nil {
		return err
	}
	effects, err := recognition.CountingEffects(res, 0)
	if err != nil {
		return err
	}
	var tables, md bytes.Buffer
	if err := recognition.WriteTables(io.MultiWriter(stdout, &tables), sum, effects); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(opt.Out, "tables.txt"), tables.Bytes(), 0o644); err != nil {
		return err
	}
	if err := recognition.WriteMarkdown(&md, sum, effects); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(opt.Out, "report.md"), md.Bytes(), 0o644); err != nil {
		return err
	}
	paper, ours := sum, sum
	if counting != (recognition.Counting{}) {
		if paper, err = recognition.Summarize(res, recognition.Counting{}); err != nil {
			return err
		}
	}
	if counting != recognition.Ours {
		if ours, err = recognition.Summarize(res, recognition.Ours); err != nil {
			return err
		}
	}
	if _, err := recognition.WriteCSV(opt.Out, paper, ours); err != nil {
		return err
	}
	if *drawFigures {
		if _, err := figures.WriteRecognition(opt.Out, paper); err != nil {
			return err
		}
	}
	return nil
}
