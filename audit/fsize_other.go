//go:build !unix

package audit

import "errors"

var errFileTooLarge = errors.New("file too large")

func raiseFileSizeLimit() bool { return false }
