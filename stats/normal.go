package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a two-sided confidence interval [Lo, Hi].
type Interval struct {
	Lo, Hi float64
}

// Contains reports whether Lo <= x <= Hi.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// Width is Hi - Lo.
func (iv Interval) Width() float64 { return iv.Hi - iv.Lo }

// String formats the interval as "[lo, hi]" with four decimals.
func (iv Interval) String() string { return fmt.Sprintf("[%.4f, %.4f]", iv.Lo, iv.Hi) }

// Correctly rounded two-sided standard normal quantiles
// Φ⁻¹(1 - (1-level)/2) of the common levels, as untyped constants so that
// their squares are rounded once; gonum's quantile can be a unit in the
// last place away from them.
const (
	z90 = 1.6448536269514722
	z95 = 1.959963984540054
	z99 = 2.5758293035489004
)

// zLevels maps a common level to its quantile z and z².
var zLevels = map[float64][2]float64{
	0.90: {z90, z90 * z90},
	0.95: {z95, z95 * z95},
	0.99: {z99, z99 * z99},
}

// checkLevel reports a confidence level outside (0, 1).
func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("confidence level %v outside (0, 1)", level)
	}
	return nil
}

// NormalQuantile returns the two-sided standard normal critical value of a
// confidence level: z = Φ⁻¹(1 - (1-level)/2), e.g. 1.959963984540054 for
// 0.95. The level must lie in (0, 1).
func NormalQuantile(level float64) (float64, error) {
	if err := checkLevel(level); err != nil {
		return 0, fmt.Errorf("stats: NormalQuantile: %w", err)
	}
	return zOf(level), nil
}

// zOf is [NormalQuantile] for a checked level.
func zOf(level float64) float64 {
	z, _ := zSquared(level)
	return z
}

// zSquared returns [NormalQuantile] and its square for a checked level.
func zSquared(level float64) (z, z2 float64) {
	if v, ok := zLevels[level]; ok {
		return v[0], v[1]
	}
	z = -distuv.UnitNormal.Quantile((1 - level) / 2)
	return z, z * z
}

// normalTwoSided is the two-sided p-value of a standard normal statistic,
// 2·(1 - Φ(|z|)).
func normalTwoSided(z float64) float64 {
	return 2 * distuv.UnitNormal.Survival(math.Abs(z))
}
