package report

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/configs"
)

// checker collects the first range error of a config file.
type checker struct {
	path string
	err  error
}

func (c *checker) fail(key, format string, args ...any) {
	if c.err == nil {
		c.err = configs.KeyErrors(c.path)(key, format, args...)
	}
}

// intIn checks lo <= v <= hi.
func (c *checker) intIn(key string, v, lo, hi int) {
	if v < lo || v > hi {
		c.fail(key, "%d outside [%d, %d]", v, lo, hi)
	}
}

// floatOpen checks lo < v < hi.
func (c *checker) floatOpen(key string, v, lo, hi float64) {
	if !(v > lo && v < hi) || math.IsNaN(v) {
		c.fail(key, "%v outside (%v, %v)", v, lo, hi)
	}
}

// ints checks that vs has between minLen and maxLen elements, each in [lo, hi].
func (c *checker) ints(key string, vs []int, minLen, maxLen, lo, hi int) {
	if len(vs) < minLen || len(vs) > maxLen {
		c.fail(key, "%d values, want %d to %d", len(vs), minLen, maxLen)
		return
	}
	for i, v := range vs {
		if v < lo || v > hi {
			c.fail(fmt.Sprintf("%s[%d]", key, i), "%d outside [%d, %d]", v, lo, hi)
			return
		}
	}
}

// nonEmpty checks that a string is given.
func (c *checker) nonEmpty(key, v string) {
	if v == "" {
		c.fail(key, "missing (a non-empty string)")
	}
}

// distinct checks that no entry of vs repeats an earlier one: a list of a
// grid or of a panel is a set, and a repeated entry would play and count
// its cells twice.
func distinct[T comparable](c *checker, key string, vs []T) {
	distinctAt(c, func(i int) string { return fmt.Sprintf("%s[%d]", key, i) }, vs)
}

// distinctAt is distinct for values that are fields of a list of tables:
// key(i) names the field of entry i ("engine.lineups[1].name").
func distinctAt[T comparable](c *checker, key func(i int) string, vs []T) {
	seen := make(map[T]int, len(vs))
	for i, v := range vs {
		if j, ok := seen[v]; ok {
			c.fail(key(i), "%v repeats entry %d: want distinct entries", v, j)
			return
		}
		seen[v] = i
	}
}
