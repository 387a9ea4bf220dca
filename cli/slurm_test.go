package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeSbatch writes an sbatch that appends its arguments to dir/calls and
// prints the job ids 501, 502, ... in the form of --parsable.
func fakeSbatch(t *testing.T, dir string) (sbatch, calls string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	calls = filepath.Join(dir, "calls")
	sbatch = filepath.Join(dir, "sbatch")
	text := "#!/bin/bash\ntouch " + calls + "\nn=$(( $(wc -l < " + calls + ") + 501 ))\necho \"$*\" >> " + calls + "\necho \"$n\"\n"
	require.NoError(t, os.WriteFile(sbatch, []byte(text), 0o755))
	return sbatch, calls
}

func TestSlurmSubmitBatch(t *testing.T) {
	exe := fakeMarslab(t)
	dir := t.TempDir()
	sbatch, calls := fakeSbatch(t, dir)
	out := filepath.Join(dir, "run")
	res, err := runOut(t, "slurm", "submit", "-out", out, "-tasks", "3", "-marslab", exe, "-sbatch", sbatch, "-cpus", "2",
		"batch", "--", "-players", "aggressive,random,pacifist", "-games", "30", "-seed", "4")
	require.NoError(t, err, res)
	s, m := filepath.Join(out, "slurm", "batch-shards.sh"), filepath.Join(out, "slurm", "batch-merge.sh")
	assert.Equal(t, "shards: batch-shards.sh: job 501 (array 0-2)\nmerge: batch-merge.sh: job 502 after job 501\n"+
		"scripts and job output in "+filepath.Join(out, "slurm")+"; results in "+out+"\n"+
		"after a failed or cancelled task: bash "+filepath.Join(out, "slurm", "submit.sh")+" (submits the chain again; what is done is kept)\n", res)
	assert.Equal(t, "--parsable "+s+"\n--parsable --dependency=afterok:501 "+m+"\n", readText(t, calls))
	script := readText(t, s)
	assert.Contains(t, script, "#SBATCH --array=0-2\n#SBATCH --output="+filepath.Join(out, "slurm", "logs", "%x-%A_%a.out")+"\n#SBATCH --ntasks=1\n#SBATCH --kill-on-invalid-dep=yes\n#SBATCH --cpus-per-task=2\n")
	assert.Contains(t, script, exe+" batch -players aggressive,random,pacifist -games 30 -seed 4 -out "+out+`/shards/shard-"${SLURM_ARRAY_TASK_ID}"-of-3 -workers "${SLURM_CPUS_PER_TASK:-1}" -shard "${SLURM_ARRAY_TASK_ID}/3" -resume`)
	assert.Contains(t, readText(t, m), exe+" merge -out "+out+` "${shards[@]}"`)
	assert.FileExists(t, filepath.Join(out, "slurm", "submit.sh"))
	assert.DirExists(t, filepath.Join(out, "slurm", "logs"))

	// The shard script run as array task 1 of 3 plays the games 1, 4, ... of
	// the batch, the same lines as marslab batch -shard 1/3. The marslab it
	// runs is this test binary (TestMain).
	bin := filepath.Join(dir, "marslab")
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/bash\nMARSLAB_RUN_MAIN=argv exec "+self+" \"$@\"\n"), 0o755))
	// Submitting into the folder again is refused (it holds the scripts of
	// a run) unless -resume says it is the same run.
	_, err = runOut(t, "slurm", "submit", "-out", out, "-tasks", "3", "-marslab", bin, "-sbatch", sbatch,
		"batch", "--", "-players", "aggressive,random,pacifist", "-games", "30", "-seed", "4")
	require.EqualError(t, err, "slurm: "+out+" already holds a run (slurm): use -resume to continue it, or another output directory")
	res, err = runOut(t, "slurm", "submit", "-resume", "-out", out, "-tasks", "3", "-marslab", bin, "-sbatch", sbatch,
		"batch", "--", "-players", "aggressive,random,pacifist", "-games", "30", "-seed", "4")
	require.NoError(t, err, res)
	task := func(script string, env ...string) {
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v: %s", script, env, b)
	}
	task(s, "SLURM_ARRAY_TASK_ID=1")
	local := filepath.Join(dir, "local")
	batchIn(t, local, "-players", "aggressive,random,pacifist", "-games", "30", "-seed", "4", "-shard", "1/3")
	assert.Equal(t, readText(t, filepath.Join(local, "games.jsonl")), readText(t, filepath.Join(out, "shards", "shard-1-of-3", "games.jsonl")))

	// The other tasks, then the merge script: the files of the batch in one piece.
	task(s, "SLURM_ARRAY_TASK_ID=0", "SLURM_CPUS_PER_TASK=2")
	task(s, "SLURM_ARRAY_TASK_ID=2")
	task(m)
	whole := filepath.Join(dir, "whole")
	batchIn(t, whole, "-players", "aggressive,random,pacifist", "-games", "30", "-seed", "4")
	sameResults(t, whole, out)
}

// TestSlurmSubmitOverRun: a folder holding another run (a batch of
// marslab batch, a search's log) is refused before sbatch is called.
func TestSlurmSubmitOverRun(t *testing.T) {
	t.Parallel()
	exe := fakeMarslab(t)
	dir := t.TempDir()
	sbatch, calls := fakeSbatch(t, dir)
	batch := filepath.Join(dir, "batch")
	batchIn(t, batch, "-players", "random,random", "-games", "4", "-seed", "1")
	search := filepath.Join(dir, "search")
	require.NoError(t, os.MkdirAll(search, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(search, "log.jsonl"), nil, 0o644))
	for out, held := range map[string]string{batch: "batch (config.json)", search: "search (log.jsonl)"} {
		_, err := runOut(t, "slurm", "submit", "-out", out, "-tasks", "2", "-marslab", exe, "-sbatch", sbatch,
			"batch", "--", "-players", "aggressive,random", "-games", "30")
		require.EqualError(t, err, "slurm: "+out+" already holds a "+held+": use -resume to continue it, or another output directory")
		assert.NoDirExists(t, filepath.Join(out, "slurm"), "no scripts written")
		// -dry-run makes the same checks, and -resume does not continue
		// another command's run.
		_, err = runOut(t, "slurm", "submit", "-dry-run", "-out", out, "-tasks", "2", "-marslab", exe,
			"batch", "--", "-players", "aggressive,random", "-games", "30")
		require.EqualError(t, err, "slurm: "+out+" already holds a "+held+": use -resume to continue it, or another output directory")
		_, err = runOut(t, "slurm", "submit", "-resume", "-out", out, "-tasks", "2", "-marslab", exe, "-sbatch", sbatch,
			"batch", "--", "-players", "aggressive,random", "-games", "30")
		require.ErrorContains(t, err, "slurm: "+out+" already holds a "+held+", not a Slurm submission")
	}
	assert.NoFileExists(t, calls, "nothing submitted")

	// A folder holding only a sharded run's shards folder is continued
	// with -resume (each shard job checks its own folder), refused
	// without it.
	sharded := filepath.Join(dir, "sharded")
	require.NoError(t, os.MkdirAll(filepath.Join(sharded, "shards", "shard-0-of-2"), 0o755))
	_, err := runOut(t, "slurm", "submit", "-out", sharded, "-tasks", "2", "-marslab", exe, "-sbatch", sbatch,
		"batch", "--", "-players", "aggressive,random", "-games", "30")
	require.EqualError(t, err, "slurm: "+sharded+" already holds a run (shards): use -resume to continue it, or another output directory")
	_, err = runOut(t, "slurm", "submit", "-resume", "-out", sharded, "-tasks", "2", "-marslab", exe, "-sbatch", sbatch,
		"batch", "--", "-players", "aggressive,random", "-games", "30")
	require.NoError(t, err)
	assert.FileExists(t, calls, "submitted")
}

// slurm submit checks what the jobs would check, -dry-run included: a
// folder of the notebooks or one holding committed files, a -marslab that
// is no executable, and a -resume of another command line or -tasks.
func TestSlurmSubmitChecks(t *testing.T) {
	t.Parallel()
	exe := fakeMarslab(t)
	dir := t.TempDir()
	sbatch, calls := fakeSbatch(t, dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plain"), nil, 0o644))
	args := []string{"batch", "--", "-players", "aggressive,random", "-games", "30", "-seed", "4"}
	for _, tc := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"notebooks", []string{"-dry-run", "-out", "../notebooks/x", "-marslab", exe}, "is inside the notebook folder"},
		{"tracked files", []string{"-dry-run", "-out", ".", "-marslab", exe}, "holds files git tracks"},
		{"no executable", []string{"-dry-run", "-out", filepath.Join(dir, "a"), "-marslab", filepath.Join(dir, "nonexistent")}, "-marslab: stat " + filepath.Join(dir, "nonexistent") + ": no such file or directory"},
		{"not executable", []string{"-dry-run", "-out", filepath.Join(dir, "a"), "-marslab", filepath.Join(dir, "plain")}, "is not an executable file"},
		// A folder that cannot be written (under a file here; a read-only
		// file system or folder below) is refused by -dry-run as by the
		// jobs.
		{"not writable", []string{"-dry-run", "-out", filepath.Join(dir, "plain", "x"), "-marslab", exe}, "output directory " + filepath.Join(dir, "plain", "x") + ": cannot write in " + filepath.Join(dir, "plain")},
	} {
		_, err := runOut(t, append(append([]string{"slurm", "submit", "-tasks", "2"}, tc.flags...), args...)...)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
	if os.Geteuid() != 0 { // root writes into a folder of mode 0555
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o555))
		_, err := runOut(t, append([]string{"slurm", "submit", "-tasks", "2", "-dry-run", "-out", filepath.Join(ro, "x"), "-marslab", exe}, args...)...)
		assert.ErrorContains(t, err, "cannot write in "+ro)
	}
	out := filepath.Join(dir, "run")
	_, err := runOut(t, append([]string{"slurm", "submit", "-out", out, "-tasks", "3", "-marslab", exe, "-sbatch", sbatch}, args...)...)
	require.NoError(t, err)
	for _, tc := range []struct{ tasks, seed string }{{"2", "4"}, {"3", "5"}} {
		a := []string{"slurm", "submit", "-resume", "-out", out, "-tasks", tc.tasks, "-marslab", exe, "-sbatch", sbatch,
			"batch", "--", "-players", "aggressive,random", "-games", "30", "-seed", tc.seed}
		_, err := runOut(t, a...)
		assert.ErrorContains(t, err, "the folder holds the submission \"-tasks 3 batch -players aggressive,random -games 30 -seed 4\"")
		assert.ErrorContains(t, err, "-resume continues the same command line and -tasks")
	}
	_, err = runOut(t, append([]string{"slurm", "submit", "-resume", "-out", out, "-tasks", "3", "-marslab", exe, "-sbatch", sbatch}, args...)...)
	require.NoError(t, err, "the same submission again")
	assert.FileExists(t, calls)
}

func TestSlurmSubmitTournamentDryRun(t *testing.T) {
	exe := fakeMarslab(t)
	t.Parallel()
	dir := t.TempDir()
	cfg := tournamentConfig(t, dir)
	out := filepath.Join(dir, "run")
	res, err := runOut(t, "slurm", "submit", "-dry-run", "-out", out, "-tasks", "2", "-marslab", exe, "tournament", cfg)
	require.NoError(t, err, res)
	assert.Contains(t, res, "==> "+filepath.Join(out, "slurm", "tournament-shards.sh")+" <==\n#!/bin/bash\n")
	assert.Contains(t, res, exe+" tournament "+cfg+" -figures=false -out "+out+`/shards/shard-"${SLURM_ARRAY_TASK_ID}"-of-2`)
	assert.Contains(t, res, exe+" merge -quiet -out "+out+` "${shards[@]}"`+"\n"+exe+" tournament "+cfg+" -quiet -out "+out+` -workers "${SLURM_CPUS_PER_TASK:-1}" -resume`)
	assert.Contains(t, res, `job1=$(sbatch --parsable "--dependency=afterok:${job0%%;*}" `+filepath.Join(out, "slurm", "tournament-merge.sh")+")")
	assert.NoDirExists(t, out, "a dry run writes nothing")
}

func TestSlurmSubmitErrors(t *testing.T) {
	exe := fakeMarslab(t)
	t.Parallel()
	dir := t.TempDir()
	cfg := tournamentConfig(t, dir)
	base := []string{"slurm", "submit", "-marslab", exe, "-dry-run"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-tasks", "2", "batch"}, "slurm: -out is required: a directory shared by every node"},
		{[]string{"-out", dir, "batch"}, "slurm: -tasks 0: must be >= 1"},
		{[]string{"-out", dir, "-tasks", "2"}, "slurm: want a COMMAND: batch, tournament, sweep, evolve or validate (marslab slurm -h)"},
		{[]string{"-out", dir, "-tasks", "2", "play"}, `slurm: command "play": want batch, tournament, sweep, evolve or validate`},
		{[]string{"-out", dir, "-tasks", "2", "batch", "--", "-games", "0"}, "slurm: batch: -games 0: must be >= 1"},
		{[]string{"-out", dir, "-tasks", "2", "batch", "--", "-players", "aggressive,nobot"}, "slurm: batch: -players: "},
		{[]string{"-out", dir, "-tasks", "20", "batch", "--", "-games", "10"}, "slurm: -tasks 20: more tasks than the batch's 10 games"},
		{[]string{"-out", dir, "-tasks", "2", "batch", "--", "-games", "10", "-out", "x"}, "slurm: flag -out: the plan sets it on every job itself"},
		{[]string{"-out", dir, "-tasks", "2", "tournament"}, "slurm: tournament: want a CONFIG file after the command"},
		{[]string{"-out", dir, "-tasks", "2", "tournament", filepath.Join(dir, "none.toml")}, "slurm: tournament: stat " + filepath.Join(dir, "none.toml")},
		{[]string{"-out", dir, "-tasks", "9", "tournament", cfg}, "slurm: -tasks 9: more tasks than the tournament's 8 games"},
		{[]string{"-out", dir, "-tasks", "2", "-sbatch-opt", "--array=0-1", "tournament", cfg}, `slurm: sbatch option "--array=0-1": the plan sets --array itself`},
	} {
		_, err := runOut(t, append(append([]string(nil), base...), tc.args...)...)
		require.Error(t, err, "%v", tc.args)
		assert.True(t, strings.HasPrefix(err.Error(), tc.want), "%v: %v", tc.args, err)
	}
	// Without -marslab the executable is this one: a go test or go run
	// binary is temporary and refused.
	_, err := runOut(t, "slurm", "submit", "-dry-run", "-out", dir, "-tasks", "2", "tournament", cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a temporary one of go run: build marslab (make build) and pass -marslab PATH")
	_, err = runOut(t, "slurm", "cancel")
	assert.EqualError(t, err, "slurm: want the subcommand submit (marslab slurm -h)")
}

func TestSlurmSubmitSweep(t *testing.T) {
	exe := fakeMarslab(t)
	t.Parallel()
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3) // 2 levels x 2 racing rounds: 4 steps
	sbatch, calls := fakeSbatch(t, dir)
	out := filepath.Join(dir, "run")
	res, err := runOut(t, "slurm", "submit", "-out", out, "-tasks", "2", "-marslab", exe, "-sbatch", sbatch, "sweep", cfg, "--", "-figures=false")
	require.NoError(t, err, res)
	s, m := filepath.Join(out, "slurm", "sweep-shards.sh"), filepath.Join(out, "slurm", "sweep-merge.sh")
	assert.Contains(t, res, "shards of step 0: sweep-shards.sh: job 501 (array 0-1)\nmerge of step 0: sweep-merge.sh: job 502 after job 501\n"+
		"shards of step 1: sweep-shards.sh: job 503 (array 0-1) after job 502\n")
	assert.Contains(t, res, "merge of step 3: sweep-merge.sh: job 508 after job 507\n")
	want := "--parsable " + s + "\n"
	for j := 1; j < 8; j++ {
		script := s
		if j%2 == 1 {
			script = m
		}
		want += "--parsable --dependency=afterok:" + strconv.Itoa(500+j) + " " + script + "\n"
	}
	assert.Equal(t, want, readText(t, calls))
	assert.Contains(t, readText(t, s), exe+" sweep "+cfg+" -figures=false -out "+out+` -workers "${SLURM_CPUS_PER_TASK:-1}" -shard "${SLURM_ARRAY_TASK_ID}/2" -resume`)
	assert.Contains(t, readText(t, m), exe+" sweep "+cfg+" -figures=false -out "+out+" -merge\n")

	// A config the search refuses is refused before anything is submitted.
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("name = \"x\"\nplayers = 9\n"), 0o644))
	_, err = runOut(t, "slurm", "submit", "-dry-run", "-out", out, "-tasks", "2", "-marslab", exe, "sweep", bad)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "slurm: sweep: "), err.Error())
	assert.Contains(t, err.Error(), "bad.toml")
}

func TestSlurmSubmitValidateDryRun(t *testing.T) {
	exe := fakeMarslab(t)
	t.Parallel()
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3)
	out := filepath.Join(dir, "run")
	res, err := runOut(t, "slurm", "submit", "-dry-run", "-out", out, "-tasks", "2", "-marslab", exe,
		"validate", cfg, "--", "-a", "random(stop=0.5)", "-b", "random", "-blocks", "4", "-chunk", "2")
	require.NoError(t, err, res)
	assert.Contains(t, res, exe+" validate "+cfg+" -a 'random(stop=0.5)' -b random -blocks 4 -chunk 2 -out "+out+` -workers "${SLURM_CPUS_PER_TASK:-1}" -shard "${SLURM_ARRAY_TASK_ID}/2" -resume`)
	// 4 blocks in chunks of 2: two steps, four jobs.
	assert.Contains(t, res, `job3=$(sbatch --parsable "--dependency=afterok:${job2%%;*}" `+filepath.Join(out, "slurm", "validate-merge.sh")+")")
	assert.NotContains(t, res, "job4=")
}

// fakeMarslab writes an executable file standing for the marslab the
// jobs run (slurm submit checks that -marslab is one).
func fakeMarslab(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "marslab")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
	return p
}
