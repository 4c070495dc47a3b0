package interop

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tai/internal/mcp/wire"
)

// firstRunPackage is the server a new user's first `npx -y` installs; its
// version is the one package-lock.json pins for the other checks.
const firstRunPackage = "@modelcontextprotocol/server-memory@2026.8.31"

// requireRegistry stops a test that needs the npm registry when it runs
// without it: interop/run runs the TestFirstRun checks alone, outside the
// loopback-only namespace, with INTEROP_NETWORK=registry.
func requireRegistry(t *testing.T) {
	t.Helper()
	if os.Getenv("INTEROP_NETWORK") != "registry" {
		t.Fatal("this check installs from the npm registry: run it through interop/run, which runs it outside the network namespace")
	}
}

// slowRegistry is a loopback proxy to the npm registry that holds the
// first answer about one package for a while, as a slow link or a large
// install would: the install then takes longer than MCP_CONNECT_TIMEOUT.
// Everything else passes through unchanged, so npm installs the real
// package into a real, empty cache.
type slowRegistry struct {
	hold     time.Duration
	pkg      string // the package's name as npm asks for it, /@scope%2fname
	held     sync.Once
	tarballs atomic.Int64
}

func (s *slowRegistry) start(t *testing.T) string {
	upstream, err := url.Parse(cmp.Or(os.Getenv("INTEROP_NPM_REGISTRY"), npmEnv("registry"), "https://registry.npmjs.org/"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(upstream) // the upstream's host, as Host too
	}}
	// A machine that reaches the registry through a proxy named only to
	// npm: the requests npm would have sent go the same way.
	if p := cmp.Or(npmEnv("https_proxy"), npmEnv("proxy")); p != "" {
		via, err := url.Parse(p)
		if err != nil {
			t.Fatalf("npm's proxy setting %q: %v", p, err)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Proxy = http.ProxyURL(via)
		proxy.Transport = tr
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.EqualFold(r.URL.EscapedPath(), s.pkg) {
			s.held.Do(func() {
				select {
				case <-time.After(s.hold):
				case <-r.Context().Done():
				}
			})
		}
		if strings.HasSuffix(r.URL.Path, ".tgz") {
			s.tarballs.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// npmEnv is npm's setting KEY from the environment (npm_config_KEY, in
// any case), as a machine that sends npm through a mirror sets it.
func npmEnv(key string) string {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.EqualFold(k, "npm_config_"+key) {
			return v
		}
	}
	return ""
}

// withoutNpmEnv is the environment without npm's settings: they outrank
// the new home's .npmrc (a machine-wide npm_config_cache would hand npx a
// cache that interop/run's own install has already filled).
func withoutNpmEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); len(k) >= 11 && strings.EqualFold(k[:11], "npm_config_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// A new user's first `tai mcp add` of an `npx -y` server, on an empty home
// and so an empty npm cache: npx downloads and installs the real package
// from the registry, which here takes longer than MCP_CONNECT_TIMEOUT (the
// registry's first answer is held 5 s past it). Registration gives the
// first start MCP_INSTALL_TIMEOUT, says every 10 s that it is still
// installing, and stores the server with its tools. Before, the start was
// killed at 20 s and every retry began the download again.
func TestFirstRun_NpxInstallPastTheHandshakeCap(t *testing.T) {
	requireRegistry(t)
	reg := &slowRegistry{hold: wire.ConnectTimeout + 5*time.Second, pkg: "/@modelcontextprotocol%2fserver-memory"}
	registry := reg.start(t)
	home := t.TempDir()
	// npm reads its registry from the user's .npmrc; its cache is
	// ~/.npm, empty in a new home. Both reach npx through HOME, which
	// every server inherits.
	if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte("registry="+registry+"\ncache="+filepath.Join(home, ".npm")+"\nupdate-notifier=false\nfund=false\naudit=false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wire.InstallTimeout+30*time.Second)
	defer cancel()
	paste := fmt.Sprintf(`{"mcpServers":{"memory":{"command":"npx","args":["-y",%q]}}}`, firstRunPackage)
	cmd := exec.CommandContext(ctx, taiBinary(t), "mcp", "add", "--yes", paste)
	cmd.Dir = t.TempDir() // no node_modules to find the package in
	cmd.Env = append(withoutNpmEnv(), "HOME="+home, "TAI_HOME="+filepath.Join(home, "tai"))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	t.Logf("first start with install took %s; %d tarballs fetched", took.Round(time.Second), reg.tarballs.Load())
	if err != nil {
		t.Fatalf("tai mcp add: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
	if !strings.Contains(stdout.String(), "registered MCP server memory with 9 tools") {
		t.Errorf("stdout:\n%s", &stdout)
	}
	for _, want := range []string{"tai: still starting MCP server memory (npx may be installing it first): 10s",
		"tai: still starting MCP server memory (npx may be installing it first): 20s"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, &stderr)
		}
	}
	if reg.tarballs.Load() == 0 {
		t.Errorf("npx fetched no tarball through the registry: the cache was not empty")
	}
	if _, err := os.Stat(filepath.Join(home, ".npm", "_cacache")); err != nil {
		t.Errorf("npm's cache in the new home: %v", err)
	}
}
