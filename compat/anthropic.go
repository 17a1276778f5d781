package compat

import (
	"encoding/json"
	"net/http"
)

// anthropicRequest is the part of a Messages API request the server reads.
type anthropicRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type anthropicBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   any    `json:"content"`
}

// anthropic answers POST /v1/messages (Claude Code).
func (s *Server) anthropic(w http.ResponseWriter, body []byte) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	t := turn{results: map[int]string{}, stream: req.Stream}
	names := make([]string, 0, len(req.Tools))
	for _, tool := range req.Tools {
		names = append(names, tool.Name)
	}
	t.scripted = s.hasTool(names)
	for _, m := range req.Messages {
		var blocks []anthropicBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string message
		}
		for _, b := range blocks {
			if i := parseCallID(b.ToolUseID); b.Type == "tool_result" && i >= 0 {
				t.results[i] = textOf(b.Content)
			}
		}
	}
	call, i := s.next(t)
	content := []map[string]any{{"type": "text", "text": finalText}}
	stop := "end_turn"
	if call != nil {
		content = []map[string]any{{"type": "tool_use", "id": callID("toolu", i), "name": call.Name, "input": call.Args}}
		stop = "tool_use"
	}
	msg := map[string]any{
		"id": "msg_compat", "type": "message", "role": "assistant", "model": req.Model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 10},
	}
	if !req.Stream {
		writeJSON(w, msg)
		return
	}
	streamAnthropic(startSSE(w), msg, content[0], stop)
}

func streamAnthropic(e sse, msg, block map[string]any, stop string) {
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	e.event("message_start", map[string]any{"type": "message_start", "message": start})
	var first, delta map[string]any
	if block["type"] == "tool_use" {
		args, _ := json.Marshal(block["input"])
		first = map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": string(args)}
	} else {
		first = map[string]any{"type": "text", "text": ""}
		delta = map[string]any{"type": "text_delta", "text": block["text"]}
	}
	e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": first})
	e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{
		"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10},
	})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}
