package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// anchor is a point of the chain: a sequence number and the hash of the
// record that carries it. The zero anchor of a new log is {0, genesisHash}.
type anchor struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

var genesis = anchor{Seq: 0, Hash: genesisHash}

// headPath and lockPath name the side files of a log.
func headPath(log string) string { return log + ".head" }
func lockPath(log string) string { return log + ".lock" }

// rotatedName is the n-th rotated file of a log; 0 is the active file.
func rotatedName(log string, n int) string {
	if n == 0 {
		return log
	}
	return log + "." + strconv.Itoa(n)
}

// readHead reads the anchor file of a log. ok is false when it does not
// exist or does not hold an anchor.
func readHead(log string) (a anchor, ok bool, err error) {
	data, err := readNoFollow(headPath(log))
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("read audit head: %w", err)
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if json.Unmarshal(line, &a) != nil || len(a.Hash) != 64 || !isLowerHex([]byte(a.Hash)) {
		return anchor{}, false, nil
	}
	return a, true, nil
}

// lastLine returns the last newline-terminated line of the first size bytes
// of f, without its newline, and whether bytes follow it (a torn write).
func lastLine(f *os.File, size int64) (line []byte, torn bool, err error) {
	chunk := int64(4 << 10)
	var tail []byte
	end := size
	for end > 0 && int64(len(tail)) <= MaxLineBytes+1 {
		n := min(chunk, end)
		chunk *= 2
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, end-n); err != nil && !errors.Is(err, io.EOF) {
			return nil, false, fmt.Errorf("read audit log tail: %w", err)
		}
		tail = append(buf, tail...)
		end -= n
		if line, torn, ok := lastComplete(tail, end == 0); ok {
			return line, torn, nil
		}
	}
	return nil, len(tail) > 0, nil
}

// lastComplete finds the last complete line in the tail of a file; atStart
// says the tail is the whole file.
func lastComplete(tail []byte, atStart bool) (line []byte, torn bool, ok bool) {
	nl := bytes.LastIndexByte(tail, '\n')
	if nl < 0 {
		return nil, len(tail) > 0, atStart
	}
	torn = nl != len(tail)-1
	prev := bytes.LastIndexByte(tail[:nl], '\n')
	if prev < 0 && !atStart {
		return nil, false, false
	}
	return tail[prev+1 : nl], torn, true
}

// firstLine returns the first line of a file (at most MaxLineBytes).
func firstLine(name string) ([]byte, error) {
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), MaxLineBytes)
	if sc.Scan() {
		return sc.Bytes(), nil
	}
	return nil, sc.Err()
}

// sessionKey precedes a record's session id in its line (the encoder's
// fixed key order puts it before any string the agent controls).
var sessionKey = []byte(`,"session_id":"`)

// summarizeFile describes the records of one file for the "rotated"
// record that replaces them: their seq range, their count and the ids of
// the sessions they belong to, in order of appearance. ok is false when the
// file does not exist or is empty. Headers count: the rotated record says
// that seq FromSeq to ToSeq, all Dropped of them, are gone.
//
// prev is the newest rotated record before this one (at the start of the
// file being rotated), which accounts for everything removed before: the
// new record adds it, so that the newest rotated record alone accounts for
// every record removed from the log. Without prev, the rotated records
// found in the removed file are added instead.
func summarizeFile(name string, prev *Record) (r Record, ok bool, err error) {
	f, err := openRead(name)
	if errors.Is(err, fs.ErrNotExist) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	defer f.Close()
	r = Record{Type: TypeRotated, Path: name}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	var earlier []string
	for sc.Scan() {
		line := sc.Bytes()
		typ, seq, ok := lineSeq(line)
		if ok && typ == TypeRotated && prev == nil {
			// What earlier rotations removed: carried over, so that the
			// newest rotated record accounts for everything removed.
			if old, _, err := ParseLine(line); err == nil {
				if r.FromSeq == 0 || old.FromSeq < r.FromSeq {
					r.FromSeq = old.FromSeq
				}
				r.Dropped += old.Dropped
				earlier = append(earlier, old.Sessions...)
			}
		}
		if i := bytes.Index(line, sessionKey); i >= 0 {
			rest := line[i+len(sessionKey):]
			if j := bytes.IndexByte(rest, '"'); j > 0 && !seen[string(rest[:j])] {
				seen[string(rest[:j])] = true
				r.Sessions = append(r.Sessions, string(rest[:j]))
			}
		}
		if !ok {
			continue
		}
		if r.FromSeq == 0 {
			r.FromSeq = seq
		}
		r.Dropped++
		r.ToSeq = seq
	}
	if err := sc.Err(); err != nil {
		return r, false, fmt.Errorf("read %s: %w", name, err)
	}
	if prev != nil && r.Dropped > 0 {
		r.FromSeq = min(r.FromSeq, prev.FromSeq)
		r.Dropped += prev.Dropped
		earlier = prev.Sessions
	}
	r.Sessions = mergeSessions(earlier, r.Sessions)
	return r, r.Dropped > 0, nil
}

// lastRotated returns the rotated record that follows the header of a
// file, if any.
func lastRotated(name string) *Record {
	f, err := openRead(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), MaxLineBytes)
	for i := 0; i < 2 && sc.Scan(); i++ {
		if typ, _, ok := lineSeq(sc.Bytes()); ok && typ == TypeRotated {
			if r, _, err := ParseLine(sc.Bytes()); err == nil {
				return &r
			}
		}
	}
	return nil
}

// maxRotatedSessions bounds the sessions a rotated record names: the most
// recent ones are kept.
const maxRotatedSessions = maxCmdArgs

// mergeSessions appends the ids of now to those of earlier, once each, and
// keeps the last maxRotatedSessions.
func mergeSessions(earlier, now []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range append(earlier, now...) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	if len(out) > maxRotatedSessions {
		out = out[len(out)-maxRotatedSessions:]
	}
	return out
}

// lineSeq reads the type and seq at the start of a line as the writer
// encodes it (`{"type":"…","seq":N,`), without decoding the rest.
func lineSeq(line []byte) (typ string, seq uint64, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte(`{"type":"`))
	if !found {
		return "", 0, false
	}
	t, rest, found := bytes.Cut(rest, []byte(`","seq":`))
	if !found {
		return "", 0, false
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	seq, err := strconv.ParseUint(string(rest[:n]), 10, 64)
	if err != nil {
		return "", 0, false
	}
	return string(t), seq, true
}

// openRead opens a file of the log for reading without following a
// symbolic link in its last component.
func openRead(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|oNoFollow, 0)
}

// readNoFollow is os.ReadFile through openRead.
func readNoFollow(name string) ([]byte, error) {
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
