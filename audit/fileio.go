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
	data, err := os.ReadFile(headPath(log))
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
	f, err := os.Open(name)
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
