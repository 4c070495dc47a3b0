package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tai/internal/mcp/bridge"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// ownCommand is one of the starts of tai's own table.
type ownCommand struct {
	name string
	argv []string
	env  []string
}

// ownTargets are issue 18's start-up targets: tai --version within 1.5×
// a hello-world binary, tai mcp list with 32 servers × 100 cached tools
// within 2× tai --version.
var ownTargets = []struct {
	what, num, den string
	most           float64
}{
	{"tai --version / hello world", "tai --version", "hello world", 1.5},
	{"tai mcp list (32 × 100 tools) / tai --version", "tai mcp list", "tai --version", 2},
}

// measureOwn times tai's own starts beside a hello-world Go binary, the
// three interleaved and rotated each round after one unmeasured start
// each, and prints their medians, p90s and the ratios of the targets
// (each the median over rounds of the two starts' ratio in that round).
func measureOwn(w io.Writer, tai, hello, base string, rounds int) error {
	home := filepath.Join(base, "tai-own")
	if err := seedServers(home, 32, 100); err != nil {
		return fmt.Errorf("registering 32 servers: %w", err)
	}
	env := []string{"TAI_HOME=" + home, "HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "LANG=C.UTF-8"}
	cmds := []ownCommand{
		{"hello world", []string{hello}, env},
		{"tai --version", []string{tai, "--version"}, env},
		{"tai mcp list", []string{tai, "mcp", "list"}, env},
	}
	times := map[string][]time.Duration{}
	for r := -1; r < rounds; r++ {
		for i := range cmds {
			c := cmds[(i+max(r, 0))%len(cmds)]
			d, err := runCommand(c, home)
			if err != nil {
				return err
			}
			if r >= 0 { // round -1 is the unmeasured start
				times[c.name] = append(times[c.name], d)
			}
		}
	}
	fmt.Fprintln(w, "| start | median | p90 |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, c := range cmds {
		s := summarize(samplesOf(times[c.name]))
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", strings.Join(append([]string{filepath.Base(c.argv[0])}, c.argv[1:]...), " "), ms(s.median), ms(s.p90))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| ratio (median over rounds) | measured | target |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, t := range ownTargets {
		var ratios []float64
		for r := range rounds {
			ratios = append(ratios, float64(times[t.num][r])/float64(times[t.den][r]))
		}
		slices.Sort(ratios)
		fmt.Fprintf(w, "| %s | %.2f | ≤ %.1f |\n", t.what, ratios[len(ratios)/2], t.most)
	}
	return nil
}

func samplesOf(ds []time.Duration) []sample {
	out := make([]sample, len(ds))
	for i, d := range ds {
		out[i] = sample{wall: d}
	}
	return out
}

// runCommand runs c to its end and returns the wall time from exec; it
// must exit 0.
func runCommand(c ownCommand, dir string) (time.Duration, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env, cmd.Dir = c.env, dir
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("%s: %w: %s", c.name, err, strings.TrimSpace(string(out)))
	}
	return d, nil
}

// seedServers registers n stdio servers of tools cached tools each in the
// vault at home, enabled for the default profile, as `tai mcp add` leaves
// them after listing: their commands never run here (tai mcp list reads
// the cache). Descriptions and schemas are of a typical server's size.
func seedServers(home string, n, tools int) error {
	ctx := context.Background()
	s, err := vault.Open(ctx, home, vault.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"id":    map[string]any{"type": "string", "description": "The identifier of the item to act on"},
		"limit": map[string]any{"type": "integer", "description": "How many results to return at most"},
	}, "required": []string{"id"}})
	for i := range n {
		var listed []wire.Tool
		for j := range tools {
			listed = append(listed, wire.Tool{Name: fmt.Sprintf("tool_%03d", j), InputSchema: schema,
				Description: fmt.Sprintf("Does thing %d of server %d: reads the item, changes what is asked, and returns a short summary of the result with its identifier.", j, i)})
		}
		reg := bridge.Registration(vault.MCPServer{Name: fmt.Sprintf("srv%02d", i), Transport: "stdio", Command: "/bin/false",
			Args: []string{"never-run"}, Source: "explicit", ConsentedHash: "set"}, listed)
		reg.Enable = []string{vault.DefaultProfile}
		if err := s.RegisterMCPServer(ctx, reg); err != nil {
			return err
		}
	}
	return os.Chmod(home, 0o700)
}
