package audit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testKeyHex = "6b6579206b6579206b6579206b6579206b6579206b6579206b6579206b657921"

func writeKey(t *testing.T, content string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "audit.key")
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestHMACChain(t *testing.T) {
	keyFile := writeKey(t, testKeyHex+"\n")
	key, err := ReadKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	cfg := genLog(t, Config{HMACKeyFile: keyFile}, []string{"S1"}, 20)
	rep, err := VerifyLog(cfg.Path, key)
	if err != nil || rep.Alg != AlgHMACSHA256 {
		t.Fatalf("VerifyLog with key = %+v, %v; want hmac-sha256, nil", rep, err)
	}

	if _, err := VerifyLog(cfg.Path, nil); err == nil || !strings.Contains(err.Error(), "--key-file") {
		t.Errorf("VerifyLog without key = %v, want an error asking for the key file", err)
	}
	wrong := []byte(strings.Repeat("k", 32))
	var ce *ChainError
	if _, err := VerifyLog(cfg.Path, wrong); !errors.As(err, &ce) || ce.Line != 1 {
		t.Errorf("VerifyLog with the wrong key = %v, want a chain error at line 1", err)
	}
}

func TestHMACRejectsUnkeyedRewrite(t *testing.T) {
	// An attacker without the key rewrites the log with a plain SHA-256 chain.
	cfg := genLog(t, Config{}, []string{"S1"}, 20)
	key := []byte(strings.Repeat("k", 32))
	_, err := VerifyLog(cfg.Path, key)
	var ce *ChainError
	if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "not written with the key") {
		t.Errorf("VerifyLog of an unkeyed log with a key = %v, want a chain error", err)
	}
}

func TestKeyAlgorithmChangeRotates(t *testing.T) {
	keyFile := writeKey(t, testKeyHex)
	cfg := genLog(t, Config{}, []string{"S1"}, 5)
	cfg.HMACKeyFile = keyFile
	genLog(t, cfg, []string{"S2"}, 5)
	files, err := Files(cfg.Path)
	if err != nil || len(files) != 2 {
		t.Fatalf("Files = %v, %v; want the unkeyed file rotated away", files, err)
	}
	// Both files verify with a verifier that knows the key is optional per file.
	if _, err := Verify(files[1:], mustKey(t, keyFile)); err != nil {
		t.Errorf("keyed file: %v", err)
	}
	if _, err := Verify(files[:1], nil); err != nil {
		t.Errorf("unkeyed file: %v", err)
	}
}

func mustKey(t *testing.T, name string) []byte {
	key, err := ReadKeyFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestReadKeyFileErrorsHideKey(t *testing.T) {
	tests := []struct {
		name    string
		content string
	}{
		{"not hex", "this-is-my-secret-passphrase-xyzzy-0123456789"},
		{"too short", "deadbeefcafe0123"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadKeyFile(writeKey(t, tt.content))
			if err == nil {
				t.Fatal("ReadKeyFile accepted a bad key")
			}
			if strings.Contains(err.Error(), tt.content) || strings.Contains(err.Error(), "xyzzy") {
				t.Errorf("error reveals the key: %v", err)
			}
		})
	}
}
