package llmtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

// big is a tool whose spec is about n tokens.
func big(name string, n int) llm.ToolSpec {
	return llm.ToolSpec{Name: name, Description: strings.Repeat("word ", n*4/5), Parameters: json.RawMessage(`{"type":"object"}`)}
}

func ok(n int) llmtest.Script {
	turns := make([]llmtest.Turn, n)
	for i := range turns {
		turns[i] = llmtest.Turn{Text: llmtest.Chunks{"ok"}}
	}
	return llmtest.Script{Turns: turns}
}

// OpenAI caches a prompt of 1024 tokens or more by its prefix, reporting
// whole 128-token steps from 1024; a prompt that differs in its first
// bytes (a tool list changed) gets nothing from the cache.
func TestCache_OpenAIPrefix(t *testing.T) {
	srv := llmtest.Start(t, ok(5))
	c := srv.Client(t, "openai")
	complete := func(tools []llm.ToolSpec, msgs ...llm.Message) llm.Usage {
		t.Helper()
		resp, err := c.Complete(context.Background(), llm.Request{System: "sys", Tools: tools, Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Usage
	}
	small := complete(nil, user("hi"))
	if small.CacheReadTokens != 0 || small.InputTokens >= 1024 {
		t.Fatalf("small prompt: %+v", small)
	}
	tools := []llm.ToolSpec{big("a", 1500)}
	first := complete(tools, user("hi"))
	if first.CacheReadTokens != 0 || first.InputTokens < 1500 {
		t.Fatalf("first large prompt: %+v", first)
	}
	second := complete(tools, user("hi"), llm.Message{Role: llm.RoleAssistant, Content: "hello"}, user("more"))
	if c := second.CacheReadTokens; c < 1024 || (c-1024)%128 != 0 || c > first.InputTokens || first.InputTokens-c >= 128 {
		t.Fatalf("second prompt read %d of %d cached, first prompt was %d", c, second.InputTokens, first.InputTokens)
	}
	changed := complete([]llm.ToolSpec{big("b", 10), tools[0]}, user("hi"))
	if changed.CacheReadTokens != 0 {
		t.Fatalf("a prompt with another first tool read %d tokens from the cache", changed.CacheReadTokens)
	}
}

// Anthropic caches nothing without breakpoints; tai's client sets them, so
// a repeated prefix is written once and read after, and a prompt below
// the minimum is neither.
func TestCache_AnthropicBreakpoints(t *testing.T) {
	srv := llmtest.Start(t, ok(4))
	c := srv.Client(t, "anthropic")
	tools := []llm.ToolSpec{big("a", 600), big("b", 600)}
	complete := func(msgs ...llm.Message) llm.Usage {
		t.Helper()
		resp, err := c.Complete(context.Background(), llm.Request{System: "sys", Tools: tools, Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Usage
	}
	first := complete(user("hi"))
	if first.CacheReadTokens != 0 || first.CacheWriteTokens != first.InputTokens {
		t.Fatalf("first request: %+v, want the whole prompt written", first)
	}
	next := complete(user("hi"), llm.Message{Role: llm.RoleAssistant, Content: "hello"}, user("more"))
	if next.CacheReadTokens != first.InputTokens || next.CacheWriteTokens != next.InputTokens-first.InputTokens {
		t.Fatalf("second request: %+v, want %d read and the rest written", next, first.InputTokens)
	}
	tools = tools[:0]
	small := complete(user("hi"))
	if small.CacheReadTokens != 0 || small.CacheWriteTokens != 0 {
		t.Fatalf("a prompt below the minimum: %+v", small)
	}
}

// The rules the Anthropic cache applies to raw requests: no breakpoint,
// no caching; a hit is found up to 20 blocks before a breakpoint, not
// further; more than four breakpoints is refused.
func TestCache_AnthropicLookbackAndLimit(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Lenient: true, CacheMinTokens: 10, Rules: []llmtest.Rule{{Turns: []llmtest.Turn{{Text: llmtest.Chunks{"ok"}}}}}})
	// send sends a request of n user text blocks of about 25 tokens, with
	// breakpoints at the given indexes; requests of another variant share
	// no prefix.
	variant := "A"
	send := func(n int, marks ...int) (int, map[string]int) {
		t.Helper()
		var blocks []map[string]any
		for i := range n {
			b := map[string]any{"type": "text", "text": variant + strings.Repeat("x", 96) + string(rune('a'+i%26))}
			for _, m := range marks {
				if m == i {
					b["cache_control"] = map[string]string{"type": "ephemeral"}
				}
			}
			blocks = append(blocks, b)
		}
		body, _ := json.Marshal(map[string]any{"model": "m", "max_tokens": 10, "stream": true,
			"messages": []any{map[string]any{"role": "user", "content": blocks}}})
		status, data := srv.Post(t, "/v1/messages", string(body), http.Header{"X-Api-Key": {llmtest.Key}, "Anthropic-Version": {"2023-06-01"}})
		if status != 200 {
			return status, nil
		}
		line := strings.SplitN(strings.SplitN(string(data), "data: ", 2)[1], "\n", 2)[0]
		var ev struct {
			Message struct {
				Usage map[string]int `json:"usage"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("message_start %q: %v", line, err)
		}
		return 200, ev.Message.Usage
	}
	if _, u := send(30); u["cache_creation_input_tokens"] != 0 || u["cache_read_input_tokens"] != 0 {
		t.Fatalf("no breakpoint: %v", u)
	}
	_, u := send(30, 4)
	if u["cache_creation_input_tokens"] == 0 || u["cache_read_input_tokens"] != 0 {
		t.Fatalf("first write: %v", u)
	}
	written := u["cache_creation_input_tokens"]
	if _, u := send(30, 23); u["cache_read_input_tokens"] != written {
		t.Fatalf("breakpoint 19 blocks later: %v, want %d read", u, written)
	}
	variant = "B"
	if _, u := send(30, 4); u["cache_creation_input_tokens"] != written {
		t.Fatalf("first write of variant B: %v", u)
	}
	if _, u := send(30, 29); u["cache_read_input_tokens"] != 0 {
		t.Fatalf("breakpoint 25 blocks after the only cached prefix read from the cache: %v", u)
	}
	if status, _ := send(30, 1, 2, 3, 4, 5); status != http.StatusBadRequest {
		t.Fatalf("five breakpoints: status %d, want 400", status)
	}
}
