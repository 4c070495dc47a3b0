// Command capture records real MCP servers' tool lists for the selection
// benchmark, through tai's own client: it starts each server of
// servers.json over stdio, lists its tools and writes them, as the server
// sent them, to one JSON file per server. The servers come from npm,
// pinned by package-lock.json beside this file; ./run installs them and
// calls this program. No server is given real credentials: placeholders
// are enough for these servers to list their tools.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"tai/internal/mcp/client"
)

// server is one entry of servers.json.
type server struct {
	Name    string            `json:"name"`
	Package string            `json:"package"`
	Bin     string            `json:"bin"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Files are written into the server's scratch folder first (a
	// placeholder credentials file); ${TMP} in args and env names it.
	Files map[string]string `json:"files,omitempty"`
}

// Capture is one file of testdata/servers: what tools/list returned.
type Capture struct {
	Server  string            `json:"server"`
	Package string            `json:"package"`
	Tools   []json.RawMessage `json:"tools"`
}

func main() {
	list := flag.String("servers", "servers.json", "servers to capture")
	modules := flag.String("modules", ".cache/node_modules", "node_modules holding the servers")
	out := flag.String("out", "../../testdata/servers", "folder for the captured lists")
	only := flag.String("only", "", "capture only this server")
	flag.Parse()
	servers, err := readServers(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(2)
	}
	failed := 0
	for _, s := range servers {
		if *only != "" && s.Name != *only {
			continue
		}
		n, err := capture(s, *modules, *out)
		if err != nil {
			failed++
			fmt.Fprintf(os.Stderr, "capture: %s: %v\n", s.Name, err)
			continue
		}
		fmt.Printf("%-20s %3d tools\n", s.Name, n)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func readServers(path string) ([]server, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []server
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return out, nil
}

// capture lists one server's tools and writes them to out/<name>.json.
func capture(s server, modules, out string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bin, err := filepath.Abs(filepath.Join(modules, ".bin", s.Bin))
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "capture-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	expand := func(v string) string {
		return os.Expand(v, func(k string) string { return map[string]string{"TMP": dir}[k] })
	}
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = expand(a)
	}
	// HOME is the scratch folder too, so no server writes into the real one.
	env := map[string]string{"HOME": dir}
	for k, v := range s.Env {
		env[k] = expand(v)
	}
	for name, body := range s.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			return 0, err
		}
	}
	c, err := client.Connect(ctx, client.Options{Transport: client.Stdio{Command: bin, Args: args, Env: env, Dir: dir}})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	tools, err := c.ListTools(ctx)
	if err != nil {
		return 0, err
	}
	capt := Capture{Server: s.Name, Package: s.Package}
	for _, t := range tools {
		capt.Tools = append(capt.Tools, t.Raw)
	}
	b, err := json.MarshalIndent(capt, "", "  ")
	if err != nil {
		return 0, err
	}
	return len(tools), os.WriteFile(filepath.Join(out, s.Name+".json"), append(b, '\n'), 0o644)
}
