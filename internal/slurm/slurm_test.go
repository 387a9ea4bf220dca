package slurm

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden scripts in testdata")

// opts are the options of the golden plans.
func opts() Options {
	return Options{Marslab: "/shared/bin/marslab", Dir: "/shared/runs/calib", Tasks: 4}
}

func TestGoldenScripts(t *testing.T) {
	full := opts()
	full.Name, full.Partition, full.Time, full.CPUs = "calib", "short", "1:30:00", 8
	full.Extra = []string{"--account=lab", "--mem=2G"}
	plans := []struct {
		name string
		plan func() (*Plan, error)
	}{
		{"batch", func() (*Plan, error) {
			return Batch(opts(), []string{"-players", "mars,aggressive,random", "-games", "1000", "-seed", "7", "-param", "mars.k=it's"})
		}},
		{"batch-options", func() (*Plan, error) { return Batch(full, []string{"-games", "100"}) }},
		{"tournament", func() (*Plan, error) {
			return Tournament(opts(), "/shared/configs/my tournament.toml", nil)
		}},
		{"sweep", func() (*Plan, error) { return Search(opts(), "sweep", "/shared/configs/sweep.toml", 3, nil) }},
		{"evolve", func() (*Plan, error) { return Search(full, "evolve", "/shared/configs/evolve.toml", 2, nil) }},
	}
	for _, tc := range plans {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.plan()
			require.NoError(t, err)
			var b strings.Builder
			for i, s := range p.Scripts {
				fmt.Fprintf(&b, "==> %s <==\n%s", p.ScriptPath(i), s.Text)
			}
			fmt.Fprintf(&b, "==> %s <==\n%s", SubmitScript, p.Shell())
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./internal/slurm -update to write it")
			assert.Equal(t, string(want), b.String())
			// Every script is valid bash.
			if bash, err := exec.LookPath("bash"); err == nil {
				for _, s := range append(p.Scripts, Script{SubmitScript, p.Shell()}) {
					cmd := exec.Command(bash, "-n")
					cmd.Stdin = strings.NewReader(s.Text)
					out, err := cmd.CombinedOutput()
					assert.NoError(t, err, "bash -n %s: %s", s.File, out)
				}
			}
		})
	}
}

func TestSearchChain(t *testing.T) {
	p, err := Search(opts(), "sweep", "/c/s.toml", 3, []string{"-param", "x"})
	require.NoError(t, err)
	require.Len(t, p.Jobs, 6)
	for j, job := range p.Jobs {
		assert.Equal(t, j-1, job.After, "job %d waits for the one before", j)
		if j%2 == 0 {
			assert.Equal(t, Job{0, 4, j - 1, fmt.Sprintf("shards of step %d", j/2)}, job)
		} else {
			assert.Equal(t, Job{1, 0, j - 1, fmt.Sprintf("merge of step %d", j/2)}, job)
		}
	}
	assert.Contains(t, p.Scripts[0].Text, `/shared/bin/marslab sweep /c/s.toml -param x -out /shared/runs/calib -workers "${SLURM_CPUS_PER_TASK:-1}" -shard "${SLURM_ARRAY_TASK_ID}/4" -resume`+"\n")
	assert.True(t, strings.HasSuffix(p.Scripts[1].Text, "/shared/bin/marslab sweep /c/s.toml -param x -out /shared/runs/calib -merge\n"), p.Scripts[1].Text)
}

func TestSubmit(t *testing.T) {
	p, err := Search(opts(), "evolve", "/c/e.toml", 2, nil)
	require.NoError(t, err)
	var calls [][]string
	next := 100
	sbatch := func(args []string) (string, error) {
		calls = append(calls, args)
		next++
		return fmt.Sprintf("%d;cluster\n", next), nil
	}
	ids, err := p.Submit(sbatch)
	require.NoError(t, err)
	assert.Equal(t, []string{"101", "102", "103", "104"}, ids)
	shards, merge := "/shared/runs/calib/slurm/evolve-shards.sh", "/shared/runs/calib/slurm/evolve-merge.sh"
	assert.Equal(t, [][]string{
		{"--parsable", shards},
		{"--parsable", "--dependency=afterok:101", merge},
		{"--parsable", "--dependency=afterok:102", shards},
		{"--parsable", "--dependency=afterok:103", merge},
	}, calls)

	// A failure stops the chain and returns the ids submitted before it.
	calls, next = nil, 200
	fail := func(args []string) (string, error) {
		if len(calls) == 2 {
			return "", errors.New("sbatch: error: Batch job submission failed")
		}
		return sbatch(args)
	}
	ids, err = p.Submit(fail)
	assert.Equal(t, []string{"201", "202"}, ids)
	assert.EqualError(t, err, "submitting shards of step 1 (evolve-shards.sh): sbatch: error: Batch job submission failed")

	// Output that is not a job id is an error.
	ids, err = p.Submit(func([]string) (string, error) { return "Submitted batch job 5\n", nil })
	assert.Empty(t, ids)
	assert.EqualError(t, err, `submitting shards of step 0 (evolve-shards.sh): sbatch --parsable printed "Submitted batch job 5\n": want a job id`)
}

func TestParseJobID(t *testing.T) {
	for _, tc := range []struct {
		out, id string
		ok      bool
	}{
		{"42\n", "42", true},
		{"42;main\n", "42", true},
		{"  7 ", "7", true},
		{"", "", false},
		{"x42", "", false},
		{";main", "", false},
		{"1\n2\n", "", false},
		{"12_3", "", false},
	} {
		id, err := ParseJobID(tc.out)
		if !tc.ok {
			assert.Error(t, err, "%q", tc.out)
			continue
		}
		require.NoError(t, err, "%q", tc.out)
		assert.Equal(t, tc.id, id)
	}
}

func TestQuote(t *testing.T) {
	words := []string{"", "plain", "/a/b-c_d.toml", "a b", "it's", `"$HOME"`, "`x`", "a\nb", "mars(k=1;m=2)", "*", "--x=y,z"}
	for _, w := range words {
		q := Quote(w)
		if w == "plain" || w == "/a/b-c_d.toml" || w == "--x=y,z" {
			assert.Equal(t, w, q)
		}
		bash, err := exec.LookPath("bash")
		if err != nil {
			continue
		}
		// bash reads the quoted word back as w.
		out, err := exec.Command(bash, "-c", "printf %s "+q).Output()
		require.NoError(t, err, q)
		assert.Equal(t, w, string(out), "Quote(%q) = %s", w, q)
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) { o.Marslab = "marslab" }, `marslab executable "marslab": want an absolute path`},
		{func(o *Options) { o.Dir = "runs/x" }, `output directory "runs/x": want an absolute path`},
		{func(o *Options) { o.Dir = "/my runs/x" }, `output directory (in #SBATCH --output) "/my runs/x": holds a space, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Dir = "/runs/100%" }, `output directory "/runs/100%": want no % (in #SBATCH --output, sbatch reads % as a file name pattern)`},
		// Issue 25, item 13: what sbatch's directive parser would split or unquote.
		{func(o *Options) { o.Dir = "/runs/it's" }, `output directory (in #SBATCH --output) "/runs/it's": holds a quote, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Dir = `/runs/a"b` }, `output directory (in #SBATCH --output) "/runs/a\"b": holds a quote, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Dir = `/runs/a\b` }, `output directory (in #SBATCH --output) "/runs/a\\b": holds a backslash, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Dir = "/runs/a#b" }, `output directory (in #SBATCH --output) "/runs/a#b": holds a #, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Dir = "/runs/a\rb" }, `output directory (in #SBATCH --output) "/runs/a\rb": holds a carriage return, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Tasks = 0 }, "0 tasks: want >= 1"},
		{func(o *Options) { o.CPUs = -1 }, "-1 CPUs per task: want >= 0 (0 = Slurm's default)"},
		{func(o *Options) { o.Name = "my job" }, `job name "my job": want no spaces, quotes, $ or backslashes`},
		{func(o *Options) { o.Time = "1 h" }, `time "1 h": holds a space, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Partition = "gpu\x01" }, `partition "gpu\x01": holds the control character U+0001, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{"--comment=hello world"} }, `sbatch option "--comment=hello world": holds a space, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{"--comment=a\tb"} }, `sbatch option "--comment=a\tb": holds a tab, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{"--comment=a\r"} }, `sbatch option "--comment=a\r": holds a carriage return, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{`--comment="open`} }, `sbatch option "--comment=\"open": holds a quote, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{"--comment='x'"} }, `sbatch option "--comment='x'": holds a quote, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{`--comment=a\b`} }, `sbatch option "--comment=a\\b": holds a backslash, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{"--comment=a#b"} }, `sbatch option "--comment=a#b": holds a #, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #`},
		{func(o *Options) { o.Extra = []string{"account=x"} }, `sbatch option "account=x": want one option starting with -`},
		{func(o *Options) { o.Extra = []string{"--array=1-3"} }, `sbatch option "--array=1-3": the plan sets --array itself`},
		{func(o *Options) { o.Extra = []string{"--dependency=afterok:1"} }, `sbatch option "--dependency=afterok:1": the plan sets --dependency itself`},
	} {
		o := opts()
		tc.edit(&o)
		_, err := Batch(o, nil)
		assert.EqualError(t, err, tc.want)
	}
	_, err := Batch(opts(), []string{"-games", "10", "-out", "x"})
	assert.EqualError(t, err, "flag -out: the plan sets it on every job itself")
	_, err = Tournament(opts(), "/c/t.toml", []string{"--shard=1/2"})
	assert.EqualError(t, err, "flag -shard: the plan sets it on every job itself")
	_, err = Tournament(opts(), "t.toml", nil)
	assert.EqualError(t, err, `config "t.toml": want an absolute path`)
	_, err = Search(opts(), "grid", "/c/s.toml", 2, nil)
	assert.EqualError(t, err, `search command "grid": want sweep, evolve or validate`)
	_, err = Search(opts(), "sweep", "/c/s.toml", 0, nil)
	assert.EqualError(t, err, "0 steps: want >= 1")
	_, err = Search(opts(), "sweep", "/c/s.toml", 1, []string{"-resume"})
	assert.EqualError(t, err, "flag -resume: the plan sets it on every job itself")
}

// TestWriteAndShell writes a plan and runs its submit.sh with a fake
// sbatch that records its arguments: the jobs are submitted in order, each
// depending on the id its predecessor printed.
func TestWriteAndShell(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	o := opts()
	o.Dir = filepath.Join(dir, "run")
	p, err := Search(o, "sweep", "/c/s.toml", 2, nil)
	require.NoError(t, err)
	require.NoError(t, p.Write())
	for _, f := range []string{"sweep-shards.sh", "sweep-merge.sh", SubmitScript} {
		st, err := os.Stat(filepath.Join(o.Dir, ScriptDir, f))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o755), st.Mode().Perm(), f)
	}
	assert.DirExists(t, filepath.Join(o.Dir, ScriptDir, "logs"))

	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	fake := "#!/bin/bash\ntouch \"$CALLS\"\nn=$(( $(wc -l < \"$CALLS\") + 11 ))\necho \"$*\" >> \"$CALLS\"\necho \"$n;c\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755))
	calls := filepath.Join(dir, "calls")
	cmd := exec.Command(bash, filepath.Join(o.Dir, ScriptDir, SubmitScript))
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CALLS="+calls)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "shards of step 0: job 11;c\nmerge of step 0: job 12;c\nshards of step 1: job 13;c\nmerge of step 1: job 14;c\n", string(out))
	s, m := filepath.Join(o.Dir, ScriptDir, "sweep-shards.sh"), filepath.Join(o.Dir, ScriptDir, "sweep-merge.sh")
	b, err := os.ReadFile(calls)
	require.NoError(t, err)
	assert.Equal(t, "--parsable "+s+"\n--parsable --dependency=afterok:11 "+m+"\n--parsable --dependency=afterok:12 "+s+"\n--parsable --dependency=afterok:13 "+m+"\n", string(b))
}

func ExampleBatch() {
	p, err := Batch(Options{Marslab: "/opt/marslab", Dir: "/scratch/calib", Tasks: 8},
		[]string{"-players", "mars,aggressive,random", "-games", "100000", "-seed", "1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for j, job := range p.Jobs {
		fmt.Println(job.Label, p.Args(j, "ID"))
	}
	// Output:
	// shards [--parsable /scratch/calib/slurm/batch-shards.sh]
	// merge [--parsable --dependency=afterok:ID /scratch/calib/slurm/batch-merge.sh]
}

// TestDirectiveAccepted: the values sbatch takes unquoted are written as
// they are (make test-slurm submits these with sbatch --test-only).
func TestDirectiveAccepted(t *testing.T) {
	o := opts()
	o.Dir = "/runs/a+b@c,d=e~f:g"
	o.Name = "exp.1_a-b"
	o.Partition = "gpu,cpu"
	o.Time = "1-02:03:04"
	o.Extra = []string{"--comment=a,b:c=d+e@f", "--mem=100M", "--nice=5", "--comment=é"}
	p, err := Batch(o, []string{"-games", "10"})
	require.NoError(t, err)
	text := p.Scripts[0].Text
	for _, l := range []string{"#SBATCH --output=/runs/a+b@c,d=e~f:g/slurm/logs/%x-%A_%a.out", "#SBATCH --job-name=exp.1_a-b-batch",
		"#SBATCH --partition=gpu,cpu", "#SBATCH --time=1-02:03:04", "#SBATCH --comment=a,b:c=d+e@f", "#SBATCH --mem=100M", "#SBATCH --comment=é"} {
		assert.Contains(t, text, l+"\n")
	}
}
