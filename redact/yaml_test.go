package redact

import (
	"strings"
	"testing"
)

func TestRenderYAMLConstructs(t *testing.T) {
	const h = "# Values redacted by aixbroker (rule r).\n"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"block scalar then key", "a: |\n  s3cret\n  more\n\nb: 1\n", "a: \"[redacted]\"\nb: \"[redacted]\"\n"},
		{"folded with indicators", "a: >-2 # c\n   s3cret\nb:\n", "a: \"[redacted]\"\nb:\n"},
		{"plain over lines", "a: one\n  two: three\nb: x\n", "a: \"[redacted]\"\nb: \"[redacted]\"\n"},
		{"quoted over lines", "a: \"one\n  b: two\"\nc: ''\n", "a: \"[redacted]\"\nc: \"\"\n"},
		{"single quote escape", "a: 'it''s: x'\n", "a: \"[redacted]\"\n"},
		{"flow over lines", "a: [x, \"]\",\n  {b: c}] # c\nd: 1\n", "a: \"[redacted]\"\nd: \"[redacted]\"\n"},
		{"sequence forms", "l:\n- a\n- k: v\n  k2: v2\n-\n  n: 1\n- - x\n", "l:\n- \"[redacted]\"\n- k: \"[redacted]\"\n  k2: \"[redacted]\"\n-\n  n: \"[redacted]\"\n- - \"[redacted]\"\n"},
		{"anchors tags aliases", "a: &x\n  b: !!str s3cret\nc: *x\n<<: *x\n", "a:\n  b: \"[redacted]\"\nc: \"[redacted]\"\n\"<<\": \"[redacted]\"\n"},
		{"quoted keys", "\"a: b\": 1\n'c''d': 2\n", "\"a: b\": \"[redacted]\"\n'c''d': \"[redacted]\"\n"},
		{"url values", "u: http://h:80/p # c\n", "u: \"[redacted]\"\n"},
		{"documents and comments", "--- # c\n# s3cret\na: 1\n...\n", "---\n# [redacted]\na: \"[redacted]\"\n...\n"},
		{"value on the next line", "a:\n  long s3cret\n  more\nb: &x\n  # c\n  's3cret'\nc:\n  -\n    s3cret\n", "a:\n  \"[redacted]\"\nb:\n  # [redacted]\n  \"[redacted]\"\nc:\n  -\n    \"[redacted]\"\n"},
		{"dash spacing", "-   s3cret\n  more\n-\n - x\n-   \n  s3cret\n", "- \"[redacted]\"\n-\n - \"[redacted]\"\n-\n  \"[redacted]\"\n"},
		{"kubeconfig", "apiVersion: v1\nusers:\n- name: dev\n  user:\n    token: s3cret\n", "apiVersion: \"[redacted]\"\nusers:\n- name: \"[redacted]\"\n  user:\n    token: \"[redacted]\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Render("a.yaml", []byte(tt.in), ModeKeys, "r"))
			if got != h+tt.want {
				t.Errorf("Render =\n%s\nwant\n%s", got, h+tt.want)
			}
			if strings.Contains(got, "s3cret") {
				t.Errorf("value leaked")
			}
			if err := parseYAMLStream([]byte(got)); err != nil {
				t.Errorf("output is not YAML: %v", err)
			}
		})
	}
}
