package client

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"tai/internal/mcp/mcptest"
	"tai/internal/mcp/wire"
	"tai/internal/reaper"
)

// fakeEnv names the variable that turns the test binary into a fake
// server; its value is the script.
const fakeEnv = "MCPFAKE"

func TestMain(m *testing.M) {
	// First: the watcher runs with the server's environment, fakeEnv too.
	if code, ok := reaper.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	if script := os.Getenv(fakeEnv); script != "" {
		runStdioFake(script)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runStdioFake serves mcptest.Server on stdin and stdout, after what the
// process-level scripts (floods, stubborn and detaching servers) do.
func runStdioFake(script string) {
	raw, send := mcptest.LineWriter(os.Stdout)
	f := &mcptest.Server{Script: script, Raw: raw, Send: send, Stderr: func(s string) { fmt.Fprintln(os.Stderr, s) }}
	if script == "unknown-id" {
		f.Send = func(m *wire.Message) {
			if m.IsResponse() {
				raw(`{"jsonrpc":"2.0","id":987654,"result":{}}`)
			}
			send(m)
		}
	}
	write := raw
	switch script {
	case "flood-stdout":
		out := bufio.NewWriterSize(os.Stdout, 64<<10)
		line := strings.Repeat("x", 999) + "\n"
		for i := 0; i < 100<<10; i++ {
			out.WriteString(line)
		}
		out.Flush()
	case "flood-stderr":
		chunk := []byte(strings.Repeat("e", 1<<20))
		for i := 0; i < 100; i++ {
			os.Stderr.Write(chunk)
		}
	case "garbage":
		write("hello from a server that logs to stdout")
		write("\x1b[31m{not json")
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), fakeEnv+"=sleeper")
		child.Start()
		fmt.Fprintf(os.Stderr, "grandchild %d\n", child.Process.Pid)
	case "detacher", "stubborn-detacher":
		// A child in a session of its own, out of the server's process
		// group, as setsid(1) or a daemonizing server makes one.
		if script == "stubborn-detacher" {
			signal.Ignore(syscall.SIGTERM)
		}
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), fakeEnv+"=sleeper")
		child.SysProcAttr = detachedAttr()
		child.Start()
		fmt.Fprintf(os.Stderr, "detached %d\n", child.Process.Pid)
	case "sleeper":
		signal.Ignore(syscall.SIGTERM)
		select {}
	}
	stubborn := strings.HasPrefix(script, "stubborn")
	if !stubborn && script != "sleeper" {
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		go func() {
			<-term
			fmt.Fprintln(os.Stderr, "fake: terminated")
			os.Exit(1)
		}()
	}
	mcptest.ServeLines(f, os.Stdin)
	if stubborn {
		select {}
	}
}
