package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"tai/internal/agent"
	"tai/internal/mcp/bridge"
	"tai/internal/mcp/wire"
)

func newMCPResourcesCmd(a *App) *cobra.Command {
	cmd := a.bridgeCommand("resources SERVER", "List a server's resources and resource templates (starts the server)",
		cobra.ExactArgs(1), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
			b.AnyServer = true
			list, err := b.Resources(ctx, args[0])
			if err != nil {
				return resourceError(err)
			}
			if *a.mcpJSON {
				return printJSON(a.Stdout, list)
			}
			return printMCP(a, []bridge.ServerResources{list}, func(l []bridge.ServerResources) string {
				return bridge.FormatResources(l[0])
			})
		})
	cmd.Long = `List what a registered server offers to read, from a live connection (the
server is started if it is not running, enabled for the profile or not):
each resource's URI, name, MIME type, size and description, then its URI
templates. Read one with tai mcp read SERVER URI, or attach it to a message
with @SERVER:URI in a session. Resources a filter of the profile withholds
are left out.`
	return cmd
}

func newMCPReadCmd(a *App) *cobra.Command {
	var out string
	var force, follow bool
	var updates int
	cmd := a.bridgeCommand("read SERVER URI [--out FILE [--force]] [--follow [--updates N]]", "Read one resource of a server: text to stdout, binary data to a file",
		cobra.ExactArgs(2), func(ctx context.Context, b *bridge.Bridge, _ *agent.Approver, args []string) error {
			b.AnyServer = true
			if updates < 0 || (updates > 0 && !follow) {
				return usageError("--updates N counts the changes --follow waits for: give --follow and an N of 1 or more")
			}
			if out != "" && out != "-" && !force {
				if err := notThere(out); err != nil {
					return err
				}
			}
			if follow {
				return a.followRead(ctx, b, args[0], args[1], out, force, updates)
			}
			r, err := b.ReadResource(ctx, args[0], args[1])
			if err != nil {
				return resourceError(err)
			}
			return a.writeRead(r, out, force)
		})
	cmd.Long = `Read one resource of a registered server (started if it is not running,
enabled for the profile or not). Text goes to stdout (control characters
removed at a terminal), redacted of known secrets. Binary data (a blob) is
never printed: it is written to --out FILE, or to a file in the current
directory named after the URI's last segment, and tai says where. An
existing file is not replaced without --force. --out - writes the bytes
to stdout when it is not a terminal. A read larger than MCP_RESOURCE_MAX
is refused.

--follow subscribes to the resource and reads it again each time the
server says it changed, with a line on stderr for each change (one object
a line with --json), until Ctrl-C, until --updates N changes were read,
or until the server goes away. Changes told while a read runs are read
once. With --out the file is replaced at each change. A server that does
not tell of changes (no resources.subscribe) is refused.

Exit status: 0 read, 1 the resource is disabled for the profile, 2 an
unknown server or resource, a server without resources or subscriptions,
a protocol failure, or a server that went away while followed.`
	cmd.Example = `  tai mcp read docs file:///README.md
  tai mcp read assets 'img://logo' --out logo.png
  tai mcp read monitor status://build --follow`
	cmd.Flags().StringVar(&out, "out", "", "write what was read to FILE (- for stdout when it is not a terminal)")
	cmd.Flags().BoolVar(&force, "force", false, "replace FILE when it exists")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "read it again each time the server says it changed, until Ctrl-C")
	cmd.Flags().IntVar(&updates, "updates", 0, "with --follow, stop after reading N changes")
	return cmd
}

// followRead reads uri of server, then again at each change the server
// tells of, until ctx ends, updates changes were read (when above zero),
// or the connection ends. It subscribes before the first read, so that a
// change during it is not missed.
func (a *App) followRead(ctx context.Context, b *bridge.Bridge, server, uri, out string, force bool, updates int) error {
	w, err := b.Watch(ctx, server, uri)
	if err != nil {
		return resourceError(err)
	}
	defer w.Stop()
	read := func() error {
		r, err := b.ReadResource(ctx, server, uri)
		if err != nil {
			return resourceError(err)
		}
		return a.writeRead(r, out, force)
	}
	if err := read(); err != nil {
		return err
	}
	force = true // the file is tai's own from here on
	for n := 1; updates == 0 || n <= updates; n++ {
		select {
		case <-ctx.Done():
			return nil
		case <-w.Lost:
			return withCode(ExitUsage, fmt.Errorf("MCP server %s went away while %s was followed; see tai mcp logs %s", server, wire.Printable(uri, 200), server))
		case <-w.Changed:
		}
		if *a.mcpJSON {
			if err := printJSON(a.Stdout, map[string]any{"server": server, "uri": uri, "changed": n}); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(a.Stderr, "tai: %s of MCP server %s changed (%d); reading it again\n", wire.Printable(uri, 200), server, n)
		}
		if err := read(); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
	return nil
}

// resourceError gives a failed listing or read its exit code: 1 for a
// resource the profile withholds, 2 for anything else.
func resourceError(err error) error {
	if errors.Is(err, bridge.ErrFiltered) {
		return withCode(ExitFailed, err)
	}
	return withCode(ExitUsage, err)
}

// readContent is one content of a read as --json prints it.
type readContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Size     int    `json:"size"`
	File     string `json:"file,omitempty"`
}

// writeRead puts a read where it belongs: text to stdout, or everything to
// out when named; each blob to a file of its own otherwise.
func (a *App) writeRead(r *bridge.ResourceRead, out string, force bool) error {
	if out != "" && len(r.Contents) > 1 {
		return usageError("%s holds %d contents; --out names one file: leave it out to get each in its own", wire.Printable(r.URI, 200), len(r.Contents))
	}
	var shown []readContent
	for _, c := range r.Contents {
		rc := readContent{URI: c.URI, MIMEType: c.MIMEType, Size: c.Size()}
		data := []byte(c.Text)
		if c.IsBlob {
			data = c.Blob
		}
		switch {
		case out == "-":
			if a.IsTerminal(a.Stdout) {
				return usageError("--out - writes the bytes to stdout, which is a terminal here: name a file")
			}
			_, err := a.Stdout.Write(data)
			return err
		case out != "" || c.IsBlob:
			name := cmp.Or(out, fileFor(c.URI))
			if err := writeNew(name, data, force); err != nil {
				return err
			}
			rc.File = name
			if !*a.mcpJSON {
				fmt.Fprintf(a.Stderr, "tai: wrote %d bytes of %s to %s\n", len(data), wire.Printable(c.URI, 200), wire.Printable(name, 200))
			}
		case *a.mcpJSON:
			rc.Text = c.Text
		default:
			a.printText(c.Text)
		}
		shown = append(shown, rc)
	}
	if *a.mcpJSON {
		return printJSON(a.Stdout, map[string]any{"server": r.Server, "uri": r.URI, "contents": shown})
	}
	return nil
}

// fileFor names the file a blob of uri is written to: the URI's last
// path segment, without query or fragment, its characters limited to
// letters, digits, '.', '-' and '_'; "resource" when nothing is left.
func fileFor(uri string) string {
	if i := strings.IndexAny(uri, "?#"); i >= 0 {
		uri = uri[:i]
	}
	if _, rest, ok := strings.Cut(uri, "://"); ok {
		uri = rest
	}
	uri = strings.TrimRight(uri, "/")
	uri = uri[strings.LastIndexByte(uri, '/')+1:]
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, uri)
	if strings.Trim(name, "._") == "" {
		return "resource"
	}
	return name
}

// notThere refuses a file that exists, before anything is read.
func notThere(name string) error {
	if _, err := os.Lstat(name); err == nil {
		return usageError("%s exists; use --force to replace it or --out to name another file", wire.Printable(name, 200))
	}
	return nil
}

// writeNew writes data to name whole or not at all: through a temporary
// file beside it, renamed into place. Without force an existing file is
// left alone and refused.
func writeNew(name string, data []byte, force bool) error {
	if !force {
		if err := notThere(name); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tai-read-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if !force {
		// Link fails when name appeared since notThere: never replaced.
		if err := os.Link(tmp.Name(), name); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return notThere(name)
			}
			return err
		}
		return nil
	}
	return os.Rename(tmp.Name(), name)
}
