package fsops

// Inode identifies a file independently of its names.
type Inode struct{ Dev, Ino uint64 }

// DenyInodes is the set of inodes of the policy's concrete denied files,
// so that a hard link made before the session (a copy of ~/.ssh/id_rsa's
// inode under the project) is still recognised. It is built once and read
// concurrently.
type DenyInodes struct {
	set map[Inode]string
}

// Contains reports whether (dev, ino) is one of the denied files.
func (d *DenyInodes) Contains(dev, ino uint64) bool {
	_, ok := d.Lookup(dev, ino)
	return ok
}

// Lookup returns the denied path recorded for (dev, ino), if that path
// still names that inode: a recorded file that was since replaced (an
// audit head file rewritten by rename) frees its inode number, which the
// file system may give to a new, unrelated file.
func (d *DenyInodes) Lookup(dev, ino uint64) (string, bool) {
	if d == nil {
		return "", false
	}
	p, ok := d.set[Inode{Dev: dev, Ino: ino}]
	if !ok || !stillAt(p, dev, ino) {
		return "", false
	}
	return p, true
}

// Len is the number of inodes recorded.
func (d *DenyInodes) Len() int {
	if d == nil {
		return 0
	}
	return len(d.set)
}
