// Command tai is make bench-serve's tai peer: tai's serve package, as tai
// --serve-mcp runs it, serving the trivial tool as a native tool (the
// path every native tool takes: schema check, Run, text result).
package main

import (
	"context"
	"encoding/json"
	"log"

	"tai/internal/mcp/serve"
	"tai/internal/tools"
	"tai/interop/internal/peer"
)

var echo = tools.Raw(tools.Tool{
	Name:        "echo",
	Description: "Returns its text.",
	Schema:      json.RawMessage(peer.EchoSchema),
	Safe:        tools.AlwaysSafe,
}, func(ctx context.Context, call tools.Call) (tools.Result, error) {
	in, err := tools.DecodeArgs[struct {
		Text string `json:"text"`
	}](call.Args)
	if err != nil {
		return tools.Errorf("echo: %v", err), nil
	}
	return tools.Text(in.Text), nil
})

func main() {
	ln := peer.Listen()
	srv, err := serve.New(serve.Options{Key: peer.Key, Tools: []*serve.Tool{serve.Native(echo)}, Version: "bench", Loopback: true})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(srv.Run(context.Background(), ln))
}
