package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
	"unicode/utf8"
)

// Limits on what one record may carry, so that a line stays small enough for
// any reader. Longer strings are cut at a UTF-8 boundary and marked.
const (
	maxFieldBytes = 8192 // longer than PATH_MAX
	maxCmdArgs    = 64
	truncMark     = "…[truncated]"
	cutMark       = "…[truncated, sha256 " // then the whole string's hash and "]"
)

// tsLayout is the timestamp format: RFC 3339, UTC, microseconds.
const tsLayout = "2006-01-02T15:04:05.000000Z07:00"

// genesisHash is the prev of the very first record of a log.
const genesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// appendBody appends the record as JSON without its hash member and without
// the closing brace: the canonical form is body + "}", the line is
// body + `,"hash":"` + hash + `"}`. Keys are in a fixed order, nothing is
// HTML-escaped, and empty optional fields are omitted.
func appendBody(b []byte, r *Record) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, r.Type)
	b = append(b, `,"seq":`...)
	b = strconv.AppendUint(b, r.Seq, 10)
	b = append(b, `,"ts":"`...)
	b = appendTS(b, r.TS)
	b = append(b, '"')
	b = appendStringField(b, "profile", r.Profile)
	b = appendIntField(b, "pid", int64(r.PID))
	b = appendIntField(b, "tid", int64(r.TID))
	b = appendStringField(b, "session_id", r.SessionID)
	b = appendStringField(b, "op", r.Op)
	b = appendStringField(b, "syscall", r.Syscall)
	b = appendStringField(b, "path", r.Path)
	b = appendStringField(b, "decision", r.Decision)
	b = appendStringField(b, "rule", r.Rule)
	b = appendStringField(b, "rule_src", r.RuleSrc)
	b = appendStringField(b, "result", r.Result)
	b = appendIntField(b, "latency_us", r.LatencyUS)
	b = appendStringField(b, "agent_cmd", r.AgentCmd)
	b = appendCmd(b, r.Cmd)
	b = appendStringField(b, "cwd", r.Cwd)
	b = appendStringField(b, "policy", r.Policy)
	b = appendStringField(b, "policy_hash", r.PolicyHash)
	b = appendStringField(b, "kernel", r.Kernel)
	b = appendIntField(b, "landlock_abi", int64(r.LandlockABI))
	b = appendUintField(b, "pid_start", r.PIDStart)
	b = appendStringField(b, "boot_id", r.BootID)
	if r.Type == TypeSessionEnd {
		b = append(b, `,"exit_status":`...)
		b = strconv.AppendInt(b, int64(r.ExitStatus), 10)
	}
	if r.Type == TypeGap || r.Dropped != 0 {
		b = append(b, `,"dropped":`...)
		b = strconv.AppendUint(b, r.Dropped, 10)
	}
	b = appendUintField(b, "from_seq", r.FromSeq)
	b = appendUintField(b, "to_seq", r.ToSeq)
	b = appendList(b, "sessions", r.Sessions)
	b = appendStringField(b, "last_path", r.LastPath)
	b = appendList(b, "paths", r.Paths)
	b = appendUintField(b, "unlisted", r.Unlisted)
	if r.SeenFull {
		b = append(b, `,"seen_full":true`...)
	}
	b = appendStringField(b, "alg", r.Alg)
	b = append(b, `,"prev":`...)
	return appendString(b, r.Prev)
}

func appendStringField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendIntField(b []byte, key string, v int64) []byte {
	if v == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendUintField(b []byte, key string, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendUint(b, v, 10)
}

// appendList appends a list of strings, at most maxCmdArgs of them.
func appendList(b []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':', '[')
	for i, s := range list {
		if i == maxCmdArgs {
			b = append(b, ',')
			b = appendString(b, truncMark+" "+strconv.Itoa(len(list)-i)+" more")
			break
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendCmd(b []byte, cmd []string) []byte {
	if len(cmd) == 0 {
		return b
	}
	b = append(b, `,"cmd":[`...)
	for i, arg := range cmd {
		if i == maxCmdArgs {
			b = append(b, ',')
			b = appendString(b, truncMark+" "+strconv.Itoa(len(cmd)-i)+" more")
			break
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, arg)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// plain marks the bytes a JSON string holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendTS appends t in UTC as tsLayout does, without the cost of
// time.Format (this runs once per record).
func appendTS(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, tsLayout)
	}
	hour, min, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, min, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, t.Nanosecond()/1000, 6)
	return append(b, 'Z')
}

// appendDigits appends v (non-negative) zero-padded to width digits.
func appendDigits(b []byte, v, width int) []byte {
	var buf [8]byte
	for i := width - 1; i >= 0; i-- {
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, buf[:width]...)
}

// appendString appends s as a JSON string the way encoding/json does without
// HTML escaping, control characters and U+2028/U+2029 escaped, except that
// an invalid UTF-8 byte 0xXX is written \udcXX (Python's surrogateescape:
// os.fsencode gives the name's bytes back; encoding/json reads U+FFFD), so
// two names that differ only in invalid bytes stay two strings (review R5).
// Strings longer than maxFieldBytes are cut and end with the SHA-256 of the
// whole string: "…[truncated, sha256 HEX]".
func appendString(b []byte, s string) []byte {
	cut, whole := false, s
	if len(s) > maxFieldBytes {
		s, cut = s[:maxFieldBytes], true
		for len(s) > 0 && !utf8.RuneStart(s[len(s)-1]) {
			s = s[:len(s)-1]
		}
		if len(s) > 0 {
			s = s[:len(s)-1]
		}
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = appendEscapedByte(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\udc`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	if cut {
		sum := sha256.Sum256([]byte(whole))
		b = append(b, cutMark...)
		b = hex.AppendEncode(b, sum[:])
		b = append(b, ']')
	}
	return append(b, '"')
}

func appendEscapedByte(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
