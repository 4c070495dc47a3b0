package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"tai"
	"tai/internal/mcp/wire"
)

// handshake opens a conversation the way one protocol era does. It is the
// client's whole dependence on the era: each era brings its own handshake
// here, and above the transport nothing else changes.
type handshake interface {
	open(ctx context.Context, c *Client) error
	era() wire.Era
}

// handshakeFor picks the handshake of an era.
func handshakeFor(era wire.Era) handshake {
	if era.Sessions {
		return sessionHandshake{era}
	}
	return statelessHandshake{era.Offer}
}

// sessionHandshake is initialize, the checks, then
// notifications/initialized.
type sessionHandshake struct{ e wire.Era }

func (h sessionHandshake) era() wire.Era { return h.e }

func (h sessionHandshake) open(ctx context.Context, c *Client) error {
	c.t.negotiated(h.e, "")
	res, err := h.initialize(ctx, c)
	if err != nil {
		return err
	}
	return h.finish(ctx, c, res)
}

func (h sessionHandshake) initialize(ctx context.Context, c *Client) (wire.InitializeResult, error) {
	params := wire.InitializeParams{
		ProtocolVersion: h.e.Offer,
		Capabilities:    c.capabilities(),
		ClientInfo:      clientInfo,
	}
	var res wire.InitializeResult
	err := c.request(ctx, wire.MethodInitialize, params, &res)
	return res, err
}

// finish checks an initialize answer and completes the handshake.
func (h sessionHandshake) finish(ctx context.Context, c *Client, res wire.InitializeResult) error {
	if !h.e.Accepted(res.ProtocolVersion) {
		return &VersionError{Server: []string{res.ProtocolVersion}}
	}
	if !res.Capabilities.Offers() {
		return fmt.Errorf("server offers nothing tai can use (its initialize answer declares no tools, resources or prompts)")
	}
	c.t.negotiated(h.e, res.ProtocolVersion)
	c.settle(h.e, res, nil)
	return c.notify(ctx, wire.MethodInitialized, nil)
}

var clientInfo = wire.Implementation{Name: "tai", Version: tai.Version}

// statelessHandshake is one server/discover: the answer names the versions
// the server speaks, its capabilities and itself. There is no session and
// nothing to confirm; every later request carries the version in _meta.
type statelessHandshake struct{ version string }

func (h statelessHandshake) era() wire.Era { return wire.StatelessEra }

func (h statelessHandshake) open(ctx context.Context, c *Client) error {
	c.t.negotiated(wire.StatelessEra, h.version)
	meta, err := encodeMeta(h.version, c.statelessCapabilities())
	if err != nil {
		return err
	}
	params, err := wire.WithMeta(nil, meta)
	if err != nil {
		return err
	}
	var raw json.RawMessage
	if err := c.request(ctx, wire.MethodDiscover, params, &raw); err != nil {
		return err
	}
	// A server of the session era may answer a method it does not know
	// with {} or some other result; only a DiscoverResult that lists
	// versions is the stateless era's answer.
	var res wire.DiscoverResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return &notDiscoverError{why: err.Error()}
	}
	if len(res.SupportedVersions) == 0 {
		return &notDiscoverError{why: "it lists no supportedVersions"}
	}
	if err := wire.CheckResultType(res.ResultType); err != nil {
		return fmt.Errorf("%s: %w", wire.MethodDiscover, err)
	}
	if !slices.Contains(res.SupportedVersions, h.version) {
		return &VersionError{Server: res.SupportedVersions}
	}
	if !res.Capabilities.Offers() {
		return fmt.Errorf("server offers nothing tai can use (its server/discover answer declares no tools, resources or prompts)")
	}
	init := wire.InitializeResult{ProtocolVersion: h.version, Capabilities: res.Capabilities, Instructions: res.Instructions}
	if res.Meta != nil && res.Meta.ServerInfo != nil {
		init.ServerInfo = *res.Meta.ServerInfo
	}
	c.settle(wire.StatelessEra, init, meta)
	return nil
}

// encodeMeta is the _meta of every stateless-era request: the version,
// tai's client capabilities and its name.
func encodeMeta(version string, caps json.RawMessage) ([]byte, error) {
	info := clientInfo
	return json.Marshal(wire.RequestMeta{ProtocolVersion: version, ClientCapabilities: caps, ClientInfo: &info})
}

// notDiscoverError is a server/discover answered with a result that is no
// DiscoverResult listing versions: the server is of the session era.
type notDiscoverError struct{ why string }

func (e *notDiscoverError) Error() string {
	return "server/discover answered no DiscoverResult (" + wire.Printable(e.why, 120) + ")"
}

// VersionError is a server that speaks no version tai speaks. It names
// both sides' versions.
type VersionError struct {
	Server []string
}

func (e *VersionError) Error() string {
	shown := make([]string, len(e.Server))
	for i, v := range e.Server {
		shown[i] = wire.Printable(v, 40)
	}
	return fmt.Sprintf("the server speaks MCP %s; tai speaks %s", strings.Join(shown, ", "), strings.Join(wire.AllVersions(), ", "))
}

// probeWait is how long a stdio server may stay silent on server/discover
// before tai also sends initialize: some session-era servers never answer
// a request before initialize. Whichever answer comes first decides.
var probeWait = 3 * time.Second

// negotiate opens the conversation in the era the server speaks. Without a
// remembered verdict (or remembering the stateless era) it probes with
// server/discover first: a discover result is the stateless era, -32022
// naming a version tai speaks moves to it, 401 and 403 go back to the
// caller (the OAuth path), and any other refusal falls back to initialize.
// Remembering the session era, it sends initialize first and probes only
// when that is refused in a way only a stateless server refuses.
func (c *Client) negotiate(ctx context.Context, remembered string) error {
	if remembered == wire.SessionEra.Name {
		err := c.openWith(ctx, handshakeFor(wire.SessionEra))
		if err == nil || !modernRefusal(err) {
			return err
		}
		c.log.note("the server refused initialize as a stateless-era server does; probing with server/discover")
	}
	return c.probe(ctx)
}

// probe runs server/discover and falls back to initialize.
func (c *Client) probe(ctx context.Context) error {
	err := c.discoverOrInitialize(ctx)
	if err == nil {
		return nil
	}
	if d, ok := wire.UnsupportedVersionOf(err); ok {
		return c.pickVersion(ctx, d)
	}
	// A discover result without tai's stateless version: a server that
	// answers discover but serves this endpoint in the session era only
	// (the Go SDK's stateful HTTP handler does).
	var ve *VersionError
	if errors.As(err, &ve) {
		return c.pickVersion(ctx, wire.UnsupportedVersion{Supported: ve.Server})
	}
	if !fallsBack(err) {
		return err
	}
	why := err.Error()
	if he := (*wire.HTTPError)(nil); errors.As(err, &he) {
		why = fmt.Sprintf("http %d", he.Status) // its body is the server's error page
	}
	c.log.note("server/discover failed (" + wire.Printable(why, 120) + "); initializing")
	return c.openWith(ctx, handshakeFor(wire.SessionEra))
}

// pickVersion follows a -32022 to discover: a stateless version both
// sides speak is tried once more (the specification asks a client to retry
// with one from the list, even the one it sent); otherwise the newest
// session-era version the server lists is used, through initialize.
func (c *Client) pickVersion(ctx context.Context, d wire.UnsupportedVersion) error {
	for _, v := range wire.StatelessEra.Accepts {
		if slices.Contains(d.Supported, v) {
			c.log.note("the server refused " + v + " but lists it; trying once more")
			err := c.openWith(ctx, statelessHandshake{v})
			if _, again := wire.UnsupportedVersionOf(err); !again {
				return err
			}
			break
		}
	}
	for _, v := range wire.SessionEra.Accepts {
		if slices.Contains(d.Supported, v) {
			e := wire.SessionEra
			e.Offer = v
			return c.openWith(ctx, sessionHandshake{e})
		}
	}
	return &VersionError{Server: d.Supported}
}

func (c *Client) openWith(ctx context.Context, h handshake) error {
	c.setHandshake(h)
	return h.open(ctx, c)
}

// setHandshake records the handshake a dropped session is reopened with.
func (c *Client) setHandshake(h handshake) {
	c.mu.Lock()
	c.hs = h
	c.mu.Unlock()
}

// discoverOrInitialize sends server/discover. On stdio, when no answer
// came within probeWait, it sends initialize as well and takes the first
// answer that opens a conversation.
func (c *Client) discoverOrInitialize(ctx context.Context) error {
	stateless := handshakeFor(wire.StatelessEra)
	if _, http := c.t.(*httpTransport); http {
		return c.openWith(ctx, stateless)
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- stateless.open(pctx, c) }()
	timer := time.NewTimer(probeWait)
	defer timer.Stop()
	select {
	case err := <-done:
		if err == nil {
			c.setHandshake(stateless)
		}
		return err
	case <-timer.C:
	}
	c.log.note("no answer to server/discover within " + probeWait.String() + "; sending initialize too")
	legacy := sessionHandshake{wire.SessionEra}
	init := make(chan initAnswer, 1)
	go func() {
		res, err := legacy.initialize(pctx, c)
		init <- initAnswer{res, err}
	}()
	var discoverErr, initErr error
	for discoverErr == nil || initErr == nil {
		select {
		case err := <-done:
			if err == nil {
				c.setHandshake(stateless)
				cancel()
				if init != nil {
					<-init // initialize gives up; a late answer is dropped
				}
				return nil
			}
			discoverErr, done = err, nil
		case a := <-init:
			if a.err == nil {
				c.setHandshake(legacy)
				cancel()
				if done != nil {
					<-done // discover gives up; a late answer is dropped
				}
				return legacy.finish(ctx, c, a.res)
			}
			initErr, init = a.err, nil
		}
	}
	return discoverErr
}

type initAnswer struct {
	res wire.InitializeResult
	err error
}

// modernRefusal reports whether err is how only a stateless-era server
// refuses: one of its error codes, in a JSON-RPC answer or an HTTP body.
func modernRefusal(err error) bool {
	var he *wire.HTTPError
	if errors.As(err, &he) {
		return he.RPC != nil && wire.Modern(he.RPC.Code)
	}
	var we *wire.Error
	return errors.As(err, &we) && wire.Modern(we.Code)
}

// fallsBack reports whether a failed probe sends tai to initialize: any
// refusal, JSON-RPC or HTTP, except a login the server asks for (401, 403)
// and a refusal only a stateless-era server gives. A server that went
// away, or a deadline, ends the connection attempt instead.
func fallsBack(err error) bool {
	var nd *notDiscoverError
	if errors.As(err, &nd) {
		return true
	}
	var he *wire.HTTPError
	if errors.As(err, &he) {
		if he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden {
			return false
		}
		return !modernRefusal(err)
	}
	var we *wire.Error
	if errors.As(err, &we) {
		return !wire.Modern(we.Code)
	}
	return false
}
