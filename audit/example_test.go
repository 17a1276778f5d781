package audit_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/aixbroker/aixbroker/audit"
)

// A session as the broker writes it, then verified and queried.
func Example() {
	dir, err := os.MkdirTemp("", "audit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	w, err := audit.Open(audit.Config{Path: filepath.Join(dir, "audit.jsonl")})
	if err != nil {
		log.Fatal(err)
	}
	session := audit.NewSessionID()
	w.Write(audit.Record{Type: audit.TypeSessionStart, SessionID: session, Profile: "claude-code", Cmd: []string{"claude"}})
	w.Write(audit.Record{Type: audit.TypeEvent, SessionID: session, Profile: "claude-code", Op: "read",
		Syscall: "openat", Path: "/home/u/.ssh/id_rsa", Decision: "deny", Rule: "deny:~/.ssh/id_*", Result: "ENOENT"})
	w.Write(audit.Record{Type: audit.TypeSessionEnd, SessionID: session, ExitStatus: 0})
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	rep, err := audit.VerifyLog(filepath.Join(dir, "audit.jsonl"), nil)
	fmt.Println("records:", rep.Records, "head:", rep.Head, "error:", err)

	files, _ := audit.Files(filepath.Join(dir, "audit.jsonl"))
	for e, err := range audit.Query(files, audit.Filter{DeniedOnly: true}) {
		if err == nil {
			fmt.Println(e.Record.Op, e.Record.Path, e.Record.Decision, e.Record.Rule)
		}
	}
	// Output:
	// records: 4 head: matches seq 4 error: <nil>
	// read /home/u/.ssh/id_rsa deny deny:~/.ssh/id_*
}
