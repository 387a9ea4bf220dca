package report

import (
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
)

// ipynb is the part of an nbformat 4 notebook the test reads.
type ipynb struct {
	NBFormat      int `json:"nbformat"`
	NBFormatMinor int `json:"nbformat_minor"`
	Metadata      struct {
		KernelSpec struct {
			Name     string `json:"name"`
			Language string `json:"language"`
		} `json:"kernelspec"`
	} `json:"metadata"`
	Cells []struct {
		ID       string          `json:"id"`
		CellType string          `json:"cell_type"`
		Source   []string        `json:"source"`
		Outputs  json.RawMessage `json:"outputs"`
	} `json:"cells"`
}

// gonbProgram turns the code cells of a GoNB notebook into one main
// package as GoNB compiles them: the declarations of every cell are kept,
// and each cell's lines after "%%" become the body of a function that main
// calls in cell order. Lines starting with "!" (shell) or "%" (special
// commands) are left out and returned apart.
func gonbProgram(nb *ipynb) (src string, commands []string) {
	var decls, mains strings.Builder
	var calls []string
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		inMain := false
		var body strings.Builder
		for _, line := range strings.Split(strings.Join(c.Source, ""), "\n") {
			t := strings.TrimSpace(line)
			switch {
			case t == "%%" || t == "%main":
				inMain = true
			case strings.HasPrefix(t, "!") || strings.HasPrefix(t, "%"):
				commands = append(commands, t)
			case inMain:
				body.WriteString("\t" + line + "\n")
			default:
				decls.WriteString(line + "\n")
			}
		}
		if inMain {
			name := "cell" + strconv.Itoa(i)
			calls = append(calls, name)
			mains.WriteString("func " + name + "() {\n" + body.String() + "}\n\n")
		}
	}
	var b strings.Builder
	b.WriteString("package main\n\n")
	b.WriteString(decls.String())
	b.WriteString("\n")
	b.WriteString(mains.String())
	b.WriteString("func main() {\n")
	for _, c := range calls {
		b.WriteString("\t" + c + "()\n")
	}
	b.WriteString("}\n")
	return b.String(), commands
}

// TestGoNBExample checks that notebooks/gonb-example.ipynb is a valid
// nbformat 4 notebook for the GoNB kernel, then builds its cells into one
// program, with the module replaced by this checkout as its first cell
// does, vets it, runs it in notebooks/ and checks the cells' output.
func TestGoNBExample(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "notebooks", "gonb-example.ipynb"))
	require.NoError(t, err)
	var nb ipynb
	require.NoError(t, json.Unmarshal(data, &nb))
	assert.Equal(t, 4, nb.NBFormat)
	assert.GreaterOrEqual(t, nb.NBFormatMinor, 5, "cell ids need nbformat 4.5")
	assert.Equal(t, "gonb", nb.Metadata.KernelSpec.Name)
	assert.Equal(t, "go", nb.Metadata.KernelSpec.Language)
	ids := map[string]bool{}
	for _, c := range nb.Cells {
		assert.Contains(t, []string{"code", "markdown"}, c.CellType)
		assert.NotEmpty(t, c.ID)
		assert.False(t, ids[c.ID], "cell ids are unique")
		ids[c.ID] = true
		if c.CellType == "code" {
			assert.JSONEq(t, "[]", string(c.Outputs), "committed without outputs")
		}
	}

	src, commands := gonbProgram(&nb)
	assert.Equal(t, []string{"!*go mod edit -replace github.com/marslab-risk/marslab=${GONB_DIR}/.."}, commands)
	formatted, err := format.Source([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, string(formatted), src, "the cells are gofmt-clean")

	dir := t.TempDir()
	gomod := "module gonbexample\n\ngo 1.26\n\nrequire github.com/marslab-risk/marslab v0.0.0-00010101000000-000000000000\n\nreplace github.com/marslab-risk/marslab => " +
		root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))
	gocmd := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// Built as the test binary was (-race or not), the program finds
		// the module's packages compiled already in the build cache.
		flags := "-mod=mod"
		if race.Enabled {
			flags += " -race"
		}
		cmd.Env = append(os.Environ(), "GOFLAGS="+flags, "GOWORK=off")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s\n%s", strings.Join(args, " "), out, src)
		return string(out)
	}
	gocmd("vet", ".")
	bin := filepath.Join(dir, "gonbexample")
	gocmd("build", "-o", bin, ".")
	run := exec.Command(bin)
	run.Dir = filepath.Join(root, "notebooks") // GoNB's working folder: the notebook's
	out, err := run.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, want := range []string{
		"3v2: defender loses 2: 2890/7776 = 0.3717",
		"10 vs 10: P(win) = 0.5676",
		" 0.417 0.106 0.027 0.007 0.002 0.000\n",
		"heat map written to",
		"below 1e-4: 0",
		"aggressive",
		"Dice: exact odds of Risk battles written to",
		"3,2,attacker wins,2890,7776,",
	} {
		assert.Contains(t, string(out), want)
	}
}
