package client

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkCallTool measures one tools/call round trip through tai's client
// to the fake server; interop/cmd/benchclient puts it beside the Go SDK.
func BenchmarkCallTool(b *testing.B) {
	legs := map[string]func(b *testing.B) Transport{
		"stdio":     func(b *testing.B) Transport { return fake(b, "plain") },
		"http-json": func(b *testing.B) Transport { return newHTTPFake(b, "plain", false).transport() },
		"http-sse":  func(b *testing.B) Transport { return newHTTPFake(b, "plain", true).transport() },
	}
	for name, tr := range legs {
		b.Run(name, func(b *testing.B) {
			c, err := Connect(context.Background(), Options{Transport: tr(b)})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			args := json.RawMessage(`{"text":"x"}`)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.CallTool(context.Background(), "echo", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
