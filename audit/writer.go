package audit

import (
	"errors"
	"sync"
	"time"
)

// flushAt is the batch size at which Write wakes the flusher before the
// flush interval is up.
const flushAt = 4096

// Writer appends records to a log off the caller's path. Write copies the
// record into an in-memory batch; a goroutine chains and appends batches
// every FlushInterval (or every 4096 records), under the log's lock.
//
// Nothing is dropped silently: when the batch is full, Write waits for room
// for up to MaxBlock (back-pressure on the caller, the agent's syscall);
// only past that does it drop the record, and the next batch starts with a
// "gap" record carrying the number dropped, chained like any other.
//
// [Writer.WriteSync] appends at once instead (a denial is in the file before
// the agent is answered). The first write error fails the writer for good:
// it is persistent in practice (EFBIG, ENOSPC, EDQUOT, EIO, the log
// replaced by something that cannot be opened, or [ErrLogFull]), and a log
// that may have lost records must not go on looking complete. [Writer.Failed]
// is closed then, so that the session can be stopped; later writes are
// counted as dropped.
// A Writer is safe for concurrent use.
type Writer struct {
	cfg  Config
	now  func() time.Time
	app  *appender
	kick chan struct{}
	done chan struct{}
	quit chan struct{}

	appMu  sync.Mutex    // serializes the appender: the flusher and WriteSync
	failed chan struct{} // closed on the first write error
	failMu sync.Once

	mu      sync.Mutex
	batch   []Record
	spare   []Record
	dropped uint64        // dropped since the last gap record
	session string        // the session id of the last record written: gap records carry it
	room    chan struct{} // closed when the flusher takes the batch
	closed  bool
	stats   WriterStats
}

// WriterStats counts what a Writer did.
type WriterStats struct {
	Written uint64 // records appended, gap records included (file headers not)
	Gaps    uint64 // gap records written
	Dropped uint64 // records dropped (each one counted in a gap record, or in Err)
	Err     error  // the last write error, if any
}

// Open opens (creating) the log of cfg for appending and starts the flusher.
// With cfg.HMACKeyFile set the chain is keyed.
func Open(cfg Config) (*Writer, error) {
	return open(cfg, time.Now)
}

func open(cfg Config, now func() time.Time) (*Writer, error) {
	cfg = cfg.withDefaults()
	if cfg.Path == "" {
		return nil, errors.New("open audit log: no path")
	}
	var key []byte
	if cfg.HMACKeyFile != "" {
		k, err := ReadKeyFile(cfg.HMACKeyFile)
		if err != nil {
			return nil, err
		}
		key = k
	}
	app, err := newAppender(cfg, key, now)
	if err != nil {
		return nil, err
	}
	w := &Writer{
		cfg:    cfg,
		now:    now,
		app:    app,
		kick:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		quit:   make(chan struct{}),
		batch:  make([]Record, 0, flushAt),
		spare:  make([]Record, 0, flushAt),
		room:   make(chan struct{}),
		failed: make(chan struct{}),
	}
	go w.loop()
	return w, nil
}

// Write queues one record. It fills TS when zero (or out of range) and Type
// when empty (an event); Seq, Prev and Hash are
// set when the record is appended. It returns at once unless the batch is
// full (see [Writer]).
func (w *Writer) Write(r Record) {
	if y := r.TS.Year(); y < 1 || y > 9999 { // zero, or one a reader could not parse
		r.TS = w.now()
	}
	if r.Type == "" {
		r.Type = TypeEvent
	}
	w.mu.Lock()
	if r.SessionID != "" {
		w.session = r.SessionID
	}
	if w.failedLocked() {
		w.stats.Dropped++
		w.dropped++
		w.mu.Unlock()
		return
	}
	if len(w.batch) >= w.cfg.BufferRecords && !w.closed {
		if !w.waitRoom() {
			w.dropped++
			w.stats.Dropped++
			w.mu.Unlock()
			return
		}
	}
	if w.closed {
		w.stats.Dropped++
		w.stats.Err = errors.New("write audit record: writer closed")
		w.mu.Unlock()
		return
	}
	w.batch = append(w.batch, r)
	n := len(w.batch)
	w.mu.Unlock()
	if n == flushAt {
		w.kickFlusher()
	}
}

// WriteSync appends one record, after everything queued before it, and
// returns once it is in the file (write(2) returned; fsync too with
// cfg.Fsync). The head anchor follows with the next batch. It returns the
// writer's error when the record could not be appended: the writer has
// failed then (see [Writer.Failed]).
func (w *Writer) WriteSync(r Record) error {
	if y := r.TS.Year(); y < 1 || y > 9999 {
		r.TS = w.now()
	}
	if r.Type == "" {
		r.Type = TypeEvent
	}
	w.appMu.Lock()
	defer w.appMu.Unlock()
	w.mu.Lock()
	if r.SessionID != "" {
		w.session = r.SessionID
	}
	if err := w.errLocked(); err != nil {
		w.stats.Dropped++
		if !w.closed {
			w.dropped++
		}
		w.mu.Unlock()
		return err
	}
	batch, dropped := w.take()
	w.mu.Unlock()
	if dropped > 0 {
		batch = append(batch, w.gapRecord(dropped))
	}
	batch = append(batch, r)
	err := w.app.appendNow(batch)
	w.done1(batch, dropped, err)
	w.giveBack(batch)
	if err != nil {
		return w.Err()
	}
	return nil
}

// WriteFinal appends a session's last record (its session_end) and
// returns once it is in the file, even on a failed writer: after a gap
// record counting every record dropped since the failure, and past the size
// limit when the failure was [ErrLogFull] (the log is intact then, only
// full). So a session stopped by its audit still says how it ended, unless
// the file cannot be written at all.
func (w *Writer) WriteFinal(r Record) error {
	if y := r.TS.Year(); y < 1 || y > 9999 {
		r.TS = w.now()
	}
	w.appMu.Lock()
	defer w.appMu.Unlock()
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return errors.New("write audit record: writer closed")
	}
	failure := w.stats.Err
	if !w.failedLocked() {
		failure = nil
	}
	batch, dropped := w.take()
	w.mu.Unlock()
	if dropped > 0 {
		batch = append(batch, w.gapRecord(dropped))
	}
	batch = append(batch, r)
	w.app.overflow = errors.Is(failure, ErrLogFull)
	err := w.app.append(batch)
	w.app.overflow = false
	if failure == nil {
		w.done1(batch, dropped, err)
	} else if err == nil {
		w.mu.Lock()
		w.stats.Written += uint64(len(batch))
		w.mu.Unlock()
	}
	w.giveBack(batch)
	return err
}

// Failed is closed when the writer failed: a record could not be
// appended, and the log is no longer a complete account. [Writer.Err] says
// why.
func (w *Writer) Failed() <-chan struct{} { return w.failed }

// Err returns the error that failed the writer, or nil.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.errLocked()
}

func (w *Writer) failedLocked() bool {
	select {
	case <-w.failed:
		return true
	default:
		return false
	}
}

func (w *Writer) errLocked() error {
	if w.failedLocked() {
		return w.stats.Err
	}
	if w.closed {
		return errors.New("write audit record: writer closed")
	}
	return nil
}

// take takes the batch, with w.mu held.
func (w *Writer) take() (batch []Record, dropped uint64) {
	batch, dropped = w.batch, w.dropped
	w.batch, w.spare, w.dropped = w.spare[:0], nil, 0
	close(w.room)
	w.room = make(chan struct{})
	return batch, dropped
}

// done1 accounts for a batch the appender took (err nil) or did not; a
// write error fails the writer.
func (w *Writer) done1(batch []Record, dropped uint64, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil {
		w.stats.Written += uint64(len(batch))
		if dropped > 0 {
			w.stats.Gaps++
		}
		return
	}
	lost := uint64(len(batch))
	if dropped > 0 {
		lost-- // the gap record; its count is carried over below
	}
	w.stats.Err = err
	w.dropped += dropped + lost
	w.stats.Dropped += lost
	w.failMu.Do(func() { close(w.failed) })
}

// gapRecord is the record counting dropped records, in the session of the
// records written through this writer (one writer per session), so that
// `audit sessions` and verify can say which session lost records.
func (w *Writer) gapRecord(dropped uint64) Record {
	w.mu.Lock()
	session := w.session
	w.mu.Unlock()
	return Record{Type: TypeGap, TS: w.now(), Dropped: dropped, SessionID: session}
}

// kickFlusher wakes the flusher before its interval is up.
func (w *Writer) kickFlusher() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// waitRoom waits, with w.mu held on entry and exit, for up to MaxBlock
// until the batch has room. It reports whether it has.
func (w *Writer) waitRoom() bool {
	timer := time.NewTimer(w.cfg.MaxBlock)
	defer timer.Stop()
	for len(w.batch) >= w.cfg.BufferRecords && !w.closed {
		room := w.room
		w.mu.Unlock()
		w.kickFlusher()
		select {
		case <-room:
		case <-timer.C:
			w.mu.Lock()
			return len(w.batch) < w.cfg.BufferRecords
		}
		w.mu.Lock()
	}
	return true
}

// Stats returns what the writer has done so far.
func (w *Writer) Stats() WriterStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// Close appends everything queued, syncs the file to disk and stops the
// writer. It returns the last write error, if any.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	close(w.quit)
	<-w.done
	err := w.app.close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stats.Err != nil {
		return w.stats.Err
	}
	return err
}

func (w *Writer) loop() {
	defer close(w.done)
	tick := time.NewTicker(w.cfg.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-w.kick:
		case <-tick.C:
		case <-w.quit:
			for w.flush() {
			}
			return
		}
		w.flush()
	}
}

// flush takes the batch and appends it. It reports whether there was
// anything to append.
func (w *Writer) flush() bool {
	w.appMu.Lock()
	defer w.appMu.Unlock()
	w.mu.Lock()
	if w.failedLocked() {
		w.stats.Dropped += uint64(len(w.batch))
		w.dropped += uint64(len(w.batch))
		clear(w.batch)
		w.batch = w.batch[:0]
		w.mu.Unlock()
		return false
	}
	batch, dropped := w.take()
	w.mu.Unlock()
	if dropped > 0 {
		batch = append(batch, w.gapRecord(dropped))
	}
	if len(batch) == 0 {
		w.giveBack(batch)
		if w.app.stale {
			if err := w.app.append(nil); err != nil {
				w.done1(nil, 0, err)
			}
		}
		return false
	}
	err := w.app.append(batch)
	w.done1(batch, dropped, err)
	w.giveBack(batch)
	return err == nil
}

func (w *Writer) giveBack(batch []Record) {
	clear(batch)
	w.mu.Lock()
	w.spare = batch[:0]
	w.mu.Unlock()
}
