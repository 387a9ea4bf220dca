package view

// Exported for the external tests of package view_test.
const (
	Margin = margin
	Disc   = disc
)
