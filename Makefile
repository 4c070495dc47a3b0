GO      ?= go
BIN     ?= bin/tai
STATICCHECK_VERSION ?= v0.8.2

.PHONY: build test unit fmt-check vet lint bench-vault

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/tai

# The whole test suite, exactly what CI runs.
test: fmt-check vet lint unit

unit:
	$(GO) test -race ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

bench-vault:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./internal/vault/
