package mars

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

// checker is a minimal assertion helper for the tests that do not use
// testify's assert and require; fatal checkers stop the test.
type checker struct{ fatal bool }

var (
	expect = checker{fatal: false}
	must   = checker{fatal: true}
)

func (c checker) fail(t testing.TB, msg []any, format string, args ...any) {
	t.Helper()
	s := fmt.Sprintf(format, args...)
	if len(msg) > 0 {
		if f, ok := msg[0].(string); ok {
			s += ": " + fmt.Sprintf(f, msg[1:]...)
		}
	}
	if c.fatal {
		t.Fatal(s)
	}
	t.Error(s)
}

func (c checker) Equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		c.fail(t, msg, "got %v, want %v", got, want)
	}
}

func (c checker) NotEqual(t testing.TB, a, b any, msg ...any) {
	t.Helper()
	if reflect.DeepEqual(a, b) {
		c.fail(t, msg, "both are %v", a)
	}
}

func (c checker) InDelta(t testing.TB, want, got, delta float64, msg ...any) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(want-got) > delta {
		c.fail(t, msg, "got %.9g, want %.9g ± %g", got, want, delta)
	}
}

func (c checker) True(t testing.TB, v bool, msg ...any) {
	t.Helper()
	if !v {
		c.fail(t, msg, "false")
	}
}

func (c checker) False(t testing.TB, v bool, msg ...any) {
	t.Helper()
	if v {
		c.fail(t, msg, "true")
	}
}

func (c checker) NoError(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		c.fail(t, msg, "error: %v", err)
	}
}

func (c checker) Error(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err == nil {
		c.fail(t, msg, "no error")
	}
}

func (c checker) LessOrEqual(t testing.TB, a, b int, msg ...any) {
	t.Helper()
	if a > b {
		c.fail(t, msg, "%d > %d", a, b)
	}
}

func (c checker) GreaterOrEqual(t testing.TB, a, b int, msg ...any) {
	t.Helper()
	if a < b {
		c.fail(t, msg, "%d < %d", a, b)
	}
}

func (c checker) Less(t testing.TB, a, b float64, msg ...any) {
	t.Helper()
	if !(a < b) {
		c.fail(t, msg, "%g >= %g", a, b)
	}
}

// Contains reports whether slice s holds v.
func (c checker) Contains(t testing.TB, s []int, v int, msg ...any) {
	t.Helper()
	for _, x := range s {
		if x == v {
			return
		}
	}
	c.fail(t, msg, "%v does not contain %d", s, v)
}

func (c checker) Nil(t testing.TB, v [][]int, msg ...any) {
	t.Helper()
	if v != nil {
		c.fail(t, msg, "got %v, want nil", v)
	}
}

// ElementsMatch compares two slices as multisets.
func (c checker) ElementsMatch(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	count := map[string]int{}
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := 0; i < w.Len(); i++ {
		count[fmt.Sprint(w.Index(i).Interface())]++
	}
	for i := 0; i < g.Len(); i++ {
		count[fmt.Sprint(g.Index(i).Interface())]--
	}
	for _, n := range count {
		if n != 0 {
			c.fail(t, msg, "got %v, want the elements of %v", got, want)
			return
		}
	}
}
