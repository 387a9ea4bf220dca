package search

// Limits on the sizes of a search. Each is far above what a useful search
// asks for (the calibration notebook's runs stay under a tenth of it), and
// together they keep a search's memory small: a config over one is an
// error naming the key and the range, never an out-of-memory crash.
const (
	// maxLevels bounds [narrow] levels.
	maxLevels = 100
	// maxRounds bounds [narrow] rounds.
	maxRounds = 1000
	// maxPoints bounds the grid points of a parameter ([[param]] points,
	// [narrow] points).
	maxPoints = 1000
	// maxCells bounds the cells of one narrowing level: the product of the
	// parameters' grid points.
	maxCells = 100000
	// maxBlocks bounds every count of blocks one candidate plays:
	// [narrow] blocks, [cmaes] blocks, max_blocks, mean_blocks and
	// final_blocks, [validate] blocks.
	maxBlocks = 100000
	// maxGenerations bounds [cmaes] generations.
	maxGenerations = 100000
	// maxLambda bounds [cmaes] lambda, the population size.
	maxLambda = 10000
	// maxStepBlocks bounds the blocks of one step of a search: cells x
	// blocks of a narrowing round, lambda x 2 x max_blocks + mean_blocks
	// of a CMA-ES generation.
	maxStepBlocks = 1 << 22
)
