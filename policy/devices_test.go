package policy

import (
	"strings"
	"testing"
)

func TestCheckDevices(t *testing.T) {
	tests := []struct {
		name string
		rule string
		want bool
	}{
		{"serial port", "allow_read: [/dev/ttyUSB0]", true},
		{"disk", "allow_read: [/dev/sda]", true},
		{"kvm", "allow_read: [/dev/kvm]", true},
		{"null", "allow_read: [/dev/null]", false},
		{"urandom", "allow_read: [/dev/urandom]", false},
		{"tty", "allow_read: [/dev/tty]", false},
		{"a glob opens no device", "allow_read: ['/dev/snd/**']", false},
		{"own descriptors", "allow_read: ['/dev/fd/3']", false},
		{"a deny is fine", "deny: [/dev/sda]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte("profile: x\nfilesystem:\n  "+tt.rule+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			p.Chain = append(p.Chain, "builtin:generic")
			got := false
			for _, f := range Check(p, testVars) {
				if strings.Contains(f.Message, "names a device literally") {
					got = f.Severity == SeverityWarning && f.Source.Line == 3
				}
			}
			if got != tt.want {
				t.Errorf("%s: device warning %v, want %v", tt.rule, got, tt.want)
			}
		})
	}
}
