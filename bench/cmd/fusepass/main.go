// Command fusepass serves a go-fuse loopback (passthrough) file system of
// one directory on a mount point: the benchmark's go-fuse side, the design
// the requirements document started from. `aixbroker bench --fuse` starts
// it as a child, waits for the line "ready" on its standard output, runs the
// same operations with paths under the mount, and stops it with SIGTERM.
//
// It is a separate binary so that go-fuse is not linked into aixbroker, and
// so that a wedged server can be killed and its mount detached without
// taking the benchmark with it. It is built by `make bench` only.
//
// As root it mounts with mount(2) directly (no fusermount3 needed); as any
// other user it needs fusermount3 and access to /dev/fuse. On SIGINT,
// SIGTERM or SIGHUP it unmounts (detaches, if the mount is busy) and exits.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

func main() {
	source := flag.String("source", "", "`dir`ectory to serve")
	mnt := flag.String("mount", "", "mount point (an empty `dir`ectory)")
	debug := flag.Bool("debug", false, "log every FUSE request")
	kernel := flag.Bool("kernel-passthrough", true, "let the kernel read and write open files directly (FUSE passthrough, Linux 6.9, root); false: every read and write goes through this server")
	flag.Parse()
	if *source == "" || *mnt == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: fusepass -source DIR -mount DIR")
		os.Exit(2)
	}
	if err := serve(*source, *mnt, *debug, *kernel); err != nil {
		fmt.Fprintln(os.Stderr, "fusepass:", err)
		os.Exit(1)
	}
}

func serve(source, mnt string, debug, kernel bool) error {
	source, err := filepath.Abs(source)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", source, err)
	}
	root, err := fs.NewLoopbackRoot(source)
	if err != nil {
		return fmt.Errorf("open loopback root %s: %w", source, err)
	}
	if lb, ok := root.(*fs.LoopbackNode); ok && !kernel {
		root = &serverReads{lb}
	}
	// go-fuse's own defaults (what fs.Mount uses without options): one
	// second of entry and attribute caching in the kernel.
	second := time.Second
	asRoot := os.Geteuid() == 0
	opts := &fs.Options{
		EntryTimeout: &second,
		AttrTimeout:  &second,
		MountOptions: fuse.MountOptions{
			FsName:            source,
			Name:              "aixbench",
			DirectMount:       asRoot,
			DirectMountStrict: asRoot,
			Debug:             debug,
		},
	}
	// Signals are caught before the mount: one that arrives while mounting
	// still unmounts.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	server, err := fs.Mount(mnt, root, opts)
	if err != nil {
		return fmt.Errorf("mount %s on %s: %w", source, mnt, err)
	}
	fmt.Println("ready")
	go func() {
		<-sig
		if err := server.Unmount(); err != nil {
			// Busy (a benchmark process still inside): detach it and
			// exit. The mount leaves the namespace at once; closing
			// /dev/fuse aborts the connection, so whatever is still
			// inside gets errors instead of waiting for this server.
			if derr := detach(mnt); derr != nil {
				fmt.Fprintf(os.Stderr, "fusepass: unmount %s: %v; detach: %v\n", mnt, err, derr)
				os.Exit(1)
			}
			os.Exit(0)
		}
	}()
	server.Wait()
	return nil
}
