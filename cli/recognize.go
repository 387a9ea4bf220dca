package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/internal/recognition"
)

const recognizeUsage = `usage: marslab recognize CONFIG [flags]

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
-ties share breaks ties at random, -end game takes the end after the game's last action.`

// recognizeFlags are the flags of marslab recognize.
type recognizeFlags struct {
	out, shard, clock, ties, end, merge *string
	workers, games, train               *int
	resume, quiet, figures              *bool
}

func recognizeFlagSet(fs *flag.FlagSet) *recognizeFlags {
	return &recognizeFlags{
		out:     fs.String("out", "", "output directory (default: the config's out key)"),
		workers: workersFlag(fs),
		games:   fs.Int("games", 0, "test games per arm, >= 0 (0 = the config's games)"),
		train:   fs.Int("train-games", 0, "training games per arm, >= 0 (0 = the config's train_games)"),
		resume:  fs.Bool("resume", false, "continue the run in the output directory: keep its games and play the missing ones"),
		quiet:   fs.Bool("quiet", false, "print no progress"),
		shard:   shardFlag(fs, "the experiment's k-th game when k % COUNT == INDEX"),
		clock:   fs.String("clock", "paper", "sampling points of a game: paper (setup steps counted as turns) or turns (player-turns only)"),
		ties:    fs.String("ties", "wrong", "a prediction tied between cards: wrong (the paper's counting) or share (broken at random)"),
		end:     fs.String("end", "turn", "the end of the game: turn (the last turn's end before the final turn, the paper's sampling) or game (after the last action)"),
		figures: fs.Bool("figures", true, "draw the figures (PNG and SVG)"),
		merge:   fs.String("merge", "", "join the games of these comma-separated shard output directories into -out (plays nothing)"),
	}
}

// cmdRecognize runs the mission-recognition experiment of a TOML config
// and prints the paper's tables.
func cmdRecognize(ctx context.Context, in *invocation, f *recognizeFlags) error {
	path, err := in.config()
	if err != nil {
		return err
	}
	counting, shard, err := f.check()
	if err != nil {
		return err
	}
	cfg, err := recognition.Load(path)
	if err != nil {
		return err
	}
	setup, err := cfg.Resolve(in.reg)
	if err != nil {
		return err
	}
	opt := recognition.Options{Out: *f.out, Workers: *f.workers, Games: *f.games, TrainGames: *f.train, Resume: *f.resume, Shard: shard,
		Log: in.progress(*f.quiet)}
	if opt.Out == "" {
		opt.Out = cfg.Out
	}
	if opt.Out == "" {
		return fmt.Errorf("-out: an output directory is required (%s has no out key)", path)
	}
	if *f.merge != "" && *f.resume {
		return fmt.Errorf("-merge and -resume exclude each other (a merge writes its folder again)")
	}
	lock, err := ownDir(opt.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	var res *recognition.Results
	if *f.merge != "" {
		res, err = recognition.Merge(cfg, setup, strings.Split(*f.merge, ","), opt)
	} else {
		res, err = recognition.Run(ctx, cfg, setup, opt)
	}
	if err != nil {
		return err
	}
	return writeRecognition(in.stdout, opt.Out, res, counting, *f.figures)
}

// check checks the flags of marslab recognize and returns the counting
// and the shard they ask for.
func (f *recognizeFlags) check() (recognition.Counting, arena.Shard, error) {
	err := firstError(checkWorkers(*f.workers),
		checkRange("games", *f.games, 0, recognition.MaxGames, "0 = the config's"),
		checkRange("train-games", *f.train, 0, recognition.MaxGames, "0 = the config's"))
	if err != nil {
		return recognition.Counting{}, arena.Shard{}, err
	}
	counting, err := recognition.ParseCounting(*f.clock, *f.ties, *f.end)
	if err != nil {
		return counting, arena.Shard{}, fmt.Errorf("-%w", err)
	}
	shard, _, err := shardOf(*f.shard)
	return counting, shard, err
}

// writeRecognition prints the tables of res under counting and writes
// them to out (tables.txt, report.md), with the CSV files by the paper's
// counting and ours and, when figures, the figures.
func writeRecognition(stdout io.Writer, out string, res *recognition.Results, counting recognition.Counting, drawFigures bool) error {
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
	if err := atomicfile.WriteFile(filepath.Join(out, "tables.txt"), tables.Bytes(), 0o644); err != nil {
		return err
	}
	if err := recognition.WriteMarkdown(&md, sum, effects); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(out, "report.md"), md.Bytes(), 0o644); err != nil {
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
	if _, err := recognition.WriteCSV(out, paper, ours); err != nil {
		return err
	}
	if drawFigures {
		if _, err := figures.WriteRecognition(out, paper); err != nil {
			return err
		}
	}
	return nil
}
