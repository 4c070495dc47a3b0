// Command benchstart times the start-up of tai beside other terminal
// agents (Claude Code, Codex CLI, Gemini CLI), all in the same run: each
// agent's --version, its --help, and, where it can be pointed at a local
// model server, the time from exec until that server receives its first
// model request in one-shot mode. Agents run interleaved, the order rotated
// each round, after one unmeasured warm-up start each, so that a noisy
// machine hurts them alike. It prints Markdown: median and p90 wall time,
// and the median peak resident set of the largest process of the agent's
// process tree (wait4's ru_maxrss).
//
// With -hello, it first times tai's own starts beside a hello-world Go
// binary: tai --version, and tai mcp list with 32 servers of 100 cached
// tools (issue 18's targets: 1.5× and 2×); -own does only that.
//
// Usage: benchstart -tai path/to/tai -peers DIR [-home DIR] [-rounds 15] [-hello BIN [-own]]
// where DIR is the node_modules folder holding the peers (.bin/claude,
// .bin/codex, .bin/gemini) and Node 22 (.bin/node). It must run inside a
// loopback-only network namespace, as interop/bench-start arranges: every
// agent gets a fresh HOME, but nothing here stops an agent from calling
// out, so the namespace is what keeps it on the machine.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
)

var (
	taiBin  = flag.String("tai", "", "the tai binary (required)")
	peerDir = flag.String("peers", "", "the node_modules folder holding .bin/claude, .bin/codex, .bin/gemini and .bin/node (required)")
	homeDir = flag.String("home", "", "where each agent's fresh HOME is made (default: a temporary folder)")
	rounds  = flag.Int("rounds", 15, "measured starts of each agent in each mode")
	only    = flag.String("only", "", "measure only the agent of this name (tai, Claude Code, …)")
	verbose = flag.Bool("v", false, "print each start, and each request the fake model server receives, on stderr")
	hello   = flag.String("hello", "", "a hello-world Go binary built as tai is: times tai's own starts beside it (tai --version, tai mcp list with 32 × 100 cached tools)")
	ownOnly = flag.Bool("own", false, "only tai's own starts beside -hello; no peers needed")
	ownRuns = flag.Int("own-rounds", 40, "measured starts of each command in tai's own table")
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchstart: ")
	flag.Parse()
	if *taiBin == "" || *peerDir == "" && !*ownOnly || *ownOnly && *hello == "" {
		log.Fatal("-tai and -peers (or -own and -hello) are required; run it through interop/bench-start")
	}
	if err := becomeSubreaper(); err != nil {
		log.Fatalf("becoming a child subreaper: %v", err)
	}
	base := *homeDir
	if base == "" {
		d, err := os.MkdirTemp("", "benchstart-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		base = d
	}
	if *hello != "" {
		if err := measureOwn(os.Stdout, *taiBin, *hello, base, *ownRuns); err != nil {
			log.Fatal(err)
		}
		if *ownOnly {
			return
		}
		fmt.Println()
	}
	agents, err := newAgents(*taiBin, *peerDir, base)
	if err != nil {
		log.Fatal(err)
	}
	if *only != "" {
		agents = slices.DeleteFunc(agents, func(a *agent) bool { return a.name != *only })
	}
	fake, err := startFake()
	if err != nil {
		log.Fatalf("starting the fake model server: %v", err)
	}
	defer fake.close()

	results := map[string]map[mode]summary{}
	for _, a := range agents {
		results[a.name] = map[mode]summary{}
	}
	for _, m := range modes {
		for name, s := range measureMode(agents, m, fake, *rounds) {
			results[name][m] = s
		}
	}
	printTable(os.Stdout, agents, results)
}

// agentEnv is the environment every agent runs in: a fresh HOME and XDG
// folders of its own, Node 22 first on PATH, and the documented switches
// that turn off auto-update, telemetry and other non-essential traffic.
func agentEnv(home, nodeBin string) []string {
	env := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"PATH=" + nodeBin + string(os.PathListSeparator) + "/usr/local/bin:/usr/bin:/bin",
		"TERM=dumb",
		"LANG=C.UTF-8",
		// Claude Code
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_BUG_COMMAND=1",
		// Gemini CLI
		"GEMINI_TELEMETRY_ENABLED=false",
		// npm-installed CLIs in general
		"NO_UPDATE_NOTIFIER=1",
		"DO_NOT_TRACK=1",
	}
	return env
}
