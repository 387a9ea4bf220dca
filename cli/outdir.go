package cli

import (
	"github.com/marslab-risk/marslab/internal/outdir"
)

// ownDir makes dir the command's output folder: it refuses a folder inside
// a notebook folder or holding files git tracks (outdir.Check) and takes
// the folder's exclusive lock, which the caller releases when the command
// ends (the process's exit releases it too).
func ownDir(dir string) (*outdir.Lock, error) {
	if err := outdir.Check(dir); err != nil {
		return nil, err
	}
	return outdir.Acquire(dir)
}
