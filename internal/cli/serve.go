package cli

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	tai "tai"
	"tai/internal/catalog"
	"tai/internal/mcp/serve"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// serveFlags are tai --serve-mcp's flags.
type serveFlags struct {
	key     string
	port    int
	bind    string
	origins []string
}

func addServeFlags(cmd *cobra.Command, f *serveFlags) {
	lf := cmd.Flags()
	lf.StringVar(&f.key, "serve-mcp", "", "serve tai over MCP (Streamable HTTP) with this Bearer key; - reads it from TAI_MCP_KEY")
	lf.IntVar(&f.port, "mcp-port", 0, "port of the MCP server (default $TAI_MCP_PORT, else 8765; 0 picks a free one)")
	lf.StringVar(&f.bind, "mcp-bind", "", "address the MCP server listens on (default $TAI_MCP_BIND, else 127.0.0.1)")
	lf.StringSliceVar(&f.origins, "mcp-allow-origin", nil, "browser origins (scheme://host[:port]) allowed beside this machine's; repeatable")
}

// serveMCP is tai --serve-mcp (mcp_serve_main): it resolves the flags,
// opens the vault, listens, prints where and the loud notices, and serves
// until SIGINT or SIGTERM.
func (a *App) serveMCP(cmd *cobra.Command, args []string) error {
	ctx := cmd.Context()
	if len(args) > 0 || a.flags.print != "" {
		return usageError("--serve-mcp takes no prompt; clients send theirs through the chat tool")
	}
	key, err := a.serveKey()
	if err != nil {
		return err
	}
	if a.serve.key != "-" {
		// Any local user reads another's command line (ps, /proc/PID/cmdline).
		fmt.Fprintln(a.Stderr, "tai: warning: a key on the command line shows in ps and shell history; use --serve-mcp - with the key in TAI_MCP_KEY")
	}
	addr, loopback, err := a.serveAddr(cmd)
	if err != nil {
		return err
	}
	cfg, err := a.Config(ctx)
	if err != nil {
		return err
	}
	a.store.AddKnown("TAI_MCP_KEY", key)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w; pick another port with --mcp-port", addr, err)
	}
	served := serve.Served(catalog.Native())
	// The profile's vault records are its resources: what a large result
	// spills to, read back by its URI.
	records := &serve.Records{Store: a.store, Profile: cfg.Profile}
	srv, err := serve.New(serve.Options{
		Key: key, Tools: served, Host: &servedHost{a: a, profile: cfg.Profile}, Vault: a.store,
		Resources: records, Complete: records,
		Audit: func(ctx context.Context, e vault.AuditEntry) {
			e.Profile = cfg.Profile
			_ = a.store.Audit(ctx, e)
		},
		Version: tai.Version, Loopback: loopback, AllowOrigins: a.serve.origins,
		Logf: func(format string, args ...any) { fmt.Fprintf(a.Stderr, "tai: "+format+"\n", args...) },
	})
	if err != nil {
		ln.Close()
		return usageError("%v", err)
	}
	a.serveNotices(ln.Addr().String(), cfg.Profile, len(served), loopback, len(key))
	// A server runs in the background for days: it keeps its heap within
	// half its live data (GOGC 50, unless the environment sets GOGC),
	// trading a tenth of its ping throughput for about a fifth of its
	// resident memory (docs/benchmarks.md). What start-up allocated (flag
	// parsing, the catalogue's schemas, the vault's migrations check) is
	// garbage by now and goes back to the system once.
	if os.Getenv("GOGC") == "" { // the runtime reads the real environment
		debug.SetGCPercent(50)
	}
	debug.FreeOSMemory()
	if err := srv.Run(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(a.Stderr, "tai: MCP server stopped")
	return nil
}

// serveKey is the key argument, or TAI_MCP_KEY for "-".
func (a *App) serveKey() (string, error) {
	key := a.serve.key
	if key == "-" {
		if key = a.Getenv("TAI_MCP_KEY"); key == "" {
			return "", usageError("--serve-mcp -: TAI_MCP_KEY is empty; set it to the key clients will send")
		}
	}
	if strings.TrimSpace(key) != key || key == "" || strings.ContainsAny(key, "\r\n") {
		return "", usageError("--serve-mcp: the key must be non-empty, without spaces at its ends or line breaks")
	}
	return key, nil
}

// serveAddr resolves --mcp-bind and --mcp-port against TAI_MCP_BIND and
// TAI_MCP_PORT.
func (a *App) serveAddr(cmd *cobra.Command) (addr string, loopback bool, err error) {
	bind, port := a.serve.bind, a.serve.port
	if !cmd.Flags().Changed("mcp-bind") {
		bind = cmp.Or(a.Getenv("TAI_MCP_BIND"), "127.0.0.1")
	}
	if !cmd.Flags().Changed("mcp-port") {
		port = wire.DefaultPort
		if v := a.Getenv("TAI_MCP_PORT"); v != "" {
			if port, err = strconv.Atoi(v); err != nil {
				return "", false, usageError("TAI_MCP_PORT=%q is not a port number", v)
			}
		}
	}
	if port < 0 || port > 65535 {
		return "", false, usageError("port %d is out of range; use 1 to 65535, or 0 for a free one", port)
	}
	ip := net.ParseIP(strings.Trim(bind, "[]"))
	loopback = bind == "localhost" || ip != nil && ip.IsLoopback()
	if ip == nil && bind != "localhost" {
		return "", false, usageError("--mcp-bind %q: want an IP address (127.0.0.1, ::1, 0.0.0.0 …) or localhost", bind)
	}
	return net.JoinHostPort(strings.Trim(bind, "[]"), strconv.Itoa(port)), loopback, nil
}

// serveNotices says where tai listens and what that means, loudly.
func (a *App) serveNotices(addr, profile string, tools int, loopback bool, keyLen int) {
	w := a.Stderr
	fmt.Fprintln(w, "tai: NOTICE: approvals run as --yolo: no person is present to ask, so every tool call made with the key runs without asking")
	if !loopback {
		fmt.Fprintf(w, "tai: WARNING: %s is reachable beyond this machine and the key travels in clear text; put a TLS proxy in front\n", addr)
	}
	if keyLen < 16 {
		fmt.Fprintln(w, "tai: WARNING: the key is shorter than 16 characters; anyone who guesses it runs tools as you")
	}
	fmt.Fprintf(w, "tai: serving MCP at http://%s%s (profile %s, %d tools); Ctrl-C or SIGTERM stops it\n", addr, serve.Path, profile, tools)
}
