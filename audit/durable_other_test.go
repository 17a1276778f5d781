//go:build !linux

package audit

import "syscall"

var errENOSPC = syscall.ENOSPC

func platformFailCases() []failCase { return nil }
