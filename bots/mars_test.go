package bots

import (
	"strings"
	"testing"

	"marslab/mars"
)

func TestMarsFactory(t *testing.T) {
	f := marsFactory()
	if f.Name != "mars" || len(f.Params) != 13 {
		t.Fatalf("factory %q with %d params", f.Name, len(f.Params))
	}
	wp, ok := f.Param("W_p")
	if !ok || wp.Default != 0.7375 || wp.Min != 0 || wp.Max != 1 || wp.Integer {
		t.Errorf("W_p = %+v", wp)
	}
	gl, _ := f.Param("G_l")
	if !gl.Integer || gl.Default != 5 || gl.Min != 1 || gl.Max != 10 {
		t.Errorf("G_l = %+v", gl)
	}
	p, err := f.New(map[string]float64{"W_p": 0.8, "P_ob": 150})
	if err != nil {
		t.Fatal(err)
	}
	got := p.(*mars.Bot).Params()
	want := mars.PaperParams()
	want.Wp, want.Pob = 0.8, 150
	if got != want {
		t.Errorf("params %+v, want %+v", got, want)
	}
	tests := []struct {
		params  map[string]float64
		wantErr string
	}{
		{map[string]float64{"W_p": 2}, "W_p = 2: must be in [0, 1]"},
		{map[string]float64{"G_l": 1.5}, "must be an integer"},
		{map[string]float64{"nope": 1}, `unknown parameter "nope"`},
	}
	for _, tc := range tests {
		_, err := f.New(tc.params)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("New(%v) = %v, want error containing %q", tc.params, err, tc.wantErr)
		}
	}
}

func TestMarsSeatFile(t *testing.T) {
	r := NewRegistry()
	seat, err := r.ParseSeat("mars@../configs/bots/mars-paper.toml(W_p=0.5)", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := seat.New()
	if err != nil {
		t.Fatal(err)
	}
	got := p.(*mars.Bot).Params()
	want := mars.PaperParams()
	want.Wp = 0.5
	if got != want {
		t.Errorf("params %+v, want %+v", got, want)
	}
}
