package llmtest

import "strconv"

// openaiAnswer renders a turn as chat.completion.chunk events, with the
// extra fields real servers add, reasoning as DeepSeek's
// reasoning_content, and each tool call announced with its id and name
// before its argument pieces.
func openaiAnswer(t Turn, tc turnContext) answer {
	id := "chatcmpl-llmtest-" + strconv.Itoa(tc.n)
	chunk := func(delta map[string]any, finish any) string {
		return frame("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": tc.model,
			"system_fingerprint": "fp_llmtest",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		})
	}
	var a answer
	a.content = append(a.content, chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, r := range t.Reasoning {
		a.content = append(a.content, chunk(map[string]any{"reasoning_content": r}, nil))
	}
	for _, s := range t.texts(tc) {
		a.content = append(a.content, chunk(map[string]any{"content": s}, nil))
	}
	queues := make([][]string, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		start := map[string]any{"index": i, "id": t.callID(tc, i, "call"), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}
		queues[i] = append(queues[i], chunk(map[string]any{"tool_calls": []any{start}}, nil))
		for _, piece := range c.Arguments {
			d := map[string]any{"index": i, "function": map[string]any{"arguments": piece}}
			queues[i] = append(queues[i], chunk(map[string]any{"tool_calls": []any{d}}, nil))
		}
	}
	a.content = append(a.content, merge(queues, t.Interleave)...)

	finish := "stop"
	if len(t.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	if t.StopReason != "" {
		finish = t.StopReason
	}
	u := t.usage(tc)
	a.end = []string{
		chunk(map[string]any{}, finish),
		frame("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": tc.model,
			"choices": []any{}, "usage": map[string]any{
				"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens, "total_tokens": u.InputTokens + u.OutputTokens,
				"prompt_tokens_details": map[string]any{"cached_tokens": u.CacheReadTokens, "audio_tokens": 0}}}),
		"data: [DONE]\n\n",
	}
	if t.StreamError != nil {
		a.failure = frame("", errorBody("openai", 500, t.StreamError, tc.model))
	}
	return a
}

// merge concatenates the queues, or takes from them round-robin.
func merge(queues [][]string, interleave bool) []string {
	var out []string
	if !interleave {
		for _, q := range queues {
			out = append(out, q...)
		}
		return out
	}
	for more := true; more; {
		more = false
		for i, q := range queues {
			if len(q) > 0 {
				out = append(out, q[0])
				queues[i] = q[1:]
				more = true
			}
		}
	}
	return out
}
