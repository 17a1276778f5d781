package compat

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// maxScan bounds how much of one file the leak scan reads.
const maxScan = 32 << 20

// scanLeaks finds every canary in the request bodies the model server
// received and in every file of the fixture except the canaries' own
// sources. Compressed files (git objects) are read as they are, so a canary
// inside one is not seen; the request bodies are the primary check.
func scanLeaks(fx *Fixture, reqs []Request) []Leak {
	seen := map[Leak]bool{}
	for _, c := range fx.Canary {
		for _, r := range reqs {
			if bytes.Contains([]byte(r.Body), []byte(c)) {
				seen[Leak{Canary: c, Where: "request " + r.Path}] = true
			}
		}
	}
	_ = filepath.WalkDir(fx.Root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || fx.Sources[path] {
			return nil
		}
		data, err := readHead(path)
		if err != nil {
			return nil
		}
		for _, c := range fx.Canary {
			if bytes.Contains(data, []byte(c)) {
				rel, _ := filepath.Rel(fx.Root, path)
				seen[Leak{Canary: c, Where: "file " + rel}] = true
			}
		}
		return nil
	})
	leaks := make([]Leak, 0, len(seen))
	for l := range seen {
		leaks = append(leaks, l)
	}
	sort.Slice(leaks, func(i, j int) bool {
		if leaks[i].Where != leaks[j].Where {
			return leaks[i].Where < leaks[j].Where
		}
		return leaks[i].Canary < leaks[j].Canary
	})
	return leaks
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxScan))
}
