package arena

import (
	"fmt"
	"io"
	"time"
)

// progress draws a one-line progress display: done/total, games/s and the
// estimated time left, redrawn at most every progressEvery.
type progress struct {
	w           io.Writer
	total, done int // done: games complete when the run started
	start, last time.Time
	drawn       bool
}

const progressEvery = 250 * time.Millisecond

func newProgress(w io.Writer, total, done int, start time.Time) *progress {
	return &progress{w: w, total: total, done: done, start: start}
}

// update redraws the line if due (or if final, then ends it).
func (p *progress) update(done int, final bool) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if !final && now.Sub(p.last) < progressEvery {
		return
	}
	if final && !p.drawn && done == p.done {
		return
	}
	p.last = now
	p.drawn = true
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(done-p.done) / el
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.total-done)/rate) * time.Second).Round(time.Second).String()
	}
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(done) / float64(p.total)
	}
	fmt.Fprintf(p.w, "\r%d/%d games (%5.1f%%)  %.1f games/s  ETA %s\x1b[K", done, p.total, pct, rate, eta)
	if final {
		fmt.Fprintln(p.w)
	}
}
