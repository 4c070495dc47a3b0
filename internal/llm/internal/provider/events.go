package provider

import (
	"io"

	"tai/internal/sse"
)

// MaxEvent bounds one streamed event, and a whole non-streamed answer, so
// a broken server cannot make tai hold an unbounded answer in memory.
const MaxEvent = 16 << 20

// Events reads a provider's event stream. An event whose closing blank
// line never came is still delivered: some servers end the stream right
// after their last data line.
func Events(body io.Reader) *sse.Reader {
	r := sse.NewReader(body, MaxEvent)
	r.FlushAtEOF = true
	return r
}
