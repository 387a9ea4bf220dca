package search

// Limits on the sizes of a search. Each is far above what a useful search
// asks for (the calibration notebook's runs stay under a tenth of it), and
// together they keep a search's memory small: a config over one is an
// error naming the key and the range, never an out-of-memory crash.
const (
	// MaxLevels bounds [narrow] levels.
	MaxLevels = 100
	// MaxRounds bounds [narrow] rounds.
	MaxRounds = 1000
	// MaxPoints bounds the grid points of a parameter ([[param]] points,
	// [narrow] points).
	MaxPoints = 1000
	// MaxCells bounds the cells of one narrowing level: the product of the
	// parameters' grid points.
	MaxCells = 100000
	// MaxBlocks bounds every count of blocks one candidate plays:
	// [narrow] blocks, [cmaes] blocks, max_blocks, mean_blocks and
	// final_blocks, [validate] blocks.
	MaxBlocks = 100000
	// MaxGenerations bounds [cmaes] generations.
	MaxGenerations = 100000
	// MaxLambda bounds [cmaes] lambda, the population size.
	MaxLambda = 10000
	// MaxStepBlocks bounds the blocks of one step of a search: cells x
	// blocks of a narrowing round, lambda x 2 x max_blocks + mean_blocks
	// of a CMA-ES generation.
	MaxStepBlocks = 1 << 22
)
