package main

import (
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"
)

// fake is a model server that only notes when a model request (a POST, or
// a WebSocket upgrade, to a chat endpoint) arrives: the agent is stopped at
// that moment, so what it answers does not matter.
type fake struct {
	url   string
	srv   *http.Server
	first chan time.Time
}

func startFake() (*fake, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &fake{url: "http://" + l.Addr().String(), first: make(chan time.Time, 1)}
	f.srv = &http.Server{Handler: f}
	go f.srv.Serve(l)
	return f, nil
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	// Codex CLI opens a WebSocket to its responses endpoint first, and
	// falls back to POST when that fails.
	upgrade := r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
	model := (r.Method == http.MethodPost || upgrade) && isModelPath(r.URL.Path)
	if *verbose {
		log.Printf("fake: %s %s (model request: %v)", r.Method, r.URL.Path, model)
	}
	if model {
		select {
		case f.first <- at:
		default:
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintln(w, `{"error":{"message":"benchstart: no answers here"}}`)
}

// isModelPath reports whether path is a chat endpoint of the Anthropic,
// OpenAI (chat completions or responses) or Gemini APIs.
func isModelPath(path string) bool {
	return strings.HasSuffix(path, "/messages") || strings.HasSuffix(path, "/chat/completions") ||
		strings.HasSuffix(path, "/responses") || strings.Contains(path, ":generateContent") ||
		strings.Contains(path, ":streamGenerateContent")
}

// arm forgets any request from an earlier start.
func (f *fake) arm() {
	select {
	case <-f.first:
	default:
	}
}

func (f *fake) close() { f.srv.Close() }
