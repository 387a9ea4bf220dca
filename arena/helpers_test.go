package arena

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The module's go.sum does not yet carry testify's yaml dependency, so the
// tests use these small standard-library helpers.

func eq(t testing.TB, want, got any, ctx ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s\nwant %#v\n got %#v", fmt.Sprint(ctx...), want, got)
	}
}

func near(t testing.TB, want, got, tol float64, ctx ...any) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(want-got) > tol {
		t.Errorf("%s: want %.10g ± %g, got %.10g", fmt.Sprint(ctx...), want, tol, got)
	}
}

func errContains(t testing.TB, err error, sub string, ctx ...any) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: want an error containing %q, got nil", fmt.Sprint(ctx...), sub)
		return
	}
	if !strings.Contains(err.Error(), sub) {
		t.Errorf("%s: want an error containing %q, got %q", fmt.Sprint(ctx...), sub, err)
	}
}

func must(t testing.TB, err error, ctx ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprint(ctx...), err)
	}
}
