package adversarial

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// postmortem runs in the sandbox: its child makes trapped calls until the
// supervisor is gone (a trapped open fails with ENOSYS), then tries what a
// hostile agent would: a trapped open, the secret, and its own seccomp
// listener (the kernel frees the one-listener slot with the supervisor's).
// The agent's own process dies with the supervisor (PDEATHSIG); the child
// survives unless the session kills its whole tree.
const postmortem = `#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 3) return 2;
	pid_t c = fork();
	if (c) { waitpid(c, NULL, 0); return 0; }
	printf("READY\n");
	int gone = 0;
	time_t end = time(NULL) + 30;
	for (long i = 0; !gone && time(NULL) < end; i++) {
		int fd = open("README.md", O_RDONLY);
		if (fd >= 0) close(fd);
		else if (errno == ENOSYS) gone = 1;
		if (argv[2][0] == 's') usleep(5000); /* sigkill: slow; cpu: as fast as the supervisor answers */
	}
	printf("supervisor gone: %s\n", gone ? "yes" : "no (timeout)");
	int fd = open("README.md", O_RDONLY);
	if (fd >= 0) printf("ADV-ACCESS: a trapped open succeeded after the supervisor died\n");
	else printf("open after: %s\n", strerror(errno));
	fd = open(argv[1], O_RDONLY);
	if (fd >= 0) { char b[256]; int n = read(fd, b, 255); b[n > 0 ? n : 0] = 0; printf("secret: %s\n", b); }
	else printf("secret: %s\n", strerror(errno));
	struct sock_filter f[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
	struct sock_fprog p = {1, f};
	long l = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &p);
	if (l >= 0) printf("ADV-TAKEOVER: own seccomp listener installed (fd %ld)\n", l);
	else printf("own listener: %s\n", strerror(errno));
	printf("DONE\n");
	return 0;
}
`

// TestSupervisorKilledMidSession kills the supervisor from outside in the
// middle of a session, by SIGKILL and by a CPU time limit set on its pid,
// and checks that the sandbox gains nothing: every trapped call fails, the
// secret stays unreadable, the agent cannot install its own listener
// (needs the filter's NEW_LISTENER row, branch h-filter) and `audit verify`
// flags the session that has no end record (needs h-audit). Thread
// exhaustion, the third way, is attack 120 (it no longer kills).
func TestSupervisorKilledMidSession(t *testing.T) {
	if testing.Short() {
		t.Skip("starts sandboxes; skipped with -short")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is needed")
	}
	dir := sharedTempDir(t)
	src := filepath.Join(dir, "postmortem.c")
	prog := filepath.Join(dir, "postmortem")
	if err := os.WriteFile(src, []byte(postmortem), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-O2", "-o", prog, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	bin := buildBroker(t)
	who := []*Account{nil}
	if os.Geteuid() == 0 {
		who = append(who, accounts(t)...)
	}
	kills := []struct {
		name string
		kill func(pid int, as *Account) error
	}{
		{"sigkill", func(pid int, _ *Account) error { return syscall.Kill(pid, syscall.SIGKILL) }},
		{"cpu", func(pid int, as *Account) error {
			if as == nil {
				return unix.Prlimit(pid, unix.RLIMIT_CPU, &unix.Rlimit{Cur: 1, Max: 1}, nil)
			}
			// As the user who owns it, as another of that user's
			// processes would (root may lack CAP_SYS_RESOURCE in a container).
			cmd := exec.Command("prlimit", "--pid", strconv.Itoa(pid), "--cpu=1:1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(as.UID), Gid: uint32(as.GID)}}
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("prlimit: %v: %s", err, out)
			}
			return nil
		}},
	}
	for _, acct := range who {
		for _, k := range kills {
			name := "self/" + k.name
			if acct != nil {
				name = acct.Name + "/" + k.name
			}
			t.Run(name, func(t *testing.T) {
				parent, err := WorldParent(acct)
				if err != nil {
					t.Fatal(err)
				}
				w, err := NewWorld(parent, acct)
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				if err := w.Prepare(); err != nil {
					t.Fatal(err)
				}
				outPath := filepath.Join(dir, "out-"+strings.ReplaceAll(name, "/", "-"))
				out, err := os.Create(outPath)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				os.Chmod(outPath, 0o666)
				cmd := exec.Command(bin, "exec", "--quiet", "--profile", "generic", "--audit", w.auditLog(), "--", prog, w.Vars["SECRET"], k.name)
				cmd.Dir, cmd.Env, cmd.SysProcAttr = w.Project, w.env(), w.procAttr()
				cmd.Stdout, cmd.Stderr = out, out
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what the session left
				exited := make(chan struct{})
				go func() { cmd.Wait(); close(exited) }()
				text := func() string { b, _ := os.ReadFile(outPath); return string(b) }
				waitText := func(s string, d time.Duration) bool {
					for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
						if strings.Contains(text(), s) {
							return true
						}
					}
					return false
				}
				if !waitText("READY", 10*time.Second) {
					t.Fatalf("the sandbox did not start: %s", text())
				}
				time.Sleep(200 * time.Millisecond) // mid-session: trapped calls going on
				if err := k.kill(cmd.Process.Pid, acct); err != nil {
					t.Fatalf("kill the supervisor: %v", err)
				}
				select {
				case <-exited:
				case <-time.After(20 * time.Second):
					t.Fatalf("the supervisor survived %s", k.name)
				}
				waitText("DONE", 10*time.Second) // a survivor reports; a killed tree says nothing
				got := text()
				t.Logf("after the supervisor died:\n%s", got)
				for _, leak := range w.Leaks(got) {
					t.Errorf("leaked %s", leak)
				}
				if strings.Contains(got, "ADV-ACCESS") {
					t.Error("a trapped call succeeded after the supervisor died")
				}
				if strings.Contains(got, "ADV-TAKEOVER") {
					t.Error("the agent installed its own seccomp listener after the supervisor died (the filter must refuse NEW_LISTENER: branch h-filter)")
				}
				if msg, err := exec.Command(bin, "audit", "verify", w.auditLog()).CombinedOutput(); err == nil {
					t.Errorf("audit verify accepts a session whose supervisor was killed (no session_end: branch h-audit): %s", msg)
				}
			})
		}
	}
}
