# marslab: the two commands a new user needs are `make run` and `make test`.
GO        ?= go
OUT       ?= results/run
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME  ?= 10s

.PHONY: run tournament-demo test test-slurm build vet fmt lint bench bench-engine fuzz figures notebooks notebooks-quick clean

## run: the main job on the embedded defaults: a narrowing search of MARS's (W_p, P_ob) against a
## Lux-style field (configs/experiments/narrow-wp-pob.toml) with the win-rate surface, then a short
## validation of the best cell against the paper's parameters on fresh deals; report in $(OUT)/report.md.
## Run again, it finishes an interrupted run or re-writes a complete one (-resume); `make clean` starts over.
run:
	$(GO) run ./cmd/marslab sweep configs/experiments/narrow-wp-pob.toml -out $(OUT) -resume
	$(GO) run ./cmd/marslab validate configs/experiments/narrow-wp-pob.toml -a mars@$(OUT)/best.toml -out $(OUT)/validation -resume

## tournament-demo: a reduced round-robin tournament (MARS and five Lux-style bots, 300 games in
## 4-player line-ups): Tables 5-6, head to head and figures in results/tournament-demo.
tournament-demo:
	$(GO) run ./cmd/marslab tournament configs/experiments/demo-tournament.toml -resume

## test: formatting, vet, and every test with the race detector (GORACE: race-built binaries that the
## tests start exit at once instead of sleeping a second at every exit)
test: fmt vet
	GORACE=atexit_sleep_ms=0 $(GO) test -race -timeout 9m ./...

## test-slurm: a real single-node Slurm cluster (root, Debian 12: installs the packages if missing):
## a sharded batch, a tournament and a search submitted with marslab slurm submit give the files
## of the same runs on this machine, byte for byte; stops the daemons it started
test-slurm:
	GO=$(GO) deploy/slurm/test-slurm.sh

build:
	$(GO) build -o bin/marslab ./cmd/marslab

vet:
	$(GO) vet ./...

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

## notebooks: regenerate every notebook (report, CSV, figures) and the index in notebooks/
notebooks:
	$(GO) run ./cmd/marslab report notebooks

## notebooks-quick: every notebook at its reduced size into a temporary folder (CI: the committed files stay)
notebooks-quick:
	@out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	$(GO) run ./cmd/marslab report -quick -out "$$out" notebooks

clean:
	rm -rf results bin
