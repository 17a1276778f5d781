package fsops

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Creds are the credentials the kernel checks file access with, as read
// from /proc/<tid>/status of the calling thread.
type Creds struct {
	UID    [4]uint32 // real, effective, saved, filesystem
	GID    [4]uint32 // real, effective, saved, filesystem
	Groups []uint32  // supplementary groups
	CapEff uint64    // effective capability set
	Umask  uint32
}

// FSUID is the uid file access is checked with.
func (c Creds) FSUID() uint32 { return c.UID[3] }

// FSGID is the gid file access is checked with.
func (c Creds) FSGID() uint32 { return c.GID[3] }

// ParseStatus extracts Creds from the text of /proc/<tid>/status. Every
// field must be present (Umask appeared in Linux 4.7): a partial answer is
// an error, never a guess.
func ParseStatus(status []byte) (Creds, error) {
	var c Creds
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		var err error
		switch key {
		case "Uid":
			err = parseIDs(val, &c.UID)
		case "Gid":
			err = parseIDs(val, &c.GID)
		case "Groups":
			c.Groups, err = parseGroups(val)
		case "CapEff":
			c.CapEff, err = strconv.ParseUint(val, 16, 64)
		case "Umask":
			var m uint64
			m, err = strconv.ParseUint(val, 8, 32)
			c.Umask = uint32(m) & 0o777
		default:
			continue
		}
		if err != nil {
			return Creds{}, fmt.Errorf("parse status field %s: %w", key, err)
		}
		seen[key] = true
	}
	for _, k := range []string{"Uid", "Gid", "Groups", "CapEff", "Umask"} {
		if !seen[k] {
			return Creds{}, fmt.Errorf("parse status: field %s missing", k)
		}
	}
	return c, nil
}

func parseIDs(val string, ids *[4]uint32) error {
	f := strings.Fields(val)
	if len(f) != 4 {
		return fmt.Errorf("want 4 ids, got %d", len(f))
	}
	for i, s := range f {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return err
		}
		ids[i] = uint32(n)
	}
	return nil
}

func parseGroups(val string) ([]uint32, error) {
	f := strings.Fields(val)
	groups := make([]uint32, 0, len(f))
	for _, s := range f {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return nil, err
		}
		groups = append(groups, uint32(n))
	}
	slices.Sort(groups)
	return slices.Compact(groups), nil
}
