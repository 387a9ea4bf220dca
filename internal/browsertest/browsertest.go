// Package browsertest starts a headless Chromium for the tests that drive
// marslab's pages (marslab view's, marslab play's) with chromedp: it finds
// the browser, starts it robustly on a loaded machine, opens tabs that
// collect their script errors, and takes screenshots.
package browsertest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// Chromium returns the path of a Chromium or Chrome, or "" if none is
// installed.
func Chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Start starts a headless Chromium for the test, or skips the test when
// none is installed. The browser ends with the test.
func Start(t testing.TB) context.Context {
	t.Helper()
	path := Chromium()
	if path == "" {
		t.Skip("no chromium (or chrome) in PATH: the browser tests need one (Debian: apt-get install chromium; .ci/run installs it)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1500, 1000),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-crash-reporter", true))
	// Start the browser now, so that its start-up is not a page's time. A
	// browser that exits before it listens (seen once on a loaded CI
	// machine, with nothing in its output but start-up warnings) is
	// started again, up to three times; what it printed is logged.
	const attempts = 3
	for i := 1; ; i++ {
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelB := chromedp.NewContext(actx)
		err := chromedp.Do(bctx, chromedp.Navigate("about:blank"))
		if err == nil {
			t.Cleanup(func() { cancelB(); cancelA() })
			return bctx
		}
		cancelB()
		cancelA()
		if i == attempts || !strings.Contains(err.Error(), "chrome failed to start") {
			require.NoError(t, err, "starting %s (attempt %d of %d)", path, i, attempts)
		}
		t.Logf("starting %s, attempt %d of %d: %v", path, i, attempts, err)
		time.Sleep(time.Duration(i) * time.Second)
	}
}

// Open opens url in a new tab of the browser bctx, for at most timeout,
// and returns the tab's context and a function that returns its script
// errors so far (console errors and uncaught exceptions).
func Open(t testing.TB, bctx context.Context, url string, timeout time.Duration) (context.Context, func() []string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelT(); cancel() })
	var mu sync.Mutex
	var errs []string
	msgs := chromedp.Console(ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
		}
	}()
	return ctx, func() []string {
		// A round trip to the page, so that its messages so far have arrived.
		_, err := chromedp.Run(ctx, chromedp.Evaluate[int](`1`))
		require.NoError(t, err)
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(errs)
	}
}

// Shot writes a screenshot of the tab ctx as a PNG file at path.
func Shot(t testing.TB, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(png, []byte("\x89PNG")), "a PNG")
	require.NoError(t, os.WriteFile(path, png, 0o644))
}
