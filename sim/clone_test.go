package sim

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mutateLeaf changes the k-th exported leaf of v in a depth-first walk: an
// int, string or bool, or a slice (to which it appends an element). It
// reports whether v had that many leaves.
func mutateLeaf(v reflect.Value, k *int) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return mutateLeaf(v.Elem(), k)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && mutateLeaf(v.Field(i), k) {
				return true
			}
		}
	case reflect.Slice:
		if *k == 0 {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
			return true
		}
		*k--
		for i := 0; i < v.Len(); i++ {
			if mutateLeaf(v.Index(i), k) {
				return true
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if mutateLeaf(v.Index(i), k) {
				return true
			}
		}
	case reflect.Int, reflect.String, reflect.Bool:
		if *k > 0 {
			*k--
			return false
		}
		switch v.Kind() {
		case reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		}
		return true
	}
	return false
}

// TestCloneIsDeep changes every exported leaf of a clone in turn: the
// original must stay as it was, and the equality check that decides
// whether the engine restores a player's copy must notice the change.
func TestCloneIsDeep(t *testing.T) {
	t.Parallel()
	missions, err := LoadRules("missions")
	require.NoError(t, err)
	cases := []struct {
		name  string
		orig  any
		clone func() any
		equal func(a, b any) bool
	}{
		{"map", ringMap(2, 3), nil, func(a, b any) bool { return equalMap(a.(*Map), b.(*Map)) }},
		{"rules", missions, nil, func(a, b any) bool { return equalRules(a.(*Rules), b.(*Rules)) }},
		{"fixed rules", testRules(FortifySingle), nil, func(a, b any) bool { return equalRules(a.(*Rules), b.(*Rules)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clone := func() any {
				switch x := c.orig.(type) {
				case *Map:
					return x.Clone()
				case *Rules:
					return x.Clone()
				}
				panic("type")
			}
			pristine := clone()
			require.Equal(t, c.orig, pristine, "clone differs from the original")
			require.True(t, c.equal(pristine, c.orig), "clone differs from the original")
			leaves := 0
			for k := 0; ; k++ {
				cl := clone()
				kk := k
				if !mutateLeaf(reflect.ValueOf(cl), &kk) {
					break
				}
				leaves++
				assert.False(t, c.equal(cl, c.orig), "change %d of the clone goes unnoticed", k)
				require.Equal(t, c.orig, pristine, "change %d of the clone changed the original", k)
			}
			assert.GreaterOrEqual(t, leaves, 20, "leaves changed")
		})
	}
}

func TestMapCloneSharesLookups(t *testing.T) {
	t.Parallel()
	m := loadClassic(t)
	c := m.Clone()
	a, _ := m.TerritoryID("Alaska")
	k, _ := m.TerritoryID("Kamchatka")
	id, ok := c.TerritoryID("Kamchatka")
	require.True(t, ok)
	assert.Equal(t, k, id)
	assert.True(t, c.Adjacent(a, k), "the clone's lookups do not work")
	// The id lists are cut to their length: appending to one cannot write
	// into another.
	nb := c.Territories[0].Neighbors
	before := append([]int(nil), c.Territories[1].Neighbors...)
	_ = append(nb, 99)
	assert.Equal(t, before, c.Territories[1].Neighbors, "appending to a neighbour list changed another")
	assert.True(t, equalMap(c, m), "appending to a neighbour list changed another")
	assert.Nil(t, (*Map)(nil).Clone())
	assert.Nil(t, (*Rules)(nil).Clone())
}

// TestRulesSource: the errors of Validate and NewGame name the file the
// rules were read from, and so do those of a clone.
func TestRulesSource(t *testing.T) {
	t.Parallel()
	data := embeddedRules(t, "missions")
	r, err := ParseRules("my_missions.toml", []byte(data))
	require.NoError(t, err)
	tiny, err := ParseMap("tiny.toml", []byte(readTiny(t)))
	require.NoError(t, err)
	want := `my_missions.toml: missions[0].continents = "Europe": no such continent on map "tiny"`
	for _, rr := range []*Rules{r, r.Clone()} {
		assert.EqualError(t, rr.Validate(tiny), want)
		_, err := NewGame(tiny, rr, 2)
		assert.EqualError(t, err, want)
	}
	few := r.Clone()
	few.Missions = few.Missions[:2]
	few.Players = 2
	_, err = NewGame(loadClassic(t), few, 3)
	assert.EqualError(t, err, "sim: my_missions.toml: 2 missions for 3 players")
}
