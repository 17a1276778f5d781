//go:build !linux

package bench

import (
	"context"
	"errors"
	"time"
)

const fuseName = "go-fuse"

// fuseSide is skipped: the go-fuse side is measured on Linux only.
func fuseSide(string, string) Side {
	return Side{Name: fuseName, Wrap: func(argv []string) []string { return argv }, NoStartup: true,
		Skip: "the go-fuse side runs on Linux only"}
}

type fuseMount struct{ took time.Duration }

func mountFuse(context.Context, string, string, string, bool) (*fuseMount, error) {
	return nil, errors.New("the go-fuse side runs on Linux only")
}

func (*fuseMount) stop() int64 { return 0 }
