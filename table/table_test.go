package table

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdd(t *testing.T) {
	t.Parallel()
	tb := Table{Header: []string{"a", "b"}}
	tb.Add("1", "2")
	tb.Add("3", "4")
	assert.Equal(t, [][]string{{"1", "2"}, {"3", "4"}}, tb.Rows)
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		t    Table
		want string
	}{
		{"header only", Table{Header: []string{"bot"}}, "| bot |\n|---|\n"},
		{"rows", Table{Header: []string{"bot", "win %"}, Rows: [][]string{{"mars", "58.5"}, {"angry", "7.0"}}},
			"| bot | win % |\n|---|---:|\n| mars | 58.5 |\n| angry | 7.0 |\n"},
		{"escaped pipe", Table{Header: []string{"a", "b"}, Rows: [][]string{{"x|y", ""}}}, "| a | b |\n|---|---:|\n| x\\|y |  |\n"},
		{"title not in the pipe table", Table{Title: "T", Header: []string{"a"}}, "| a |\n|---|\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.t.Markdown()) })
	}
}

func TestWriteMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		t    Table
		want string
	}{
		{"no title", Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}, "| a |\n|---|\n| 1 |\n"},
		{"title", Table{Name: "t5", Title: "Table 5", Header: []string{"a"}}, "## Table 5\n\n| a |\n|---|\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, tt.t.WriteMarkdown(&b))
			assert.Equal(t, tt.want, b.String())
		})
	}
}

func TestCSV(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		t    Table
		want string
		err  string
	}{
		{"plain", Table{Header: []string{"bot", "win_rate"}, Rows: [][]string{{"mars", "0.585"}}}, "bot,win_rate\nmars,0.585\n", ""},
		{"quoted", Table{Header: []string{"policy", "n"}, Rows: [][]string{{"learned, exploring", "1"}, {`say "hi"`, "2"}}},
			"policy,n\n\"learned, exploring\",1\n\"say \"\"hi\"\"\",2\n", ""},
		{"header only", Table{Header: []string{"a", "b"}}, "a,b\n", ""},
		{"short row", Table{Name: "cells", Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}, {"3"}}}, "",
			`table "cells": row 2 has 1 cells under a header of 2`},
		{"long row, no name", Table{Header: []string{"a"}, Rows: [][]string{{"1", "2"}}}, "",
			`table with first column "a": row 1 has 2 cells under a header of 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.t.CSV()
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	tb := Table{Header: []string{"bot", "games", "win rate"}, Rows: [][]string{{"mars", "200", "0.5850"}, {"evilpixie", "7", "0.0700"}}}
	var b bytes.Buffer
	require.NoError(t, tb.WriteText(&b))
	assert.Equal(t, ""+
		"bot        games  win rate\n"+
		"mars       200    0.5850\n"+
		"evilpixie  7      0.0700\n", b.String())
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	tb := Table{Title: "T", Header: []string{"a"}, Rows: [][]string{{"1"}}}
	for name, write := range map[string]func() error{
		"markdown": func() error { return tb.WriteMarkdown(failWriter{}) },
		"csv":      func() error { return tb.WriteCSV(failWriter{}) },
		"text":     func() error { return tb.WriteText(failWriter{}) },
	} {
		assert.ErrorContains(t, write(), "disk full", name)
	}
}

// BenchmarkMarkdown renders a 20 x 8 table as Markdown.
func BenchmarkMarkdown(b *testing.B) {
	tb := Table{Header: strings.Fields("bot games wins win% lo hi placement rounds")}
	for range 20 {
		tb.Add("evilpixie", "1000", "465", "46.5", "43.4", "49.6", "2.13", "25.6")
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = tb.Markdown()
	}
}

// A cell's control characters reach neither a Markdown file nor a terminal
// raw: a condition named with an escape sequence and a newline.
func TestControlCharacters(t *testing.T) {
	tb := Table{Header: []string{"condition", "rate"}, Rows: [][]string{{"red\x1b[31m\nrow", "0.5"}}}
	assert.Equal(t, "| condition | rate |\n|---|---:|\n| red\\x1b[31m\\x0arow | 0.5 |\n", tb.Markdown())
	var b strings.Builder
	require.NoError(t, tb.WriteText(&b))
	assert.Equal(t, "condition           rate\nred\\x1b[31m\\x0arow  0.5\n", b.String())
}
