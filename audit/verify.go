package audit

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"iter"
)

// ErrChainBroken is wrapped by every [ChainError].
var ErrChainBroken = errors.New("audit chain broken")

// ChainError names the first line at which a log stops verifying.
type ChainError struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

func (e *ChainError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// Unwrap makes errors.Is(err, ErrChainBroken) true.
func (e *ChainError) Unwrap() error { return ErrChainBroken }

// Report describes a verified log.
type Report struct {
	Files    []string `json:"files"`
	Records  uint64   `json:"records"` // lines verified, file headers included
	FirstSeq uint64   `json:"first_seq"`
	LastSeq  uint64   `json:"last_seq"`
	LastHash string   `json:"last_hash"`
	Genesis  bool     `json:"genesis"` // the chain starts at the log's very first record, not a rotated-away one
	Alg      string   `json:"alg"`     // algorithm of the last file
	Head     string   `json:"head"`    // what the head anchor said: "" (not checked), "absent", "matches seq N"

	// Torn lists the lines ("file:line") that are not records but sit
	// where a write was cut short (a crash, a full disk): the last line
	// of the log, or a line after which the chain goes on intact from the
	// record before it. Nothing was lost or changed around them.
	Torn []string `json:"torn,omitempty"`
}

// Verify checks the chain over the given files, taken in the order given
// (oldest first): every line parses, every hash is right, every record
// links to the one before it (also across files), every file starts with a
// header. With a key every file must be keyed (HMAC-SHA256). The first
// problem comes back as a *ChainError.
func Verify(paths []string, key []byte) (Report, error) {
	v := verifier{key: key, rep: Report{Files: paths}}
	err := v.run(paths, Scan(paths), nil)
	return v.rep, err
}

// VerifyLog verifies all files of the log at path (see [Files]) under a
// shared lock, and checks them against the head anchor, which detects
// records removed from the end of the newest file.
func VerifyLog(path string, key []byte) (Report, error) {
	var head anchor
	var headOK bool
	files, sizes, err := snapshot(path, func() (err error) {
		head, headOK, err = readHead(path)
		return err
	})
	defer closeAll(files)
	if errors.Is(err, ErrNoLog) && headOK {
		return Report{}, &ChainError{File: path, Line: 0, Reason: fmt.Sprintf("the log was deleted: its head anchor says seq %d was written", head.Seq)}
	}
	if err != nil {
		return Report{}, err
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name()
	}
	v := verifier{key: key, rep: Report{Files: names, Head: "absent"}}
	var want *anchor
	if headOK {
		want = &head
	}
	err = v.run(names, scanSnapshot(files, sizes), want)
	return v.rep, err
}

type verifier struct {
	key     []byte
	rep     Report
	h       *hasher
	prev    *Entry // last good record
	prevRec Record
	found   bool // the head anchor's record was seen
}

func (v *verifier) run(paths []string, entries iter.Seq2[Entry, error], head *anchor) error {
	if len(paths) == 0 {
		return errors.New("verify audit log: no files")
	}
	last := Entry{}
	var torn *ChainError // a line that is not a record, waiting for what follows it
	for e, err := range entries {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrBadLine) {
				return err
			}
			bad := &ChainError{File: e.File, Line: e.Line, Reason: err.Error() + " (a torn write from a crash, or an edit)"}
			if torn != nil || v.prev == nil {
				return cmp.Or(torn, bad)
			}
			torn = bad
			continue
		}
		if err := v.check(e); err != nil {
			if torn != nil {
				return torn // the chain does not go on across it: not a cut-short write
			}
			return err
		}
		if torn != nil {
			v.rep.Torn = append(v.rep.Torn, fmt.Sprintf("%s:%d", torn.File, torn.Line))
			torn = nil
		}
		if head != nil && e.Record.Seq == head.Seq {
			if e.Record.Hash != head.Hash {
				return v.fail(e, fmt.Sprintf("seq %d does not match the head anchor: the log was rewritten", head.Seq))
			}
			v.found = true
		}
		last = e
	}
	if v.rep.Records == 0 {
		return &ChainError{File: paths[len(paths)-1], Line: 1, Reason: "empty log"}
	}
	if torn != nil {
		if torn.File != paths[len(paths)-1] {
			return torn // only the newest file's last line can be cut short without a record after it
		}
		v.rep.Torn = append(v.rep.Torn, fmt.Sprintf("%s:%d", torn.File, torn.Line))
	}
	if head == nil {
		return nil
	}
	if head.Seq > v.rep.LastSeq {
		return &ChainError{File: last.File, Line: last.Line + 1, Reason: fmt.Sprintf(
			"truncated: the log ends at seq %d but its head anchor says seq %d was written", v.rep.LastSeq, head.Seq)}
	}
	if !v.found {
		return &ChainError{File: last.File, Line: last.Line, Reason: fmt.Sprintf(
			"the head anchor (seq %d) is not in the log: the log was replaced", head.Seq)}
	}
	v.rep.Head = fmt.Sprintf("matches seq %d", head.Seq)
	return nil
}

func (v *verifier) fail(e Entry, reason string) error {
	return &ChainError{File: e.File, Line: e.Line, Reason: reason}
}

// check verifies one record: header, hash, link.
func (v *verifier) check(e Entry) error {
	r := &e.Record
	if e.Line == 1 {
		if err := v.startFile(e); err != nil {
			return err
		}
	} else if r.Type == TypeFileStart {
		return v.fail(e, "file header in the middle of a file")
	}
	want := string(v.h.appendHash(nil, r.Prev, e.Canonical))
	if want != r.Hash {
		return v.fail(e, fmt.Sprintf("hash mismatch at seq %d: the record was modified", r.Seq))
	}
	if err := v.link(e); err != nil {
		return err
	}
	if v.rep.Records == 0 {
		v.rep.FirstSeq = r.Seq
		v.rep.Genesis = r.Seq == 1 && r.Prev == genesisHash
	}
	v.rep.Records++
	v.rep.LastSeq, v.rep.LastHash = r.Seq, r.Hash
	v.prevRec = *r
	v.prev = &Entry{File: e.File, Line: e.Line}
	return nil
}

// startFile checks the header of a file and picks its hash algorithm.
func (v *verifier) startFile(e Entry) error {
	r := &e.Record
	if r.Type != TypeFileStart {
		return v.fail(e, "the file does not start with a file_start header (its beginning was removed)")
	}
	if v.key != nil && r.Alg != AlgHMACSHA256 {
		return v.fail(e, fmt.Sprintf("a key was given but the file is chained with %q: it was not written with the key", r.Alg))
	}
	if v.key == nil && r.Alg == AlgHMACSHA256 {
		return fmt.Errorf("verify %s: the chain is keyed (hmac-sha256): pass the key file (--key-file)", e.File)
	}
	h, err := newHasher(r.Alg, v.key)
	if err != nil {
		return v.fail(e, err.Error())
	}
	v.h = h
	v.rep.Alg = r.Alg
	return nil
}

// link checks that a record follows the previous good one.
func (v *verifier) link(e Entry) error {
	r, p := &e.Record, &v.prevRec
	if v.prev == nil {
		return nil
	}
	where := ""
	if e.Line == 1 {
		where = fmt.Sprintf("rotation link broken: %s does not continue %s: ", e.File, v.prev.File)
	}
	switch {
	case r.Seq <= p.Seq:
		return v.fail(e, fmt.Sprintf("%sseq %d after seq %d: a record was inserted, duplicated or reordered", where, r.Seq, p.Seq))
	case r.Seq > p.Seq+1:
		return v.fail(e, fmt.Sprintf("%sseq jumps from %d to %d: %d record(s) removed", where, p.Seq, r.Seq, r.Seq-p.Seq-1))
	case r.Prev != p.Hash:
		return v.fail(e, fmt.Sprintf("%sprev of seq %d is not the hash of seq %d: a record was replaced", where, r.Seq, p.Seq))
	}
	return nil
}
