package adversarial

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Content-bearing metadata of denied files (issue 14 item 11): extended
// attribute values and names, and symlink targets, seeded with canaries
// the sandbox must never print. setxattr is refused inside the sandbox, so
// the world carries them from the start.

// metaXattrs are the extended attributes the world seeds: path relative to
// Root, attribute name, value. %s in either is the tag; every one holds a
// canary (a name canary is one the agent would see in listxattr).
var metaXattrs = []struct{ file, name, value string }{
	{"home/.ssh/id_rsa", "user.aixadv", "CANARY-XATTR-%s"},
	{"home/.ssh", "user.aixadv", "CANARY-XDIR-%s"},
	{"home/.aws/credentials", "user.CANARY-XNAME-%s", "1"},
	{"outside/secret.txt", "user.aixadv", "CANARY-XOUT-%s"},
	{"home/proj/.env", "user.aixadv", "CANARY-XENV-%s"},
}

// metaLinks are symlinks in denied folders whose target strings are
// canaries (dangling: nothing else reveals them).
var metaLinks = []struct{ link, target string }{
	{"home/.ssh/pointer", "CANARY-LINK-%s"},
	{"home/.aws/link", "../CANARY-LINKAWS-%s/key"},
	{"outside/link", "CANARY-LINKOUT-%s"},
}

// seedMetadata adds the xattrs and symlinks above to the world. A
// filesystem without user xattrs is an error: the cases would prove
// nothing there.
func (w *World) seedMetadata() error {
	for _, x := range metaXattrs {
		name, value := strings.ReplaceAll(x.name, "%s", w.Tag), strings.ReplaceAll(x.value, "%s", w.Tag)
		if err := unix.Setxattr(filepath.Join(w.Root, x.file), name, []byte(value), 0); err != nil {
			return fmt.Errorf("seed xattr %s on %s: %w", name, x.file, err)
		}
		w.Canaries["xattr:"+x.file] = "CANARY-" + canaryTail(name, value)
	}
	for _, l := range metaLinks {
		target := strings.ReplaceAll(l.target, "%s", w.Tag)
		if err := os.Symlink(target, filepath.Join(w.Root, l.link)); err != nil {
			return fmt.Errorf("seed symlink %s: %w", l.link, err)
		}
		w.Canaries["link:"+l.link] = "CANARY-" + canaryTail(target)
	}
	return nil
}

// canaryTail returns what follows "CANARY-" in the first string holding
// it, up to a slash.
func canaryTail(s ...string) string {
	for _, v := range s {
		for i := 0; i+7 <= len(v); i++ {
			if v[i:i+7] == "CANARY-" {
				rest := v[i+7:]
				for j := 0; j < len(rest); j++ {
					if rest[j] == '/' {
						return rest[:j]
					}
				}
				return rest
			}
		}
	}
	return "missing"
}
