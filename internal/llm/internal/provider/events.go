package provider

import (
	"io"

	"tai/internal/sse"
)

// MaxEvent bounds one streamed event, and a whole non-streamed answer, so
// a broken server cannot make tai hold an unbounded answer in memory.
const MaxEvent = 16 << 20

// ReadEvents hands the data of each event of body to add, until add
// reports the answer complete or the stream ends: the one event loop of
// every protocol. A stream that ends first has ended early (see
// [Transport.EndedEarly]) unless finished says the provider already told
// how the answer ended.
//
// An event whose closing blank line never came is still delivered: some
// servers end the stream right after their last data line.
func (t *Transport) ReadEvents(body io.Reader, add func(data []byte) (complete bool, err error), finished func() bool) error {
	events := sse.NewReader(body, MaxEvent)
	events.FlushAtEOF = true
	for {
		ev, err := events.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return t.ReadError(err)
		}
		if complete, err := add(ev.Data); complete || err != nil {
			return err
		}
	}
	if !finished() {
		return t.EndedEarly()
	}
	return nil
}
