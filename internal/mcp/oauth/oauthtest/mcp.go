package oauthtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// serveMCP answers MCP over Streamable HTTP with single JSON replies. One
// tool, echo, returns its "message" argument.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string `json:"name"`
			Arguments struct {
				Message string `json:"message"`
			} `json:"arguments"`
		} `json:"params"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
		http.Error(w, "POST one JSON-RPC message", http.StatusBadRequest)
		return
	}
	if !s.authorized(w, r, m.Method) {
		return
	}
	s.mu.Lock()
	moved := s.moved
	s.mu.Unlock()
	if moved.url != "" {
		http.Redirect(w, r, moved.url, moved.status)
		return
	}
	var result any
	switch m.Method {
	case "initialize":
		result = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "oauthtest", "version": "1"}}
	case "tools/list":
		result = map[string]any{"tools": []any{map[string]any{"name": "echo", "description": "Echo the message.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}}}}}
	case "tools/call":
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo: " + m.Params.Arguments.Message}}}
	default:
		if len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": -32601, "message": "method not found"}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// authorized applies the Bearer rules to one MCP request and answers 401
// or 403 itself when they fail.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request, method string) bool {
	if s.Open || (s.OpenInitialize && (method == "initialize" || strings.HasPrefix(method, "notifications/"))) {
		return true
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	granted, ok := s.access[token]
	if ok {
		s.stats.Bearers++
	}
	s.mu.Unlock()
	if !ok {
		challenge := `Bearer error="invalid_token"`
		if !s.Legacy && !s.Bare {
			challenge += fmt.Sprintf(`, resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, s.Issuer)
		}
		if s.ChallengeScope != "" {
			challenge += fmt.Sprintf(`, scope="%s"`, s.ChallengeScope)
		}
		w.Header().Set("WWW-Authenticate", challenge)
		oauthError(w, http.StatusUnauthorized, "invalid_token", "missing or invalid access token")
		return false
	}
	need := s.Require[method]
	if len(s.Forbid) > 0 && method != "initialize" && !strings.HasPrefix(method, "notifications/") {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s"`, strings.Join(s.Forbid, " ")))
		oauthError(w, http.StatusForbidden, "insufficient_scope", "this server never has enough")
		return false
	}
	have := map[string]bool{}
	for _, sc := range strings.Fields(granted) {
		have[sc] = true
	}
	for _, sc := range need {
		if !have[sc] {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`,
				strings.Join(need, " "), s.Issuer))
			oauthError(w, http.StatusForbidden, "insufficient_scope", "token lacks "+sc)
			return false
		}
	}
	return true
}
