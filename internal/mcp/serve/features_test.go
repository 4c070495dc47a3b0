package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/llm/llmtest"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
	"tai/internal/vault"
)

// metaWith is modernMeta with more keys.
func metaWith(keys string) string {
	return strings.TrimSuffix(modernMeta, "}") + "," + keys + "}"
}

// recordsServer serves the records of profile default of a fresh vault.
func recordsServer(t *testing.T) (*harness, *testHost) {
	t.Helper()
	host := newTestHost(t, llmtest.Script{})
	rs := &Records{Store: host.store, Profile: "default"}
	return start(t, Options{Tools: servedTools(), Host: host, Resources: rs, Complete: rs}), host
}

func putRecord(t *testing.T, host *testHost, profile, body string) string {
	t.Helper()
	id, err := host.store.PutRecord(t.Context(), profile, "spill", body)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCapabilities_DeclareWhatIsServed(t *testing.T) {
	rs := &Records{}
	for _, tc := range []struct {
		name        string
		o           Options
		sess, state string
	}{
		{"tools only", Options{}, `{"logging":{},"tools":{}}`, `{"logging":{},"tools":{}}`},
		{"everything", Options{Resources: rs, Prompts: fakePrompts{}, Complete: rs},
			`{"completions":{},"logging":{},"prompts":{},"resources":{"subscribe":true},"tools":{}}`,
			`{"completions":{},"logging":{},"prompts":{},"resources":{},"tools":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, tc.o)
			var init struct{ Capabilities json.RawMessage }
			json.Unmarshal(h.do("POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`).msg(t).Result, &init)
			if got := canonical(t, init.Capabilities); got != tc.sess {
				t.Errorf("initialize capabilities %s, want %s", got, tc.sess)
			}
			json.Unmarshal(h.modern("server/discover", "{"+modernMeta+"}").msg(t).Result, &init)
			if got := canonical(t, init.Capabilities); got != tc.state {
				t.Errorf("discover capabilities %s, want %s (no subscribe: the stateless era has no resources/subscribe)", got, tc.state)
			}
		})
	}
}

func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRecords_ListAndReadOnlyTheProfiles: the served profile's records are
// listed and read whole, redacted; another profile's record and unknown
// URIs are not found: -32002 in the session era, -32602 in the stateless
// one, each naming the uri in its data.
func TestRecords_ListAndReadOnlyTheProfiles(t *testing.T) {
	h, host := recordsServer(t)
	host.store.AddKnown("API_TOKEN", "s3cr3t-value-123456")
	mine := putRecord(t, host, "default", "the whole body with s3cr3t-value-123456 inside")
	theirs := putRecord(t, host, "other", "not yours")
	sess := h.open()

	var list struct {
		Resources  []wire.Resource
		NextCursor string
	}
	json.Unmarshal(h.request(sess, "resources/list", map[string]any{}).msg(t).Result, &list)
	if len(list.Resources) != 1 || list.Resources[0].URI != RecordURI(mine) || list.NextCursor != "" {
		t.Fatalf("resources/list: %+v", list)
	}
	var read wire.ReadResourceResult
	json.Unmarshal(h.request(sess, "resources/read", map[string]any{"uri": RecordURI(mine)}).msg(t).Result, &read)
	if len(read.Contents) != 1 || read.Contents[0].Text == nil || *read.Contents[0].Text != "the whole body with [secret:API_TOKEN] inside" {
		t.Fatalf("resources/read: %+v %q", read, *read.Contents[0].Text)
	}
	for _, uri := range []string{RecordURI(theirs), RecordURI("rnothere"), "tai://record/../etc", "file:///etc/passwd"} {
		_, e := h.rpcError(sess, "resources/read", map[string]any{"uri": uri})
		var data struct{ URI string }
		json.Unmarshal(e.Data, &data)
		if e.Code != wire.CodeResourceNotFound || data.URI != uri {
			t.Errorf("session era, read %s: %+v", uri, e)
		}
		r := h.modern("resources/read", `{`+modernMeta+`,"uri":"`+uri+`"}`, "Mcp-Name: "+wire.HeaderValue(uri))
		if m := r.msg(t); r.status != 200 || m.Error == nil || m.Error.Code != wire.CodeInvalidParams || !strings.Contains(string(m.Error.Data), uri) {
			t.Errorf("stateless era, read %s: HTTP %d %s", uri, r.status, r.body)
		}
	}
}

func TestRecords_ListIsPagedAndBounded(t *testing.T) {
	h, host := recordsServer(t)
	for i := range MaxListedRecords + 10 {
		putRecord(t, host, "default", fmt.Sprint("body ", i))
	}
	sess := h.open()
	seen, pages, cursor := map[string]bool{}, 0, ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Resources  []wire.Resource
			NextCursor string
		}
		json.Unmarshal(h.request(sess, "resources/list", params).msg(t).Result, &page)
		for _, r := range page.Resources {
			seen[r.URI] = true
		}
		pages++
		if cursor = page.NextCursor; cursor == "" || pages > 10 {
			break
		}
	}
	if len(seen) != MaxListedRecords || pages != MaxListedRecords/recordPage {
		t.Errorf("listed %d records in %d pages; want the newest %d in %d", len(seen), pages, MaxListedRecords, MaxListedRecords/recordPage)
	}
	for _, bad := range []string{"x", "7", "-50", fmt.Sprint(MaxListedRecords), strings.Repeat("9", MaxURI+1)} {
		if _, e := h.rpcError(sess, "resources/list", map[string]any{"cursor": bad}); e.Code != wire.CodeInvalidParams {
			t.Errorf("cursor %.20q: %+v", bad, e)
		}
	}
}

// TestResources_BadURIsAreRefused: URIs too long, with control characters
// or absent are -32602, with a short message.
func TestResources_BadURIsAreRefused(t *testing.T) {
	h, _ := recordsServer(t)
	sess := h.open()
	for _, uri := range []any{"", strings.Repeat("a", MaxURI+1), "tai://record/r\x1b[2J", "tai://record/a b", 42} {
		_, e := h.rpcError(sess, "resources/read", map[string]any{"uri": uri})
		if e.Code != wire.CodeInvalidParams || len(e.Message) > 300 || strings.ContainsAny(e.Message, "\x1b") {
			t.Errorf("uri %.20q: %+v", uri, e)
		}
	}
}

func TestRecords_TemplateAndCompletion(t *testing.T) {
	h, host := recordsServer(t)
	id := putRecord(t, host, "default", "x")
	putRecord(t, host, "other", "y")
	sess := h.open()
	var tl struct{ ResourceTemplates []wire.ResourceTemplate }
	json.Unmarshal(h.request(sess, "resources/templates/list", map[string]any{}).msg(t).Result, &tl)
	if len(tl.ResourceTemplates) != 1 || tl.ResourceTemplates[0].URITemplate != "tai://record/{id}" {
		t.Fatalf("templates: %+v", tl)
	}
	complete := func(ref map[string]any, arg, value string) reply {
		return h.request(sess, "completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": arg, "value": value}})
	}
	var res wire.CompleteResult
	json.Unmarshal(complete(map[string]any{"type": "ref/resource", "uri": "tai://record/{id}"}, "id", id[:3]).msg(t).Result, &res)
	if !cmp.Equal(res.Completion.Values, []string{id}) {
		t.Errorf("completing %q: %+v; want only the profile's record", id[:3], res)
	}
	for _, tc := range []struct {
		ref  map[string]any
		arg  string
		code int64
	}{
		{map[string]any{"type": "ref/prompt", "name": "x"}, "a", wire.CodeInvalidParams},
		{map[string]any{"type": "ref/resource", "uri": "tai://other/{x}"}, "x", wire.CodeInvalidParams},
		{map[string]any{"type": "ref/resource", "uri": "tai://record/{id}"}, "name", wire.CodeInvalidParams},
		{map[string]any{"type": "ref/tool", "name": "x"}, "a", wire.CodeInvalidParams},
		{map[string]any{"type": "ref/resource", "uri": "tai://record/{id}"}, "", wire.CodeInvalidParams},
	} {
		if m := complete(tc.ref, tc.arg, "").msg(t); m.Error == nil || m.Error.Code != tc.code {
			t.Errorf("completing %v %q: %+v", tc.ref, tc.arg, m)
		}
	}
	if _, e := h.rpcError(sess, "resources/templates/list", map[string]any{"cursor": "2"}); e.Code != wire.CodeInvalidParams {
		t.Errorf("a cursor tai never gave: %+v", e)
	}
}

func TestSubscribe_TrackedPerSessionAndBounded(t *testing.T) {
	h, _ := recordsServer(t)
	id := h.open()
	sess := h.srv.sessions.get(id)
	uri := RecordURI("rabc")
	if m := h.request(id, "resources/subscribe", map[string]any{"uri": uri}).msg(t); m.Error != nil || string(m.Result) != "{}" || !sess.Subscribed(uri) {
		t.Fatalf("subscribe: %+v", m)
	}
	if m := h.request(id, "resources/unsubscribe", map[string]any{"uri": uri}).msg(t); m.Error != nil || string(m.Result) != "{}" || sess.Subscribed(uri) {
		t.Fatalf("unsubscribe: %+v", m)
	}
	for i := range MaxSubscriptions {
		if m := h.request(id, "resources/subscribe", map[string]any{"uri": fmt.Sprint(uri, i)}).msg(t); m.Error != nil {
			t.Fatalf("subscription %d: %+v", i, m.Error)
		}
	}
	if _, e := h.rpcError(id, "resources/subscribe", map[string]any{"uri": uri}); e.Code != wire.CodeInvalidParams {
		t.Errorf("one subscription past MaxSubscriptions: %+v", e)
	}
	r := h.modern("resources/subscribe", `{`+modernMeta+`,"uri":"`+uri+`"}`)
	if m := r.msg(t); r.status != 404 || m.Error == nil || m.Error.Code != wire.CodeMethodNotFound {
		t.Errorf("stateless subscribe: HTTP %d %s", r.status, r.body)
	}
}

// fakePrompts serves one prompt with a required argument.
type fakePrompts struct{}

func (fakePrompts) ListPrompts(context.Context) ([]wire.Prompt, error) {
	return []wire.Prompt{{Name: "greet", Description: "Greets", Arguments: []wire.PromptArgument{{Name: "who", Required: true}}}}, nil
}

func (fakePrompts) GetPrompt(_ context.Context, name string, args map[string]string) (*wire.GetPromptResult, error) {
	switch {
	case name != "greet":
		return nil, fmt.Errorf("%w: %q", ErrPromptNotFound, name)
	case args["who"] == "":
		return nil, fmt.Errorf("%w: greet needs who", ErrBadArguments)
	}
	return &wire.GetPromptResult{Messages: []wire.PromptMessage{{Role: "user", Content: json.RawMessage(`{"type":"text","text":"hello ` + args["who"] + `"}`)}}}, nil
}

// memResources serves one text resource, mem://a, and completes
// anything with "a".
type memResources struct{}

func (memResources) ListResources(_ context.Context, cursor string) ([]wire.Resource, string, error) {
	if cursor != "" {
		return nil, "", ErrBadCursor
	}
	return []wire.Resource{{URI: "mem://a", Name: "a"}}, "", nil
}

func (memResources) ResourceTemplates(context.Context) ([]wire.ResourceTemplate, error) {
	return nil, nil
}

func (memResources) ReadResource(_ context.Context, uri string) ([]wire.ResourceContents, error) {
	if uri != "mem://a" {
		return nil, ErrResourceNotFound
	}
	text := "a"
	return []wire.ResourceContents{{URI: uri, Text: &text}}, nil
}

func (memResources) Complete(context.Context, wire.CompleteParams) ([]string, error) {
	out := make([]string, MaxCompletions+5)
	for i := range out {
		out[i] = fmt.Sprint("a", i)
	}
	return out, nil
}

func TestComplete_CutAtMaxCompletions(t *testing.T) {
	h := start(t, Options{Complete: memResources{}})
	var res wire.CompleteResult
	m := h.request(h.open(), "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "x", "value": ""}}).msg(t)
	if json.Unmarshal(m.Result, &res) != nil || len(res.Completion.Values) != MaxCompletions || !res.Completion.HasMore ||
		res.Completion.Total == nil || *res.Completion.Total != MaxCompletions+5 {
		t.Errorf("completion: %s", m.Result)
	}
}

func TestPrompts_ListAndGet(t *testing.T) {
	h := start(t, Options{Prompts: fakePrompts{}})
	sess := h.open()
	var list struct{ Prompts []wire.Prompt }
	json.Unmarshal(h.request(sess, "prompts/list", map[string]any{}).msg(t).Result, &list)
	if len(list.Prompts) != 1 || list.Prompts[0].Name != "greet" {
		t.Fatalf("prompts/list: %+v", list)
	}
	m := h.request(sess, "prompts/get", map[string]any{"name": "greet", "arguments": map[string]string{"who": "you"}}).msg(t)
	if m.Error != nil || !strings.Contains(string(m.Result), `"text":"hello you"`) {
		t.Fatalf("prompts/get: %s %+v", m.Result, m.Error)
	}
	for _, params := range []map[string]any{
		{"name": "nope"},
		{"name": "greet"},
		{"name": "greet", "arguments": map[string]any{"who": 3}},
		{},
	} {
		if _, e := h.rpcError(sess, "prompts/get", params); e.Code != wire.CodeInvalidParams {
			t.Errorf("prompts/get %v: %+v", params, e)
		}
	}
	// The stateless era routes prompts/get by Mcp-Name and caches the list.
	r := h.modern("prompts/get", `{`+modernMeta+`,"name":"greet","arguments":{"who":"x"}}`, "Mcp-Name: "+wire.HeaderValue("other"))
	if m := r.msg(t); r.status != 400 || m.Error.Code != wire.CodeHeaderMismatch {
		t.Errorf("Mcp-Name naming another prompt: HTTP %d %s", r.status, r.body)
	}
	r = h.modern("prompts/list", "{"+modernMeta+"}")
	if !strings.Contains(string(r.body), `"ttlMs":3600000,"cacheScope":"public","resultType":"complete"`) {
		t.Errorf("stateless prompts/list: %s", r.body)
	}
}

// events splits an event-stream body into its messages.
func events(t *testing.T, r reply) []*wire.Message {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want an event stream: %s", ct, r.body)
	}
	var out []*wire.Message
	for _, ev := range strings.Split(strings.TrimSpace(string(r.body)), "\n\n") {
		_, data, ok := strings.Cut(ev, "data: ")
		m, err := wire.Decode([]byte(data))
		if !ok || err != nil {
			t.Fatalf("event %q: %v", ev, err)
		}
		out = append(out, m)
	}
	return out
}

// noisy is a tool that reports progress (0, 0, 50, 100 of 100: the
// repeated 0 is dropped) and logs at two levels.
func noisy() *Tool {
	return &Tool{Name: "noisy", Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		total := 100.0
		for _, p := range []float64{0, 0, 50, 100} {
			c.Progress(p, &total, "")
		}
		c.Log("info", "noisy", "an info line")
		c.Log("error", "noisy", strings.Repeat("é", wire.LogLineMax))
		return TextResult("done", false), nil
	}}
}

func TestProgress_StreamedBeforeTheResult(t *testing.T) {
	h := start(t, Options{Tools: []*Tool{noisy()}})
	sess := h.open()
	r := h.request(sess, "tools/call", map[string]any{"name": "noisy", "_meta": map[string]any{"progressToken": "tok"}})
	ms := events(t, r)
	var got []string
	for _, m := range ms[:len(ms)-1] {
		var p wire.ProgressParams
		json.Unmarshal(m.Params, &p)
		got = append(got, fmt.Sprintf("%s %s %v/%v", m.Method, p.ProgressToken, p.Progress, *p.Total))
	}
	want := []string{`notifications/progress "tok" 0/100`, `notifications/progress "tok" 50/100`, `notifications/progress "tok" 100/100`}
	if !cmp.Equal(got, want) {
		t.Errorf("notifications (-want +got):\n%s", cmp.Diff(want, got))
	}
	if last := ms[len(ms)-1]; last.ID.String() != "7" || !strings.Contains(string(last.Result), `"text":"done"`) {
		t.Errorf("the last event is not the result: %+v", last)
	}
	// No token, or no event stream accepted: one JSON answer.
	for _, hdr := range [][]string{nil, {"Accept: application/json"}} {
		params := map[string]any{"name": "noisy"}
		if hdr != nil {
			params["_meta"] = map[string]any{"progressToken": 1}
		}
		r := h.request(sess, "tools/call", params, hdr...)
		if r.header.Get("Content-Type") != "application/json" || r.msg(t).Error != nil {
			t.Errorf("%v: %s %s", hdr, r.header.Get("Content-Type"), r.body)
		}
	}
	for _, tok := range []any{map[string]any{}, 1.5, strings.Repeat("t", 300), nil} {
		_, e := h.rpcError(sess, "tools/call", map[string]any{"name": "noisy", "_meta": map[string]any{"progressToken": tok}})
		if e.Code != wire.CodeInvalidParams {
			t.Errorf("progressToken %.20v: %+v", tok, e)
		}
	}
}

func TestLogging_LevelPerSessionOrPerRequest(t *testing.T) {
	h := start(t, Options{Tools: []*Tool{noisy()}})
	sess := h.open()
	call := map[string]any{"name": "noisy"}
	if r := h.request(sess, "tools/call", call); r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("no level set, yet: %s", r.body)
	}
	if m := h.request(sess, "logging/setLevel", map[string]any{"level": "warning"}).msg(t); m.Error != nil || string(m.Result) != "{}" {
		t.Fatalf("setLevel: %+v", m)
	}
	ms := events(t, h.request(sess, "tools/call", call))
	var p wire.LogMessageParams
	if len(ms) != 2 || ms[0].Method != wire.MethodLogMessage || json.Unmarshal(ms[0].Params, &p) != nil || p.Level != "error" {
		t.Fatalf("at warning: %d events, first %+v", len(ms), ms[0])
	}
	var text string
	if json.Unmarshal(p.Data, &text); len(text) > wire.LogLineMax || !strings.HasSuffix(text, "é…") {
		t.Errorf("a long line is %d bytes, ending %q; want it cut at MCP_LOG_LINE_MAX on a character", len(text), text[len(text)-8:])
	}
	if _, e := h.rpcError(sess, "logging/setLevel", map[string]any{"level": "loud"}); e.Code != wire.CodeInvalidParams {
		t.Errorf("unknown level: %+v", e)
	}
	// Stateless: the level comes with each request; absent, none is sent.
	r := h.modern("tools/call", `{`+metaWith(`"io.modelcontextprotocol/logLevel":"debug"`)+`,"name":"noisy"}`, "Mcp-Name: "+wire.HeaderValue("noisy"))
	if ms := events(t, r); len(ms) != 3 || !strings.Contains(string(ms[2].Result), `"resultType":"complete"`) {
		t.Errorf("stateless at debug: %s", r.body)
	}
	if r := h.modern("tools/call", `{`+modernMeta+`,"name":"noisy"}`, "Mcp-Name: "+wire.HeaderValue("noisy")); r.header.Get("Content-Type") != "application/json" {
		t.Errorf("stateless without a level: %s", r.body)
	}
	if r := h.modern("tools/call", `{`+metaWith(`"io.modelcontextprotocol/logLevel":"chatty"`)+`,"name":"noisy"}`, "Mcp-Name: "+wire.HeaderValue("noisy")); r.status != 400 || r.msg(t).Error.Code != wire.CodeInvalidParams {
		t.Errorf("stateless with a bad level: HTTP %d %s", r.status, r.body)
	}
}

// TestSpill_LargeResultIsReadBackByURI: a direct call's text over
// MCP_RESULT_MAX becomes a record; the answer carries its head, its URI
// and a resource_link, and resources/read returns it whole.
func TestSpill_LargeResultIsReadBackByURI(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", wire.ResultMax/16+100)
	native := tools.Raw(tools.Tool{Name: "big", Description: "a big result", Schema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, tools.Call) (tools.Result, error) { return tools.Text(big), nil })
	host := newTestHost(t, llmtest.Script{})
	rs := &Records{Store: host.store, Profile: "default"}
	h := start(t, Options{Tools: []*Tool{Native(native)}, Host: host, Resources: rs})
	sess := h.open()
	res := h.call(sess, "big", map[string]any{})
	text := res.Text()
	i := strings.Index(text, RecordScheme)
	if i < 0 || len(text) > spillHead+1024 || !strings.Contains(text, big[:100]) || len(res.Content) != 2 {
		t.Fatalf("spilled answer (%d bytes, %d blocks): %.300s", len(text), len(res.Content), text)
	}
	uri := strings.Fields(text[i:])[0]
	var link struct{ Type, URI string }
	json.Unmarshal(res.Content[1], &link)
	if link.Type != "resource_link" || link.URI != uri {
		t.Errorf("link %+v, want one to %s", link, uri)
	}
	var read wire.ReadResourceResult
	json.Unmarshal(h.request(sess, "resources/read", map[string]any{"uri": uri}).msg(t).Result, &read)
	if len(read.Contents) != 1 || read.Contents[0].Text == nil || *read.Contents[0].Text != big {
		t.Errorf("resources/read %s returned %d contents, not the whole result", uri, len(read.Contents))
	}
	// Without resources served, the result goes out whole, as before.
	h2 := start(t, Options{Tools: []*Tool{Native(native)}, Host: host})
	if res := h2.call(h2.open(), "big", map[string]any{}); res.Text() != big {
		got := res.Text()
		t.Errorf("without resources: %d bytes, want the whole %d", len(got), len(big))
	}
}

// TestChat_ReportsStepsAsItRuns: a chat turn that calls a tool sends
// progress for each model call and the tool call, and log lines at the
// session's level, before its answer.
func TestChat_ReportsStepsAsItRuns(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.Call{{Name: "read_file", Arguments: llmtest.Chunks{`{"path":"missing.txt"}`}}}},
		text("no such file"),
	}})
	h := start(t, Options{Tools: servedTools(), Host: host})
	sess := h.open()
	h.request(sess, "logging/setLevel", map[string]any{"level": "info"})
	r := h.request(sess, "tools/call", map[string]any{"name": ChatName, "arguments": chatArgsOf("read it"), "_meta": map[string]any{"progressToken": "c"}})
	var got []string
	ms := events(t, r)
	for _, m := range ms[:len(ms)-1] {
		var p struct {
			Message, Level string
			Data           string
		}
		json.Unmarshal(m.Params, &p)
		got = append(got, m.Method+" "+p.Message+p.Level+" "+p.Data)
	}
	want := []string{
		"notifications/progress model call 1 answered ",
		"notifications/progress calling read_file ",
		"notifications/message warning tool read_file failed: ",
		"notifications/progress model call 2 answered ",
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || !strings.HasPrefix(got[2], want[2]) || got[3] != want[3] {
		t.Errorf("chat events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if last := ms[len(ms)-1]; !strings.Contains(string(last.Result), "no such file") {
		t.Errorf("the last event is not the answer: %s", last.Result)
	}
}

// TestChat_StatelessTurnReportsToo: a stateless-era chat, whose history
// lives in the vault, reports its model call on the request's stream.
func TestChat_StatelessTurnReportsToo(t *testing.T) {
	host := newTestHost(t, llmtest.Script{Turns: []llmtest.Turn{text("hi there")}})
	h := start(t, Options{Tools: servedTools(), Host: host, Vault: host.store})
	r := h.modern("tools/call", "{"+metaWith(`"progressToken":7`)+`,"name":"chat","arguments":{"message":"hello"}}`, "Mcp-Name: chat")
	ms := events(t, r)
	var p wire.ProgressParams
	if len(ms) != 2 || json.Unmarshal(ms[0].Params, &p) != nil || string(p.ProgressToken) != "7" || p.Message != "model call 1 answered" {
		t.Fatalf("events: %s", r.body)
	}
	if res := string(ms[1].Result); !strings.Contains(res, "hi there") || !strings.Contains(res, `"resultType":"complete"`) {
		t.Errorf("the answer: %s", res)
	}
}

// TestRecords_ReadsAreAudited: each resources/read with a uri is one
// audit row, as a record_get call would be: found or not.
func TestRecords_ReadsAreAudited(t *testing.T) {
	host := newTestHost(t, llmtest.Script{})
	var mu sync.Mutex
	var rows []string
	rs := &Records{Store: host.store, Profile: "default"}
	h := start(t, Options{Resources: rs, Audit: func(_ context.Context, e vault.AuditEntry) {
		mu.Lock()
		defer mu.Unlock()
		rows = append(rows, fmt.Sprintf("%s %s %s %s %d %v", e.Kind, e.Subject, e.Outcome, e.Origin, e.Size, e.Digest == vault.Digest([]byte(RecordURI("rnothere")))))
	}})
	id := putRecord(t, host, "default", "12345")
	sess := h.open()
	h.request(sess, "resources/read", map[string]any{"uri": RecordURI(id)})
	h.request(sess, "resources/read", map[string]any{"uri": RecordURI("rnothere")})
	h.request(sess, "resources/read", map[string]any{"uri": ""}) // refused before any read
	h.request(sess, "resources/list", map[string]any{})
	mu.Lock()
	defer mu.Unlock()
	want := []string{"mcp-serve resources/read ok served 5 false", "mcp-serve resources/read refused served 0 true"}
	if !cmp.Equal(rows, want) {
		t.Errorf("audit rows (-want +got):\n%s", cmp.Diff(want, rows))
	}
}

// TestProgress_BoundedAndNeverAfterTheResult: a request hears at most
// MaxNotifications, and a call that reports after its result was sent
// sends nothing (its answer is complete, its handler gone).
func TestProgress_BoundedAndNeverAfterTheResult(t *testing.T) {
	late := make(chan Call, 1)
	chatty := &Tool{Name: "chatty", Run: func(ctx context.Context, c Call) (*wire.CallToolResult, error) {
		for i := range MaxNotifications + 50 {
			c.Progress(float64(i+1), nil, "step")
		}
		late <- c
		return TextResult("done", false), nil
	}}
	h := start(t, Options{Tools: []*Tool{chatty}})
	sess := h.open()
	ms := events(t, h.request(sess, "tools/call", map[string]any{"name": "chatty", "_meta": map[string]any{"progressToken": "p"}}))
	if len(ms) != MaxNotifications+1 || ms[len(ms)-1].ID.String() != "7" {
		t.Fatalf("%d events; want %d notifications and the result", len(ms), MaxNotifications)
	}
	c := <-late
	c.Progress(1e9, nil, "too late")
	c.Log("emergency", "chatty", "too late")
	// The session still answers: nothing was written on a finished reply.
	if m := h.request(sess, "ping", map[string]any{}).msg(t); m.Error != nil {
		t.Errorf("ping after a late report: %+v", m.Error)
	}
}
