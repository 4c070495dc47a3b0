package llmtest

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"

	"tai/internal/llm"
)

// The fake's prompt caches follow the providers' documented rules, so a
// test can measure what a client's requests would get cached:
//
// OpenAI caches automatically. A prompt of at least 1024 tokens is looked
// up by its prefix; the cached part is the longest prefix shared with an
// earlier prompt, counted as 1024 tokens plus whole 128-token increments,
// and reported as usage.prompt_tokens_details.cached_tokens (prompt_tokens
// includes it). The prompt is the tools, then the messages.
//
// Anthropic caches only at cache_control breakpoints (at most four). The
// prompt is tools, system, messages, block by block; a breakpoint caches
// the prefix up to and including its block, when that prefix is at least
// the minimum (1024 tokens, Script.CacheMinTokens). A request reads the
// longest cached prefix found at one of its breakpoints or up to 20 blocks
// before one; what lies between that and its last cacheable breakpoint is
// written. message_start's usage reports cache_read_input_tokens,
// cache_creation_input_tokens, and input_tokens for the rest.
//
// Tokens are bytes over four, of each block in a canonical form (a
// cache_control marker is not part of what it marks). Entries never expire:
// tests run well within the providers' five minutes.
type promptCache struct {
	openai    [][]byte // earlier prompts, newest last
	anthropic map[[sha256.Size]byte]bool
}

const (
	// DefaultCacheMinTokens is the smallest prompt (OpenAI) or prefix
	// (Anthropic) the fake caches.
	DefaultCacheMinTokens = 1024
	openaiCacheStep       = 128
	anthropicLookback     = 20
	anthropicBreakpoints  = 4
	openaiPromptsKept     = 64
)

func tokens(bytes int) int { return bytes / 4 }

// usageOf is req's prompt usage under the cache, and the cache updated
// with req's prompt when store is set (a request that failed caches
// nothing). An error is a request the real API refuses.
func (c *promptCache) usageOf(req *Request, min int, store bool) (llm.Usage, error) {
	if min <= 0 {
		min = DefaultCacheMinTokens
	}
	if req.Protocol == llm.ProtocolAnthropic {
		return c.anthropicUsage(req.Body, min, store)
	}
	return c.openaiUsage(req, min, store), nil
}

func (c *promptCache) openaiUsage(req *Request, min int, store bool) llm.Usage {
	var prompt []byte
	for _, t := range req.Tools {
		prompt = appendJSON(prompt, t)
	}
	prompt = appendJSON(prompt, llm.Message{Role: llm.RoleSystem, Content: req.System})
	for _, m := range req.Messages {
		prompt = appendJSON(prompt, m)
	}
	u := llm.Usage{InputTokens: tokens(len(prompt))}
	if u.InputTokens < min {
		return u
	}
	shared := 0
	for _, p := range c.openai {
		shared = max(shared, commonPrefix(p, prompt))
	}
	if n := tokens(shared); n >= min {
		u.CacheReadTokens = min + (n-min)/openaiCacheStep*openaiCacheStep
	}
	if store {
		c.openai = append(c.openai, prompt)
		if len(c.openai) > openaiPromptsKept {
			c.openai = c.openai[1:]
		}
	}
	return u
}

func appendJSON(b []byte, v any) []byte {
	data, _ := json.Marshal(v)
	return append(b, data...)
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// prefix is the prompt up to and including one block.
type prefix struct {
	sum        [sha256.Size]byte
	tokens     int
	breakpoint bool
}

func (c *promptCache) anthropicUsage(body []byte, min int, store bool) (llm.Usage, error) {
	prefixes, err := anthropicPrefixes(body)
	if err != nil {
		return llm.Usage{}, err
	}
	var u llm.Usage
	if n := len(prefixes); n > 0 {
		u.InputTokens = prefixes[n-1].tokens
	}
	breakpoints := 0
	read, write := 0, 0
	for i, p := range prefixes {
		if !p.breakpoint {
			continue
		}
		breakpoints++
		for j := i; j >= 0 && j > i-anthropicLookback; j-- {
			if c.anthropic[prefixes[j].sum] {
				read = max(read, prefixes[j].tokens)
				break
			}
		}
		if p.tokens >= min {
			write = max(write, p.tokens)
		}
	}
	if breakpoints > anthropicBreakpoints {
		return llm.Usage{}, fmt.Errorf("a maximum of %d blocks with cache_control may be provided, found %d", anthropicBreakpoints, breakpoints)
	}
	u.CacheReadTokens = read
	u.CacheWriteTokens = max(write-read, 0)
	if store {
		if c.anthropic == nil {
			c.anthropic = map[[sha256.Size]byte]bool{}
		}
		for _, p := range prefixes {
			if p.breakpoint && p.tokens >= min {
				c.anthropic[p.sum] = true
			}
		}
	}
	return u, nil
}

// anthropicPrefixes reads a Messages request as the cache sees it: every
// tool, system block and content block in order, each with the hash and
// size of the prompt up to it.
func anthropicPrefixes(body []byte) ([]prefix, error) {
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var out []prefix
	h, size := sha256.New(), 0
	add := func(kind string, raw json.RawMessage) error {
		marked, canon, err := canonicalBlock(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		h.Write([]byte(kind))
		h.Write(canon)
		size += len(canon)
		out = append(out, prefix{sum: sumOf(h), tokens: tokens(size), breakpoint: marked})
		return nil
	}
	for _, t := range req.Tools {
		if err := add("tool", t); err != nil {
			return nil, err
		}
	}
	for _, b := range blocksOf(req.System) {
		if err := add("system", b); err != nil {
			return nil, err
		}
	}
	for _, m := range req.Messages {
		for _, b := range blocksOf(m.Content) {
			if err := add(m.Role, b); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// blocksOf is content as blocks: a string is one text block.
func blocksOf(raw json.RawMessage) []json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil
		}
		b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
		return []json.RawMessage{b}
	}
	var list []json.RawMessage
	json.Unmarshal(raw, &list)
	return list
}

// canonicalBlock is a block without its cache_control, keys sorted, and
// whether it carried one.
func canonicalBlock(raw json.RawMessage) (marked bool, canon []byte, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return false, nil, err
	}
	if cc, ok := obj["cache_control"]; ok {
		var v struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(cc, &v) != nil || v.Type != "ephemeral" {
			return false, nil, fmt.Errorf("cache_control.type: Input should be 'ephemeral'")
		}
		marked = true
		delete(obj, "cache_control")
	}
	canon, err = json.Marshal(obj)
	return marked, canon, err
}

func sumOf(h hash.Hash) (s [sha256.Size]byte) {
	copy(s[:], h.Sum(nil))
	return s
}
