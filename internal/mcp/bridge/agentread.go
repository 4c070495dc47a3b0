package bridge

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"tai/internal/tools"
)

// readArgs name the resource mcp_read reads, or only the server whose
// resources it lists.
type readArgs struct {
	oneServer
	URI string `json:"uri,omitempty" jsonschema:"the resource's URI, as listed or linked in a tool's result; leave it out to list the server's resources and templates"`
}

// readSubject names the server and resource an mcp_read reaches, for its
// audit row.
func readSubject(in readArgs) string {
	return strings.TrimSpace(ReadName + " " + in.Server + " " + printable(in.URI, 300))
}

// readConsent is mcp_read's approval screen: like a bridged call's, it
// names the server, so "always for this server" covers its reads too.
func readConsent(_ tools.Call, in readArgs) tools.Consent {
	if in.URI == "" {
		return tools.Consent{Title: "MCP " + printable(in.Server, 64) + ": list resources",
			Detail: "server: " + in.Server + "\nlist its resources and resource templates", Server: in.Server}
	}
	return tools.Consent{Title: fmt.Sprintf("MCP %s: read %s", printable(in.Server, 64), printable(in.URI, 200)),
		Detail: fmt.Sprintf("server: %s\nresource: %s", in.Server, printable(in.URI, 2000)), Server: in.Server}
}

func runRead(ctx context.Context, call tools.Call, in readArgs) (tools.Result, error) {
	b, err := reachingBridge(call.Env, ReadName)
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	if in.URI == "" {
		list, err := b.Resources(ctx, in.Server)
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(FormatResources(list)), nil
	}
	r, err := b.ReadResource(ctx, in.Server, in.URI)
	if err != nil {
		return tools.Result{}, err
	}
	text, err := b.ModelText(ctx, r)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(text), nil
}

// FormatResources renders a server's resources (URI, name, MIME type,
// size) and then its templates as tables. Server text is made printable.
func FormatResources(r ServerResources) string {
	if len(r.Resources) == 0 && len(r.Templates) == 0 {
		return "MCP server " + r.Server + " lists no resources"
	}
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	if len(r.Resources) > 0 {
		fmt.Fprintln(w, "URI\tNAME\tMIME TYPE\tSIZE\tDESCRIPTION")
	}
	for _, res := range r.Resources {
		size := "-"
		if res.Size != nil {
			size = fmt.Sprint(*res.Size)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", printable(res.URI, 200), dash(printable(res.Name, 64)),
			dash(printable(res.MIMEType, 64)), size, printable(tools.Summary(res.Description, 80), 100))
	}
	w.Flush()
	if len(r.Templates) > 0 {
		if len(r.Resources) > 0 {
			sb.WriteString("\n")
		}
		w = tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "TEMPLATE\tNAME\tMIME TYPE\tDESCRIPTION")
		for _, t := range r.Templates {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", printable(t.URITemplate, 200), dash(printable(t.Name, 64)),
				dash(printable(t.MIMEType, 64)), printable(tools.Summary(t.Description, 80), 100))
		}
		w.Flush()
	}
	return strings.TrimRight(sb.String(), "\n")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
