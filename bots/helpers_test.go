package bots

import (
	"reflect"
	"strings"
	"testing"
)

// The tests use only the standard library: testify's assert package needs
// go.yaml.in/yaml/v3, which go.sum does not list yet.

func must(t testing.TB, err error, context ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v: unexpected error: %v", context, err)
	}
}

func wantErr(t testing.TB, err error, substr string, context ...any) {
	t.Helper()
	if err == nil {
		t.Fatalf("%v: no error, want one containing %q", context, substr)
	}
	if !strings.Contains(err.Error(), substr) {
		t.Fatalf("%v: error %q does not contain %q", context, err, substr)
	}
}

func equal(t testing.TB, got, want any, context ...any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%v: got %#v, want %#v", context, got, want)
	}
}
