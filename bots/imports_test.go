package bots

import (
	"go/build"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportsOnlySim keeps package bots below every bot family and the
// registry: it may import the standard library and marslab/sim only.
func TestImportsOnlySim(t *testing.T) {
	pkg, err := build.Default.ImportDir(".", 0)
	require.NoError(t, err)
	for _, imp := range pkg.Imports {
		first, _, _ := strings.Cut(imp, "/")
		if imp == "marslab/sim" || !strings.Contains(first, ".") && first != "marslab" {
			continue
		}
		assert.Fail(t, "package bots imports "+imp)
	}
}
