//go:build unix

package audit

import "syscall"

// oNoFollow makes an open fail on a symbolic link instead of following it:
// the log's folder may be one the agent can reach, and the supervisor must
// never write (or read back) a file of the agent's choice through a link.
const oNoFollow = syscall.O_NOFOLLOW
