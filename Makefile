GO      ?= go
BIN     ?= bin/tai
STATICCHECK_VERSION ?= v0.8.2

.PHONY: build test unit interop fmt-check vet lint bench-vault bench-client bench-llm bench-bridge bench-agent

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/tai

# The whole test suite, exactly what CI runs.
test: fmt-check vet lint unit interop

unit:
	$(GO) test -race ./...

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
