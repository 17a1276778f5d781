package audit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// TailOptions controls [Tail].
type TailOptions struct {
	Lines  int           // records shown from the end before following
	Follow bool          // keep reading as the log grows, across rotations
	Filter Filter        // which records to show
	Poll   time.Duration // how often to look for new lines when following (default 200ms)
}

// Tail calls fn with the last opt.Lines records of the log that pass the
// filter, oldest first, then, with Follow, with each new one until ctx ends
// or fn returns an error (returned as is, except io.EOF, which means stop).
// Following reads every record once, also across rotations.
func Tail(ctx context.Context, log string, opt TailOptions, fn func(Record) error) error {
	t := tailer{log: log, opt: opt}
	defer t.close()
	files, err := openLog(log)
	if err != nil && !(opt.Follow && errors.Is(err, ErrNoLog)) {
		return err
	}
	last, err := t.lastRecords(files)
	if err != nil {
		return err
	}
	for i := range last {
		if err := fn(last[i]); err != nil {
			return stopErr(err)
		}
	}
	if !opt.Follow {
		return nil
	}
	return stopErr(t.follow(ctx, fn))
}

func stopErr(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// tailer reads the active file through one open handle, so that following
// goes on exactly where the last read stopped.
type tailer struct {
	log     string
	opt     TailOptions
	f       *os.File
	rd      *bufio.Reader
	partial []byte
}

func (t *tailer) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

func (t *tailer) use(f *os.File) {
	t.close()
	t.f, t.rd, t.partial = f, bufio.NewReaderSize(f, 64<<10), nil
}

// lastRecords returns the last opt.Lines matching records: those of the
// newest file (kept open to follow), then of older files, newest first,
// until there are enough. It takes ownership of files.
func (t *tailer) lastRecords(files []*os.File) ([]Record, error) {
	if len(files) == 0 {
		return nil, nil
	}
	defer closeAll(files[:len(files)-1])
	active := files[len(files)-1]
	if err := t.seekBack(active); err != nil {
		closeAll(files[len(files)-1:])
		return nil, err
	}
	t.use(active)
	var last []Record
	if err := t.readNew(func(r Record) error {
		last = append(last, r)
		if len(last) > t.opt.Lines {
			last = last[1:]
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for i := len(files) - 2; i >= 0 && len(last) < t.opt.Lines; i-- {
		got, err := t.readAll(files[i])
		if err != nil {
			return nil, err
		}
		need := t.opt.Lines - len(last)
		if len(got) > need {
			got = got[len(got)-need:]
		}
		last = append(got, last...)
	}
	return last, nil
}

// seekBack positions f at the start of a line from which the rest of the
// file holds at least opt.Lines matching records (or at 0), reading windows
// growing from the end, so that tail does not parse a 100 MB file for 20
// lines.
func (t *tailer) seekBack(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("tail audit log: %w", err)
	}
	size := fi.Size()
	for window := int64(256 << 10); ; window *= 4 {
		start := max(0, size-window)
		from, n, err := t.countFrom(f, start, size)
		if err != nil {
			return err
		}
		if n >= t.opt.Lines || start == 0 {
			_, err := f.Seek(from, io.SeekStart)
			return err
		}
	}
}

// countFrom counts the matching records in f[start:end], starting at the
// first line that begins at or after start, and returns that line's offset.
func (t *tailer) countFrom(f *os.File, start, end int64) (from int64, n int, err error) {
	rd := bufio.NewReaderSize(io.NewSectionReader(f, start, end-start), 64<<10)
	from = start
	if start > 0 {
		skipped, err := rd.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			from += int64(len(skipped))
			skipped, err = rd.ReadSlice('\n')
		}
		if err != nil {
			return end, 0, nil
		}
		from += int64(len(skipped))
	}
	scanReader(f.Name(), rd, func(e Entry, err error) bool {
		if err == nil && t.opt.Filter.Match(&e.Record) {
			n++
		}
		return true
	})
	return from, n, nil
}

// readAll returns the matching records of an open file.
func (t *tailer) readAll(f *os.File) ([]Record, error) {
	var got []Record
	var ioErr error
	scanReader(f.Name(), f, func(e Entry, err error) bool {
		switch {
		case errors.Is(err, ErrBadLine):
		case err != nil:
			ioErr = err
			return false
		case t.opt.Filter.Match(&e.Record):
			got = append(got, e.Record)
		}
		return true
	})
	return got, ioErr
}

// follow reads what is appended to the active file and, when it has been
// rotated, every file written since, in order.
func (t *tailer) follow(ctx context.Context, fn func(Record) error) error {
	poll := t.opt.Poll
	if poll <= 0 {
		poll = 200 * time.Millisecond
	}
	for {
		if t.f != nil {
			if err := t.readNew(fn); err != nil {
				return err
			}
		}
		if err := t.catchUp(fn); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(poll):
		}
	}
}

// catchUp handles a rotation: it reads the rest of the old file, then the
// files rotated since, then moves to the new active file.
func (t *tailer) catchUp(fn func(Record) error) error {
	if t.f != nil && !t.rotated() {
		return nil
	}
	files, err := openLog(t.log)
	if errors.Is(err, ErrNoLog) {
		return nil
	}
	if err != nil {
		return err
	}
	defer closeAll(files[:len(files)-1])
	start := 0
	if t.f != nil {
		if err := t.readNew(fn); err != nil {
			closeAll(files[len(files)-1:])
			return err
		}
		start = t.indexIn(files) + 1
	}
	for _, f := range files[start : len(files)-1] {
		got, err := t.readAll(f)
		if err != nil {
			closeAll(files[len(files)-1:])
			return err
		}
		for _, r := range got {
			if err := fn(r); err != nil {
				closeAll(files[len(files)-1:])
				return err
			}
		}
	}
	t.use(files[len(files)-1])
	return t.readNew(fn)
}

// indexIn finds the open file in a fresh list; -1 (read all) if it was
// rotated away entirely.
func (t *tailer) indexIn(files []*os.File) int {
	cur, err := t.f.Stat()
	if err != nil {
		return -1
	}
	for i, f := range files {
		if fi, err := f.Stat(); err == nil && os.SameFile(fi, cur) {
			return i
		}
	}
	return -1
}

// readNew passes every complete new line that matches to fn and keeps what
// there is of an unfinished one.
func (t *tailer) readNew(fn func(Record) error) error {
	for {
		chunk, err := t.rd.ReadSlice('\n')
		t.partial = append(t.partial, chunk...)
		if len(t.partial) > MaxLineBytes {
			t.partial = t.partial[:0] // not a record; its rest fails to parse and is skipped
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil
		}
		line := t.partial[:len(t.partial)-1]
		r, _, perr := ParseLine(line)
		t.partial = t.partial[:0]
		if perr != nil || !t.opt.Filter.Match(&r) {
			continue
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// rotated reports whether the path no longer names the open file.
func (t *tailer) rotated() bool {
	cur, err := os.Stat(t.log)
	if err != nil {
		return true
	}
	open, err := t.f.Stat()
	return err == nil && !os.SameFile(cur, open)
}
