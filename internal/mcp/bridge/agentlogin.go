package bridge

import (
	"context"
	"fmt"

	"tai/internal/tools"
)

// loginToolConsent is mcp_login's first ask: starting a login at all. The
// authorization server and scopes are asked about once discovered, before
// the browser opens.
func loginToolConsent(call tools.Call, in serverArgs) tools.Consent {
	c := tools.Consent{Title: "MCP login: " + printable(in.Server, 64)}
	b, err := From(call.Env)
	if err != nil {
		c.Detail = err.Error()
		return c
	}
	target := "(not registered)"
	if srv, err := b.Store.MCPServer(context.Background(), in.Server); err == nil {
		target = printable(srv.URL, 200)
	}
	c.Detail = fmt.Sprintf("server: %s\nURL: %s\nprofile: %s\ntai finds the server's authorization server and shows it with the scopes before opening your browser.",
		printable(in.Server, 64), target, b.Profile)
	return c
}

func runLogin(ctx context.Context, call tools.Call, in serverArgs) (tools.Result, error) {
	if call.Env.Served() {
		return tools.Errorf("mcp_login: a login opens a browser on the machine running tai, so it is not available over a served session; run `tai mcp login %s` in a terminal there", in.Server), nil
	}
	b, err := forProfile(call.Env, in.Profile)
	if err != nil {
		return tools.Errorf("mcp_login: %v", err), nil
	}
	a, err := b.Login(ctx, in.Server)
	if err != nil {
		return tools.Errorf("mcp_login: %v", err), nil
	}
	return tools.Text(FormatAdded([]Added{a}, b.Profile)), nil
}
