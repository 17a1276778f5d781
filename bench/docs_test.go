package bench

import "testing"

func TestReplaceSections(t *testing.T) {
	secs := map[string]string{secSummary: "## Summary\n\nS\n", secMacro: "## Macro benchmarks\n\nM\n", secStartup: "## Startup\n\nT\n"}
	tests := []struct {
		name, doc, want string
	}{
		{
			name: "new sections",
			doc:  "# Perf\n\nintro\n\n## Policy\n\np\n",
			want: "# Perf\n\nintro\n\n## Summary\n\nS\n\n## Policy\n\np\n\n## Macro benchmarks\n\nM\n\n## Startup\n\nT\n",
		},
		{
			name: "existing sections replaced, others kept",
			doc:  "# Perf\n\n## Summary\n\nold\n\n## Policy\n\np\n\n## Startup\n\nold\n\n## Macro benchmarks\n\nold\n\n## Audit\n\na\n",
			want: "# Perf\n\n## Summary\n\nS\n\n## Policy\n\np\n\n## Startup\n\nT\n\n## Macro benchmarks\n\nM\n\n## Audit\n\na\n",
		},
		{
			name: "a similar heading is not ours",
			doc:  "# Perf\n\n## Startup costs\n\nx\n",
			want: "# Perf\n\n## Summary\n\nS\n\n## Startup costs\n\nx\n\n## Macro benchmarks\n\nM\n\n## Startup\n\nT\n",
		},
	}
	for _, tt := range tests {
		if got := replaceSections(tt.doc, secs); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
