package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"tai/internal/mcp/wire"
	"tai/internal/sse"
)

var errBodyTooLarge = errors.New("reply body over " + maxBodyText)

// cappedBody fails a read once more than wire.HTTPMaxBody bytes came.
type cappedBody struct {
	r    io.Reader
	left int
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errBodyTooLarge
	}
	if len(p) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= n
	if c.left < 0 {
		return n, errBodyTooLarge
	}
	return n, err
}

// readReply delivers what the server answered to m. For a request it
// returns nil only once the matching response was delivered.
func (t *httpTransport) readReply(m *wire.Message, resp *http.Response) error {
	body := &cappedBody{r: resp.Body, left: wire.HTTPMaxBody}
	switch mt := mediaType(resp); {
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		if m.IsRequest() {
			return fmt.Errorf("server accepted the request with http %d but sent no answer", resp.StatusCode)
		}
		return nil
	case mt == "application/json":
		return t.readJSON(m, body)
	case mt == "text/event-stream":
		return t.readStream(m, body)
	case !m.IsRequest():
		return nil // an answer to a notification or response carries nothing tai needs
	default:
		b, _ := io.ReadAll(io.LimitReader(body, bodyQuoteBytes))
		return fmt.Errorf("server answered %q instead of JSON or an event stream: %s",
			wire.Printable(resp.Header.Get("Content-Type"), 60), wire.Printable(string(bytes.TrimSpace(b)), 120))
	}
}

func (t *httpTransport) readJSON(m *wire.Message, body io.Reader) error {
	b, err := io.ReadAll(body)
	if err != nil {
		return fmt.Errorf("reading the reply: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 && !m.IsRequest() {
		return nil
	}
	return t.take(m, b)
}

// take decodes one message of the reply and delivers it. It reports
// errAnswered once the response to request m went out.
func (t *httpTransport) take(m *wire.Message, b []byte) error {
	got, err := wire.Decode(b)
	if err != nil {
		if got != nil && !got.ID.IsZero() && got.ID == m.ID {
			t.peer.reject(got, err)
			return nil
		}
		return fmt.Errorf("server sent what is not JSON-RPC (%v): %s", err, wire.Printable(string(b), 120))
	}
	t.peer.deliver(got)
	if m.IsRequest() && got.IsResponse() && got.ID == m.ID {
		return nil
	}
	if m.IsRequest() {
		return errNotAnswered
	}
	return nil
}

var errNotAnswered = errors.New("the reply did not answer the request")

// readStream delivers the events of a text/event-stream reply until the
// response to m arrived. Requests and notifications on the stream reach the
// peer as they would on stdio.
func (t *httpTransport) readStream(m *wire.Message, body io.Reader) error {
	events := sse.NewReader(body, wire.HTTPMaxBody)
	for {
		ev, err := events.Next()
		if err == io.EOF {
			if m.IsRequest() {
				return errors.New("server closed its event stream before answering")
			}
			return nil
		}
		if errors.Is(err, sse.ErrTooLarge) {
			return fmt.Errorf("reading the event stream: an event over %s", maxBodyText)
		}
		if err != nil {
			return fmt.Errorf("reading the event stream: %w", err)
		}
		if (ev.Name != "" && ev.Name != "message") || len(bytes.TrimSpace(ev.Data)) == 0 {
			continue // other events, and priming events that only carry an id
		}
		err = t.take(m, ev.Data)
		switch {
		case err == nil && m.IsRequest():
			return nil
		case err == errNotAnswered, err == nil:
			continue
		default:
			return err
		}
	}
}
