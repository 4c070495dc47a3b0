package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"tai/internal/mcp/wire"
)

// postStateless serves a stateless-era request. The checks run in this
// order: the required _meta keys (-32602), MCP-Protocol-Version against
// the claim (-32020), the version (-32022), Mcp-Method and Mcp-Name
// against the body (-32020), then the method (404, -32601). Each refusal
// is a 400 unless said otherwise. tai needs no client capability, so
// -32021 never applies.
func (s *Server) postStateless(w http.ResponseWriter, r *http.Request, m *wire.Message, claim wire.Claim) {
	if m.IsNotification() {
		// notifications/cancelled belongs to stdio in this era; over HTTP
		// a closed reply cancels. Every notification is accepted and
		// ignored.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	header := r.Header.Get(headerProtocol)
	switch {
	case !claim.Present && header != "" && !wire.Supported(header) && header != wire.StatelessVersion:
		s.unsupported(w, m.ID, header)
		return
	case !claim.Present:
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeInvalidParams,
			"invalid params: a "+header+" request carries params._meta with "+wire.MetaProtocolVersion+" and "+wire.MetaClientCapabilities)
		return
	case len(claim.Missing) > 0:
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeInvalidParams,
			"invalid params: params._meta lacks "+strings.Join(claim.Missing, " and ")+", which every request of this protocol era carries")
		return
	case header == "":
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeHeaderMismatch,
			"header mismatch: no MCP-Protocol-Version header; send the version of params._meta ("+wire.Printable(claim.Version, 40)+") in it")
		return
	case header != claim.Version:
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeHeaderMismatch, fmt.Sprintf(
			"header mismatch: MCP-Protocol-Version %q differs from params._meta's %q", wire.Printable(header, 40), wire.Printable(claim.Version, 40)))
		return
	case claim.Version != wire.StatelessVersion:
		s.unsupported(w, m.ID, claim.Version)
		return
	}
	// tools/call params are decoded once, for the Mcp-Name check and the
	// call.
	var params wire.CallToolParams
	var p *wire.CallToolParams
	if m.Method == wire.MethodToolsCall && decodeParams(m.Params, &params) == nil {
		p = &params // else the call answers -32602
	}
	if why := requestHeaders(r, m, routedName(m, p)); why != "" {
		writeError(w, http.StatusBadRequest, m.ID, wire.CodeHeaderMismatch, "header mismatch: "+why)
		return
	}
	if !s.handles(m.Method, wire.StatelessEra) {
		writeError(w, http.StatusNotFound, m.ID, wire.CodeMethodNotFound, "method not found: "+wire.Printable(m.Method, 80)+notInEra(m.Method))
		return
	}
	sess, _, _ := s.bind(wire.StatelessEra, r, m)
	st, werr := s.streamFor(w, r, sess, m)
	if werr != nil {
		writeError(w, http.StatusBadRequest, m.ID, werr.Code, werr.Message)
		return
	}
	if st != nil {
		defer st.end()
		w = st
	}
	switch m.Method {
	case wire.MethodDiscover:
		writeResult(w, m.ID, s.discover)
	case wire.MethodToolsList:
		writeResult(w, m.ID, s.listStateless)
	case wire.MethodToolsCall:
		s.callWith(w, r, sess, m, p)
	case wire.MethodTasksGet, wire.MethodTasksCancel, wire.MethodTasksUpdate:
		s.tasksV2(w, m)
	default:
		s.feature(w, r, sess, m)
	}
}

// notInEra explains a session-era method sent in the stateless era.
func notInEra(method string) string {
	for _, m := range wire.Methods {
		if m.Name == method && !m.In(wire.StatelessEra) {
			return fmt.Sprintf(" in protocol %s (it belongs to the session era; send it without params._meta to open a session)", wire.StatelessVersion)
		}
	}
	return ""
}

// unsupported answers -32022 with the versions tai serves.
func (s *Server) unsupported(w http.ResponseWriter, id wire.ID, requested string) {
	data, _ := json.Marshal(wire.UnsupportedVersion{Supported: wire.ServedVersions, Requested: requested})
	body, _ := wire.Encode(wire.NewErrorResponse(id, &wire.Error{Code: wire.CodeUnsupportedProtocol,
		Message: fmt.Sprintf("unsupported protocol version %q; tai serves %s", wire.Printable(requested, 40), strings.Join(wire.ServedVersions, ", ")),
		Data:    data}))
	writeBody(w, http.StatusBadRequest, body)
}

// routed is what a stateless request's Mcp-Name must carry: params.name
// of tools/call and prompts/get, params.uri of resources/read.
type routed struct {
	field string // "params.name" or "params.uri"; "" for other methods
	value string
	known bool // false when the params did not decode, which the method refuses itself
}

// routedName reads the routed value of m; call is tools/call's params,
// already decoded (nil when they did not decode).
func routedName(m *wire.Message, call *wire.CallToolParams) routed {
	switch m.Method {
	case wire.MethodToolsCall:
		if call == nil {
			return routed{field: "params.name"}
		}
		return routed{"params.name", call.Name, true}
	case wire.MethodPromptsGet, wire.MethodResourcesRead:
		var p struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		}
		ok := decodeParams(m.Params, &p) == nil
		if m.Method == wire.MethodResourcesRead {
			return routed{"params.uri", p.URI, ok}
		}
		return routed{"params.name", p.Name, ok}
	case wire.MethodTasksGet, wire.MethodTasksUpdate, wire.MethodTasksCancel:
		var p struct {
			TaskID string `json:"taskId"`
		}
		ok := decodeParams(m.Params, &p) == nil
		return routed{"params.taskId", p.TaskID, ok}
	}
	return routed{}
}

// requestHeaders checks Mcp-Method on every request and Mcp-Name on
// tools/call, prompts/get and resources/read against the body; it returns
// why they disagree, or "".
func requestHeaders(r *http.Request, m *wire.Message, want routed) string {
	method, ok := r.Header[wire.HeaderMethod]
	switch {
	case !ok:
		return "no Mcp-Method header; send the request's method in it"
	case len(method) != 1 || method[0] != m.Method:
		return fmt.Sprintf("Mcp-Method %q differs from the body's method %q", wire.Printable(strings.Join(method, ","), 60), wire.Printable(m.Method, 60))
	case want.field == "":
		return ""
	}
	raw, ok := r.Header[wire.HeaderName]
	if !ok {
		return fmt.Sprintf("no Mcp-Name header; a %s sends its %s in it", m.Method, want.field)
	}
	name, valid := "", len(raw) == 1
	if valid {
		name, valid = wire.ReadHeaderValue(raw[0])
	}
	switch {
	case !valid:
		return "Mcp-Name holds characters a header may not carry, or broken base64"
	case want.known && name != want.value:
		return fmt.Sprintf("Mcp-Name %q differs from %s %q", wire.Printable(name, 60), want.field, wire.Printable(want.value, 60))
	}
	return ""
}

// statelessResults encodes what the stateless era answers from memory:
// server/discover and tools/list, each with resultType, the cache hints
// and serverInfo in _meta, and the tail every other result gets.
func statelessResults(serverVersion string, tools []*Tool, caps wire.Capabilities) (discover, list, tail []byte, err error) {
	info := wire.Implementation{Name: "tai", Version: serverVersion}
	meta := map[string]any{wire.MetaServerInfo: info}
	ttl := listTTL
	discover, err = marshal(struct {
		ResultType        string            `json:"resultType"`
		SupportedVersions []string          `json:"supportedVersions"`
		Capabilities      wire.Capabilities `json:"capabilities"`
		TTLMs             int64             `json:"ttlMs"`
		CacheScope        string            `json:"cacheScope"`
		Meta              map[string]any    `json:"_meta"`
	}{wire.ResultComplete, wire.ServedVersions, caps, ttl, "public", meta})
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := marshal(meta)
	if err != nil {
		return nil, nil, nil, err
	}
	tail = append([]byte(`,"resultType":"complete","_meta":`), m...)
	plain, err := listing(tools, wire.StatelessEra)
	if err != nil {
		return nil, nil, nil, err
	}
	list = append(append(plain[:len(plain)-1:len(plain)-1], fmt.Sprintf(`,"ttlMs":%d,"cacheScope":"public"`, ttl)...), tail...)
	return discover, append(list, '}'), tail, nil
}

// listTTL is the ttlMs of server/discover and tools/list: what tai serves
// changes only when it restarts (a new binary), so an hour is safe, and
// the list is the same for every holder of the key: public.
const listTTL int64 = 3600_000
