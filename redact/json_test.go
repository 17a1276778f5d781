package redact

import (
	"encoding/json"
	"testing"
)

func TestRenderJSONConstructs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"escapes in keys and values", `{"a\"b":"s3cret\\","c\u00e9":"\"s3cret\""}`, "{\n  \"a\\\"b\": \"[redacted]\",\n  \"c\\u00e9\": \"[redacted]\"\n}\n"},
		{"nested and empty", ` { "a" : [ 1 , { "b" : -1.5e+3 } , [ ] , { } ] , "n" : null , "e" : "" } `, "{\n  \"a\": [\n    \"[redacted]\",\n    {\n      \"b\": \"[redacted]\"\n    },\n    [],\n    {}\n  ],\n  \"n\": null,\n  \"e\": \"\"\n}\n"},
		{"top-level scalar", `"s3cret"`, "\"[redacted]\"\n"},
		{"top-level array", "[true,false,null]\r\n", "[\n  \"[redacted]\",\n  \"[redacted]\",\n  null\n]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Render("a.json", []byte(tt.in), ModeKeys, "r"))
			if got != tt.want {
				t.Errorf("Render =\n%s\nwant\n%s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("output is not JSON")
			}
		})
	}
}
