package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadConfig(t *testing.T) {
	home, _ := os.UserHomeDir()
	tests := []struct {
		name    string
		yaml    string // "" means no config.yaml
		want    func(dir string) Config
		wantErr string
	}{
		{name: "no file means defaults", want: func(dir string) Config {
			return Config{Path: filepath.Join(dir, "audit.jsonl"), MaxSizeBytes: 100 << 20, MaxFiles: 10,
				FlushInterval: 50 * time.Millisecond, MaxBlock: time.Second, BufferRecords: 16384}
		}},
		{name: "all keys", yaml: "profile: x\naudit:\n  log: ~/logs/a.jsonl\n  max_size_mb: 5\n  max_files: 3\n  hmac_key_file: k.key\n  flush_interval: 10ms\n  max_block: 2s\n  buffer_records: 100\n  fsync: true\n",
			want: func(dir string) Config {
				return Config{Path: filepath.Join(home, "logs/a.jsonl"), MaxSizeBytes: 5 << 20, MaxFiles: 3, HMACKeyFile: filepath.Join(dir, "k.key"),
					FlushInterval: 10 * time.Millisecond, MaxBlock: 2 * time.Second, BufferRecords: 100, Fsync: true}
			}},
		{name: "unknown key", yaml: "audit:\n  max_size: 5\n", wantErr: "unknown key audit.max_size"},
		{name: "bad duration", yaml: "audit:\n  flush_interval: soon\n", wantErr: "not a duration"},
		{name: "negative size", yaml: "audit:\n  max_files: -1\n", wantErr: "must not be negative"},
		{name: "bad yaml", yaml: "audit: [\n", wantErr: "parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.yaml != "" {
				if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(tt.yaml), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := LoadConfig(dir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("LoadConfig = %+v, %v; want error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.want(dir); got != want {
				t.Errorf("LoadConfig =\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestDefaultConfigDirHonoursEnv(t *testing.T) {
	t.Setenv("AIXGATE_CONFIG_DIR", "/tmp/x-aixgate")
	if got, err := DefaultConfigDir(); err != nil || got != "/tmp/x-aixgate" {
		t.Errorf("DefaultConfigDir = %q, %v", got, err)
	}
}
