// Package figures draws the figures of the tournaments (package tourney),
// the strategist (internal/strategist) and the recognition experiments
// (internal/recognition) with package plots. Those packages compute and
// return numbers and import no plotting package; the commands and the
// notebooks draw their figures here.
package figures

import "github.com/marslab-risk/marslab/plots"

// Figure is one named figure of a report.
type Figure struct {
	// Name is the base of its file names.
	Name string
	// Chart draws it (plots.Save writes it to a .png, .svg or .pdf file).
	Chart plots.Chart
}
