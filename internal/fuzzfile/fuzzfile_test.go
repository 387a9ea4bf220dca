package fuzzfile

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/fileread"
)

func TestWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := Write(t, dir, "a.toml", []byte("x = 1\n"), false, fileread.Config)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "x = 1\n", string(data))

	p = Write(t, dir, "b.toml", []byte("x = 1\n"), true, fileread.Params)
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, fileread.Params.Max()+1, st.Size())
	_, err = fileread.ReadFile(p, fileread.Params)
	assert.True(t, Refused(t, err, true, p))
}

func TestRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		over bool
		want bool
	}{
		{"accepted", nil, false, false},
		{"refused naming the file", errors.New("f.toml: bad"), false, true},
		{"over the cap", fmt.Errorf("f.toml: %w", fileread.ErrTooBig), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Refused(t, tt.err, tt.over, "f.toml"))
		})
	}
}
