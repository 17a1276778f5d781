package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"strings"
)

// MaxLineBytes is the longest line a reader accepts. The writer's field
// limits keep every record far below it.
const MaxLineBytes = 1 << 20

// hashSuffix precedes the hash at the end of every line.
const hashSuffix = `,"hash":"`

// ErrBadLine is wrapped by every error [ParseLine] returns.
var ErrBadLine = errors.New("not an audit record")

// hasher computes record hashes: hex(SHA-256(prev || canonical)), or
// hex(HMAC-SHA256(key, prev || canonical)) with a key. prev is the previous
// record's hash as 64 ASCII hex digits; canonical is the record's line with
// the hash member removed (see docs/audit.md).
type hasher struct {
	alg string
	h   hash.Hash
	sum [sha256.Size]byte
}

func newHasher(alg string, key []byte) (*hasher, error) {
	switch alg {
	case AlgSHA256:
		return &hasher{alg: alg, h: sha256.New()}, nil
	case AlgHMACSHA256:
		if len(key) == 0 {
			return nil, errors.New("verify hmac-sha256 chain: no key (pass the key file the log was written with)")
		}
		return &hasher{alg: alg, h: hmac.New(sha256.New, key)}, nil
	}
	return nil, fmt.Errorf("hash chain: unknown algorithm %q", alg)
}

// appendHash appends the 64 hex digits of the hash of prev || canonical.
func (c *hasher) appendHash(b []byte, prev string, canonical []byte) []byte {
	c.h.Reset()
	c.h.Write([]byte(prev))
	c.h.Write(canonical)
	sum := c.h.Sum(c.sum[:0])
	return hex.AppendEncode(b, sum)
}

// ParseLine parses one line of the log (without its newline) and returns the
// record and its canonical form, the bytes the hash covers. It checks the
// shape of the line, not the chain.
func ParseLine(line []byte) (Record, []byte, error) {
	var r Record
	canonical, hashHex, err := splitLine(line)
	if err != nil {
		return r, nil, err
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return r, nil, fmt.Errorf("%w: %v", ErrBadLine, err)
	}
	if r.Hash != hashHex {
		return r, nil, fmt.Errorf("%w: two hash members", ErrBadLine)
	}
	if y := r.TS.UTC().Year(); y < 1 || y > 9999 {
		return r, nil, fmt.Errorf("%w: timestamp out of range", ErrBadLine)
	}
	if r.Type == "" {
		return r, nil, fmt.Errorf("%w: no type", ErrBadLine)
	}
	return r, canonical, nil
}

// splitLine checks that the line ends with `,"hash":"<64 hex>"}` and returns
// the canonical form (the line without that member, closed with "}").
func splitLine(line []byte) (canonical []byte, hashHex string, err error) {
	const tail = len(hashSuffix) + 2*sha256.Size + 2
	if len(line) > MaxLineBytes {
		return nil, "", fmt.Errorf("%w: line longer than %d bytes", ErrBadLine, MaxLineBytes)
	}
	if len(line) < tail+1 || line[0] != '{' {
		return nil, "", fmt.Errorf("%w: too short or not a JSON object", ErrBadLine)
	}
	i := len(line) - tail
	if !bytes.Equal(line[i:i+len(hashSuffix)], []byte(hashSuffix)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return nil, "", fmt.Errorf("%w: does not end with the hash member", ErrBadLine)
	}
	h := line[i+len(hashSuffix) : len(line)-2]
	if !isLowerHex(h) {
		return nil, "", fmt.Errorf("%w: hash is not 64 lowercase hex digits", ErrBadLine)
	}
	canonical = make([]byte, i+1)
	copy(canonical, line[:i])
	canonical[i] = '}'
	return canonical, string(h), nil
}

func isLowerHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ReadKeyFile reads an HMAC key: a file holding at least 32 bytes as hex
// digits (`openssl rand -hex 32`). Errors name the file, never its content.
func ReadKeyFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read audit key: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("read audit key %s: the file must hold hex digits (create one with `openssl rand -hex 32 > %s`)", path, path)
	}
	if len(key) < 32 {
		return nil, fmt.Errorf("read audit key %s: %d bytes, need at least 32 (`openssl rand -hex 32 > %s`)", path, len(key), path)
	}
	return key, nil
}
