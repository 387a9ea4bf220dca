package dice

// testify's assert package cannot be built in this module (its yaml
// dependency has no go.sum entry), so the tests use this small checker with
// the same method names: assert reports and continues, require stops.

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

type checker struct{ fatal bool }

var (
	assert  = checker{}
	require = checker{fatal: true}
)

func (c checker) fail(t testing.TB, what string, msg []any) {
	t.Helper()
	if len(msg) > 0 {
		if f, ok := msg[0].(string); ok {
			what += ": " + fmt.Sprintf(f, msg[1:]...)
		}
	}
	if c.fatal {
		t.Fatal(what)
	}
	t.Error(what)
}

func (c checker) Equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		c.fail(t, fmt.Sprintf("got %v, want %v", got, want), msg)
	}
}

func (c checker) InDelta(t testing.TB, want, got, tol float64, msg ...any) {
	t.Helper()
	if !(math.Abs(want-got) <= tol) {
		c.fail(t, fmt.Sprintf("got %v, want %v ± %g", got, want, tol), msg)
	}
}

func (c checker) InDeltaSlice(t testing.TB, want, got []float64, tol float64, msg ...any) {
	t.Helper()
	if len(want) != len(got) {
		c.fail(t, fmt.Sprintf("got %v, want %v", got, want), msg)
		return
	}
	for i := range want {
		if !(math.Abs(want[i]-got[i]) <= tol) {
			c.fail(t, fmt.Sprintf("got %v, want %v ± %g", got, want, tol), msg)
			return
		}
	}
}

func (c checker) Less(t testing.TB, got, bound float64, msg ...any) {
	t.Helper()
	if !(got < bound) {
		c.fail(t, fmt.Sprintf("%v is not below %v", got, bound), msg)
	}
}

func (c checker) NoError(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		c.fail(t, "unexpected error: "+err.Error(), msg)
	}
}

func (c checker) Error(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err == nil {
		c.fail(t, "no error", msg)
	}
}

func (c checker) ErrorContains(t testing.TB, err error, sub string, msg ...any) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), sub) {
		c.fail(t, fmt.Sprintf("error %v does not contain %q", err, sub), msg)
	}
}

func (c checker) Contains(t testing.TB, s, sub string, msg ...any) {
	t.Helper()
	if !strings.Contains(s, sub) {
		c.fail(t, fmt.Sprintf("%q does not contain %q", s, sub), msg)
	}
}

func (c checker) Len(t testing.TB, v any, n int, msg ...any) {
	t.Helper()
	if l := reflect.ValueOf(v).Len(); l != n {
		c.fail(t, fmt.Sprintf("length %d, want %d", l, n), msg)
	}
}

func (c checker) True(t testing.TB, v bool, msg ...any) {
	t.Helper()
	if !v {
		c.fail(t, "false", msg)
	}
}

func (c checker) False(t testing.TB, v bool, msg ...any) {
	t.Helper()
	if v {
		c.fail(t, "true", msg)
	}
}

func (c checker) Zero(t testing.TB, v any, msg ...any) {
	t.Helper()
	if !reflect.ValueOf(v).IsZero() {
		c.fail(t, fmt.Sprintf("%v is not zero", v), msg)
	}
}

func (c checker) PanicsWithValue(t testing.TB, want any, f func(), msg ...any) {
	t.Helper()
	defer func() {
		t.Helper()
		if got := recover(); !reflect.DeepEqual(got, want) {
			c.fail(t, fmt.Sprintf("panic %v, want %v", got, want), msg)
		}
	}()
	f()
}
