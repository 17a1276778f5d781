package compat

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// post sends body to the server and returns every JSON payload it answered
// (one for a plain response, one per data line for a stream).
func post(t *testing.T, s *Server, path, body string) []map[string]any {
	t.Helper()
	resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("post %s: %v", path, err)
	}
	defer resp.Body.Close()
	var out []map[string]any
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatalf("decode %s: %v", path, err)
		}
		return append(out, m)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("decode event %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}

func TestServerDialects(t *testing.T) {
	tests := []struct {
		name      string
		path      string
		first     string // request offering the tools, no results yet
		second    string // request carrying the first call's result
		wantCall  string // appears in the first answer
		wantFinal string // appears in the second answer
	}{
		{
			name:      "anthropic messages",
			path:      "/v1/messages",
			first:     `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hi"}]}`,
			second:    `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_compat_0","content":[{"type":"text","text":"RESULT-A"}]}]}]}`,
			wantCall:  `"partial_json":"{\"command\":\"echo a\"}"`,
			wantFinal: finalText,
		},
		{
			name:      "openai responses",
			path:      "/v1/responses",
			first:     `{"model":"m","tools":[{"type":"function","name":"Bash"}],"input":[]}`,
			second:    `{"model":"m","tools":[{"name":"Bash"}],"input":[{"type":"function_call_output","call_id":"call_compat_0","output":"RESULT-A"}]}`,
			wantCall:  `"call_id":"call_compat_0"`,
			wantFinal: finalText,
		},
		{
			name:      "openai chat",
			path:      "/v1/chat/completions",
			first:     `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"Bash"}}],"messages":[]}`,
			second:    `{"model":"m","stream":false,"tools":[{"type":"function","function":{"name":"Bash"}}],"messages":[{"role":"tool","tool_call_id":"call_compat_0","content":"RESULT-A"}]}`,
			wantCall:  `"finish_reason":"tool_calls"`,
			wantFinal: finalText,
		},
		{
			name:      "gemini",
			path:      "/v1beta/models/g:streamGenerateContent",
			first:     `{"contents":[],"tools":[{"functionDeclarations":[{"name":"Bash"}]}]}`,
			second:    `{"contents":[{"parts":[{"functionResponse":{"name":"Bash","response":{"output":"RESULT-A"}}}]}],"tools":[{"functionDeclarations":[{"name":"Bash"}]}]}`,
			wantCall:  `"functionCall"`,
			wantFinal: finalText,
		},
	}
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.Begin([]ToolCall{{Name: "Bash", Args: map[string]any{"command": "echo a"}}})
			first, _ := json.Marshal(post(t, s, tt.path, tt.first))
			if !strings.Contains(string(first), tt.wantCall) {
				t.Errorf("first answer = %s, want it to contain %s", first, tt.wantCall)
			}
			second, _ := json.Marshal(post(t, s, tt.path, tt.second))
			if !strings.Contains(string(second), tt.wantFinal) {
				t.Errorf("second answer = %s, want the final text", second)
			}
			if got := s.Results()[0]; !strings.Contains(got, "RESULT-A") {
				t.Errorf("recorded result = %q, want RESULT-A", got)
			}
			if got := len(s.Requests()); got != 2 {
				t.Errorf("recorded %d requests, want 2", got)
			}
		})
	}
}

func TestServerSideRequests(t *testing.T) {
	tests := []struct {
		name, path, body, want string
	}{
		{"title request without tools", "/v1/messages", `{"model":"m","messages":[{"role":"user","content":"title?"}]}`, finalText},
		{"router asking for JSON", "/v1beta/models/g:generateContent",
			`{"contents":[],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"model_choice":{"type":"string","enum":["flash","pro"]},"next_speaker":{"type":"string","enum":["model","user"]}}}}}`,
			`{\"model_choice\":\"flash\",\"next_speaker\":\"user\"}`},
		{"token count", "/v1beta/models/g:countTokens", `{}`, `"totalTokens":10`},
	}
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Begin([]ToolCall{{Name: "Bash", Args: map[string]any{"command": "echo a"}}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := json.Marshal(post(t, s, tt.path, tt.body))
			if !strings.Contains(string(got), tt.want) {
				t.Errorf("answer = %s, want it to contain %s", got, tt.want)
			}
		})
	}
}

func TestParseCallID(t *testing.T) {
	tests := []struct {
		id   string
		want int
	}{
		{"toolu_compat_0", 0},
		{"call_compat_12", 12},
		{"toolu_01ABC", -1},
		{"call_compat_-3", -1},
		{"call_compat_x", -1},
		{"", -1},
	}
	for _, tt := range tests {
		if got := parseCallID(tt.id); got != tt.want {
			t.Errorf("parseCallID(%q) = %d, want %d", tt.id, got, tt.want)
		}
	}
}
