package client

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"

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

// runStdioFake serves fakeServer on stdin and stdout.
func runStdioFake(script string) {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	var mu sync.Mutex
	write := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(line + "\n")
		out.Flush()
	}
	f := &fakeServer{
		script: script,
		raw:    write,
		stderr: func(s string) { fmt.Fprintln(os.Stderr, s) },
	}
	f.send = func(m *wire.Message) {
		b, err := wire.Encode(m)
		if err != nil {
			panic(err)
		}
		if script == "unknown-id" && m.IsResponse() {
			write(`{"jsonrpc":"2.0","id":987654,"result":{}}`)
		}
		write(string(b))
	}
	switch script {
	case "flood-stdout":
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
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 32<<20)
	for in.Scan() {
		m, err := wire.Decode(in.Bytes())
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake: bad input:", err)
			continue
		}
		f.handle(m)
	}
	fmt.Fprintln(os.Stderr, "fake: stdin closed")
	if stubborn {
		select {}
	}
}
