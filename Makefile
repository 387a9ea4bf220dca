# marslab: the two commands a new user needs are `make run` and `make test`.
GO        ?= go
OUT       ?= results/run
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME  ?= 10s

.PHONY: run readme tournament-demo test test-full test-slurm build vet fmt lint bench bench-engine fuzz figures notebooks notebooks-quick clean

## run: the main job, the paper's experiment in the paper's field (configs/experiments/paper-run.toml):
## the narrowing of MARS's (W_p, P_ob) in six-player games against the twelve Lux bots, its surface with
## the paper's point and the last window, then one validation on fresh deals of the narrowing optimum
## and of mars@paperfield against mars@paper (Holm); verdicts in $(OUT)/report.md. Run again, it
## finishes an interrupted run or re-writes a complete one at once (-resume); `make clean` starts over.
run:
	$(GO) run ./cmd/marslab run configs/experiments/paper-run.toml -out $(OUT) -resume

## readme: `make run`, then its surface figure (docs/figures/run-surface.png) and verdict lines
## ($(OUT)/outcome.md) into the README's first screen, between the run:begin and run:end markers
readme: run
	mkdir -p docs/figures
	cp $(OUT)/narrow/surface.png docs/figures/run-surface.png
	@awk -v f="$(OUT)/outcome.md" 'BEGIN { while ((getline l < f) > 0) body = body l "\n" } \
	  /<!-- run:begin/ { print; print ""; print "![The surface of make run: each cell against mars@paper on the deals of its level](docs/figures/run-surface.png)"; print ""; printf "%s", body; print ""; skip = 1; next } \
	  /<!-- run:end/ { skip = 0 } !skip' README.md > README.md.tmp && mv README.md.tmp README.md

## tournament-demo: a reduced round-robin tournament (MARS and five Lux-style bots, 300 games in
## 4-player line-ups): Tables 5-6, head to head and figures in results/tournament-demo.
tournament-demo:
	$(GO) run ./cmd/marslab tournament configs/experiments/demo-tournament.toml -resume

## test: formatting, vet, and every test with the race detector. vet reads the race build
## (VETFLAGS=-race), so the module is compiled once for both; go test then skips its own vet subset
## (-vet=off). GORACE: race-built binaries that the tests start exit at once instead of sleeping a
## second at every exit. The timeout guards against a hung package, not the budget: on a machine shared
## with other work a package's race run can take several times its 1-2 minutes.
test: VETFLAGS = -race
test: fmt vet
	GORACE=atexit_sleep_ms=0 $(GO) test -race -vet=off -timeout 20m ./...

## test-full: every test at full size, without the race detector: the invariant sweeps, whole games and
## huge armies that play fewer games or skip under -race (internal/race) run whole (CI: after make test)
test-full:
	$(GO) test -timeout 12m ./...

## test-slurm: a real single-node Slurm cluster (root, Debian 12: installs the packages if missing):
## a sharded batch, a tournament and a search submitted with marslab slurm submit give the files
## of the same runs on this machine, byte for byte; stops the daemons it started
test-slurm:
	GO=$(GO) deploy/slurm/test-slurm.sh

build:
	$(GO) build -o bin/marslab ./cmd/marslab

vet:
	$(GO) vet $(VETFLAGS) ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## lint: staticcheck (downloaded through the Go module proxy)
lint: vet
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

## bench: every benchmark, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-engine: engine and baseline-bot speed on 1 and 2 cores
bench-engine:
	$(GO) test -run '^$$' -bench 'Engine|AggressiveGame|Batch' -benchmem -cpu 1,2 ./sim ./bots/baseline ./arena

## fuzz: a short run (FUZZTIME each, default 10s) of every fuzz target in the module
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

## figures: regenerate the figures in docs/figures
figures:
	mkdir -p docs/figures
	$(GO) run ./cmd/marslab odds -table 30 -plot docs/figures/odds-table-30.png > /dev/null
	$(GO) test ./view -run 'TestViewInBrowser/mars2006-6$$' -count=1 -update > /dev/null  # viewer.png: needs chromium
	$(GO) test ./internal/human -run 'TestPlayInBrowser$$' -count=1 -update > /dev/null  # play.png: needs chromium

## notebooks: regenerate every notebook (report, CSV, figures) and the index in notebooks/
notebooks:
	$(GO) run ./cmd/marslab report notebooks

## notebooks-quick: every notebook at its reduced size into a temporary folder (CI: the committed files stay)
notebooks-quick:
	@out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	$(GO) run ./cmd/marslab report -quick -out "$$out" notebooks

clean:
	rm -rf results bin
