GO      ?= go
BIN     ?= bin/tai
STATICCHECK_VERSION ?= v0.8.2

.PHONY: build test unit interop cross wine release release-check fmt-check vet lint bench-vault bench-client bench-llm bench-bridge bench-agent bench-select bench-serve bench-start bench-cache

# Stamped with the commit and its time as a release is (.ci/stamp):
# tai --version names what was built.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$$(.ci/stamp)" -o $(BIN) ./cmd/tai

# The whole test suite, exactly what CI runs.
test: fmt-check vet lint cross release-check wine unit interop

# Every release target compiles: linux, darwin and windows on amd64 and
# arm64, static (CGO_ENABLED=0); every package, not only what tai links.
TARGETS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
cross:
	@set -e; for t in $(TARGETS); do \
	  echo "cross: $$t"; \
	  CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -trimpath ./...; \
	done

# internal/cli drives the real binary through pseudo-terminals and scripts;
# under -race on two cores it passes go test's default 10 minutes.
unit:
	$(GO) test -race -timeout 40m ./...

# The six binaries with SHA256SUMS in dist/, reproducibly (see .ci/release).
release:
	.ci/release dist

# Two release builds give identical bytes, and --version tells all three.
release-check:
	.ci/release-check

# The Windows-specific tests, under wine (see docs/reliability.md).
wine:
	.ci/wine-test

# MCP interoperability against real peers (npm servers, the Go SDK); needs
# Node.js and npm, installs what is missing.
interop:
	interop/run

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

bench-vault:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./internal/vault/

bench-client:
	interop/bench

bench-bridge:
	$(GO) test -run '^$$' -bench . -benchtime 20x ./internal/mcp/bridge/

bench-llm:
	$(GO) test -run '^$$' -bench . -benchtime 3s ./internal/llm/

bench-agent:
	$(GO) test -run '^$$' -bench AgentStep -benchtime 3s -count 3 ./internal/agent/


# The share of a 10-step turn's input served by the providers' prompt
# caches (the llmtest fake's model of them), before and after; see docs/benchmarks.md.
bench-cache:
	$(GO) test -run '^$$' -bench PromptCache -benchtime 5x -v ./internal/agent/

# Tool selection: recall (all, reachable, native), offered tokens and their
# share of the catalogue, and selection time, for tai's selector beside plain
# BM25 top-k at the same tokens, on the captured catalogue (tune, held-out),
# the unseen set, the three blind sets, and a synthetic 3,200-tool catalogue.
# It measures at the 128,000-token window the selector assumes when it knows
# none and at the window of tai's default model; TAI_BENCH_WINDOW=N measures
# at an N-token window alone.
bench-select:
	@echo "$$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($$(nproc) cores), $$($(GO) version | cut -d' ' -f3-)"
	$(GO) test -run '^$$' -bench 'Selection|Select3200|Index3200' -benchtime 2s ./internal/tools/selector/

# tai's MCP server beside the Go SDK, mark3labs/mcp-go and a bare net/http
# ceiling; see docs/benchmarks.md.
bench-serve:
	interop/bench-serve

# tai's start-up (--version, --help, first model request) beside Claude Code,
# Codex CLI and Gemini CLI, pinned in interop/benchstart; see docs/benchmarks.md.
bench-start:
	interop/bench-start
