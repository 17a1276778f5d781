package fsops

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir)
	if err := os.MkdirAll(filepath.Join(dir, "d", "deep", "er"), 0o755); err != nil {
		t.Fatal(err)
	}
	dirfd := openDir(t, dir)
	tests := []struct {
		name    string
		limit   int
		want    []string
		wantErr error
	}{
		{name: "d", limit: 100, want: []string{"deep", "deep/er", "x"}},
		{name: "e", limit: 100, want: nil},
		{name: "f", limit: 100, want: nil},
		{name: "dlink", limit: 100, want: nil}, // a symlink to a directory moves as a symlink
		{name: "d", limit: 2, wantErr: ErrTooMany},
	}
	for _, tt := range tests {
		var got []string
		err := withParent(hostTarget(), dirfd, tt.name, func(p Parent) error {
			return Walk(p, tt.limit, func(rel string) error { got = append(got, rel); return nil })
		})
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("Walk(%s): err %v, want %v", tt.name, err, tt.wantErr)
			continue
		}
		if tt.wantErr != nil {
			continue
		}
		slices.Sort(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Walk(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWalkTooDeep(t *testing.T) {
	dir := t.TempDir()
	deep := dir
	for range maxWalkDepth + 2 {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	err := withParent(hostTarget(), openDir(t, dir), "d", func(p Parent) error {
		return Walk(p, 1<<20, func(string) error { return nil })
	})
	if !errors.Is(err, ErrTooMany) {
		t.Errorf("Walk of a %d-level tree: %v, want ErrTooMany", maxWalkDepth+2, err)
	}
}
