package compat

import (
	"encoding/json"
	"net/http"
)

// geminiRequest is the part of a generateContent request the server reads
// (Gemini CLI).
type geminiRequest struct {
	Contents []struct {
		Parts []struct {
			FunctionResponse *struct {
				ID       string `json:"id"`
				Response any    `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType   string         `json:"responseMimeType"`
		ResponseSchema     map[string]any `json:"responseSchema"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

// gemini answers models/*:generateContent and :streamGenerateContent.
func (s *Server) gemini(w http.ResponseWriter, body []byte, stream bool) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	t := turn{results: map[int]string{}, stream: stream}
	var names []string
	for _, tool := range req.Tools {
		for _, fd := range tool.FunctionDeclarations {
			names = append(names, fd.Name)
		}
	}
	t.scripted = s.hasTool(names)
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse == nil {
				continue
			}
			i := parseCallID(p.FunctionResponse.ID)
			if i < 0 {
				i = t.answered // results without ids come back in call order
			}
			t.results[i] = textOf(p.FunctionResponse.Response)
			t.answered++
		}
	}
	var part map[string]any
	call, i := s.next(t)
	switch {
	case call != nil:
		part = map[string]any{"functionCall": map[string]any{"id": callID("fn", i), "name": call.Name, "args": call.Args}}
	case req.GenerationConfig.ResponseMimeType == "application/json":
		schema := req.GenerationConfig.ResponseJSONSchema
		if schema == nil {
			schema = req.GenerationConfig.ResponseSchema
		}
		data, _ := json.Marshal(fillSchema(schema))
		part = map[string]any{"text": string(data)}
	default:
		part = map[string]any{"text": finalText}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
		"modelVersion":  "compat",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w).event("", resp)
}
