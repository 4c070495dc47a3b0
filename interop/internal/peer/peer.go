// Package peer is what the servers of make bench-serve share: each serves
// one trivial tool, echo {text} → text, over Streamable HTTP with single
// JSON replies, is a binary of its own (so its resident memory is its
// own), listens on loopback, and prints its URL on stdout.
package peer

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"runtime/pprof"
	"time"
)

// Key is the Bearer key the load generator sends to every peer; only tai
// checks it.
const Key = "bench-key-0123456789abcdef"

// EchoSchema is the input schema of the trivial tool.
const EchoSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`

// Listen parses the common flags (call flag definitions of your own
// first), listens, prints the URL and returns the listener.
func Listen() net.Listener {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the first -profile-for to this file")
	profileFor := flag.Duration("profile-for", 5*time.Second, "how long -cpuprofile records")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		log.Fatalf("-addr %q: want a loopback address", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	if *profile != "" {
		time.AfterFunc(*profileFor, cpuProfile(*profile))
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	os.Stdout.Sync()
	return ln
}

// cpuProfile starts recording to path and returns the function that ends
// the recording.
func cpuProfile(path string) func() {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
