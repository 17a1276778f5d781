package adversarial

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// World is one case's fake machine: Root holds home/ (HOME, with the project
// proj/ inside), outside/ (a secret beyond HOME) and run/ (sockets of
// outside services, XDG_RUNTIME_DIR). Scratch is a directory under /tmp the
// sandbox may use.
type World struct {
	Root, Home, Project, Run, Scratch string
	Tag                               string
	Canaries                          map[string]string // name → secret string that must never show
	Vars                              map[string]string // written to $PROJECT/.adv/world.env for the case
	pristine                          map[string]bool   // files holding a canary on purpose (not a leak)
	before                            map[string]string // integrity snapshot
	owner                             *Account
}

// seed is the fake home, relative to Root: path → content. %s is the tag.
var seed = map[string]string{
	"home/.ssh/id_rsa":            "CANARY-SSH-%s",
	"home/.ssh/id_ed25519":        "CANARY-ED-%s",
	"home/.ssh/known_hosts":       "github.com ssh-ed25519 AAAA\n",
	"home/.ssh/config":            "Host *\n  IdentitiesOnly yes\n",
	"home/.aws/credentials":       "[default]\naws_secret_access_key = CANARY-AWS-%s\n",
	"home/Documents/notes.txt":    "CANARY-DOC-%s",
	"home/other-project/.env":     "TOKEN=CANARY-OTHER-%s\n",
	"home/.bash_history":          "export TOKEN=CANARY-HIST-%s\n",
	"home/integrity.txt":          "must stay exactly like this %s\n",
	"home/.bashrc":                "# the user's shell start-up file %s\n",
	"home/.gitconfig":             "[user]\n\tname = adv\n\temail = adv@example.invalid\n[init]\n\tdefaultBranch = main\n",
	"home/.local/bin/tool":        "#!/bin/sh\necho tool\n",
	"outside/secret.txt":          "CANARY-OUT-%s",
	"home/proj/.env":              "DATABASE_URL=postgres://user:CANARY-ENV-%s@db/app\nPORT=5432\n",
	"home/proj/tools/secret.pem":  "-----BEGIN PRIVATE KEY-----\nCANARY-PEM-%s\n-----END PRIVATE KEY-----\n",
	"home/proj/.env.example":      "DATABASE_URL=postgres://localhost/app\nPORT=5432\n",
	"home/proj/README.md":         "hello from the project\n",
	"home/proj/src/main.c":        "#include <stdio.h>\nint main(void){puts(\"built ok\");return 0;}\n",
	"home/proj/src/util.py":       "def double(x):\n    return 2 * x\n",
	"home/proj/package.json":      "{\"name\":\"proj\",\"version\":\"1.0.0\"}\n",
	"home/proj/docs/guide.md":     "# Guide\nsearch-me-in-docs\n",
	"home/proj/.gitignore":        ".adv/\n",
	"home/proj/testdata/data.txt": "line one\nline two\n",
}

// NewWorld creates a world under parent, owned by who (nil: the caller).
func NewWorld(parent string, who *Account) (*World, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("make tag: %w", err)
	}
	tag := hex.EncodeToString(b)
	root, err := os.MkdirTemp(parent, "aixadv-")
	if err != nil {
		return nil, fmt.Errorf("create world: %w", err)
	}
	w := &World{Root: root, Home: filepath.Join(root, "home"), Run: filepath.Join(root, "run"), Tag: tag,
		Canaries: map[string]string{}, pristine: map[string]bool{}, owner: who}
	w.Project = filepath.Join(w.Home, "proj")
	w.Scratch = filepath.Join(os.TempDir(), "aixadv-"+tag)
	if who != nil {
		os.Chmod(root, 0o755) // services started as who (ssh-agent, dbus-daemon) live below it
	}
	if err := w.populate(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

func (w *World) populate() error {
	for rel, content := range seed {
		text := strings.ReplaceAll(content, "%s", w.Tag)
		p := filepath.Join(w.Root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("seed world: %w", err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			return fmt.Errorf("seed world: %w", err)
		}
		if i := strings.Index(text, "CANARY-"); i >= 0 {
			secret := text[i:]
			secret = secret[:strings.IndexAny(secret+"\n@", "\n@")]
			w.Canaries[rel] = secret
			w.pristine[p] = true
		}
	}
	os.Chmod(filepath.Join(w.Home, ".local/bin/tool"), 0o755)
	for _, d := range []string{w.Run, w.Scratch, filepath.Join(w.Home, ".aixgate"), filepath.Join(w.Project, ".adv")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("seed world: %w", err)
		}
	}
	w.Canaries["broker-env"] = "CANARY-ENVVAR-" + w.Tag
	if err := w.seedMetadata(); err != nil {
		return err
	}
	if err := w.gitInit(); err != nil {
		return err
	}
	w.Vars = map[string]string{
		"HOME": w.Home, "PROJECT": w.Project, "OUTSIDE": filepath.Join(w.Root, "outside/secret.txt"),
		"SECRET": filepath.Join(w.Home, ".ssh/id_rsa"), "SCRATCH": w.Scratch, "RUNDIR": w.Run,
		"INTEGRITY": filepath.Join(w.Home, "integrity.txt"), "TAG": w.Tag,
	}
	return nil
}

// gitInit makes the project a git repository with one commit, as the
// user would have it.
func (w *World) gitInit() error {
	cmd := exec.Command("/bin/sh", "-c", "git init -q . && git add README.md src && git commit -qm init")
	cmd.Dir = w.Project
	cmd.Env = []string{"HOME=" + w.Home, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git init project: %v: %s", err, out)
	}
	return nil
}

// Prepare writes world.env, chowns the world to its owner and takes the
// integrity snapshot. Call it after the services and case files are in.
func (w *World) Prepare() error {
	var b strings.Builder
	keys := make([]string, 0, len(w.Vars))
	for k := range w.Vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, w.Vars[k])
	}
	if err := os.WriteFile(filepath.Join(w.Project, ".adv/world.env"), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write world.env: %w", err)
	}
	if w.owner != nil {
		if err := w.chown(); err != nil {
			return err
		}
	}
	snap, err := w.snapshot()
	if err != nil {
		return err
	}
	w.before = snap
	return nil
}

func (w *World) chown() error {
	os.Chmod(w.Root, 0o755)
	for _, top := range []string{w.Root, w.Scratch} {
		err := filepath.WalkDir(top, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p == w.Root {
				return nil
			}
			return os.Lchown(p, w.owner.UID, w.owner.GID)
		})
		if err != nil {
			return fmt.Errorf("chown world: %w", err)
		}
	}
	return nil
}

// writable are the parts of the world the policy lets the sandbox change;
// the project's git hooks and policy file are watched all the same.
func (w *World) writable(p string) bool {
	if p == filepath.Join(w.Project, ".aixgate.yaml") || under(p, filepath.Join(w.Project, ".git/hooks")) {
		return false
	}
	for _, d := range []string{w.Project, filepath.Join(w.Home, ".aixgate"), filepath.Join(w.Home, ".cache"), filepath.Join(w.Home, ".npm")} {
		if under(p, d) {
			return true
		}
	}
	return false
}

func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// snapshot maps every path of the world the sandbox must not change to a
// description of its type, mode, owner and content.
func (w *World) snapshot() (map[string]string, error) {
	out := map[string]string{}
	add := func(p string) {
		st, err := os.Lstat(p)
		if err != nil {
			return
		}
		desc := fmt.Sprintf("%v %d %s", st.Mode(), st.Size(), ownerAndXattrs(p))
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			desc += " -> " + t
		case st.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			desc += " " + hex.EncodeToString(sum(data))
		}
		out[p] = desc
	}
	hooks := filepath.Join(w.Project, ".git/hooks")
	err := filepath.WalkDir(w.Root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case !w.writable(p):
			add(p)
		case d.IsDir() && !under(hooks, p):
			return filepath.SkipDir
		}
		return nil // a writable file, or a directory on the way to the hooks
	})
	add(filepath.Join(w.Project, ".aixgate.yaml"))
	// Redacted files sit in the writable project but are never changed.
	add(filepath.Join(w.Project, ".env"))
	add(filepath.Join(w.Project, "tools/secret.pem"))
	return out, err
}

// Changed lists what changed outside the sandbox's reach since Prepare.
func (w *World) Changed() []string {
	now, _ := w.snapshot()
	var out []string
	for p, was := range w.before {
		if got, ok := now[p]; !ok {
			out = append(out, "deleted "+w.rel(p))
		} else if got != was {
			out = append(out, "modified "+w.rel(p))
		}
	}
	for p := range now {
		if _, ok := w.before[p]; !ok {
			out = append(out, "created "+w.rel(p))
		}
	}
	sort.Strings(out)
	return out
}

func (w *World) rel(p string) string {
	r, err := filepath.Rel(w.Root, p)
	if err != nil {
		return p
	}
	return r
}

// Leaks lists the canaries found in text or in any file the sandbox may
// write (the project, the scratch directory), other than their originals.
func (w *World) Leaks(text string) []string {
	var out []string
	seen := map[string]bool{}
	look := func(where, s string) {
		for name, c := range w.Canaries {
			if strings.Contains(s, c) && !seen[name+where] {
				seen[name+where] = true
				out = append(out, fmt.Sprintf("%s in %s", name, where))
			}
		}
	}
	look("output", text)
	for _, top := range []string{w.Project, w.Scratch} {
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || w.pristine[p] {
				return nil
			}
			if info, err := d.Info(); err != nil || info.Size() > 4<<20 {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil {
				look(w.rel(p), string(data))
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// Close removes the world.
func (w *World) Close() error {
	clearFlags(w.Root)
	err := errors.Join(os.RemoveAll(w.Root), os.RemoveAll(w.Scratch))
	if err != nil {
		return fmt.Errorf("remove world: %w", err)
	}
	return nil
}
