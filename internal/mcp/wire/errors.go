package wire

import (
	"encoding/json"
	"fmt"
	"strings"

	"tai/internal/textsafe"
)

// JSON-RPC 2.0 error codes tai sends or recognises.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeUserRejected answers a server's sampling request that the
	// person, or the rules standing in for one, did not let through (the
	// specification's own example of a sampling error).
	CodeUserRejected = -1
	// CodeHTTP marks an HTTPError seen as an Error. JSON-RPC leaves
	// -32000 to -32099 to implementations; no server sends this one to tai,
	// the HTTP leg makes it up from a status line. (2026-07-28 reserves
	// -32020 to -32099 for the specification; -32001 stays in the
	// implementation-defined part.)
	CodeHTTP = -32001
	// CodeResourceNotFound answers resources/read of an unknown resource
	// in the session era (2025-11-25); the stateless era answers
	// CodeInvalidParams (SEP-2164).
	CodeResourceNotFound = -32002

	// The stateless era's errors (2026-07-28). On HTTP each comes with
	// status 400.
	CodeHeaderMismatch      = -32020 // HeaderMismatch: a request header is missing or disagrees with the body
	CodeMissingCapability   = -32021 // MissingRequiredClientCapability; data.requiredCapabilities
	CodeUnsupportedProtocol = -32022 // UnsupportedProtocolVersion; data {supported, requested}

	// CodeURLElicitationRequired refuses a request until the person has
	// been through the URL elicitations its data.elicitations names.
	CodeURLElicitationRequired = -32042
)

// Code is one JSON-RPC error code with the name the docs give it.
type Code struct {
	Code int64
	Name string
}

// Codes lists every error code tai sends or reads, for the docs drift test.
var Codes = []Code{
	{CodeParseError, "ParseError"},
	{CodeInvalidRequest, "InvalidRequest"},
	{CodeMethodNotFound, "MethodNotFound"},
	{CodeInvalidParams, "InvalidParams"},
	{CodeInternalError, "InternalError"},
	{CodeUserRejected, "UserRejected"},
	{CodeHTTP, "HTTP"},
	{CodeResourceNotFound, "ResourceNotFound"},
	{CodeHeaderMismatch, "HeaderMismatch"},
	{CodeMissingCapability, "MissingRequiredClientCapability"},
	{CodeUnsupportedProtocol, "UnsupportedProtocolVersion"},
	{CodeURLElicitationRequired, "URLElicitationRequired"},
}

// Modern reports whether code is one only a stateless-era server sends: an
// answer carrying it identifies the server's era even on a 400.
func Modern(code int64) bool {
	return code == CodeHeaderMismatch || code == CodeMissingCapability || code == CodeUnsupportedProtocol
}

// Error is a JSON-RPC error object (McpError): the server understood the
// message and refused it. It is a protocol failure, never a tool's own
// failure, which arrives as a CallToolResult with IsError set.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string {
	// The TS SDK writes "MCP error -32602: …" into the message itself:
	// said once.
	msg := e.Message
	if rest, ok := strings.CutPrefix(msg, fmt.Sprintf("MCP error %d: ", e.Code)); ok {
		msg = rest
	}
	return fmt.Sprintf("mcp error %d: %s", e.Code, Printable(msg, 200))
}

// HTTPError is a non-2xx answer on the HTTP leg (McpHttpError). It is an
// Error too: errors.As finds a *Error with CodeHTTP behind it, so callers
// that only know protocol failures still see one. The OAuth layer reads
// Status and WWWAuthenticate to tell 401 from anything else.
type HTTPError struct {
	Status          int
	WWWAuthenticate string
	// Body is the start of the answer's body, made printable.
	Body string
	// RPC is the JSON-RPC error the body held, if it was one, and RPCID
	// the id it answered: a stateless-era server answers its refusals
	// with a 4xx and such a body, and the client reads the era from its
	// code.
	RPC   *Error
	RPCID ID
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("http %d", e.Status)
	if e.WWWAuthenticate != "" {
		msg += " (WWW-Authenticate: " + Printable(e.WWWAuthenticate, 200) + ")"
	}
	switch {
	case e.RPC != nil:
		msg += ": " + e.RPC.Error()
	case e.Body != "":
		msg += ": " + e.Body
	}
	return msg
}

// Unwrap presents the HTTP failure as an Error with CodeHTTP.
func (e *HTTPError) Unwrap() error {
	return &Error{Code: CodeHTTP, Message: e.Error()}
}

// Printable returns s on one line with every control and invisible
// character shown as an escape ([textsafe.VisibleMax]: \x1b, \n,
// <U+200B>), cut to at most max runes, so untrusted server text can be
// quoted in an error or on a consent screen without hiding any of it.
func Printable(s string, max int) string { return textsafe.VisibleMax(s, max) }
