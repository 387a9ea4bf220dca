package cli

import (
	"errors"
	"fmt"

	"github.com/marslab-risk/marslab/internal/atomicfile"
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

// resumable are the commands that continue a run in their folder with
// -resume.
var resumable = map[string]bool{"batch": true, "tournament": true, "sweep": true, "evolve": true,
	"validate": true, "recognize": true, "learn": true, "slurm": true}

// advise adds to a refusal of the libraries (a folder holding another run,
// a file that is not a regular file of one link, git failing) the advice
// of the command line for command cmd.
func advise(cmd string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, outdir.ErrHoldsRun) && resumable[cmd]:
		return fmt.Errorf("%w: use -resume to continue it, or another output directory", err)
	case errors.Is(err, outdir.ErrHoldsRun):
		return fmt.Errorf("%w: choose another output directory", err)
	case errors.Is(err, outdir.ErrNotLock):
		return fmt.Errorf("%w: marslab writes nothing through it; remove it if it is not yours, or choose another output directory", err)
	case errors.Is(err, atomicfile.ErrNotRegular):
		return fmt.Errorf("%w: marslab writes nothing through it; remove it, or choose another output directory", err)
	case errors.Is(err, outdir.ErrGit):
		return fmt.Errorf("%w: until git can list the folder's tracked files it is refused; fix what git says (for another owner's repository: git config --global --add safe.directory PATH), or choose a folder outside the work tree", err)
	}
	return err
}
