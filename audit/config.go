package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// Defaults of seed §8.3 and of the writer.
const (
	DefaultMaxSizeBytes  = 100 << 20
	DefaultMaxFiles      = 10
	DefaultFlushInterval = 50 * time.Millisecond
	DefaultMaxBlock      = time.Second
	DefaultBufferRecords = 16 << 10
)

// Config says where the log lives and how the writer behaves. The zero value
// of a field means its default; see [Config.withDefaults].
type Config struct {
	Path          string        // the active log file; rotated files are Path.1 (newest) .. Path.N
	MaxSizeBytes  int64         // rotate when the active file would grow past this
	MaxFiles      int           // files kept, the active one included
	HMACKeyFile   string        // if set, chain with HMAC-SHA256 under this key
	FlushInterval time.Duration // longest time a record waits in memory
	MaxBlock      time.Duration // longest time Write waits for room before counting a drop
	BufferRecords int           // records held in memory before Write waits
	Fsync         bool          // fsync after every batch, not only on rotation and Close
}

// configFile is the audit section of config.yaml.
type configFile struct {
	Log           string `yaml:"log"`
	MaxSizeMB     int64  `yaml:"max_size_mb"`
	MaxFiles      int    `yaml:"max_files"`
	HMACKeyFile   string `yaml:"hmac_key_file"`
	FlushInterval string `yaml:"flush_interval"`
	MaxBlock      string `yaml:"max_block"`
	BufferRecords int    `yaml:"buffer_records"`
	Fsync         bool   `yaml:"fsync"`
}

var configKeys = []string{"log", "max_size_mb", "max_files", "hmac_key_file", "flush_interval", "max_block", "buffer_records", "fsync"}

// DefaultConfigDir is $AIXGATE_CONFIG_DIR, or ~/.aixgate.
func DefaultConfigDir() (string, error) {
	if d := os.Getenv("AIXGATE_CONFIG_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find config dir: %w (set AIXGATE_CONFIG_DIR)", err)
	}
	return filepath.Join(home, ".aixgate"), nil
}

// LoadConfig reads the "audit:" section of configDir/config.yaml. A missing
// file means defaults; the log then is configDir/audit.jsonl.
func LoadConfig(configDir string) (Config, error) {
	cfg := Config{Path: filepath.Join(configDir, "audit.jsonl")}
	name := filepath.Join(configDir, "config.yaml")
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg.withDefaults(), nil
	}
	if err != nil {
		return cfg, fmt.Errorf("read config: %w", err)
	}
	var doc struct {
		Audit map[string]any `yaml:"audit"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return cfg, fmt.Errorf("parse %s: %w", name, err)
	}
	if err := checkKeys(doc.Audit); err != nil {
		return cfg, fmt.Errorf("parse %s: %w", name, err)
	}
	var file struct {
		Audit configFile `yaml:"audit"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		return cfg, fmt.Errorf("parse %s: %w", name, err)
	}
	return file.Audit.apply(cfg, configDir)
}

func checkKeys(m map[string]any) error {
	var unknown []string
	for k := range m {
		if !contains(configKeys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("unknown key audit.%s (known: %s)", unknown[0], strings.Join(configKeys, ", "))
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (f configFile) apply(cfg Config, configDir string) (Config, error) {
	var err error
	if f.Log != "" {
		cfg.Path = expandHome(f.Log, configDir)
	}
	if f.HMACKeyFile != "" {
		cfg.HMACKeyFile = expandHome(f.HMACKeyFile, configDir)
	}
	if f.MaxSizeMB < 0 || f.MaxFiles < 0 || f.BufferRecords < 0 {
		return cfg, errors.New("parse config: audit sizes must not be negative")
	}
	cfg.MaxSizeBytes = f.MaxSizeMB << 20
	cfg.MaxFiles = f.MaxFiles
	cfg.BufferRecords = f.BufferRecords
	cfg.Fsync = f.Fsync
	if cfg.FlushInterval, err = parseDuration("flush_interval", f.FlushInterval); err != nil {
		return cfg, err
	}
	if cfg.MaxBlock, err = parseDuration("max_block", f.MaxBlock); err != nil {
		return cfg, err
	}
	return cfg.withDefaults(), nil
}

func parseDuration(key, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("parse config: audit.%s %q is not a duration such as 50ms", key, s)
	}
	return d, nil
}

// expandHome expands a leading ~/ and makes a relative path relative to the
// config dir.
func expandHome(p, configDir string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(configDir, p)
	}
	return p
}

// withDefaults fills every zero field with its default.
func (c Config) withDefaults() Config {
	if c.MaxSizeBytes <= 0 {
		c.MaxSizeBytes = DefaultMaxSizeBytes
	}
	if c.MaxFiles <= 0 {
		c.MaxFiles = DefaultMaxFiles
	}
	if c.FlushInterval <= 0 {
		c.FlushInterval = DefaultFlushInterval
	}
	if c.MaxBlock <= 0 {
		c.MaxBlock = DefaultMaxBlock
	}
	if c.BufferRecords <= 0 {
		c.BufferRecords = DefaultBufferRecords
	}
	return c
}
