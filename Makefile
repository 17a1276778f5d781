# aixbroker build. `make run` builds and opens a shell under the default
# profile; `make test` runs the test suite. See README.md.
GO      ?= go
BIN     := bin/aixbroker
PKGS    := ./...
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/aixbroker/aixbroker/internal/version.Version=$(VERSION)
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: all build run test test-short lint bench fuzz clean

all: build

include interposer/interposer.mk

# The interposer (C, gcc) is built first: the Go binary embeds it.
build: interposer
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/aixbroker

run: build
	./$(BIN) exec -- $${SHELL:-/bin/sh}

test: build
	$(GO) test -count=1 -timeout 12m $(PKGS)

lint: interposer
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)

# bench: native vs aixbroker vs bubblewrap vs a go-fuse passthrough mount
# (package bench, `aixbroker bench`), alternating rounds; prints the table,
# rewrites the Summary, Macro benchmarks and Startup sections of
# docs/PERFORMANCE.md and draws docs/perf/latency.png. ROUNDS=n;
# BASELINE=path/to/older/aixbroker measures a change before and after;
# FUSE_SERVER_READS=1 refuses the kernel's FUSE passthrough on the go-fuse
# side; BENCH_DIR is the generated workspace; BENCH_DOC and BENCH_CHART
# redirect what is written (a trial run that must not touch the docs). The
# FUSE server and the chart writer are separate binaries, so that go-fuse
# and gonum/plot stay out of bin/aixbroker.
BENCH_DIR ?= $(or $(TMPDIR),/tmp)/aixbroker-bench
BENCH_DOC ?= docs/PERFORMANCE.md
BENCH_CHART ?= docs/perf/latency.png
bench: build
	$(GO) build -trimpath -o bin/fusepass ./bench/cmd/fusepass
	$(GO) build -trimpath -o bin/benchchart ./bench/cmd/benchchart
	./$(BIN) bench --rounds $(or $(ROUNDS),5) --dir $(BENCH_DIR) --fuse bin/fusepass --json $(BENCH_DIR)/results.json \
		--doc $(BENCH_DOC) $(if $(BASELINE),--baseline $(BASELINE)) $(if $(FUSE_SERVER_READS),--fuse-server-reads)
	@mkdir -p $(dir $(BENCH_CHART))
	./bin/benchchart -in $(BENCH_DIR)/results.json -out $(BENCH_CHART)
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./policy/ ./audit/

# fuzz: every parser and matcher for FUZZTIME each (corpora in testdata/fuzz;
# a plain `go test` replays them). The macOS ones are in fuzz-macos.
FUZZTIME ?= 60s
FUZZ_TARGETS := policy:FuzzParsePolicy policy:FuzzMatch audit:FuzzAuditLine audit:FuzzEncodeString \
	redact:FuzzRenderNoLeak redact:FuzzRender broker:FuzzDecodeRequest \
	internal/fsops:FuzzSplitRewrite internal/fsops:FuzzParseStatus notify:FuzzDecodeOpenHow notify:FuzzOwnFD
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t#*:}; \
	  echo "fuzz $$fn ./$$pkg/ ($(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) ./$$pkg/; done

clean:
	rm -rf bin $(INTERPOSER)

# compat: the agent compatibility matrix (docs/COMPAT.md). Installs the
# agents from npm at pinned versions, runs each under `aixbroker exec` with its
# built-in profile against a scripted local model server, as a throwaway user
# when run as root. AGENTS=claude,codex narrows it; compat-claude is the fast
# Go test CI can run. COMPAT_FLAGS="--interposer=on" adds flags to aixbroker exec.
COMPAT_USER ?= $(shell [ "$$(id -u)" = 0 ] && echo aixcompat)
AGENTS ?=
.PHONY: compat compat-claude compat-native
compat: build
	$(GO) run ./compat/cmd/aixcompat -broker $(BIN) -docs docs $(if $(COMPAT_USER),-user $(COMPAT_USER)) $(if $(AGENTS),-agents $(AGENTS)) $(if $(COMPAT_FLAGS),-broker-flags '$(COMPAT_FLAGS)')

compat-native:
	$(GO) run ./compat/cmd/aixcompat $(if $(COMPAT_USER),-user $(COMPAT_USER)) $(if $(AGENTS),-agents $(AGENTS))

compat-claude: build
	AIXBROKER_COMPAT=claude AIXBROKER_COMPAT_USER=$(COMPAT_USER) AIXBROKER_COMPAT_FLAGS='$(COMPAT_FLAGS)' $(GO) test -count=1 -timeout 15m -run TestMatrix -v ./compat/

# The macOS binaries (the sandbox-exec backend cannot run here; this checks
# that it builds). TestBuildsForDarwin in ./macos does the same in `make test`.
.PHONY: build-darwin
build-darwin:
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/aixbroker-darwin-arm64 ./cmd/aixbroker
	GOOS=darwin GOARCH=amd64 CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/aixbroker-darwin-amd64 ./cmd/aixbroker

.PHONY: fuzz-macos
fuzz-macos:
	$(GO) test -run '^$$' -fuzz FuzzTranslateGlob -fuzztime 60s ./sbpl/
	$(GO) test -run '^$$' -fuzz FuzzProperty -fuzztime 60s ./sbpl/
	$(GO) test -run '^$$' -fuzz FuzzEvaluator -fuzztime 30s ./sbpl/
	$(GO) test -run '^$$' -fuzz FuzzParseLogLine -fuzztime 30s ./macos/

# test-adversarial: every attack and legitimate operation of test/adversarial
# (a fast subset runs in `make test`), as the current user and, as root, again
# as an unprivileged user. Prints held/LEAK per attack and "N passed, M failed".
ADV_USER ?= $(shell [ "$$(id -u)" = 0 ] && echo aixbroker-e2e)
.PHONY: test-adversarial
test-adversarial: build
	@status=0; \
	$(GO) run ./test/adversarial/cmd/advrun -bin $(BIN) || status=1; \
	if [ -n "$(ADV_USER)" ]; then \
		id $(ADV_USER) >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh $(ADV_USER); \
		echo "== again as $(ADV_USER)"; \
		$(GO) run ./test/adversarial/cmd/advrun -bin $(BIN) -user $(ADV_USER) || status=1; \
	fi; \
	exit $$status
