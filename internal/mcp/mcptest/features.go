package mcptest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"tai/internal/mcp/wire"
)

// FeatureCaps are the capabilities of the "features" script: everything
// beyond tools that tai's client speaks.
const FeatureCaps = `{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},` +
	`"prompts":{"listChanged":true},"completions":{},"logging":{}}`

// EnvPromptsFile names a file holding more prompts for the "features"
// script to list after greet and plain, read at every prompts/list, so a
// test can add or redefine prompts as a server updated in place does.
// Each is a prompt object; prompts/get of one answers its "x-messages"
// (role and content, each {{ARG}} in a text replaced by the argument's
// value), or one user message holding its description.
const EnvPromptsFile = "TAI_FAKE_PROMPTS_FILE"

// BigResourceSize is the size of the "features" script's test://big text.
var BigResourceSize = wire.ResourceMax + 1

// feature answers, for the "features" script, the methods beyond tools,
// and reports whether it did:
//
//	resources/list           → test://a (text), then on a second page test://b (blob)
//	resources/templates/list → test://item/{id}
//	resources/read           → test://a "alpha" (after a notifications/progress), test://b bytes 0..255, test://big past
//	                           MCP_RESOURCE_MAX, test://item/N "item N", else -32002
//	resources/subscribe      → {} and then notifications/resources/updated for the uri
//	prompts/list             → greet (argument who, required) and plain, then
//	                           those of EnvPromptsFile
//	prompts/get              → greet: "hello WHO" from the user; plain: one message;
//	                           those of EnvPromptsFile as it says
//	completion/complete      → of alice, albert, bob, those that start with the value
//	                           (for argument "name" of ref/resource: "1", "2")
//	logging/setLevel         → {}, then one notifications/message at error
//	tools/call "progress"    → three notifications/progress (or "steps" of them), then
//	                           "done"; with "hold", only once the file it names exists
//	tools/call "roots"       → asks roots/list and answers with the client's reply
//	tools/call "changed"     → notifications/tools/list_changed ("times" of them, and
//	                           "kinds" other lists' too), then "ok"
//	tools/call "lists"       → how many tools/list it answered
//	subscriptions/listen     → notifications/subscriptions/acknowledged, a log line at info
//	                           (logger "listen") with the filter, notifications/resources/updated
//	                           for each of its resourceSubscriptions, and no answer
//	tools/call "touch"       → notifications/resources/updated for "uri" ("times" of
//	                           them), then "touched"; with "hold", "will touch" at once
//	                           and the notifications once the file it names exists
//	tools/call "heard"       → the methods of the notifications it heard (and of
//	                           subscriptions/listen, with its filter, and of
//	                           resources/subscribe and unsubscribe, with the URI), one a line
//	tools/call "links"       → a text block, a resource_link to test://a, one whose
//	                           URI holds an escape, and test://item/1 and test://b
//	                           embedded
//	tools/call "elicit"      → asks elicitation/create with the "params" argument (else
//	                           DefaultElicitation) and answers with the client's reply
//	tools/call "url-required"→ the first time -32042 naming a URL elicitation of the
//	                           "url" argument, id "el-1" (completed once the file
//	                           "complete" names exists); then "url step done"
//	tools/call "log"         → "times" notifications/message at "level" (default error)
//	                           with "data" (default "line N"), then "logged"
//	tools/call "sample"      → sends sampling/createMessage (its arguments, or
//	                           DefaultSample) and answers with the client's reply
func (s *Server) feature(m *wire.Message) bool {
	if s.Script != "features" {
		return false
	}
	if m.IsNotification() {
		s.hear(m.Method)
	}
	switch m.Method {
	case wire.MethodResourcesList:
		var p wire.ListParams
		json.Unmarshal(m.Params, &p)
		if p.Cursor == "" {
			s.result(m.ID, map[string]any{"resources": []any{map[string]any{"uri": "test://a", "name": "a", "mimeType": "text/plain"}}, "nextCursor": "p2"})
		} else {
			s.result(m.ID, map[string]any{"resources": []any{map[string]any{"uri": "test://b", "name": "b", "mimeType": "application/octet-stream", "size": 256}}})
		}
	case wire.MethodResourceTemplates:
		s.result(m.ID, map[string]any{"resourceTemplates": []any{map[string]any{"uriTemplate": "test://item/{id}", "name": "item"}}})
	case wire.MethodResourcesRead:
		var p struct {
			wire.ResourceParams
			Meta struct {
				Token json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		json.Unmarshal(m.Params, &p)
		if p.URI == "test://a" && p.Meta.Token != nil {
			n, _ := wire.NewNotification(wire.MethodProgress, map[string]any{"progressToken": p.Meta.Token, "progress": 1, "total": 1, "message": "reading a"})
			s.Send(n)
		}
		s.read(m.ID, p.URI)
	case wire.MethodSubscribe:
		var p wire.ResourceParams
		json.Unmarshal(m.Params, &p)
		s.hear(m.Method + " " + p.URI)
		s.result(m.ID, struct{}{})
		n, _ := wire.NewNotification(wire.MethodResourceUpdated, p)
		s.Send(n)
	case wire.MethodUnsubscribe:
		var p wire.ResourceParams
		json.Unmarshal(m.Params, &p)
		s.hear(m.Method + " " + p.URI)
		s.result(m.ID, struct{}{})
	case wire.MethodPromptsList:
		s.result(m.ID, map[string]any{"prompts": append([]any{
			map[string]any{"name": "greet", "description": "Greets someone", "arguments": []any{map[string]any{"name": "who", "required": true}}},
			map[string]any{"name": "plain"},
		}, filePrompts()...)})
	case wire.MethodPromptsGet:
		var p wire.GetPromptParams
		json.Unmarshal(m.Params, &p)
		if s.filePrompt(m.ID, p) {
			return true
		}
		switch p.Name {
		case "greet":
			if p.Arguments["who"] == "" {
				s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "who is required"}))
				return true
			}
			s.result(m.ID, map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "hello " + p.Arguments["who"]}}}})
		case "plain":
			s.result(m.ID, map[string]any{"description": "plain", "messages": []any{map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "plain text"}}}})
		default:
			s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeInvalidParams, Message: "no prompt " + p.Name}))
		}
	case wire.MethodComplete:
		var p wire.CompleteParams
		json.Unmarshal(m.Params, &p)
		all := []string{"alice", "albert", "bob"}
		if p.Ref.Type == "ref/resource" {
			all = []string{"1", "2"}
		}
		var vals []string
		for _, v := range all {
			if strings.HasPrefix(v, p.Argument.Value) {
				vals = append(vals, v)
			}
		}
		if p.Context != nil && p.Context.Arguments["team"] != "" {
			vals = append(vals, p.Context.Arguments["team"]+"-lead")
		}
		s.result(m.ID, map[string]any{"completion": map[string]any{"values": vals, "total": len(vals), "hasMore": false}})
	case wire.MethodListen:
		var p wire.ListenParams
		json.Unmarshal(m.Params, &p)
		b, _ := json.Marshal(p.Notifications)
		s.hear(wire.MethodListen + " " + string(b))
		n, _ := wire.NewNotification(wire.MethodListenAcknowledged, p.Notifications)
		s.Send(n) // the request stays open, as a listen stream does
		n, _ = wire.NewNotification(wire.MethodLogMessage, map[string]any{"level": "info", "logger": "listen", "data": p.Notifications})
		s.Send(n)
		for _, uri := range p.Notifications.ResourceSubscriptions {
			n, _ = wire.NewNotification(wire.MethodResourceUpdated, wire.ResourceParams{URI: uri})
			s.Send(n)
		}
	case wire.MethodSetLevel:
		var p wire.SetLevelParams
		json.Unmarshal(m.Params, &p)
		s.Stderr("level " + p.Level)
		s.result(m.ID, struct{}{})
		n, _ := wire.NewNotification(wire.MethodLogMessage, map[string]any{"level": "error", "logger": "fake", "data": "boom at " + p.Level})
		s.Send(n)
	case wire.MethodToolsCall:
		return s.featureCall(m)
	default:
		return false
	}
	return true
}

func (s *Server) read(id wire.ID, uri string) {
	one := func(item map[string]any) { s.result(id, map[string]any{"contents": []any{item}}) }
	switch {
	case uri == "test://a":
		one(map[string]any{"uri": uri, "mimeType": "text/plain", "text": "alpha"})
	case uri == "test://b":
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		one(map[string]any{"uri": uri, "mimeType": "application/octet-stream", "blob": base64.StdEncoding.EncodeToString(b)})
	case uri == "test://big":
		one(map[string]any{"uri": uri, "text": strings.Repeat("z", BigResourceSize)})
	case strings.HasPrefix(uri, "test://item/"):
		one(map[string]any{"uri": uri, "text": "item " + strings.TrimPrefix(uri, "test://item/")})
	default:
		s.Send(wire.NewErrorResponse(id, &wire.Error{Code: -32002, Message: "Resource not found"}))
	}
}

// featureCall answers the tools of the "features" script that need more
// than one message.
func (s *Server) featureCall(m *wire.Message) bool {
	var p struct {
		Name string `json:"name"`
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
		Arguments struct {
			Steps    int             `json:"steps"`
			Hold     string          `json:"hold"`
			Times    int             `json:"times"`
			Kinds    []string        `json:"kinds"`
			Params   json.RawMessage `json:"params"`
			URL      string          `json:"url"`
			Complete string          `json:"complete"`
			Level    string          `json:"level"`
			Data     json.RawMessage `json:"data"`
			URI      string          `json:"uri"`
		} `json:"arguments"`
	}
	json.Unmarshal(m.Params, &p)
	switch p.Name {
	case "progress":
		steps := p.Arguments.Steps
		if steps <= 0 {
			steps = 3
		}
		for i := 1; i <= steps; i++ {
			n, _ := wire.NewNotification(wire.MethodProgress, map[string]any{"progressToken": p.Meta.Token, "progress": i, "total": steps, "message": fmt.Sprintf("step %d", i)})
			s.Send(n)
		}
		n, _ := wire.NewNotification(wire.MethodProgress, map[string]any{"progressToken": "nobody's", "progress": 1})
		s.Send(n)
		go func() {
			holdFor(p.Arguments.Hold)
			s.result(m.ID, text("done", false))
		}()
	case "roots":
		s.mu.Lock()
		s.waiting = m
		s.mu.Unlock()
		s.Send(&wire.Message{ID: mustID(`"roots-1"`), Method: wire.MethodRootsList, Params: []byte(`{}`)})
	case "links":
		s.result(m.ID, map[string]any{"content": []any{
			map[string]any{"type": "text", "text": "see these"},
			map[string]any{"type": "resource_link", "uri": "test://a", "name": "a", "mimeType": "text/plain"},
			map[string]any{"type": "resource_link", "uri": "test://\x1b[31mred", "name": "red"},
			map[string]any{"type": "resource", "resource": map[string]any{"uri": "test://item/1", "mimeType": "text/plain", "text": "item 1"}},
			map[string]any{"type": "resource", "resource": map[string]any{"uri": "test://b", "mimeType": "application/octet-stream",
				"blob": base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 3})}},
		}})
	case "changed":
		for range max(p.Arguments.Times, 1) {
			n, _ := wire.NewNotification(wire.MethodToolsListChanged, nil)
			s.Send(n)
		}
		for _, kind := range p.Arguments.Kinds {
			n, _ := wire.NewNotification("notifications/"+kind+"/list_changed", nil)
			s.Send(n)
		}
		s.result(m.ID, text("ok", false))
	case "touch":
		touch := func() {
			for range max(p.Arguments.Times, 1) {
				n, _ := wire.NewNotification(wire.MethodResourceUpdated, wire.ResourceParams{URI: p.Arguments.URI})
				s.Send(n)
			}
		}
		if p.Arguments.Hold == "" {
			touch()
			s.result(m.ID, text("touched", false))
			return true
		}
		s.result(m.ID, text("will touch", false))
		go func() {
			holdFor(p.Arguments.Hold)
			touch()
		}()
	case "log":
		level := p.Arguments.Level
		if level == "" {
			level = "error"
		}
		for i := range max(p.Arguments.Times, 1) {
			data := p.Arguments.Data
			if data == nil {
				data, _ = json.Marshal(fmt.Sprintf("line %d", i))
			}
			n, _ := wire.NewNotification(wire.MethodLogMessage, map[string]any{"level": level, "logger": "fake", "data": data})
			s.Send(n)
		}
		s.result(m.ID, text("logged", false))
	case "heard":
		s.mu.Lock()
		heard := strings.Join(s.heard, "\n")
		s.mu.Unlock()
		s.result(m.ID, text(heard, false))
	case "lists":
		s.mu.Lock()
		n := s.lists
		s.mu.Unlock()
		s.result(m.ID, text(strconv.Itoa(n), false))
	case "elicit":
		params := p.Arguments.Params
		if len(params) == 0 {
			params = json.RawMessage(DefaultElicitation)
		}
		s.mu.Lock()
		s.waiting = m
		s.mu.Unlock()
		s.Send(&wire.Message{ID: mustID(`"elicit-1"`), Method: wire.MethodElicit, Params: params})
	case "url-required":
		s.urlRequired(m, p.Arguments.URL, p.Arguments.Complete)
	case "sample":
		s.sampleCall(m)
	default:
		return false
	}
	return true
}

// DefaultElicitation is the form the "elicit" tool asks when given none:
// a required name and an age with a default.
const DefaultElicitation = `{"message":"Who are you?","requestedSchema":{"type":"object","properties":{` +
	`"name":{"type":"string","title":"Your name","minLength":2},"age":{"type":"integer","minimum":0,"default":30}},"required":["name"]}}`

// urlRequired answers the "url-required" tool: the first call is refused
// with -32042, later ones succeed.
func (s *Server) urlRequired(m *wire.Message, url, complete string) {
	s.mu.Lock()
	first := !s.urlAsked
	s.urlAsked = true
	s.mu.Unlock()
	if !first {
		s.result(m.ID, text("url step done", false))
		return
	}
	data, _ := json.Marshal(map[string]any{"elicitations": []any{map[string]any{
		"mode": "url", "elicitationId": "el-1", "url": url, "message": "Connect your account first."}}})
	s.Send(wire.NewErrorResponse(m.ID, &wire.Error{Code: wire.CodeURLElicitationRequired, Message: "This request requires more information.", Data: data}))
	if complete != "" {
		go func() {
			holdFor(complete)
			n, _ := wire.NewNotification(wire.MethodElicitComplete, map[string]any{"elicitationId": "el-1"})
			s.Send(n)
		}()
	}
}

// rootsAnswer answers the waiting "roots" or "elicit" call with the
// client's reply to its request, and reports whether m was that reply.
func (s *Server) rootsAnswer(m *wire.Message) bool {
	if id := m.ID.String(); id != `"roots-1"` && id != `"elicit-1"` {
		return false
	}
	s.mu.Lock()
	w := s.waiting
	s.waiting = nil
	s.mu.Unlock()
	if w != nil {
		out, _ := wire.Encode(&wire.Message{ID: m.ID, Result: m.Result, Error: m.Error})
		s.result(w.ID, text(string(out), false))
	}
	return true
}

// holdFor returns once the file at path exists (at once for ""), or
// after a minute: a test releases a held call by creating it.
func holdFor(path string) {
	if path == "" {
		return
	}
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
}

// filePrompts are the prompts of EnvPromptsFile, none when it is unset.
func filePrompts() []any {
	var list []any
	if f := os.Getenv(EnvPromptsFile); f != "" {
		b, _ := os.ReadFile(f)
		json.Unmarshal(b, &list)
	}
	return list
}

// filePrompt answers prompts/get of a prompt of EnvPromptsFile, and
// reports whether p named one.
func (s *Server) filePrompt(id wire.ID, p wire.GetPromptParams) bool {
	for _, it := range filePrompts() {
		def, _ := it.(map[string]any)
		if def["name"] != p.Name {
			continue
		}
		msgs, ok := def["x-messages"].([]any)
		if !ok {
			desc, _ := def["description"].(string)
			msgs = []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": desc}}}
		}
		b, _ := json.Marshal(msgs)
		text := string(b)
		for k, v := range p.Arguments {
			v, _ := json.Marshal(v)
			text = strings.ReplaceAll(text, "{{"+k+"}}", strings.Trim(string(v), `"`))
		}
		s.result(id, map[string]any{"messages": json.RawMessage(text)})
		return true
	}
	return false
}

// hear records a line for the "heard" tool.
func (s *Server) hear(line string) {
	s.mu.Lock()
	s.heard = append(s.heard, line)
	s.mu.Unlock()
}
