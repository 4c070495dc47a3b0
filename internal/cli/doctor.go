package cli

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"tai/internal/policy"
	"tai/internal/profile"
	"tai/internal/sandbox"
	"time"

	"github.com/spf13/cobra"

	"tai/internal/textsafe"
)

// finding is one line of tai doctor: what was checked, what was found and,
// when something is wrong, what to do.
type finding struct {
	Area   string `json:"area"` // model, vault, mcp, runtime, serve
	Check  string `json:"check"`
	Status string `json:"status"` // ok, warn, fail, skip
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorOptions are tai doctor's flags.
type doctorOptions struct {
	offline, connect, json bool
	timeout                time.Duration
}

// doctorProbeTimeout bounds each network check and each runtime's
// --version.
const doctorProbeTimeout = 5 * time.Second

func newDoctorCmd(a *App) *cobra.Command {
	var o doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the model, the vault, MCP servers and runtimes; exit 1 when something needs fixing",
		Long: `Checks tai's setup and prints one line each, saying what to do where
something is wrong: the model (provider, base URL, key, and one request
to the provider unless --offline), the vault (SQLite integrity, seal,
audit chain), every registered MCP server (the command on PATH, ${VAR}
references resolved, tools withheld, OAuth login expiry; with --connect
each approved server is also started and its handshake timed), the
runtimes servers use (node, npx, uv, uvx, docker) and the served key's
source. Exit 0 when nothing fails, 1 otherwise.`,
		Example: `  tai doctor
  tai doctor --offline --json
  tai doctor --connect`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := a.doctor(cmd.Context(), o)
			failed := 0
			for _, f := range fs {
				if f.Status == "fail" {
					failed++
				}
			}
			if o.json {
				if err := printJSON(a.Stdout, fs); err != nil {
					return err
				}
			} else {
				for _, f := range fs {
					fmt.Fprintln(a.Stdout, formatFinding(f))
				}
			}
			if failed > 0 {
				if !o.json {
					fmt.Fprintf(a.Stdout, "%d check(s) failed\n", failed)
				}
				return silentExit(ExitFailed)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.offline, "offline", false, "send nothing over the network: skip the model request")
	f.BoolVar(&o.connect, "connect", false, "also start every approved MCP server and time its handshake")
	f.BoolVar(&o.json, "json", false, "print the findings as JSON")
	f.DurationVar(&o.timeout, "timeout", doctorProbeTimeout, "limit for each request, handshake and runtime check")
	return cmd
}

// formatFinding is one line, untrusted text made printable.
func formatFinding(f finding) string {
	line := fmt.Sprintf("%-4s %s %s: %s", f.Status, f.Area, f.Check, f.Detail)
	if f.Fix != "" {
		line += "; " + f.Fix
	}
	return textsafe.Line(line)
}

// doctor runs every check in order; none stops the others.
func (a *App) doctor(ctx context.Context, o doctorOptions) []finding {
	var fs []finding
	add := func(more ...finding) { fs = append(fs, more...) }
	vaultFs, opened := a.doctorVault(ctx)
	add(vaultFs...)
	if opened {
		add(a.doctorModel(ctx, o)...)
		add(a.doctorMCP(ctx, o)...)
	}
	add(a.doctorRuntimes(ctx, o)...)
	add(a.doctorSandbox(ctx))
	add(a.doctorPolicy())
	add(a.doctorServe()...)
	return fs
}

// doctorPolicy shows the administrator's policy, which applies before
// the person's settings.
func (a *App) doctorPolicy() finding {
	pol, err := a.policy()
	switch {
	case err != nil:
		return findFail("runtime", "policy", err.Error(), "")
	case pol.Path == "":
		return findOK("runtime", "policy", "none ("+policy.Path()+" does not exist)")
	}
	var says []string
	if pol.ForbidSandboxOff {
		says = append(says, "no --sandbox off")
	}
	if pol.ForbidYolo {
		says = append(says, "no --yolo")
	}
	if pol.ForbidAuto {
		says = append(says, "no --auto")
	}
	if len(pol.DeniedHosts) > 0 {
		says = append(says, fmt.Sprintf("%d hosts refused", len(pol.DeniedHosts)))
	}
	if pol.AllowedServers != nil {
		says = append(says, fmt.Sprintf("only %d listed MCP servers", len(*pol.AllowedServers)))
	}
	if len(says) == 0 {
		says = append(says, "nothing")
	}
	return findOK("runtime", "policy", pol.Path+": "+strings.Join(says, ", "))
}

// doctorSandbox reports what confines commands: the mode and where it
// comes from, and what the kernel offers for it.
func (a *App) doctorSandbox(ctx context.Context) finding {
	mode, from := sandbox.Default, "default"
	if cfg, err := a.Config(ctx); err == nil {
		v := cfg.Values[profile.KeySandbox]
		mode, from = v.Value, v.Source
	}
	st := sandbox.Probe()
	switch {
	case mode == sandbox.Off:
		return findWarn("runtime", "sandbox", "off ("+from+"): commands reach everything you can", "tai config set sandbox workspace-write")
	case !st.Confines:
		return findFail("runtime", "sandbox", mode+" ("+from+"), but unavailable: "+st.Why+"; every command asks first", "use a kernel with Landlock (5.13 or later), or run tai where one is")
	case st.Why != "":
		return findWarn("runtime", "sandbox", fmt.Sprintf("%s (%s), %s; partial: %s", mode, from, st.What, st.Why), "")
	}
	return findOK("runtime", "sandbox", fmt.Sprintf("%s (%s): %s", mode, from, st.What))
}

func findOK(area, check, detail string) finding {
	return finding{Area: area, Check: check, Status: "ok", Detail: detail}
}

func findFail(area, check, detail, fix string) finding {
	return finding{Area: area, Check: check, Status: "fail", Detail: detail, Fix: fix}
}

func findWarn(area, check, detail, fix string) finding {
	return finding{Area: area, Check: check, Status: "warn", Detail: detail, Fix: fix}
}

func findSkip(area, check, detail string) finding {
	return finding{Area: area, Check: check, Status: "skip", Detail: detail}
}

// noRedirects keeps a key on the origin it was meant for.
var noRedirects = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func trimURL(u string) string { return strings.TrimRight(u, "/") }
