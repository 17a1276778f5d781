package main

import (
	"context"

	"github.com/aixbroker/aixbroker/macos"
)

// runSandbox runs the agent under sandbox-exec with a profile generated
// from the policy (see docs/macos.md).
func runSandbox(ctx context.Context, r sandboxRun) (int, error) {
	return macos.Run(ctx, macos.Config{
		Argv:      r.args,
		Env:       r.env,
		Dir:       r.engine.Vars().Project,
		Engine:    r.engine,
		Broker:    r.broker,
		SessionID: r.session.ID,
	})
}
