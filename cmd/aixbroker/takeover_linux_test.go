package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// takeover is the first two steps of the review's takeover of 1f7ac63:
// kill the supervisor through its CPU limit, then install a listener of
// one's own. Both must be refused on registers, under every profile.
const takeover = `#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
	struct rlimit cpu = {1, 1};
	long r = syscall(SYS_prlimit64, getppid(), RLIMIT_CPU, &cpu, NULL);
	printf("prlimit-parent %s\n", r == 0 ? "SET" : strerror(errno));
	struct sock_filter allow[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
	struct sock_fprog prog = {1, allow};
	long l = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	printf("listener %s\n", l >= 0 ? "INSTALLED" : strerror(errno));
	return 0;
}
`

// TestTakeoverRefusedEveryProfile: the filter rows that stop the takeover
// do not depend on the policy; this shows it for every built-in profile.
func TestTakeoverRefusedEveryProfile(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed")
	}
	bin := buildBinary(t)
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			src := filepath.Join(w.project, "takeover.c")
			prog := filepath.Join(w.project, "takeover")
			if err := os.WriteFile(src, []byte(takeover), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("gcc", "-O1", "-o", prog, src).CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			os.Chmod(prog, 0o755)
			for _, profile := range policy.ProfileNames() {
				t.Run(profile, func(t *testing.T) {
					cmd := exec.Command(bin, "exec", "--quiet", "--profile", profile, "--audit", filepath.Join(w.home, ".aixgate", "audit.jsonl"), "--", prog)
					cmd.Dir = w.project
					cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
					if who.uid >= 0 {
						cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.gid)}}
					}
					var out bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &out
					cmd.Run()
					got := out.String()
					if !strings.Contains(got, "prlimit-parent Operation not permitted") || !strings.Contains(got, "listener Device or resource busy") {
						t.Errorf("under %s: %s", profile, got)
					}
				})
			}
		})
	}
}
