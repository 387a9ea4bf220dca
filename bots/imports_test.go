package bots

import (
	"go/build"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportsOnlySim keeps package bots below every bot family and the
// registry: it may import the standard library and the module's sim only.
func TestImportsOnlySim(t *testing.T) {
	pkg, err := build.Default.ImportDir(".", 0)
	require.NoError(t, err)
	for _, imp := range pkg.Imports {
		first, _, _ := strings.Cut(imp, "/")
		if imp == "github.com/marslab-risk/marslab/sim" || !strings.Contains(first, ".") {
			continue
		}
		assert.Fail(t, "package bots imports "+imp)
	}
}
