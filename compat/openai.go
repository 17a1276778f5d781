package compat

import (
	"encoding/json"
	"net/http"
	"time"
)

// responsesRequest is the part of an OpenAI Responses request the server
// reads (Codex).
type responsesRequest struct {
	Model string `json:"model"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Input []struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Output any    `json:"output"`
	} `json:"input"`
}

// responses answers POST /v1/responses, always streamed.
func (s *Server) responses(w http.ResponseWriter, body []byte) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	t := turn{results: map[int]string{}}
	names := make([]string, 0, len(req.Tools))
	for _, tool := range req.Tools {
		names = append(names, tool.Name)
	}
	t.scripted = s.hasTool(names)
	for _, it := range req.Input {
		i := parseCallID(it.CallID)
		if i >= 0 && (it.Type == "function_call_output" || it.Type == "custom_tool_call_output") {
			t.results[i] = textOf(it.Output)
		}
	}
	call, i := s.next(t)
	var item map[string]any
	if call != nil {
		args, _ := json.Marshal(call.Args)
		item = map[string]any{
			"type": "function_call", "id": callID("fc", i), "call_id": callID("call", i),
			"name": call.Name, "arguments": string(args), "status": "completed",
		}
	} else {
		item = map[string]any{
			"type": "message", "id": "msg_compat", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": finalText, "annotations": []any{}}},
		}
	}
	e := startSSE(w)
	resp := map[string]any{
		"id": "resp_compat", "object": "response", "created_at": time.Now().Unix(),
		"model": req.Model, "status": "in_progress", "output": []any{},
	}
	e.event("response.created", map[string]any{"type": "response.created", "sequence_number": 0, "response": resp})
	e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
	e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item})
	resp["status"], resp["output"] = "completed", []any{item}
	resp["usage"] = map[string]any{
		"input_tokens": 10, "output_tokens": 10, "total_tokens": 20,
		"input_tokens_details":  map[string]any{"cached_tokens": 0},
		"output_tokens_details": map[string]any{"reasoning_tokens": 0},
	}
	e.event("response.completed", map[string]any{"type": "response.completed", "sequence_number": 3, "response": resp})
}

// chatRequest is the part of a Chat Completions request the server reads
// (opencode through an OpenAI-compatible provider).
type chatRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Messages []struct {
		Role       string `json:"role"`
		ToolCallID string `json:"tool_call_id"`
		Content    any    `json:"content"`
	} `json:"messages"`
}

// chat answers POST /v1/chat/completions.
func (s *Server) chat(w http.ResponseWriter, body []byte) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	t := turn{results: map[int]string{}, stream: req.Stream}
	names := make([]string, 0, len(req.Tools))
	for _, tool := range req.Tools {
		names = append(names, tool.Function.Name)
	}
	t.scripted = s.hasTool(names)
	for _, m := range req.Messages {
		if i := parseCallID(m.ToolCallID); m.Role == "tool" && i >= 0 {
			t.results[i] = textOf(m.Content)
		}
	}
	call, i := s.next(t)
	delta := map[string]any{"role": "assistant", "content": finalText}
	finish := "stop"
	if call != nil {
		args, _ := json.Marshal(call.Args)
		delta = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": callID("call", i), "type": "function",
			"function": map[string]any{"name": call.Name, "arguments": string(args)},
		}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
	base := map[string]any{"id": "chatcmpl-compat", "created": time.Now().Unix(), "model": req.Model}
	if !req.Stream {
		out := copyMap(base)
		out["object"] = "chat.completion"
		out["choices"] = []any{map[string]any{"index": 0, "message": delta, "finish_reason": finish}}
		out["usage"] = usage
		writeJSON(w, out)
		return
	}
	e := startSSE(w)
	chunk := copyMap(base)
	chunk["object"] = "chat.completion.chunk"
	chunk["choices"] = []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}
	e.event("", chunk)
	last := copyMap(chunk)
	last["choices"] = []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}
	last["usage"] = usage
	e.event("", last)
	e.raw("[DONE]")
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
