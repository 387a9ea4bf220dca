// Package progress is the one progress display of marslab's long
// commands (batch, tournament, sweep, evolve, validate, run, report): the
// step, the games done of the games planned and an estimate of the time
// left, written to stderr as a bar redrawn in place on a terminal and as
// plain lines (at most one per Every) otherwise.
package progress

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Meter draws the progress of one step at a time. A nil *Meter, or one
// with a nil writer, draws nothing; its methods may be called all the
// same.
type Meter struct {
	w   io.Writer
	bar bool
	// Now is the clock ([time.Now]; tests set a fake one).
	Now func() time.Time
	// Every is the least time between two redraws: 250 ms for a bar, 10 s
	// for plain lines.
	Every time.Duration
	// Width is the bar's width in characters (30).
	Width int

	step                 string
	done0, done, planned int
	start, last          time.Time
	drawn                bool
}

// New returns a meter writing to w: a bar redrawn in place when bar is
// true (w is a terminal), plain lines otherwise. A nil w draws nothing.
func New(w io.Writer, bar bool) *Meter {
	every := 10 * time.Second
	if bar {
		every = 250 * time.Millisecond
	}
	return &Meter{w: w, bar: bar, Now: time.Now, Every: every, Width: 30}
}

// Start begins step (e.g. "sweep step 2/9") with done of planned games
// already complete (a resumed run): the rate and the time left count only
// the games played from here. It ends the previous step's line.
func (m *Meter) Start(step string, done, planned int) {
	if m == nil || m.w == nil {
		return
	}
	m.Finish()
	m.step, m.done0, m.done, m.planned = step, done, done, planned
	m.start = m.Now()
	m.last = time.Time{}
}

// Plan names the current step anew and changes the games planned (an
// estimate that each step's results refine), keeping the clock and the
// games done: a run of several steps shows one estimate of its time left.
func (m *Meter) Plan(step string, planned int) {
	if m == nil || m.w == nil {
		return
	}
	m.step, m.planned = step, planned
}

// Update records done games complete and redraws if Every has passed
// since the last draw.
func (m *Meter) Update(done int) {
	if m == nil || m.w == nil {
		return
	}
	m.done = done
	now := m.Now()
	if m.drawn && now.Sub(m.last) < m.Every {
		return
	}
	if !m.drawn && now.Sub(m.start) < m.Every && !m.bar {
		return // plain lines: none for a step shorter than Every
	}
	m.draw(now)
}

// Finish draws the step's final state (if anything was drawn, or the step
// played games) and ends its line.
func (m *Meter) Finish() {
	if m == nil || m.w == nil || m.step == "" {
		return
	}
	if m.drawn || m.done > m.done0 {
		m.draw(m.Now())
		if m.bar {
			fmt.Fprintln(m.w)
		}
	}
	m.step, m.drawn = "", false
}

// Line returns the progress text of done of planned games after elapsed
// (of which the games from done0 were played): step, counts, percentage,
// rate and the estimated time left ("?" before the first game).
func Line(step string, done0, done, planned int, elapsed time.Duration) string {
	pct := 100.0
	if planned > 0 {
		pct = 100 * float64(done) / float64(planned)
	}
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done-done0) / s
	}
	eta := "?"
	switch {
	case done >= planned:
		eta = "0s"
	case rate > 0:
		eta = (time.Duration(float64(planned-done) / rate * float64(time.Second))).Round(time.Second).String()
	}
	return fmt.Sprintf("%s: %d/%d games (%.1f%%), %.1f games/s, %s left", step, done, planned, pct, rate, eta)
}

func (m *Meter) draw(now time.Time) {
	m.last, m.drawn = now, true
	line := Line(m.step, m.done0, m.done, m.planned, now.Sub(m.start))
	if !m.bar {
		fmt.Fprintln(m.w, line)
		return
	}
	fill := m.Width
	if m.planned > 0 {
		fill = min(m.Width, m.Width*m.done/m.planned)
	}
	fmt.Fprintf(m.w, "\r[%s%s] %s\x1b[K", strings.Repeat("#", fill), strings.Repeat(".", m.Width-fill), line)
}
