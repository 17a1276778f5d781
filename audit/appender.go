package audit

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// appender owns the file side of a log: the lock, the active file, its tail,
// rotation and the head anchor. It is used by one goroutine at a time; other
// processes are kept out by the lock.
type appender struct {
	cfg  Config
	h    *hasher
	now  func() time.Time
	lock *os.File

	f        *os.File    // active file, nil until the first batch
	fi       os.FileInfo // identity of f, to notice rotation by others
	size     int64       // size of f as far as this process knows
	fresh    bool        // size and tail are what this process wrote last
	tail     anchor      // the record the next one links to
	header   bool        // the active file has (or is about to get) a header
	justHdr  bool        // the active file holds only its header
	dirty    bool        // bytes were written since the head was last updated
	algOK    bool        // the active file's header names this appender's algorithm
	stale    bool        // records were written without updating the head anchor
	own      uint64      // seq of the first record this appender wrote (0: none yet)
	rotRec   *Record     // what the last rotation removed, written after the next header
	overflow bool        // append past the size limit instead of rotating (WriteFinal after ErrLogFull)
	buf      []byte
	hashBuf  []byte
}

func newAppender(cfg Config, key []byte, now func() time.Time) (*appender, error) {
	alg := AlgSHA256
	if key != nil {
		alg = AlgHMACSHA256
	}
	h, err := newHasher(alg, key)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(cfg.Path), 0o700); err != nil {
		return nil, fmt.Errorf("create audit dir: %w", err)
	}
	lock, err := os.OpenFile(lockPath(cfg.Path), os.O_RDWR|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit lock: %w", err)
	}
	return &appender{cfg: cfg, h: h, now: now, lock: lock, buf: make([]byte, 0, writeChunk+64<<10)}, nil
}

// append encodes, chains and appends records under the exclusive lock,
// then updates the head anchor.
func (a *appender) append(recs []Record) error { return a.appendRecs(recs, true) }

// appendNow appends records with write(2) before it returns, leaving the
// head anchor to the next append (see Writer.WriteSync).
func (a *appender) appendNow(recs []Record) error { return a.appendRecs(recs, false) }

func (a *appender) appendRecs(recs []Record, head bool) error {
	if err := flock(a.lock, true); err != nil {
		return err
	}
	defer funlock(a.lock)
	a.buf = a.buf[:0]
	if err := a.refresh(); err != nil {
		a.fresh = false
		return err
	}
	for i := range recs {
		if err := a.add(&recs[i]); err != nil {
			a.fresh = false
			return err
		}
	}
	if !head {
		err := a.writeBuf()
		if err == nil && a.cfg.Fsync && a.dirty {
			if err = a.f.Sync(); err != nil {
				err = fmt.Errorf("sync audit log: %w", err)
			}
		}
		if err != nil {
			a.fresh = false
			return err
		}
		a.stale, a.fresh = a.stale || a.dirty, true
		return nil
	}
	if err := a.commit(); err != nil {
		a.fresh = false
		return err
	}
	return nil
}

// ErrLogFull is wrapped by the error of a rotation that would remove
// records this writer wrote itself: the running session's records are
// never rotated away.
var ErrLogFull = errors.New("the log's files are full of this session's records")

// add appends one record to the pending buffer, rotating first if the
// active file would grow past the limit.
func (a *appender) add(r *Record) error {
	if !a.header {
		a.encode(&Record{Type: TypeFileStart, Alg: a.h.alg})
		a.header, a.justHdr = true, true
		if a.rotRec != nil {
			a.encode(a.rotRec)
			a.rotRec = nil
		}
	}
	saved, start := a.tail, len(a.buf)
	a.encode(r)
	if a.size+int64(len(a.buf)) <= a.cfg.MaxSizeBytes || a.justHdr || a.overflow {
		a.justHdr = false
		if a.own == 0 {
			a.own = r.Seq
		}
		if len(a.buf) >= writeChunk {
			return a.writeBuf()
		}
		return nil
	}
	a.buf, a.tail = a.buf[:start], saved
	if err := a.rotate(); err != nil {
		return err
	}
	return a.add(r)
}

// encode appends r to the buffer as the next link of the chain.
func (a *appender) encode(r *Record) {
	r.Seq, r.Prev = a.tail.Seq+1, a.tail.Hash
	if r.TS.IsZero() {
		r.TS = a.now()
	}
	start := len(a.buf)
	a.buf = appendBody(a.buf, r)
	a.buf = append(a.buf, '}')
	a.hashBuf = a.h.appendHash(a.hashBuf[:0], r.Prev, a.buf[start:])
	r.Hash = string(a.hashBuf)
	a.buf = append(a.buf[:len(a.buf)-1], hashSuffix...)
	a.buf = append(a.buf, a.hashBuf...)
	a.buf = append(a.buf, '"', '}', '\n')
	a.tail = anchor{Seq: r.Seq, Hash: r.Hash}
}

// writeChunk bounds the encoding buffer: a large batch is written in
// pieces of about this size (still under the lock, still in order).
const writeChunk = 256 << 10

// writeBuf appends the pending buffer to the active file.
func (a *appender) writeBuf() error {
	if len(a.buf) == 0 {
		return nil
	}
	n, err := a.f.Write(a.buf)
	if err != nil && errors.Is(err, errFileTooLarge) && raiseFileSizeLimit() {
		// Someone lowered this process's soft RLIMIT_FSIZE (a sandboxed
		// child's prlimit64 on its parent): raised back to the hard
		// limit, the rest of the buffer gets one more try.
		var m int
		m, err = a.f.Write(a.buf[n:])
		n += m
	}
	a.buf = a.buf[:0]
	if err != nil {
		if n > 0 {
			// A short write (a full disk) leaves part of a line: cut the
			// file back to the end of its last whole record, which this
			// appender knows under the lock, so that the log holds only
			// whole records and verify does not read a torn line as an
			// edit (review R7). The records of this write were never
			// acknowledged.
			if terr := a.f.Truncate(a.size); terr != nil {
				a.size += int64(n)
				return fmt.Errorf("append audit log: %w (and cut back the partial write: %v)", err, terr)
			}
		}
		return fmt.Errorf("append audit log: %w", err)
	}
	a.size += int64(n)
	a.dirty = true
	return nil
}

// commit writes the pending buffer and then the head anchor.
func (a *appender) commit() error {
	if err := a.writeBuf(); err != nil {
		return err
	}
	if !a.dirty && !a.stale {
		return nil
	}
	a.dirty, a.stale = false, false
	if a.cfg.Fsync {
		if err := a.f.Sync(); err != nil {
			return fmt.Errorf("sync audit log: %w", err)
		}
	}
	a.fresh = true
	return a.writeHead()
}

func (a *appender) writeHead() error {
	line := strconv.AppendUint([]byte(`{"seq":`), a.tail.Seq, 10)
	line = append(line, `,"hash":"`...)
	line = append(line, a.tail.Hash...)
	line = append(line, "\"}\n"...)
	// A new temporary name each time, created exclusively and never
	// through a symbolic link: whatever sits at a name in the log's folder,
	// the supervisor writes only a file it has just created.
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := headPath(a.cfg.Path) + ".tmp." + hex.EncodeToString(rnd[:])
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
	if err != nil {
		return fmt.Errorf("write audit head: %w", err)
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, headPath(a.cfg.Path)) // rename replaces a link at the head's name, never follows it
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write audit head: %w", err)
	}
	return nil
}

// rotate writes what is pending, closes the active file and shifts the
// rotated ones: Path -> Path.1 -> ... -> Path.(MaxFiles-1); the oldest is
// overwritten. The next record starts a new file with a header linking to
// the last record of the one just closed.
func (a *appender) rotate() error {
	if err := a.commit(); err != nil {
		return err
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("sync audit log: %w", err)
	}
	a.f.Close()
	a.f = nil
	if err := a.checkRemoval(); err != nil {
		return err
	}
	if a.cfg.MaxFiles <= 1 {
		if err := os.Remove(a.cfg.Path); err != nil {
			return fmt.Errorf("rotate audit log: %w", err)
		}
	}
	for i := a.cfg.MaxFiles - 1; i >= 1; i-- {
		err := os.Rename(rotatedName(a.cfg.Path, i-1), rotatedName(a.cfg.Path, i))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rotate audit log: %w", err)
		}
	}
	syncDir(filepath.Dir(a.cfg.Path))
	if err := a.open(); err != nil {
		return err
	}
	a.header = false
	return nil
}

// checkRemoval looks at the file the rotation is about to remove (the
// oldest one kept): it refuses when that file holds a record this
// appender wrote (ErrLogFull), and otherwise prepares the "rotated" record
// that says what goes: the seq range, the count and the sessions.
func (a *appender) checkRemoval() error {
	name := rotatedName(a.cfg.Path, max(a.cfg.MaxFiles-1, 0))
	gone, ok, err := summarizeFile(name, lastRotated(a.cfg.Path))
	if err != nil {
		return fmt.Errorf("rotate audit log: %w", err)
	}
	if !ok {
		return nil
	}
	if a.own != 0 && gone.ToSeq >= a.own {
		return fmt.Errorf("rotate audit log: %w (%d files of %d bytes; raise max_size_mb or max_files in config.yaml): %s would be removed",
			ErrLogFull, a.cfg.MaxFiles, a.cfg.MaxSizeBytes, name)
	}
	gone.TS = a.now()
	a.rotRec = &gone
	return nil
}

// open opens (creating) the active file and records its identity.
func (a *appender) open() error {
	f, err := os.OpenFile(a.cfg.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return fmt.Errorf("open audit log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("open audit log: %w", err)
	}
	a.f, a.fi, a.size = f, fi, fi.Size()
	return nil
}

func (a *appender) close() error {
	var err error
	if a.f != nil {
		if e := a.f.Sync(); e != nil {
			err = fmt.Errorf("sync audit log: %w", e)
		}
		a.f.Close()
		a.f = nil
	}
	a.lock.Close()
	return err
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// refresh makes sure the active file is the one at Path and that tail is
// the chain's real last link, which another process may have moved.
func (a *appender) refresh() error {
	fi, err := os.Lstat(a.cfg.Path) // a symbolic link put in its place is not the file: open refuses it
	switch {
	case errors.Is(err, fs.ErrNotExist):
		a.drop()
	case err != nil:
		return fmt.Errorf("stat audit log: %w", err)
	case a.f != nil && !os.SameFile(fi, a.fi):
		a.drop()
	}
	if a.f == nil {
		if err := a.open(); err != nil {
			return err
		}
	}
	if a.fresh {
		if fi, err := a.f.Stat(); err == nil && fi.Size() == a.size {
			return nil
		}
	}
	return a.loadTail()
}

// drop forgets the active file (rotated or removed by someone else).
func (a *appender) drop() {
	if a.f != nil {
		a.f.Close()
		a.f = nil
	}
	a.fresh, a.algOK = false, false
}

// loadTail reads the chain's last link from the active file and the head
// anchor. When the head is ahead of the file, records were removed: the new
// records link to the head so that verify reports the hole instead of a
// rewritten chain hiding it.
func (a *appender) loadTail() error {
	fi, err := a.f.Stat()
	if err != nil {
		return fmt.Errorf("stat audit log: %w", err)
	}
	a.size, a.tail, a.justHdr = fi.Size(), genesis, false
	head, headOK, err := readHead(a.cfg.Path)
	if err != nil {
		return err
	}
	if a.size == 0 {
		a.header = false
		if headOK {
			a.tail = head
		} else if prev, ok := lastRecord(rotatedName(a.cfg.Path, 1)); ok {
			a.tail = prev
		}
		return nil
	}
	a.header = true
	line, torn, err := lastLine(a.f, a.size)
	if err != nil {
		return err
	}
	if torn {
		a.buf = append(a.buf, '\n') // close the fragment; verify reports it
	}
	if r, _, err := ParseLine(line); err == nil {
		a.tail = anchor{Seq: r.Seq, Hash: r.Hash}
	}
	if headOK && head.Seq > a.tail.Seq {
		a.tail = head
	}
	return a.checkAlg()
}

// checkAlg rotates when the active file was started with another algorithm
// (the key was added or removed in the config) or has no readable header.
func (a *appender) checkAlg() error {
	if a.algOK {
		return nil
	}
	first, err := firstLine(a.cfg.Path)
	if err != nil {
		return fmt.Errorf("read audit log header: %w", err)
	}
	r, _, err := ParseLine(first)
	if err == nil && r.Type == TypeFileStart && r.Alg == a.h.alg {
		a.algOK = true
		return nil
	}
	if err := a.rotate(); err != nil {
		return err
	}
	a.algOK = true
	return nil
}

// lastRecord returns the anchor of the last record of a file.
func lastRecord(name string) (anchor, bool) {
	f, err := openRead(name)
	if err != nil {
		return anchor{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return anchor{}, false
	}
	line, _, err := lastLine(f, fi.Size())
	if err != nil {
		return anchor{}, false
	}
	r, _, err := ParseLine(line)
	if err != nil {
		return anchor{}, false
	}
	return anchor{Seq: r.Seq, Hash: r.Hash}, true
}
