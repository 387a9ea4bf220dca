package sim

// Test helpers for the external tests (package sim_test), which can use the
// invariant checker of github.com/marslab-risk/marslab/internal/simtest.
var (
	RingMap      = ringMap
	RulesForTest = testRules
	NewChaos     = newChaos
)
