// Command benchserve measures tai's MCP server beside other servers of the
// same trivial tool (interop/peers: tai's serve package, the official Go
// SDK, mark3labs/mcp-go, and a bare net/http handler answering the same
// bytes as the ceiling, each a binary of its own),
// with one load generator: ping and tools/call latency (p50, p99) and
// throughput with 1 and 16 concurrent sessions, the peers interleaved
// round by round so that a noisy machine hurts them alike, and resident
// memory with 1,000 idle sessions. With -tai it also measures the real
// tai --serve-mcp binary. It prints Markdown.
//
// Usage: benchserve -peers DIR [-tai path/to/tai] [-rounds 9] [-duration 1s]
// where DIR holds peer-tai, peer-gosdk, peer-mcpgo and peer-bare.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// benchKey is peer.Key.
const benchKey = "bench-key-0123456789abcdef"

var (
	peerDir  = flag.String("peers", "", "the directory of the peer binaries (peer-tai, peer-gosdk, peer-mcpgo, peer-bare)")
	taiBin   = flag.String("tai", "", "the tai binary, to measure tai --serve-mcp itself too")
	rounds   = flag.Int("rounds", 9, "rounds; each runs every peer once per scenario, in rotated order")
	duration = flag.Duration("duration", time.Second, "length of one peer's run in one scenario and round")
	idle     = flag.Int("idle", 1000, "idle sessions for the memory figure")
	only     = flag.String("url", "", "only load this server with -load for -duration and print the rate (profiling)")
	load     = flag.String("load", "tools/call", "with -url: ping or tools/call, with 16 sessions")
	memOnly  = flag.Bool("memory", false, "with -tai: only the binary's resident memory at start and with -idle sessions")
)

// kinds are the peers, tai first. The -stateless kinds are the same
// binaries loaded in the stateless era (2026-07-28): no session, the _meta
// claim and the request headers on every POST; they have no ping.
var kinds = []string{"tai", "tai-stateless", "mcpgo", "mcpgo-stateful", "gosdk", "gosdk-stateless", "bare"}

// statelessKind reports whether a kind is loaded in the stateless era.
func statelessKind(kind string) bool { return strings.HasSuffix(kind, "-stateless") }

// clientFor is the load generator's client for a peer kind.
func clientFor(kind, url string) *client {
	c := newClient(url, benchKey)
	c.stateless = statelessKind(kind)
	return c
}

// applies reports whether a scenario runs against a kind.
func applies(kind string, sc scenario) bool { return !statelessKind(kind) || sc.name != "ping" }

// scenario is one load: a message and a number of sessions.
type scenario struct {
	name     string
	body     []byte
	sessions int
}

var scenarios = []scenario{
	{"ping", bodyPing, 1}, {"ping", bodyPing, 16},
	{"tools/call", bodyCall, 1}, {"tools/call", bodyCall, 16},
}

func main() {
	flag.Parse()
	defer func() {
		if homes != "" {
			os.RemoveAll(homes)
		}
	}()
	if *only != "" {
		body := bodyCall
		if *load == "ping" {
			body = bodyPing
		}
		r := &result{}
		lat, err := newClient(*only, benchKey).run(16, body, *duration)
		if err != nil {
			log.Fatal(err)
		}
		r.add(lat, *duration)
		fmt.Printf("%s, 16 sessions: %.0f req/s, p50 %s, p99 %s\n", *load, r.rate(), us(r.pct(0.5)), us(r.pct(0.99)))
		return
	}
	if *memOnly && *taiBin != "" {
		m := idleMemory(serveCmd(), true)
		fmt.Printf("tai --serve-mcp resident: %s at start, %s with %d idle sessions\n", mib(m[0]), mib(m[1]), *idle)
		return
	}
	if *peerDir == "" {
		log.Fatal("benchserve: -peers is required")
	}
	results := map[string]map[int]*result{} // kind → scenario index
	urls := map[string]string{}
	for _, k := range kinds {
		url, stop := startPeer(peerCmd(k), false)
		defer stop()
		urls[k] = url
		results[k] = map[int]*result{}
	}
	for i, sc := range scenarios { // warm up
		for _, k := range kinds {
			results[k][i] = &result{}
			if !applies(k, sc) {
				continue
			}
			if _, err := clientFor(k, urls[k]).run(sc.sessions, sc.body, *duration/10); err != nil {
				log.Fatalf("%s, %s: %v", k, sc.name, err)
			}
		}
	}
	for r := range *rounds {
		for i, sc := range scenarios {
			for j := range kinds {
				k := kinds[(j+r)%len(kinds)]
				if !applies(k, sc) {
					continue
				}
				lat, err := clientFor(k, urls[k]).run(sc.sessions, sc.body, *duration)
				if err != nil {
					log.Fatalf("%s, %s with %d sessions: %v", k, sc.name, sc.sessions, err)
				}
				results[k][i].add(lat, *duration)
			}
		}
	}
	memory := map[string][2]int{}
	for _, k := range kinds {
		if !statelessKind(k) { // no sessions to hold
			memory[k] = idleMemory(peerCmd(k), false)
		}
	}
	report(results, memory)
	if *taiBin != "" {
		reportBinary()
	}
}

// peerCmd is the command of a peer kind.
func peerCmd(kind string) *exec.Cmd {
	switch kind {
	case "mcpgo-stateful":
		return exec.Command(filepath.Join(*peerDir, "peer-mcpgo"), "-stateful")
	case "gosdk-stateless":
		return exec.Command(filepath.Join(*peerDir, "peer-gosdk"), "-stateless")
	}
	return exec.Command(filepath.Join(*peerDir, "peer-"+strings.TrimSuffix(kind, "-stateless")))
}

// startPeer runs cmd and returns the URL it prints (on stderr for tai
// --serve-mcp) and a function that stops it.
func startPeer(cmd *exec.Cmd, fromStderr bool) (string, func()) {
	var pipe func() (io.ReadCloser, error) = cmd.StdoutPipe
	if fromStderr {
		pipe = cmd.StderrPipe
	}
	out, err := pipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	re := regexp.MustCompile(`(http://127\.0\.0\.1:\d+/mcp)`)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := re.FindStringSubmatch(lines.Text()); m != nil {
			go func() {
				for lines.Scan() {
				}
			}()
			return m[1], func() { cmd.Process.Kill(); cmd.Wait() }
		}
	}
	log.Fatalf("%s %s did not print its URL", cmd.Path, strings.Join(cmd.Args[1:], " "))
	return "", nil
}

// idleMemory starts a fresh cmd and returns its resident set before any
// request and with -idle sessions open, in KiB.
func idleMemory(cmd *exec.Cmd, fromStderr bool) [2]int {
	url, stop := startPeer(cmd, fromStderr)
	defer stop()
	before, err := rssKB(cmd.Process.Pid)
	if err != nil {
		log.Fatal(err)
	}
	if err := newClient(url, benchKey).openIdle(*idle); err != nil {
		log.Fatalf("%s: opening sessions: %v", cmd.Args, err)
	}
	after, err := rssKB(cmd.Process.Pid)
	if err != nil {
		log.Fatal(err)
	}
	return [2]int{before, after}
}

func report(results map[string]map[int]*result, memory map[string][2]int) {
	fmt.Printf("%d rounds of %s per peer and scenario, peers interleaved. req/s is the median over rounds; p50 and p99 are over every request.\n\n", *rounds, *duration)
	fmt.Println("| scenario | sessions | peer | req/s | p50 | p99 |")
	fmt.Println("|---|---|---|---|---|---|")
	for i, sc := range scenarios {
		for _, k := range kinds {
			r := results[k][i]
			if !applies(k, sc) {
				continue
			}
			fmt.Printf("| %s | %d | %s | %.0f | %s | %s |\n", sc.name, sc.sessions, k, r.rate(), us(r.pct(0.5)), us(r.pct(0.99)))
		}
	}
	fmt.Printf("\n| peer | resident at start | with %d idle sessions |\n|---|---|---|\n", *idle)
	for _, k := range kinds {
		if !statelessKind(k) {
			fmt.Printf("| %s | %s | %s |\n", k, mib(memory[k][0]), mib(memory[k][1]))
		}
	}
	fmt.Println("\nTargets at 16 sessions, each ratio the median over rounds of the two peers' figures in the same round (mcp-go: the faster of its two modes in the round):")
	for i, sc := range scenarios {
		if sc.sessions != 16 {
			continue
		}
		tai, bare := results["tai"][i], results["bare"][i]
		var mcpgo []float64
		for r := range tai.rates {
			mcpgo = append(mcpgo, max(results["mcpgo"][i].rates[r], results["mcpgo-stateful"][i].rates[r]))
		}
		check(fmt.Sprintf("%s throughput, tai / mcp-go", sc.name), ratio(tai.rates, mcpgo), 1.3, true)
		check(fmt.Sprintf("%s throughput, tai / bare", sc.name), ratio(tai.rates, bare.rates), 0.7, true)
		check(fmt.Sprintf("%s p99, tai / bare", sc.name), ratio(tai.p99s, bare.p99s), 1.5, false)
		if applies("tai-stateless", sc) {
			// The stateless era must cost no more per call than the
			// session era (it has fewer round trips at start).
			st := results["tai-stateless"][i]
			check(fmt.Sprintf("%s throughput, tai stateless / tai session", sc.name), ratio(st.rates, tai.rates), 0.95, true)
			check(fmt.Sprintf("%s p99, tai stateless / tai session", sc.name), ratio(st.p99s, tai.p99s), 1.1, false)
		}
	}
	check(fmt.Sprintf("tai resident with %d sessions, MiB", *idle), float64(memory["tai"][1])/1024, 20, false)
}

// check prints a figure against its target.
func check(what string, got, target float64, atLeast bool) {
	ok := got >= target
	rel := ">="
	if !atLeast {
		ok, rel = got <= target, "<="
	}
	verdict := "met"
	if !ok {
		verdict = "MISSED"
	}
	fmt.Printf("- %s: %.2f (target %s %.2f) %s\n", what, got, rel, target, verdict)
}

// homes holds the fresh homes of serveCmd, removed when main returns.
var homes string

// serveCmd is tai --serve-mcp on a fresh home of its own.
func serveCmd() *exec.Cmd {
	if homes == "" {
		dir, err := os.MkdirTemp("", "benchserve")
		if err != nil {
			log.Fatal(err)
		}
		homes = dir
	}
	home, err := os.MkdirTemp(homes, "home")
	if err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command(*taiBin, "--serve-mcp", "-", "--mcp-port", "0")
	cmd.Env = append(os.Environ(), "TAI_HOME="+filepath.Join(home, "tai"), "TAI_MCP_KEY="+benchKey)
	return cmd
}

// reportBinary measures tai --serve-mcp itself: ping, a tools/call of a
// native tool that reads the vault (todo_read, which also writes an audit
// row), and memory.
func reportBinary() {
	url, stop := startPeer(serveCmd(), true)
	defer stop()
	todo := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"todo_read","arguments":{}}}`)
	fmt.Println("\ntai --serve-mcp, the binary (tools/call is todo_read: a vault read, redaction, an audit row):")
	fmt.Println()
	fmt.Println("| scenario | sessions | req/s | p50 | p99 |")
	fmt.Println("|---|---|---|---|---|")
	stateless := scenario{"tools/call todo_read, stateless era", todo, 1}
	for _, sc := range []scenario{{"ping", bodyPing, 1}, {"ping", bodyPing, 16}, {"tools/call todo_read", todo, 1}, {"tools/call todo_read", todo, 16},
		stateless, {stateless.name, todo, 16}} {
		r := &result{}
		for range *rounds {
			c := newClient(url, benchKey)
			c.stateless = sc.name == stateless.name
			lat, err := c.run(sc.sessions, sc.body, *duration)
			if err != nil {
				log.Fatalf("tai --serve-mcp, %s: %v", sc.name, err)
			}
			r.add(lat, *duration)
		}
		fmt.Printf("| %s | %d | %.0f | %s | %s |\n", sc.name, sc.sessions, r.rate(), us(r.pct(0.5)), us(r.pct(0.99)))
	}
	stop()
	m := idleMemory(serveCmd(), true)
	fmt.Printf("\nResident: %s at start, %s with %d idle sessions.\n", mib(m[0]), mib(m[1]), *idle)
	fmt.Println("\n(Resident memory includes the binary's own pages that the process touched.)")
}
