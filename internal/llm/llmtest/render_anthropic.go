package llmtest

import "strconv"

// anthropicAnswer renders a turn as Messages API events: message_start, a
// ping, one content block per reasoning, text and tool call (tool input
// streamed as input_json_delta, starting with an empty piece as the API
// does), message_delta and message_stop.
func anthropicAnswer(t Turn, tc turnContext) answer {
	u := t.usage(tc)
	var a answer
	a.content = append(a.content,
		frame("message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_llmtest_" + strconv.Itoa(tc.n), "type": "message", "role": "assistant", "model": tc.model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens,
				"cache_creation_input_tokens": u.CacheWriteTokens, "cache_read_input_tokens": u.CacheReadTokens, "output_tokens": 1}}}),
		frame("ping", map[string]any{"type": "ping"}))
	index := 0
	block := func(start map[string]any, deltas []map[string]any) {
		a.content = append(a.content, frame("content_block_start",
			map[string]any{"type": "content_block_start", "index": index, "content_block": start}))
		for _, d := range deltas {
			a.content = append(a.content, frame("content_block_delta",
				map[string]any{"type": "content_block_delta", "index": index, "delta": d}))
		}
		a.content = append(a.content, frame("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}))
		index++
	}
	if len(t.Reasoning) > 0 {
		var ds []map[string]any
		for _, r := range t.Reasoning {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": r})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": "c2lnbmF0dXJl"})
		block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, ds)
	}
	if len(t.Text) > 0 {
		var ds []map[string]any
		for _, s := range t.texts(tc) {
			ds = append(ds, map[string]any{"type": "text_delta", "text": s})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	for i, c := range t.ToolCalls {
		ds := []map[string]any{{"type": "input_json_delta", "partial_json": ""}}
		for _, piece := range c.Arguments {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": piece})
		}
		block(map[string]any{"type": "tool_use", "id": t.callID(tc, i, "toolu"), "name": c.Name, "input": map[string]any{}}, ds)
	}
	stop := "end_turn"
	if len(t.ToolCalls) > 0 {
		stop = "tool_use"
	}
	if t.StopReason != "" {
		stop = t.StopReason
	}
	a.end = []string{
		frame("message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": u.OutputTokens}}),
		frame("message_stop", map[string]any{"type": "message_stop"}),
	}
	if t.StreamError != nil {
		e := *t.StreamError
		if e.Type == "" {
			e.Type = "overloaded_error"
		}
		a.failure = frame("error", errorBody("anthropic", 529, &e, tc.model))
	}
	return a
}
