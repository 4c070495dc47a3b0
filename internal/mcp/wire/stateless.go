package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The reserved _meta keys of the stateless era.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// Header names of the Streamable HTTP transport.
const (
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
)

// Header is one HTTP header of the transport and the eras that send it.
type Header struct {
	Name string
	Eras string // "session", "stateless" or "both"
}

// Headers lists every MCP header tai sends or reads, for the docs drift
// test.
var Headers = []Header{
	{HeaderProtocolVersion, "both"},
	{HeaderSessionID, "session"},
	{HeaderMethod, "stateless"},
	{HeaderName, "stateless"},
}

// RequestMeta is the _meta a stateless-era client puts in every request's
// params: the version and the capabilities are required, the client's
// name is not.
type RequestMeta struct {
	ProtocolVersion    string          `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	ClientInfo         *Implementation `json:"io.modelcontextprotocol/clientInfo,omitempty"`
}

// WithMeta returns params (absent, null or an object) with "_meta" set to
// meta, which must be an encoded JSON object. tai's own params never carry
// _meta, so the key is added as the object's first.
func WithMeta(params json.RawMessage, meta []byte) (json.RawMessage, error) {
	p := bytes.TrimSpace(params)
	if len(p) == 0 || string(p) == "null" {
		p = []byte("{}")
	}
	if p[0] != '{' {
		return nil, errors.New("params must be an object to carry _meta")
	}
	out := make([]byte, 0, len(p)+len(meta)+10)
	out = append(out, `{"_meta":`...)
	out = append(out, meta...)
	rest := bytes.TrimSpace(p[1:])
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}

// Claim is what a request's params._meta says about its era: the version
// it claims and whether the required keys are there. Present reports
// whether _meta names a protocol version at all.
type Claim struct {
	Version string
	Present bool
	// Missing names the required keys _meta lacks (or holds with the
	// wrong type), for -32602.
	Missing []string
}

// ReadClaim reads the protocol claim of params, which must be valid JSON
// (wire.Decode checked the whole message). Params of any shape that carry
// no _meta object, or a _meta without a version, make no claim. Keys match
// exactly, as the specification writes them. The usual shapes take a fast
// path without allocating; keys with escapes take encoding/json's.
func ReadClaim(params json.RawMessage) Claim {
	// Most requests of the session era carry no claim: a byte search,
	// much cheaper than a scan, finds none (a key written with escapes
	// has a backslash, and takes the scan).
	if !bytes.Contains(params, protocolVersionKey) && bytes.IndexByte(params, '\\') < 0 {
		return Claim{}
	}
	var meta, version, caps []byte
	found := false
	fast := fields(params, func(k, v []byte) bool {
		if string(k) == "_meta" {
			meta = v
		}
		return true
	}) && (len(meta) == 0 || meta[0] != '{' || fields(meta, func(k, v []byte) bool {
		switch string(k) {
		case MetaProtocolVersion:
			version, found = v, true
		case MetaClientCapabilities:
			caps = v
		}
		return true
	}))
	if !fast {
		return slowClaim(params)
	}
	if !found {
		return Claim{}
	}
	return claimOf(version, caps)
}

var protocolVersionKey = []byte(MetaProtocolVersion)

// claimOf checks the two required values of a _meta claim.
func claimOf(version, caps []byte) Claim {
	c := Claim{Present: true}
	switch s, ok := plainString(version); {
	case ok && s == StatelessVersion:
		c.Version = StatelessVersion // the usual claim, without a copy
	case ok && s != "":
		c.Version = s
	case len(version) > 0 && version[0] == '"' && json.Unmarshal(version, &c.Version) == nil && c.Version != "":
	default:
		c.Missing = append(c.Missing, MetaProtocolVersion)
	}
	if len(caps) == 0 || caps[0] != '{' {
		c.Missing = append(c.Missing, MetaClientCapabilities)
	}
	return c
}

// slowClaim is ReadClaim through encoding/json, with exact keys.
func slowClaim(params json.RawMessage) Claim {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return Claim{}
	}
	meta := p["_meta"]
	if len(meta) == 0 || meta[0] != '{' {
		return Claim{}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return Claim{}
	}
	version, ok := m[MetaProtocolVersion]
	if !ok {
		return Claim{}
	}
	return claimOf(version, m[MetaClientCapabilities])
}

// DiscoverResult is the answer to server/discover.
type DiscoverResult struct {
	ResultType        string       `json:"resultType,omitempty"`
	SupportedVersions []string     `json:"supportedVersions"`
	Capabilities      Capabilities `json:"capabilities"`
	Instructions      string       `json:"instructions,omitempty"`
	Meta              *ResultMeta  `json:"_meta,omitempty"`
	TTLMs             *int64       `json:"ttlMs,omitempty"`
	CacheScope        string       `json:"cacheScope,omitempty"`
}

// ResultMeta is the part of a result's _meta tai reads.
type ResultMeta struct {
	ServerInfo *Implementation `json:"io.modelcontextprotocol/serverInfo,omitempty"`
}

// UnsupportedVersion is the data of a -32022 answer.
type UnsupportedVersion struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested"`
}

// UnsupportedVersionOf reads the data of a -32022 error; false when err is
// no such error or its data lists no version.
func UnsupportedVersionOf(err error) (UnsupportedVersion, bool) {
	var e *Error
	var he *HTTPError
	switch {
	case errors.As(err, &he) && he.RPC != nil:
		e = he.RPC
	case errors.As(err, &e) && e.Code != CodeHTTP:
	default:
		return UnsupportedVersion{}, false
	}
	var d UnsupportedVersion
	if e.Code != CodeUnsupportedProtocol || json.Unmarshal(e.Data, &d) != nil || len(d.Supported) == 0 {
		return UnsupportedVersion{}, false
	}
	return d, true
}

// Result types of the stateless era; an absent resultType means complete.
const (
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
)

// CheckResultType refuses a result tai cannot use: input_required where it
// is left (the client answers it on tools/call, prompts/get and
// resources/read before this check; anywhere else a server asking for
// input is wrong) and any type the specification does not define.
func CheckResultType(t string) error {
	switch t {
	case "", ResultComplete:
		return nil
	case ResultInputRequired:
		return errors.New("the server asked for input (resultType input_required) where a request cannot ask")
	}
	return fmt.Errorf("the result has resultType %q, which tai does not know", Printable(t, 40))
}

// base64 sentinel of header values that are not plain ASCII.
const (
	b64Prefix = "=?base64?"
	b64Suffix = "?="
)

// HeaderValue encodes v for an Mcp-Name or Mcp-Param header: as is when
// it is visible ASCII with inner spaces and tabs (or empty), else base64
// between the sentinels, as is a plain value that looks like the sentinel.
func HeaderValue(v string) string {
	plain := v == strings.TrimSpace(v) && !(strings.HasPrefix(v, b64Prefix) && strings.HasSuffix(v, b64Suffix))
	for i := 0; plain && i < len(v); i++ {
		c := v[i]
		plain = c == ' ' || c == '\t' || (c >= 0x21 && c <= 0x7e)
	}
	if plain {
		return v
	}
	return b64Prefix + base64.StdEncoding.EncodeToString([]byte(v)) + b64Suffix
}

// ReadHeaderValue decodes a value HeaderValue wrote; false when the value
// has the sentinel but no valid base64 inside, or characters a header may
// not carry.
func ReadHeaderValue(h string) (string, bool) {
	if strings.HasPrefix(h, b64Prefix) && strings.HasSuffix(h, b64Suffix) && len(h) >= len(b64Prefix)+len(b64Suffix) {
		b, err := base64.StdEncoding.DecodeString(h[len(b64Prefix) : len(h)-len(b64Suffix)])
		return string(b), err == nil
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; c != ' ' && c != '\t' && (c < 0x21 || c > 0x7e) {
			return "", false
		}
	}
	return h, true
}
