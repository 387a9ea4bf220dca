package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// fakeClock returns a clock that advances by the durations set in *step
// at every call.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                 string
		done0, done, planned int
		elapsed              time.Duration
		want                 string
	}{
		{"start", 0, 0, 100, 0, "s: 0/100 games (0.0%), 0.0 games/s, ? left"},
		{"half", 0, 50, 100, 10 * time.Second, "s: 50/100 games (50.0%), 5.0 games/s, 10s left"},
		{"resumed counts only the games played here", 40, 50, 100, 10 * time.Second, "s: 50/100 games (50.0%), 1.0 games/s, 50s left"},
		{"done", 0, 100, 100, 20 * time.Second, "s: 100/100 games (100.0%), 5.0 games/s, 0s left"},
		{"nothing planned", 0, 0, 0, time.Second, "s: 0/0 games (100.0%), 0.0 games/s, 0s left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Line("s", tc.done0, tc.done, tc.planned, tc.elapsed))
		})
	}
}

// Plain lines come at most one per Every, and a final one per step.
func TestMeterPlainLines(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	c := &fakeClock{t: time.Unix(0, 0), step: 3 * time.Second}
	m := New(&b, false)
	m.Now = c.now
	m.Start("sweep step 1/2", 0, 10)
	for d := 1; d <= 10; d++ {
		m.Update(d) // 3 s per game
	}
	m.Finish()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	assert.Equal(t, []string{
		"sweep step 1/2: 4/10 games (40.0%), 0.3 games/s, 18s left",
		"sweep step 1/2: 8/10 games (80.0%), 0.3 games/s, 6s left",
		"sweep step 1/2: 10/10 games (100.0%), 0.3 games/s, 0s left",
	}, lines)
	assert.NotContains(t, b.String(), "\r")
}

// A bar is redrawn in place and its line ended at the step's end (the
// clock: start at 1 s, the update at 2 s, the end at 3 s).
func TestMeterBar(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	c := &fakeClock{t: time.Unix(0, 0), step: time.Second}
	m := New(&b, true)
	m.Now = c.now
	m.Width = 4
	m.Start("batch", 0, 4)
	m.Update(2)
	m.Finish()
	assert.Equal(t, "\r[##..] batch: 2/4 games (50.0%), 2.0 games/s, 1s left\x1b[K\r[##..] batch: 2/4 games (50.0%), 1.0 games/s, 2s left\x1b[K\n", b.String())
}

// A nil meter or writer draws nothing, and a step without games leaves no
// line.
func TestMeterSilent(t *testing.T) {
	t.Parallel()
	var m *Meter
	m.Start("x", 0, 1)
	m.Update(1)
	m.Finish()
	var b strings.Builder
	q := New(&b, false)
	q.Start("x", 5, 5)
	q.Finish()
	assert.Empty(t, b.String())
	New(nil, true).Update(3)
}
