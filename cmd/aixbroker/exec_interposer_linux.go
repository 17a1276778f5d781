package main

import (
	"fmt"
	"io"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/interposer"
	"github.com/aixbroker/aixbroker/notify"
	"github.com/aixbroker/aixbroker/policy"
)

// interposerFD is the connector's first possible descriptor in the agent
// (ExtraFiles start at 4).
const interposerFD = 4

// setupInterposer installs the LD_PRELOAD library for this session and
// starts its server, changing cfg: the broker also lets the sandbox read
// (never change) the library's directory, the agent inherits the connector
// and preloads the library. The library is cosmetic, so a failure here is a
// warning and the session runs without it. The returned function stops the
// server and removes the directory.
func setupInterposer(warn io.Writer, eng *policy.Engine, cfg *notify.Config) func() {
	in, err := interposer.New("")
	if err != nil {
		fmt.Fprintf(warn, "aixbroker: warning: interposer off: %v\n", err)
		return func() {}
	}
	b := cfg.Broker.WithDecider(func(d broker.Decider) broker.Decider { return broker.ReadOnlyDir(d, in.Dir) })
	snap := broker.BuildSnapshot(eng)
	snap.Rules = append([]broker.SnapRule{{Rank: broker.RankRead, Glob: in.Dir + "/**"}}, snap.Rules...)
	srv, conn, err := broker.NewInterposerServer(b, snap, notify.StubFD)
	if err == nil {
		var data []byte
		if data, err = broker.Encode(snap); err == nil {
			err = in.WriteSnapshot(data)
		}
	}
	if err == nil {
		err = in.Seal()
	}
	if err != nil {
		fmt.Fprintf(warn, "aixbroker: warning: interposer off: %v\n", err)
		if srv != nil {
			srv.Close()
			conn.Close()
		}
		in.Remove()
		return func() {}
	}
	go srv.Serve()
	cfg.Broker = b
	cfg.Env = in.Env(cfg.Env, interposerFD+len(cfg.ExtraFiles))
	cfg.ExtraFiles = append(cfg.ExtraFiles, conn)
	cfg.Landlock.Read = append(cfg.Landlock.Read, in.Dir)
	return func() {
		conn.Close()
		srv.Close()
		in.Remove()
	}
}
