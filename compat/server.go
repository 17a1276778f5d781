package compat

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ToolCall is one call in an agent's own tool vocabulary.
type ToolCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// Request is one request body the model server received, kept for the leak
// scan and for debugging.
type Request struct {
	Path string    `json:"path"`
	Body string    `json:"body"`
	At   time.Time `json:"at"`
}

// Server is the scripted model server. One script is active at a time: each
// request that offers the script's tools is answered with the next tool
// call, or with a final text once every call has a result.
type Server struct {
	ln  net.Listener
	srv *http.Server

	mu       sync.Mutex
	calls    []ToolCall
	results  map[int]string
	requests []Request
}

// maxBody bounds a request body; agents send the whole conversation each
// turn, which stays far below this for the scenarios here.
const maxBody = 64 << 20

// finalText is what the scripted model says once the script is done.
const finalText = "COMPAT-DONE: all scripted steps were sent."

// NewServer listens on an ephemeral port of 127.0.0.1 and serves until
// Close.
func NewServer() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	s := &Server{ln: ln, results: map[int]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.route)
	s.srv = &http.Server{Handler: mux}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the server's base URL, without a trailing slash.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Begin starts a new script and forgets the previous one's results and
// requests.
func (s *Server) Begin(calls []ToolCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = calls
	s.results = map[int]string{}
	s.requests = nil
}

// Results returns the tool result text received for each call of the
// script, by index; a call the agent never answered is missing.
func (s *Server) Results() map[int]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int]string, len(s.results))
	for k, v := range s.results {
		out[k] = v
	}
	return out
}

// Requests returns every request body received since Begin.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// turn is what a dialect extracted from one request.
type turn struct {
	// scripted is true when the request offers the script's tools; other
	// requests (titles, routing, quota probes) get a plain answer.
	scripted bool
	// results maps a call index to the tool result text it carries.
	results map[int]string
	// answered counts the tool results in the request, for dialects whose
	// results carry no call id.
	answered int
	stream   bool
}

// next records a turn's results and returns the call to send, or nil when
// the script is done or the request is not part of it.
func (s *Server) next(t turn) (*ToolCall, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, r := range t.results {
		s.results[i] = r
	}
	if !t.scripted {
		return nil, -1
	}
	i := len(t.results)
	if t.answered > i {
		i = t.answered
	}
	if i >= len(s.calls) {
		return nil, -1
	}
	c := s.calls[i]
	return &c, i
}

// hasTool reports whether name is one of the script's tools.
func (s *Server) hasTool(names []string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.calls {
		for _, n := range names {
			if n == c.Name {
				return true
			}
		}
	}
	return false
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Body: string(body), At: time.Now()})
	s.mu.Unlock()
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 10})
	case strings.HasSuffix(p, "/messages"):
		s.anthropic(w, body)
	case strings.HasSuffix(p, "/responses"):
		s.responses(w, body)
	case strings.HasSuffix(p, "/chat/completions"):
		s.chat(w, body)
	case strings.HasSuffix(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	case strings.Contains(p, ":streamGenerateContent"), strings.Contains(p, ":generateContent"):
		s.gemini(w, body, strings.Contains(p, ":stream"))
	case strings.HasSuffix(p, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "compat-model", "object": "model"}}})
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events and flushes after each.
type sse struct{ w http.ResponseWriter }

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// event writes one event; an empty name writes a data-only event.
func (e sse) event(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte(`{}`)
	}
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", data)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (e sse) raw(line string) {
	fmt.Fprintf(e.w, "data: %s\n\n", line)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// fillSchema builds a value that satisfies a JSON schema well enough for an
// agent's routing or "who speaks next" question: enums take their first
// value, except that "user" is preferred so the agent stops.
func fillSchema(schema map[string]any) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		for _, e := range enum {
			if e == "user" {
				return e
			}
		}
		return enum[0]
	}
	switch strings.ToLower(fmt.Sprint(schema["type"])) {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for k, v := range props {
			sub, _ := v.(map[string]any)
			out[k] = fillSchema(sub)
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		return 0
	case "boolean":
		return false
	default:
		return "scripted"
	}
}

// textOf flattens a tool result (a string, or a list of parts with text) to
// text.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, p := range x {
			b.WriteString(textOf(p))
		}
		return b.String()
	case map[string]any:
		if t, ok := x["text"].(string); ok {
			return t
		}
		data, _ := json.Marshal(x)
		return string(data)
	case nil:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

// callID is the id the server gives call i; results are matched back by it.
func callID(prefix string, i int) string { return fmt.Sprintf("%s_compat_%d", prefix, i) }

// parseCallID returns the index in an id made by callID, or -1.
func parseCallID(id string) int {
	_, num, ok := strings.Cut(id, "_compat_")
	if !ok {
		return -1
	}
	var i int
	if _, err := fmt.Sscanf(num, "%d", &i); err != nil || i < 0 {
		return -1
	}
	return i
}
