//go:build !linux

package audit

func platformFailCases() []failCase { return nil }
