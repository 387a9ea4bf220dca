package bots

// Exported for the external tests of package bots_test.
var (
	UniqueLabels   = uniqueLabels
	SameConfig     = sameConfig
	SplitSpec      = splitSpec
	IsFile         = isFile
	ParseParamFile = parseParamFile
)
