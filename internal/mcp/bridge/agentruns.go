package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

func runList(ctx context.Context, call tools.Call, _ tools.NoArgs) (tools.Result, error) {
	b, err := From(call.Env)
	if err != nil {
		return tools.Errorf("mcp_list: %v", err), nil
	}
	list, err := b.Servers(ctx)
	if err != nil {
		return tools.Errorf("mcp_list: %v", err), nil
	}
	return tools.Text(FormatServers(list)), nil
}

// FormatServers renders servers as a table: transport, protocol era,
// enabled profiles, tool counts and pin state. Server text is made
// printable.
func FormatServers(list []ServerInfo) string {
	if len(list) == 0 {
		return "no MCP servers registered; add one with mcp_add (tai mcp add)"
	}
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTRANSPORT\tERA\tENABLED FOR\tTOOLS\tPINS\tRUNS")
	for _, s := range list {
		profiles := strings.Join(s.Profiles, ",")
		if profiles == "" {
			profiles = "-"
		}
		tools := fmt.Sprintf("%d", s.Tools)
		if s.Unoffered > 0 {
			tools += fmt.Sprintf(" (%d listed only)", s.Unoffered)
		}
		if s.Filtered > 0 {
			tools += fmt.Sprintf(" (%d disabled)", s.Filtered)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.Transport, EraLabel(s.Era), profiles, tools, s.PinState(), printable(s.Target, 60))
	}
	w.Flush()
	return strings.TrimRight(sb.String(), "\n")
}

// oneServer names the registered server a call acts on.
type oneServer struct {
	Server string `json:"server" jsonschema:"the registered server's name (see mcp_list)"`
}

// profileArg names the profile a call changes.
type profileArg struct {
	Profile string `json:"profile,omitempty" jsonschema:"profile to change (default: the current one)"`
}

// serverArgs name a server and the profile to change.
type serverArgs struct {
	oneServer
	profileArg
}

// toolsArgs narrow mcp_tools to one server.
type toolsArgs struct {
	Server string `json:"server,omitempty" jsonschema:"only this server (default: every server)"`
}

func runEnable(on bool) func(ctx context.Context, call tools.Call, in serverArgs) (tools.Result, error) {
	verb := map[bool]string{true: "enabled", false: "disabled"}[on]
	return func(ctx context.Context, call tools.Call, in serverArgs) (tools.Result, error) {
		b, err := forProfile(call.Env, in.Profile)
		if err != nil {
			return tools.Errorf("%v", err), nil
		}
		if err := b.Enable(ctx, in.Server, on); err != nil {
			return tools.Errorf("%v", err), nil
		}
		return tools.Text(fmt.Sprintf("MCP server %s %s for profile %s", in.Server, verb, b.Profile)), nil
	}
}

func runRemove(ctx context.Context, call tools.Call, in oneServer) (tools.Result, error) {
	b, err := From(call.Env)
	if err != nil {
		return tools.Errorf("mcp_remove: %v", err), nil
	}
	if err := b.Remove(ctx, in.Server); err != nil {
		return tools.Errorf("mcp_remove: %v", err), nil
	}
	return tools.Text("removed MCP server " + in.Server + " with its profile rows, pins, cached tools and tokens"), nil
}

func runTools(ctx context.Context, call tools.Call, in toolsArgs) (tools.Result, error) {
	b, err := From(call.Env)
	if err != nil {
		return tools.Errorf("mcp_tools: %v", err), nil
	}
	list, err := b.ServerTools(ctx, in.Server)
	if err != nil {
		return tools.Errorf("mcp_tools: %v", err), nil
	}
	return tools.Text(FormatTools(list)), nil
}

// FormatTools renders tools with their bridged name, state and the first
// sentence of their description. Server text is made printable.
func FormatTools(list []ToolInfo) string {
	if len(list) == 0 {
		return "no cached tools"
	}
	var sb strings.Builder
	server := ""
	for _, t := range list {
		writeHeading(&sb, &server, t.Server, t.Enabled, "; MCP "+EraLabel(t.Era))
		fmt.Fprintf(&sb, "  %s [%s] %s: %s\n", t.Name, t.State, printable(t.Remote, 64), tools.Summary(t.Description, 160))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// writeHeading starts a server's group in a listing sorted by server: a
// line naming the server and whether the profile enables it, then detail,
// written when server is not *last, the server of the group before.
func writeHeading(sb *strings.Builder, last *string, server string, enabled bool, detail string) {
	if server == *last {
		return
	}
	*last = server
	state := "enabled"
	if !enabled {
		state = "not enabled for this profile"
	}
	fmt.Fprintf(sb, "%s (%s%s):\n", server, state, detail)
}

type callArgs struct {
	oneServer
	Tool string          `json:"tool" jsonschema:"the tool's name on that server"`
	Args tools.RawObject `json:"args,omitempty" jsonschema:"the tool's arguments"`
}

// callSubject names the server and tool an mcp_call reaches, so its one
// audit row reads as a bridged tool's does.
func callSubject(in callArgs) string {
	return in.Server + "/" + in.Tool
}

func callToolConsent(call tools.Call, in callArgs) tools.Consent {
	name := CallName
	if b, err := From(call.Env); err == nil {
		if t := b.lookupRemote(context.Background(), in.Server, in.Tool); t != nil {
			name = t.Name
		}
	}
	return callConsent(name, in.Server, in.Tool, json.RawMessage(in.Args))
}

func runCall(ctx context.Context, call tools.Call, in callArgs) (tools.Result, error) {
	b, err := reachingBridge(call.Env, CallName)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	return b.Call(ctx, in.Server, in.Tool, json.RawMessage(in.Args))
}

func printable(s string, max int) string { return wire.Printable(s, max) }

// EraLabel shows a stored era: the stateless era by its revision, the
// session era by its name, and "-" before the server was first reached.
func EraLabel(era string) string {
	switch era {
	case wire.StatelessEra.Name:
		return wire.StatelessVersion
	case "":
		return "-"
	}
	return era
}

func oneLine(s string, max int) string { return wire.Printable(strings.TrimSpace(s), max) }
