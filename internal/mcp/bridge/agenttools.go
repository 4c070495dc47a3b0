package bridge

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/tools"
	"tai/internal/vault"
)

// docs holds the tools' descriptions (see tools.Group).
//
//go:embed mcp_*.md
var docs embed.FS

// AgentTools returns the mcp_* tools. Each finds its host's bridge through
// From(call.Env).
func AgentTools() []*tools.Tool {
	group := tools.Group{Name: "mcp", Docs: docs}
	call := group.Tool(CallName, callWithheld)
	call.AuditKind = vault.KindMCPCall
	call.Reach = func(tools.Call) tools.Reach { return tools.Reach{Sends: "an MCP server"} }
	read := group.Tool(ReadName, nil)
	read.Reach = call.Reach
	return []*tools.Tool{
		tools.Define(group.Tool(AddName, nil), runAdd, tools.ConsentBy(addConsent)),
		tools.Define(group.Tool(ListName, tools.AlwaysSafe), runList),
		tools.Define(group.Tool(EnableName, nil), runEnable(true)),
		tools.Define(group.Tool(DisableName, nil), runEnable(false)),
		tools.Define(group.Tool(RemoveName, nil), runRemove),
		tools.Define(group.Tool(ToolsName, tools.AlwaysSafe), runTools),
		tools.Define(call, runCall, tools.ConsentBy(callToolConsent), tools.SubjectBy(callSubject)),
		tools.Define(group.Tool(LoginName, nil), runLogin, tools.ConsentBy(loginToolConsent)),
		tools.Define(read, runRead, tools.ConsentBy(readConsent), tools.SubjectBy(readSubject)),
	}
}

// callWithheld is mcp_call's Safe rule: a call of a tool a filter
// withholds runs nothing (the bridge refuses it), so it asks nobody.
func callWithheld(call tools.Call) bool {
	var in callArgs
	b, err := From(call.Env)
	if err != nil || json.Unmarshal(call.Args, &in) != nil {
		return false
	}
	return !b.Allowed(in.Server, vault.FilterTool, in.Tool)
}

type addArgs struct {
	Source string `json:"source" jsonschema:"a pasted JSON or TOML config, an https URL, a GitHub repository link, or a stored server's name"`
	Name   string `json:"name,omitempty" jsonschema:"name for the server (when the source holds one)"`
	profileArg
	Enable bool `json:"enable,omitempty" jsonschema:"enable it for the profile (default false)"`
}

// forProfile returns the host's bridge, or one for another profile.
func forProfile(env *tools.Env, profile string) (*Bridge, error) {
	b, err := From(env)
	if err != nil || profile == "" || profile == b.Profile {
		return b, err
	}
	ok, err := b.Store.ProfileExists(context.Background(), profile)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("profile %q does not exist", profile)
	}
	return b.ForProfile(profile), nil
}

// reachingBridge returns the host's bridge for a call of tool name that
// reaches a bridged server; a served session reaches none. The error
// starts with name.
func reachingBridge(env *tools.Env, name string) (*Bridge, error) {
	if env.Served() {
		return nil, fmt.Errorf("%s: bridged MCP servers are not reachable from a served session", name)
	}
	b, err := From(env)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return b, nil
}

// addConsent previews what mcp_add would register, so the approval screen
// shows the exact launch before anything runs.
func addConsent(call tools.Call, in addArgs) tools.Consent {
	title := "MCP register: " + oneLine(in.Source, 80)
	b, err := From(call.Env)
	if err != nil {
		return tools.Consent{Title: title, Detail: err.Error()}
	}
	entries, err := config.Normalize(in.Source, config.Options{Name: in.Name, Stored: b.stored(context.Background())})
	var gh *config.GitHubRef
	switch {
	case errors.As(err, &gh):
		return tools.Consent{Title: title, Detail: fmt.Sprintf("read github.com/%s/%s through the GitHub API to find how its server starts "+
			"(if that finds nothing, a subagent that can only read that repository looks); "+
			"each server found is shown for approval before it starts", gh.Owner, gh.Repo)}
	case err != nil:
		return tools.Consent{Title: title, Detail: err.Error()}
	}
	var parts []string
	for _, e := range entries {
		x, err := b.expand(context.Background(), e)
		if err != nil && len(x.Missing) == 0 {
			parts = append(parts, err.Error())
			continue
		}
		parts = append(parts, Describe(x, "register").Detail)
	}
	if in.Enable {
		parts = append(parts, "and enable for profile "+b.Profile)
	}
	return tools.Consent{Title: title, Detail: strings.Join(parts, "\n\n")}
}

func runAdd(ctx context.Context, call tools.Call, in addArgs) (tools.Result, error) {
	b, err := forProfile(call.Env, in.Profile)
	if err != nil {
		return tools.Errorf("mcp_add: %v", err), nil
	}
	consent, resolve := addConsents(b, call.Env, in.Enable)
	added, err := b.Add(ctx, AddRequest{Source: in.Source, Name: in.Name, Enable: in.Enable}, consent, resolve)
	var partial *NotStoredError
	switch {
	case errors.As(err, &partial) && len(added) > 1:
		res := tools.Text(FormatAdded(added, b.Profile) + "\n" + err.Error())
		res.IsError = !slices.ContainsFunc(added, Added.Stored)
		return res, nil
	case err != nil:
		return tools.Errorf("mcp_add: %v", err), nil
	}
	return tools.Text(FormatAdded(added, b.Profile)), nil
}

// addConsents is how mcp_add asks. The call itself was approved on a
// screen showing each pasted entry, so those need nothing more; entries the
// GitHub resolver finds were on no screen, so each gets its own consent
// through Confirm.
func addConsents(b *Bridge, env *tools.Env, enable bool) (RegisterConsent, Resolver) {
	resolved := false
	github := b.GitHub(hostSubagents(env))
	resolve := func(ctx context.Context, ref *config.GitHubRef) ([]config.Entry, error) {
		resolved = true
		return github(ctx, ref)
	}
	consent := func(ctx context.Context, c tools.Consent, _ bool) (bool, bool, error) {
		switch {
		case !resolved:
			return true, enable, nil
		case b.Confirm == nil:
			return false, false, errors.New("a server found in a GitHub repository needs its own approval, and nobody can be asked here: paste its config instead")
		}
		ok, err := b.Confirm(ctx, c)
		return ok, enable, err
	}
	return consent, resolve
}

// FormatAdded describes registered servers and their tools for the model
// and the terminal, and, among several, each server that was not stored
// with why (a single one's failure is the error itself). Server text is
// made printable.
func FormatAdded(added []Added, profile string) string {
	var sb strings.Builder
	for _, a := range added {
		if !a.Stored() {
			if len(added) > 1 {
				fmt.Fprintf(&sb, "not stored: %s\n", printable(a.Err.Error(), 600))
			}
			continue
		}
		state := "enabled for profile " + profile
		if !a.Enabled {
			state = "not enabled for profile " + profile + "; enable it with `tai mcp enable " + a.Name + "`"
		}
		switch {
		case a.NeedsLogin:
			fmt.Fprintf(&sb, "registered MCP server %s, disabled and without tools: it needs a login (401); log in with mcp_login (`tai mcp login %s` in a terminal)\n", a.Name, a.Name)
			continue
		case a.LoggedIn:
			fmt.Fprintf(&sb, "logged in to MCP server %s with %d tools (%s", a.Name, len(a.Tools), state)
			if a.Registration != "" {
				fmt.Fprintf(&sb, "; client: %s", a.Registration)
			}
			sb.WriteString(")")
			if n := len(a.Drift.Added) + len(a.Drift.Changed); n > 0 {
				fmt.Fprintf(&sb, "; %d new or changed tools withheld until `tai mcp tools %s --approve`", n, a.Name)
			}
			sb.WriteString(":\n")
		case a.Refreshed:
			fmt.Fprintf(&sb, "verified MCP server %s (%s): %d tools", a.Name, state, len(a.Tools))
			if n := len(a.Drift.Added) + len(a.Drift.Changed); n > 0 {
				fmt.Fprintf(&sb, "; %d new or changed tools withheld until `tai mcp tools %s --approve`", n, a.Name)
			}
			sb.WriteString("\n")
		default:
			fmt.Fprintf(&sb, "registered MCP server %s with %d tools (%s):\n", a.Name, len(a.Tools), state)
		}
		for _, t := range a.Tools {
			fmt.Fprintf(&sb, "  %s: %s\n", printable(t.Name, 64), tools.Summary(t.Description, 120))
		}
		if len(a.Prompts) > 0 {
			var names []string
			for _, p := range uniquePrompts(a.Prompts) {
				names = append(names, printable(p.Name, 64))
			}
			fmt.Fprintf(&sb, "  prompts: %s\n", strings.Join(names, ", "))
		}
		for _, n := range a.Notes {
			fmt.Fprintf(&sb, "  note: %s\n", printable(n, 200))
		}
	}
	return strings.TrimRight(sb.String(), "\n")
}

// Names of the MCP agent tools (mcp.md "Agent tools").
const (
	AddName     = "mcp_add"
	ListName    = "mcp_list"
	EnableName  = "mcp_enable"
	DisableName = "mcp_disable"
	RemoveName  = "mcp_remove"
	ToolsName   = "mcp_tools"
	CallName    = "mcp_call"
	LoginName   = "mcp_login"
	ReadName    = "mcp_read"
)
