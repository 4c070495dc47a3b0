// Package mcptest is a small scripted MCP server for tests in other
// packages: a test binary re-executes itself with [EnvServe] set and calls
// [Main] from TestMain, so tests get a real stdio MCP peer without any
// build step.
package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// Main serves MCP on stdin and stdout until stdin closes. Its tools come
// from EnvTools; every tool answers by its name:
//
//	echo  → the "message" argument
//	big   → "size" bytes of text
//	fail  → an isError result
//	env   → the value of the environment variable named by "name"
//	image → an image block and a text block
//	detach → the pid of a `sleep` it started in a session of its own
//	         (setsid), out of the server's process group; on Windows
//	         a copy of itself sleeping, detached from the console
func Main() {
	if os.Getenv(envSleep) != "" {
		select {} // the detached sleeper on Windows, which has no sleep(1)
	}
	var toolList []map[string]any
	list := []byte(os.Getenv(EnvTools))
	if f := os.Getenv(EnvToolsFile); f != "" {
		list, _ = os.ReadFile(f)
	}
	_ = json.Unmarshal(list, &toolList)
	for _, t := range toolList {
		if _, ok := t["inputSchema"]; !ok {
			t["inputSchema"] = map[string]any{"type": "object"}
		}
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	ttl, stateless := os.LookupEnv(EnvStateless)
	lists := 0
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				Cursor    string          `json:"cursor"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		reply := func(result any) {
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		}
		switch {
		case ttl == "future" && (m.Method == "server/discover" || m.Method == "initialize"):
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32022, "message": "Unsupported protocol version",
				"data": map[string]any{"supported": []string{"2027-01-01"}, "requested": "2026-07-28"}}})
			continue
		case stateless && m.Method == "server/discover":
			reply(map[string]any{"resultType": "complete", "supportedVersions": []string{"2026-07-28"},
				"capabilities": map[string]any{"tools": map[string]any{}}, "ttlMs": 0, "cacheScope": "public"})
			continue
		case stateless && m.Method == "initialize":
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32022, "message": "Unsupported protocol version",
				"data": map[string]any{"supported": []string{"2026-07-28"}, "requested": "2025-11-25"}}})
			continue
		case stateless && m.Method == "tools/list":
			lists++
			page := listPage(toolList, m.Params.Cursor)
			if lists > 1 {
				page["tools"] = append(page["tools"].([]map[string]any), map[string]any{"name": "added", "inputSchema": map[string]any{"type": "object"}})
			}
			page["ttlMs"], _ = strconv.Atoi(ttl)
			reply(page)
			continue
		}
		switch m.Method {
		case "initialize":
			reply(map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "fake", "version": "1"}})
		case "tools/list":
			reply(listPage(toolList, m.Params.Cursor))
		case "tools/call":
			var args map[string]any
			if len(m.Params.Arguments) > 0 && json.Unmarshal(m.Params.Arguments, &args) != nil {
				out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32602, "message": "arguments must be an object"}})
				continue
			}
			reply(fakeCall(m.Params.Name, args))
		case "ping":
			reply(map[string]any{})
		default:
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no " + m.Method}})
		}
	}
}

// listPage is the tools/list page at cursor: the fixed tools first, then
// the generated ones EnvGenerated asks for.
func listPage(fixed []map[string]any, cursor string) map[string]any {
	var count, per int
	if _, err := fmt.Sscanf(os.Getenv(EnvGenerated), "%d/%d", &count, &per); err != nil || count <= 0 || per <= 0 {
		return map[string]any{"tools": fixed}
	}
	start, _ := strconv.Atoi(cursor)
	tools := []any{}
	if start == 0 {
		for _, t := range fixed {
			tools = append(tools, t)
		}
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

func fakeCall(name string, args map[string]any) map[string]any {
	text := func(s string) []any { return []any{map[string]any{"type": "text", "text": s}} }
	switch name {
	case "echo":
		return map[string]any{"content": text(fmt.Sprint(args["message"]))}
	case "big":
		n, _ := args["size"].(float64)
		return map[string]any{"content": text(strings.Repeat("x", int(n)))}
	case "fail":
		return map[string]any{"content": text("it broke"), "isError": true}
	case "env":
		return map[string]any{"content": text(os.Getenv(fmt.Sprint(args["name"])))}
	case "detach":
		cmd := detached()
		if err := cmd.Start(); err != nil {
			return map[string]any{"content": text(err.Error()), "isError": true}
		}
		return map[string]any{"content": text(strconv.Itoa(cmd.Process.Pid))}
	case "image":
		return map[string]any{"content": []any{map[string]any{"type": "image", "data": "aGk=", "mimeType": "image/png"},
			map[string]any{"type": "text", "text": "caption"}}}
	}
	return map[string]any{"content": text("unknown tool " + name), "isError": true}
}
