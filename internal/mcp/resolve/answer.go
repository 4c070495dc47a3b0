package resolve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// AgentError is the agent pass's {"error": …, "evidence": …} answer: the
// subagent looked and found no way to start a server.
type AgentError struct {
	Reason, Evidence string
}

func (e *AgentError) Error() string {
	s := "the subagent found none: " + wire.Printable(e.Reason, 200)
	if e.Evidence != "" {
		s += " (its evidence: " + wire.Printable(e.Evidence, 300) + ")"
	}
	return s
}

// entryKeys are the keys an answer's entry may have.
var entryKeys = map[string]bool{"name": true, "command": true, "args": true, "env": true, "cwd": true,
	"url": true, "type": true, "headers": true}

// ParseAnswer reads the agent pass's answer strictly: exactly one fenced
// JSON block and nothing else, holding one server object with a command or
// a url (normalized by config.Normalize), or an {"error", "evidence"}
// object, returned as an [*AgentError]. Anything else is an error saying
// what was wrong with the answer.
func ParseAnswer(answer string) (config.Entry, error) {
	body, err := onlyBlock(answer)
	if err != nil {
		return config.Entry{}, err
	}
	dec := json.NewDecoder(strings.NewReader(body))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return config.Entry{}, errors.New("its fenced block is not one JSON object")
	}
	if dec.More() {
		return config.Entry{}, errors.New("its fenced block holds more than one JSON value")
	}
	if raw, ok := obj["error"]; ok {
		return config.Entry{}, &AgentError{Reason: text(raw), Evidence: text(obj["evidence"])}
	}
	var unknown []string
	for k := range obj {
		if !entryKeys[k] {
			unknown = append(unknown, wire.Printable(k, 40))
		}
	}
	sort.Strings(unknown)
	_, cmd := obj["command"]
	_, url := obj["url"]
	switch {
	case len(unknown) > 0:
		return config.Entry{}, fmt.Errorf("its entry has keys no server entry has (%s)", strings.Join(unknown, ", "))
	case cmd == url:
		return config.Entry{}, errors.New("its entry needs exactly one of command and url")
	}
	entries, err := config.Normalize(body, config.Options{})
	if err != nil {
		return config.Entry{}, fmt.Errorf("its entry is not valid: %w", err)
	}
	if len(entries) != 1 {
		return config.Entry{}, fmt.Errorf("its block describes %d servers, not one", len(entries))
	}
	return entries[0], nil
}

// onlyBlock returns the body of the one fenced block that makes up the
// whole answer.
func onlyBlock(answer string) (string, error) {
	var blocks []string
	var outside, body strings.Builder
	fence, lang := "", ""
	for _, line := range strings.Split(answer, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case fence == "" && fenceOf(t) != "":
			fence = fenceOf(t)
			lang = strings.ToLower(strings.TrimSpace(t[len(fence):]))
			if lang != "" && lang != "json" {
				return "", fmt.Errorf("it fenced a %s block, not JSON", wire.Printable(lang, 20))
			}
		case fence == "":
			outside.WriteString(t)
		case strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "":
			blocks = append(blocks, body.String())
			fence = ""
			body.Reset()
		default:
			body.WriteString(line + "\n")
		}
	}
	switch {
	case fence != "":
		return "", errors.New("its fenced block is not closed")
	case len(blocks) == 0:
		return "", errors.New("it has no fenced JSON block")
	case len(blocks) > 1:
		return "", fmt.Errorf("it has %d fenced blocks, not one", len(blocks))
	case outside.Len() > 0:
		return "", errors.New("it has text outside its fenced block")
	}
	return blocks[0], nil
}

// text renders an answer field (a string, or any JSON) as one line.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return ""
}
