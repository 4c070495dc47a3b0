// Package interop checks tai's MCP client against real peers that nobody on
// the project wrote: the official npm servers (installed by ./run from the
// lockfile) and a server built on the official Go SDK. Run it through
// ./run (make interop): some peers listen on all interfaces and must run
// in a loopback-only network namespace, which ./run sets up.
package interop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/wire"
)

// goServer is the built goserver binary.
var goServer string

func TestMain(m *testing.M) {
	goServer = os.Getenv("INTEROP_GOSERVER")
	if goServer == "" {
		dir, err := os.MkdirTemp("", "interop")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		goServer = filepath.Join(dir, "goserver")
		out, err := exec.Command("go", "build", "-o", goServer, "./goserver").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building goserver: %v\n%s", err, out)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
	}
	code := m.Run()
	os.Exit(code)
}

// nodeServer returns the path of an installed npm server's entry point; a
// missing one fails the test, since ./run installs them.
func nodeServer(t *testing.T, pkg string) string {
	t.Helper()
	dir := os.Getenv("INTEROP_DIR")
	if dir == "" {
		dir = "."
	}
	p, err := filepath.Abs(filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed: run interop/run (it installs the peers with npm ci)", pkg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not on PATH: install Node.js 20 or later")
	}
	return p
}

// requireLoopbackNamespace fails unless this process sees no interface but
// loopback: a server that listens on all interfaces may only run there.
func requireLoopbackNamespace(t *testing.T) {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			t.Fatalf("interface %s is present: run this through interop/run, which uses a loopback-only network namespace", i.Name)
		}
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// connect dials a peer and closes it when the test ends.
func connect(t *testing.T, tr client.Transport) *client.Client {
	t.Helper()
	return connectEra(t, tr, "")
}

// connectEra connects as a client that remembers era (a wire.Era's Name)
// from an earlier start; "" probes.
func connectEra(t *testing.T, tr client.Transport, era string) *client.Client {
	t.Helper()
	c, err := client.Connect(context.Background(), client.Options{Transport: tr, Era: era})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// connectRetry dials an HTTP peer that may still be starting; ready is
// closed once the peer's process said it listens.
func connectHTTP(t *testing.T, url string, ready <-chan struct{}) *client.Client {
	t.Helper()
	select {
	case <-ready:
	case <-time.After(wire.ConnectTimeout):
		t.Fatal("the server did not start listening")
	}
	return connect(t, client.HTTP{URL: url})
}

// call invokes a tool and fails the test on a protocol error.
func call(t *testing.T, c *client.Client, name, args string) *wire.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return res
}

func names(tools []wire.Tool) string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

// expectToolError wants a result with IsError set.
func expectToolError(t *testing.T, c *client.Client, name, args string) {
	t.Helper()
	res := call(t, c, name, args)
	if !res.IsError {
		t.Fatalf("%s %s: want isError, got %s", name, args, res.Text())
	}
}

// expectRPCError wants a JSON-RPC error with the given code.
func expectRPCError(t *testing.T, c *client.Client, name, args string, code int64) {
	t.Helper()
	res, err := c.CallTool(context.Background(), name, json.RawMessage(args))
	var rpc *wire.Error
	if !errors.As(err, &rpc) || rpc.Code != code {
		t.Fatalf("%s %s: want JSON-RPC error %d, got %+v %v", name, args, code, res, err)
	}
}
