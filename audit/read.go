package audit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrNoLog is wrapped when a log has no file at all yet.
var ErrNoLog = errors.New("no audit log")

// Files lists the files of a log in chain order: the oldest rotated file
// first (log.N), the active file (log) last.
func Files(log string) ([]string, error) {
	dir, base := filepath.Split(log)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list audit files: %w", err)
	}
	var nums []int
	active := false
	for _, e := range entries {
		name := e.Name()
		if name == base {
			active = true
			continue
		}
		suffix, ok := strings.CutPrefix(name, base+".")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(suffix); err == nil && n > 0 && strconv.Itoa(n) == suffix {
			nums = append(nums, n)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(nums)))
	var files []string
	for _, n := range nums {
		files = append(files, rotatedName(log, n))
	}
	if active {
		files = append(files, log)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w at %s yet", ErrNoLog, log)
	}
	return files, nil
}

// Entry is one line of a log as Scan yields it.
type Entry struct {
	File      string
	Line      int    // 1-based line number in File
	Record    Record // valid when the line parsed
	Canonical []byte // the bytes the hash covers; only valid during the iteration step
}

// Scan yields every line of the files in order. A line that is not a record
// yields its position and an error wrapping [ErrBadLine]; iteration goes on
// unless the consumer stops. A file that cannot be read ends the iteration
// with its error.
func Scan(paths []string) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for _, p := range paths {
			if !scanFile(p, yield) {
				return
			}
		}
	}
}

func scanFile(path string, yield func(Entry, error) bool) bool {
	f, err := os.Open(path)
	if err != nil {
		yield(Entry{File: path}, fmt.Errorf("open audit log: %w", err))
		return false
	}
	defer f.Close()
	return scanReader(path, f, yield)
}

// scanReader is scanFile over an open reader.
func scanReader(path string, f io.Reader, yield func(Entry, error) bool) bool {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes+1)
	n := 0
	for sc.Scan() {
		n++
		r, canonical, err := ParseLine(sc.Bytes())
		e := Entry{File: path, Line: n, Record: r, Canonical: canonical}
		if err != nil {
			e.Record = Record{}
		}
		if !yield(e, err) {
			return false
		}
	}
	if err := sc.Err(); err != nil {
		yield(Entry{File: path, Line: n + 1}, fmt.Errorf("%w: read %s: %v", ErrBadLine, path, err))
		return false
	}
	return true
}

// openLog opens every file of a log under the log's shared lock, so that the
// set is consistent (no rotation half done); the handles stay valid after
// later rotations rename the files.
func openLog(log string) ([]*os.File, error) {
	files, _, err := snapshot(log, nil)
	return files, err
}

// snapshot opens every file of a log under the log's shared lock, held only
// for this: readers must not hold up writers (and so the agents). With a
// non-nil head it also reads the head anchor under the lock.
func snapshot(log string, head func() error) ([]*os.File, []int64, error) {
	if lock, err := os.Open(lockPath(log)); err == nil {
		defer lock.Close()
		if err := flock(lock, false); err != nil {
			return nil, nil, err
		}
		defer funlock(lock)
	}
	if head != nil {
		if err := head(); err != nil {
			return nil, nil, err
		}
	}
	names, err := Files(log)
	if err != nil {
		return nil, nil, err
	}
	var files []*os.File
	var sizes []int64
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			closeAll(files)
			return nil, nil, fmt.Errorf("open audit log: %w", err)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			closeAll(files)
			return nil, nil, fmt.Errorf("open audit log: %w", err)
		}
		files, sizes = append(files, f), append(sizes, fi.Size())
	}
	return files, sizes, nil
}

// scanSnapshot is Scan over open files, each read up to its size.
func scanSnapshot(files []*os.File, sizes []int64) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for i, f := range files {
			if !scanReader(f.Name(), io.NewSectionReader(f, 0, sizes[i]), yield) {
				return
			}
		}
	}
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
