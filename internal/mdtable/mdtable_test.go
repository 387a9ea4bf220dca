package mdtable

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	tb := Table{Header: []string{"a", "b"}}
	tb.Add("1", "2")
	tb.Add("3", "4")
	assert.Equal(t, [][]string{{"1", "2"}, {"3", "4"}}, tb.Rows)
	assert.Equal(t, "|---|---:|", tb.Align())
}

func TestMarkdown(t *testing.T) {
	type markdownCase struct {
		name string
		t    Table
		want string
	}
	cases := []markdownCase{
		{"header only", Table{Header: []string{"bot"}}, "| bot |\n|---|\n"},
		{"rows", Table{Header: []string{"bot", "win %"}, Rows: [][]string{{"mars", "58.5"}, {"angry", "7.0"}}},
			"| bot | win % |\n|---|---:|\n| mars | 58.5 |\n| angry | 7.0 |\n"},
		{"escaped pipe", Table{Header: []string{"a", "b"}, Rows: [][]string{{"x|y", ""}}}, "| a | b |\n|---|---:|\n| x\\|y |  |\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.t.Markdown()) })
	}
}
