// Package mcptest holds tai's one scripted MCP peer for tests, [Server],
// and the ways to run it: over stdio in a re-executed test binary (a test
// binary calls [Main] from TestMain when [ShouldServe]), inside an
// httptest handler, or in the test's own process over an in-memory
// transport (client.NewInMemory) where a subprocess is not the point.
package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"

	"tai/internal/mcp/wire"
)

// EnvServe, set to "1", makes [ShouldServe] true.
const EnvServe = "TAI_FAKE_MCP"

// EnvTools holds the served tools as a JSON list of {name, description,
// inputSchema?}.
const EnvTools = "TAI_FAKE_TOOLS"

// EnvToolsFile names a file holding the tool list instead, read at each
// start, so a test can change what a server lists without changing how it
// is launched, as a server updated in place does.
const EnvToolsFile = "TAI_FAKE_TOOLS_FILE"

// EnvGenerated, set to "COUNT/PERPAGE", adds COUNT generated tools (gen_0,
// gen_1 …) after the EnvTools ones, listed PERPAGE a page. Pages are made
// as they are asked for, so a huge COUNT costs the fake nothing up front.
const EnvGenerated = "TAI_FAKE_GENERATED"

// EnvStateless, set to a number of milliseconds, makes the server speak
// only the stateless era (2026-07-28): it answers server/discover, refuses
// initialize with -32022, gives tools/list that ttlMs, and from its second
// tools/list on also lists a tool named "added". Set to "future", the
// server speaks only a revision tai does not know (2027-01-01) and
// refuses both discover and initialize with -32022.
const EnvStateless = "TAI_FAKE_STATELESS"

// EnvScript names the Script a re-executed test binary serves ("features"
// …), beside its tools.
const EnvScript = "TAI_FAKE_SCRIPT"

// ShouldServe reports whether this process was started as the fake server.
func ShouldServe() bool { return os.Getenv(EnvServe) == "1" }

// Env returns the environment entries that make a re-executed test binary
// serve tools with the given names; each tool's description is "the NAME
// tool".
func Env(toolNames ...string) map[string]string {
	var list []map[string]any
	for _, n := range toolNames {
		list = append(list, map[string]any{"name": n, "description": "the " + n + " tool"})
	}
	b, _ := json.Marshal(list)
	return map[string]string{EnvServe: "1", EnvTools: string(b)}
}

// Main serves a Server with the tools of EnvTools (or EnvToolsFile) and
// EnvGenerated on stdin and stdout until stdin closes.
func Main() {
	if os.Getenv(envSleep) != "" {
		select {} // the detached sleeper on Windows, which has no sleep(1)
	}
	s := FromEnv(os.LookupEnv)
	s.Stderr = func(line string) { fmt.Fprintln(os.Stderr, line) }
	s.Raw, s.Send = LineWriter(os.Stdout)
	ServeLines(s, os.Stdin)
}

// FromEnv is the Server a re-executed test binary serves where lookup
// (os.LookupEnv in that process) reads its environment; the caller sets
// its Send, Raw and Stderr.
func FromEnv(lookup func(string) (string, bool)) *Server {
	get := func(k string) string { v, _ := lookup(k); return v }
	s := &Server{Generated: get(EnvGenerated), Script: get(EnvScript), ToolsFile: get(EnvToolsFile)}
	list := []byte(get(EnvTools))
	if s.ToolsFile != "" {
		list, _ = os.ReadFile(s.ToolsFile)
	}
	_ = json.Unmarshal(list, &s.Tools)
	s.StatelessTTL, s.statelessEnv = lookup(EnvStateless)
	if s.Tools == nil {
		s.Tools = []map[string]any{}
	}
	return s
}

// InProcess reports whether env (an entry's environment made by [Env] and
// the Env* settings) describes a server that may run inside the test
// process: one whose script and tools neither end the process nor read
// or change what is the process's own (its environment, files, network,
// children). Any other is started as a child, as people's servers are.
func InProcess(env map[string]string) bool {
	for k := range env {
		switch k {
		case EnvServe, EnvTools, EnvGenerated, EnvScript, EnvStateless, EnvToolsFile:
		default:
			return false
		}
	}
	if env[EnvServe] != "1" || env[EnvScript] == "exit-on-discover" {
		return false
	}
	var tools []struct{ Name string }
	_ = json.Unmarshal([]byte(env[EnvTools]), &tools)
	for _, t := range tools {
		switch t.Name {
		case "exit", "hang", "env", "fetch", "spawn", "read", "write":
			return false
		}
	}
	return true
}

// LineWriter returns the Raw and Send of a Server writing one message a
// line to w, whole lines at a time.
func LineWriter(w io.Writer) (raw func(string), send func(*wire.Message)) {
	out := bufio.NewWriterSize(w, 64<<10)
	var mu sync.Mutex
	raw = func(line string) {
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(line + "\n")
		out.Flush()
	}
	send = func(m *wire.Message) {
		b, err := wire.Encode(m)
		if err != nil {
			panic(err)
		}
		raw(string(b))
	}
	return raw, send
}

// ServeLines hands s each message read from in, one a line, until in
// ends; a line that is not a message is reported on s.Stderr.
func ServeLines(s *Server, in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 32<<20)
	for sc.Scan() {
		m, err := wire.Decode(sc.Bytes())
		if err != nil {
			s.Stderr("fake: bad input: " + err.Error())
			continue
		}
		s.Handle(m)
	}
	s.Stderr("fake: stdin closed")
}

// Server is the scripted MCP server. Script picks connection-wide
// behaviour (see initialize and listTools); a call's tool name picks what
// it does:
//
//	echo    → the "message" argument, or the arguments as sent
//	fail    → an isError result, "it broke"
//	big     → "size" bytes of text, or 20 MiB
//	env     → the environment variable named by "name", or all of them
//	image   → an image block and a text block
//	detach  → the pid of a `sleep` it started in a session of its own
//	          (on Windows a copy of itself sleeping, detached)
//	exit    → the process exits with status 3
//	hang    → no answer
//	gather  → held until three are in flight, then answered in reverse
//	answers → asks the client two requests of its own and answers with
//	          the client's replies
type Server struct {
	Script string
	// Tools, when not nil, are listed as they are (a missing inputSchema
	// is an empty object schema), followed by Generated ("COUNT/PERPAGE")
	// generated ones; nil lists what Script says.
	Tools     []map[string]any
	Generated string
	// ToolsFile, when set, is read again for Tools at each tools/list of
	// the "features" script, as a server that changed its list does.
	ToolsFile string
	// StatelessTTL is EnvStateless's value for a server with Tools.
	StatelessTTL string
	statelessEnv bool
	// Send writes a message to the client, Raw a line exactly as given,
	// Stderr a line of the server's stderr.
	Send   func(*wire.Message)
	Raw    func(string)
	Stderr func(string)

	mu       sync.Mutex
	gathered []*wire.Message   // "gather" calls held back
	asked    map[string]string // server request id -> answer seen
	waiting  *wire.Message     // an "answers" call held until both arrive
	refused  bool              // "stateless-refuse-once" refused its first discover
	lists    int               // tools/list requests answered
	heard    []string          // notifications of the "features" script
	urlAsked bool              // "url-required" refused its first call
	// taskAnswer is the answer tasks/update gave the "tasks2" task.
	taskAnswer json.RawMessage

	clientSamples bool                     // initialize declared sampling
	sampled       int                      // sampling requests sent
	sampling      map[string]*wire.Message // "sample" calls by their request's id
}

func (s *Server) result(id wire.ID, v any) {
	m, err := wire.NewResult(id, v)
	if err != nil {
		panic(err)
	}
	s.Send(m)
}

func text(t string, isError bool) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": t}}, "isError": isError}
}

// Handle reacts to one message from the client.
func (s *Server) Handle(m *wire.Message) {
	if s.statelessEnv && s.statelessTools(m) {
		return
	}
	if m.IsResponse() && (s.rootsAnswer(m) || s.sampleAnswer(m)) {
		return
	}
	if s.feature(m) || s.task(m) {
		return
	}
	switch {
	case m.IsResponse():
		s.gotAnswer(m)
	case m.Method == wire.MethodDiscover:
		s.discover(m)
	case m.Method == wire.MethodInitialize:
		s.initialize(m)
	case m.Method == wire.MethodCancelled:
		var p wire.CancelledParams
		json.Unmarshal(m.Params, &p)
		s.Stderr(fmt.Sprintf("cancelled %s: %s", p.RequestID, p.Reason))
	case m.Method == wire.MethodPing:
		s.result(m.ID, struct{}{})
	case m.Method == wire.MethodToolsList && s.claimMissing(m):
	case m.Method == wire.MethodToolsList:
		s.listTools(m)
	case m.Method == wire.MethodToolsCall && s.claimMissing(m):
	case m.Method == wire.MethodToolsCall:
		s.call(m)
	case m.IsRequest():
		s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMethodNotFound, Message: "no " + m.Method}))
	}
}

func mustID(raw string) wire.ID {
	var id wire.ID
	if err := id.UnmarshalJSON([]byte(raw)); err != nil {
		panic(err)
	}
	return id
}

// unsupported answers m with -32022, naming the versions supported.
func (s *Server) unsupported(m *wire.Message, requested string, supported ...string) {
	data, _ := json.Marshal(wire.UnsupportedVersion{Supported: supported, Requested: requested})
	s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeUnsupportedProtocol, Message: "Unsupported protocol version", Data: data}))
}

// statelessTools answers what EnvStateless changes for a server with
// Tools, and reports whether it did.
func (s *Server) statelessTools(m *wire.Message) bool {
	switch {
	case s.StatelessTTL == "future" && (m.Method == wire.MethodDiscover || m.Method == wire.MethodInitialize):
		s.unsupported(m, wire.StatelessVersion, "2027-01-01")
	case m.Method == wire.MethodDiscover:
		caps := json.RawMessage(`{"tools":{}}`)
		if s.Script == "features" {
			caps = json.RawMessage(FeatureCaps)
		}
		if s.Script == "tasks2" {
			caps = json.RawMessage(Task2Caps)
		}
		s.result(m.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{wire.StatelessVersion},
			"capabilities": caps, "ttlMs": 0, "cacheScope": "public"})
	case m.Method == wire.MethodInitialize:
		s.unsupported(m, "2025-11-25", wire.StatelessVersion)
	case m.Method == wire.MethodToolsList:
		var p wire.ListToolsParams
		json.Unmarshal(m.Params, &p)
		s.lists++
		page := s.listed(p.Cursor)
		if s.lists > 1 {
			page["tools"] = append(page["tools"].([]any), map[string]any{"name": "added", "inputSchema": map[string]any{"type": "object"}})
		}
		page["ttlMs"], _ = strconv.Atoi(s.StatelessTTL)
		s.result(m.ID, page)
	default:
		return false
	}
	return true
}

// Stateless reports whether the script is a stateless-era server.
func (s *Server) Stateless() bool { return strings.HasPrefix(s.Script, "stateless") }

// discover answers server/discover as the script's server would: a
// stateless one with its result, "future" and "dual" with -32022, a
// session-era one with -32601 (or, for "silent-discover", not at all, and
// for "exit-on-discover" by exiting).
func (s *Server) discover(m *wire.Message) {
	claim := wire.ReadClaim(m.Params)
	s.Stderr(fmt.Sprintf("discover %s missing %v", claim.Version, claim.Missing))
	switch {
	case s.Script == "future":
		s.unsupported(m, claim.Version, "2027-01-01")
	case s.Script == "stateless-refuse-once" && !s.refused:
		s.refused = true
		s.unsupported(m, claim.Version, wire.StatelessVersion)
	case s.Script == "dual":
		s.unsupported(m, claim.Version, "2025-11-25", "2025-06-18")
	case s.Script == "discover-legacy-only":
		s.result(m.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{"2025-11-25", "2025-06-18"},
			"capabilities": map[string]any{"tools": map[string]any{}}, "ttlMs": 0, "cacheScope": "public"})
	case s.Script == "discover-empty":
		s.result(m.ID, map[string]any{}) // answers every unknown method with {}
	case s.Script == "discover-odd":
		s.Raw(`{"jsonrpc":"2.0","id":` + m.ID.String() + `,"result":{"supportedVersions":"all","capabilities":[]}}`)
	case s.Script == "silent-discover":
	case s.Script == "exit-on-discover":
		s.Stderr("unknown request before initialize")
		os.Exit(1)
	case s.Stateless():
		s.result(m.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{wire.StatelessVersion},
			"capabilities": map[string]any{"tools": map[string]any{}}, "ttlMs": 0, "cacheScope": "public",
			"_meta": map[string]any{wire.MetaServerInfo: map[string]any{"name": "fake-stateless", "version": "2"}}})
	default:
		s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeMethodNotFound, Message: "no " + m.Method}))
	}
}

// claimMissing answers -32602 for a stateless server's request that lacks
// the _meta claim, and reports whether it did.
func (s *Server) claimMissing(m *wire.Message) bool {
	if !s.Stateless() {
		return false
	}
	if c := wire.ReadClaim(m.Params); c.Present && len(c.Missing) == 0 && c.Version == wire.StatelessVersion {
		return false
	}
	s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "no _meta claim"}))
	return true
}

func (s *Server) initialize(m *wire.Message) {
	if s.Script == "stateless-only" {
		s.unsupported(m, "2025-11-25", wire.StatelessVersion)
		return
	}
	var p wire.InitializeParams
	json.Unmarshal(m.Params, &p)
	s.Stderr(fmt.Sprintf("client %s %s offers %s caps %s", p.ClientInfo.Name, p.ClientInfo.Version, p.ProtocolVersion, p.Capabilities))
	s.mu.Lock()
	s.clientSamples = declaresSampling(p.Capabilities)
	s.mu.Unlock()
	version, caps := p.ProtocolVersion, `{"tools":{}}`
	switch s.Script {
	case "features":
		caps = FeatureCaps
	case "tasks":
		caps = TaskCaps
	case "no-tools":
		caps = `{"logging":{}}` // nothing tai could use
	case "prompts-only":
		caps = `{"prompts":{}}`
	case "old-version":
		version = "2024-10-07"
	case "legacy":
		version = "2024-11-05"
	case "downgrade":
		version = "2025-03-26"
	case "invalid-reply":
		s.Raw(`{"jsonrpc":"2.0","id":` + m.ID.String() + `}`) // neither result nor error
		return
	case "garbage-reply":
		s.Raw(`{"jsonrpc":"2.0","id":` + m.ID.String() + `,"result":{"protocolVersion":`)
		return
	case "mute":
		return
	}
	s.result(m.ID, map[string]any{
		"protocolVersion": version,
		"capabilities":    json.RawMessage(caps),
		"serverInfo":      map[string]any{"name": "fake", "version": "1"},
	})
}

func (s *Server) listTools(m *wire.Message) {
	var p wire.ListToolsParams
	json.Unmarshal(m.Params, &p)
	s.mu.Lock()
	s.lists++
	s.mu.Unlock()
	if s.Script == "features" && s.ToolsFile != "" {
		if b, err := os.ReadFile(s.ToolsFile); err == nil {
			json.Unmarshal(b, &s.Tools)
		}
	}
	if s.Tools != nil {
		s.result(m.ID, s.listed(p.Cursor))
		return
	}
	page := map[string]any{"tools": []any{map[string]any{
		"name": "t" + p.Cursor, "inputSchema": map[string]any{"type": "object"},
		"annotations": map[string]any{"readOnlyHint": true}}}}
	switch s.Script {
	case "pages":
		next := map[string]string{"": "p2", "p2": "p3"}[p.Cursor]
		if next != "" {
			page["nextCursor"] = next
		}
	case "many-tools", "fat-pages", "fat-tool", "thousand":
		page = scriptPage(s.Script, p.Cursor)
	case "loop-cursor":
		page["nextCursor"] = "again"
	case "stateless-ttl":
		page["ttlMs"], page["cacheScope"] = 250, "public"
	case "stateless-xh":
		page["tools"] = []any{
			json.RawMessage(`{"name":"echo","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"},"deep":{"type":"object","properties":{"on":{"type":"boolean","x-mcp-header":"On"}}},"q":{"type":"string"}}}}`),
			json.RawMessage(`{"name":"in_items","inputSchema":{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}}`),
			json.RawMessage(`{"name":"on_number","inputSchema":{"type":"object","properties":{"f":{"type":"number","x-mcp-header":"F"}}}}`),
			json.RawMessage(`{"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Dup"},"b":{"type":"string","x-mcp-header":"dup"}}}}`),
			json.RawMessage(`{"name":"colon","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A:B"}}}}`),
		}
	case "stateless-input":
		page["resultType"] = "input_required"
	case "endless":
		page["nextCursor"] = p.Cursor + "x"
	}
	s.result(m.ID, page)
}

// listed is the tools/list page at cursor of a Server with Tools: those
// first, then the generated ones.
func (s *Server) listed(cursor string) map[string]any {
	var fixed []any
	for _, t := range s.Tools {
		if _, ok := t["inputSchema"]; !ok {
			t["inputSchema"] = map[string]any{"type": "object"}
		}
		fixed = append(fixed, t)
	}
	var count, per int
	if _, err := fmt.Sscanf(s.Generated, "%d/%d", &count, &per); err != nil || count <= 0 || per <= 0 {
		return map[string]any{"tools": append([]any{}, fixed...)}
	}
	start, _ := strconv.Atoi(cursor)
	tools := []any{}
	if start == 0 {
		tools = append(tools, fixed...)
	}
	end := min(start+per, count)
	for i := start; i < end; i++ {
		tools = append(tools, map[string]any{"name": fmt.Sprintf("gen_%d", i), "description": "a generated tool",
			"inputSchema": map[string]any{"type": "object"}})
	}
	page := map[string]any{"tools": tools}
	if end < count {
		page["nextCursor"] = strconv.Itoa(end)
	}
	return page
}

// scriptPage is one of 50 pages of a server that lists too much:
// many-tools has 400 small tools a page, fat-pages 32 tools of 32 KiB, and
// fat-tool one tool of 80 KiB on its first page. thousand lists exactly
// MCP_MAX_LISTED_TOOLS over 4 pages.
func scriptPage(script, cursor string) map[string]any {
	n, _ := strconv.Atoi(cursor)
	count, desc, pages := 400, "a tool", 50
	switch script {
	case "fat-pages":
		count, desc = 32, strings.Repeat("d", 32<<10)
	case "fat-tool":
		count = 2
	case "thousand":
		count, pages = 250, 4
	}
	var tools []any
	for i := range count {
		d := desc
		if script == "fat-tool" && i == 1 {
			d = strings.Repeat("d", 80<<10)
		}
		tools = append(tools, map[string]any{"name": fmt.Sprintf("t%d_%d", n, i), "description": d,
			"inputSchema": map[string]any{"type": "object"}})
	}
	page := map[string]any{"tools": tools}
	if n < pages-1 {
		page["nextCursor"] = strconv.Itoa(n + 1)
	}
	return page
}

func (s *Server) call(m *wire.Message) {
	var p wire.CallToolParams
	json.Unmarshal(m.Params, &p)
	var args map[string]any
	if len(p.Arguments) > 0 && json.Unmarshal(p.Arguments, &args) != nil && s.Tools != nil {
		s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "arguments must be an object"}))
		return
	}
	if res, ok := s.answer(p.Name, p.Arguments, args); ok {
		s.result(m.ID, res)
		return
	}
	switch p.Name {
	case "sample":
		if !s.statelessEnv {
			s.unknown(m.ID, p.Name)
			return
		}
		s.sampleStateless(m)
	case "exit":
		s.Stderr("dying on purpose")
		os.Exit(3)
	case "hang":
		s.Stderr("hanging")
	case "gather":
		s.gather(m)
	case "answers":
		s.Send(&wire.Message{ID: mustID(`"s1"`), Method: wire.MethodPing})
		s.Send(&wire.Message{ID: mustID(`"s2"`), Method: "roots/list", Params: []byte(`{}`)})
		s.mu.Lock()
		s.waiting = m
		s.mu.Unlock()
		s.gotAnswer(nil)
	default:
		s.unknown(m.ID, p.Name)
	}
}

// unknown answers a call of a tool s lacks: a server with Tools says so in
// a tool error, a scripted one with a JSON-RPC error (servers do both). A
// server with Tools also refuses arguments that are no object; a scripted
// one passes them to gather and echo as they are.
func (s *Server) unknown(id wire.ID, name string) {
	if s.Tools != nil {
		s.result(id, text("unknown tool "+name, true))
		return
	}
	s.Send(wire.NewErrorResponse(id, &wire.Error{Code: wire.CodeInvalidParams, Message: "unknown tool " + name}))
}

// answer is the result of a tool that answers at once.
func (s *Server) answer(name string, raw json.RawMessage, args map[string]any) (map[string]any, bool) {
	switch name {
	case "echo":
		if msg, ok := args["message"]; ok {
			return text(fmt.Sprint(msg), false), true
		}
		return text(string(raw), false), true
	case "fail":
		return text("it broke", true), true
	case "fetch": // what the server can reach (sandbox tests): a GET through HTTP_PROXY when set
		return text(fetch(fmt.Sprint(args["url"]))), true
	case "spawn": // what a child of the server can do (sandbox tests): sh -c command
		out, err := exec.Command("/bin/sh", "-c", fmt.Sprint(args["command"])).CombinedOutput()
		if err != nil {
			return text(string(out)+err.Error(), true), true
		}
		return text(string(out), false), true
	case "read": // what the server can read (sandbox tests)
		b, err := os.ReadFile(fmt.Sprint(args["path"]))
		if err != nil {
			return text(err.Error(), true), true
		}
		return text(string(b), false), true
	case "write": // what the server can write (sandbox tests)
		if err := os.WriteFile(fmt.Sprint(args["path"]), []byte("written by the server\n"), 0o644); err != nil {
			return text(err.Error(), true), true
		}
		return text("wrote", false), true
	case "big":
		if n, ok := args["size"].(float64); ok {
			return text(strings.Repeat("x", int(n)), false), true
		}
		return text(strings.Repeat("b", 20<<20), false), true
	case "env":
		if n, ok := args["name"]; ok {
			return text(os.Getenv(fmt.Sprint(n)), false), true
		}
		return text(strings.Join(os.Environ(), "\n"), false), true
	case "image":
		return map[string]any{"content": []any{map[string]any{"type": "image", "data": "aGk=", "mimeType": "image/png"},
			map[string]any{"type": "text", "text": "caption"}}}, true
	case "detach":
		cmd := detached()
		if err := cmd.Start(); err != nil {
			return text(err.Error(), true), true
		}
		return text(strconv.Itoa(cmd.Process.Pid), false), true
	}
	return nil, false
}

// gather holds calls until three are in flight, then answers them in
// reverse order: only a client with several calls in flight gets answers.
func (s *Server) gather(m *wire.Message) {
	s.mu.Lock()
	s.gathered = append(s.gathered, m)
	ready := len(s.gathered) == 3
	s.mu.Unlock()
	if !ready {
		return
	}
	for i := 2; i >= 0; i-- {
		g := s.gathered[i]
		var p wire.CallToolParams
		json.Unmarshal(g.Params, &p)
		s.result(g.ID, text(string(p.Arguments), false))
	}
}

// gotAnswer records the client's answers to the server's own requests and
// releases a waiting "answers" call once both are in.
func (s *Server) gotAnswer(m *wire.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asked == nil {
		s.asked = map[string]string{}
	}
	if m != nil {
		out, _ := wire.Encode(&wire.Message{ID: m.ID, Result: m.Result, Error: m.Error})
		s.asked[m.ID.String()] = string(out)
	}
	if s.waiting == nil || len(s.asked) < 2 {
		return
	}
	var lines []string
	for _, v := range s.asked {
		lines = append(lines, v)
	}
	sort.Strings(lines)
	s.result(s.waiting.ID, text(strings.Join(lines, "\n"), false))
	s.waiting = nil
}

// fetch GETs u, through the proxy in HTTP_PROXY when one is set (also
// for a loopback host, which Go's own client would not proxy), and says
// the status and body, or the error (true).
func fetch(u string) (string, bool) {
	tr := &http.Transport{}
	if p := os.Getenv("HTTP_PROXY"); p != "" {
		pu, err := url.Parse(p)
		if err != nil {
			return err.Error(), true
		}
		tr.Proxy = http.ProxyURL(pu)
	}
	resp, err := (&http.Client{Transport: tr}).Get(u)
	if err != nil {
		return err.Error(), true
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b))), resp.StatusCode != http.StatusOK
}
