package bridge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"tai/internal/mcp/client"
	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// progressEvery is how often a first start that is still going prints a
// line where no terminal shows a spinner.
const progressEvery = 10 * time.Second

// PackageRunner names the package runner e starts through (npx, uvx,
// bunx, pnpm dlx, …), which may download and install the server before it
// can answer, or "" when it starts through none.
func PackageRunner(e config.Entry) string {
	if e.Transport != config.Stdio {
		return ""
	}
	argv := append([]string{e.Command}, e.Args...)
	if base(argv[0]) == "cmd" && len(argv) > 2 && strings.EqualFold(argv[1], "/c") { // windows: cmd /c npx …
		argv = argv[2:]
	}
	cmd := base(argv[0])
	switch cmd {
	case "npx", "uvx", "bunx", "pnpx", "pipx":
		return cmd
	case "pnpm", "yarn", "bun", "npm", "uv":
		if len(argv) > 1 {
			switch sub := argv[1]; {
			case cmd == "npm" && sub == "exec", cmd == "bun" && sub == "x", (cmd == "pnpm" || cmd == "yarn") && sub == "dlx":
				return cmd + " " + sub
			case cmd == "uv" && sub == "tool" && len(argv) > 2 && argv[2] == "run":
				return "uv tool run"
			}
		}
	}
	return ""
}

func base(cmd string) string {
	b := strings.ToLower(filepath.Base(strings.ReplaceAll(cmd, `\`, "/")))
	for _, ext := range []string{".cmd", ".exe", ".bat"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

// firstStart is the allowance of a server's first start at registration:
// MCP_CONNECT_TIMEOUT, or MCP_INSTALL_TIMEOUT when a package runner may
// have to install it first; a pasted startup_timeout_sec raises it, up to
// MCP_MAX_STARTUP (later starts take the pasted value as it is). It
// returns the cap's name for errors.
func (b *Bridge) firstStart(e config.Entry) (time.Duration, string) {
	d, name := b.ConnectTimeout, "MCP_CONNECT_TIMEOUT"
	if d <= 0 {
		d = wire.ConnectTimeout
	}
	if PackageRunner(e) != "" {
		d, name = b.installTimeout(), "MCP_INSTALL_TIMEOUT"
	}
	if s := min(e.StartupTimeout, wire.MaxStartup); s > d {
		d, name = s, "the entry's startup timeout"
	}
	return d, name
}

func (b *Bridge) installTimeout() time.Duration {
	if b.InstallTimeout > 0 {
		return b.InstallTimeout
	}
	return wire.InstallTimeout
}

// firstStartError says where the time went when a package runner's first
// start ran out of it: nothing answered, so it was most likely still
// downloading and installing the server.
func firstStartError(e config.Entry, err error) error {
	runner := PackageRunner(e)
	var te *client.TimeoutError
	if runner == "" || !errors.As(err, &te) || te.Method != "connect" {
		return err
	}
	return fmt.Errorf("%w; nothing answered in that time, so %s was most likely still downloading and installing the server: "+
		"try again on a faster connection, or give the entry a longer startup_timeout_sec (up to %s, MCP_MAX_STARTUP)",
		err, runner, wire.MaxStartup)
}

// waiting shows that a server's first start is under way until the
// returned stop is called: on a terminal a spinner with the elapsed time,
// redrawn in place and erased at the end; elsewhere a line every
// progressEvery. Nothing when b.Progress is nil.
func (b *Bridge) waiting(e config.Entry) (stop func()) {
	if b.Progress == nil {
		return func() {}
	}
	what := "starting MCP server " + e.Name
	if r := PackageRunner(e); r != "" {
		what += " (" + r + " may be installing it first)"
	}
	p := &progress{w: b.Progress, what: what, terminal: b.ProgressTerminal, start: time.Now()}
	every := cmp.Or(b.progressEvery, progressEvery)
	if p.terminal {
		every = 100 * time.Millisecond
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				p.end()
				return
			case now := <-t.C:
				p.tick(now)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// progress renders one waiting line.
type progress struct {
	w        io.Writer
	what     string
	terminal bool
	start    time.Time
	frame    int
	drawn    bool
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (p *progress) tick(now time.Time) {
	elapsed := now.Sub(p.start).Truncate(time.Second)
	if !p.terminal {
		fmt.Fprintf(p.w, "tai: still %s: %s\n", p.what, elapsed)
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s %s: %s", spinner[p.frame%len(spinner)], p.what, elapsed)
	p.frame++
	p.drawn = true
}

func (p *progress) end() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// firstListing is what a registration's first start found.
type firstListing struct {
	tools   []wire.Tool
	prompts []wire.Prompt
	// promptErr is why listing the prompts failed; the server is stored
	// without them, and its next start lists them.
	promptErr error
	era       string
}

// probeFirst is a registration's first start: probe within the first-start
// allowance, showing progress, and saying where the time went when it
// runs out. It lists the tools, and the prompts of a server that declared
// them.
func (b *Bridge) probeFirst(ctx context.Context, x config.Expanded, e config.Entry) (firstListing, error) {
	d, capName := b.firstStart(e)
	stop := b.waiting(e)
	defer stop()
	opts := b.options(b.transport(x), e.Name, d, capName)
	if e.CallTimeout > 0 {
		opts.CallTimeout = e.CallTimeout
	}
	c, err := client.Connect(ctx, opts)
	if err != nil {
		return firstListing{}, firstStartError(e, err)
	}
	defer c.Close()
	l := firstListing{era: c.Era().Name}
	if l.tools, err = listTools(ctx, c); err != nil {
		return l, err
	}
	if wire.Declared(c.Server().Capabilities.Prompts) {
		l.prompts, l.promptErr = c.ListPrompts(ctx)
	}
	return l, nil
}
