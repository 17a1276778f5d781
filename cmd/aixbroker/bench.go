package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/aixbroker/aixbroker/bench"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newBenchCmd) }

func newBenchCmd() *cobra.Command {
	var (
		rounds int
		root   string
		doc    string
		sides  []string
		base   string
		fuse   string
		fuseSR bool
		js     string
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure what the sandbox costs against native and bubblewrap",
		Long: `bench runs the same micro operations (open+read+close, stat, readdir of
a 10,000-entry folder, exec, rename, create+unlink), commands (git status,
grep -r and tar c on a 20,000-file repository, node requiring 2,000 modules,
a tree walk, go build) and starts of /bin/true natively, under this binary's
'exec' (broker only, and with the interposer), under bubblewrap when bwrap
is installed, and through a go-fuse passthrough mount of the workspace when
--fuse names the server (bench/cmd/fusepass; root, or fusermount3), alternating
the order of the sides every round. It prints
medians, ratios to native and the spread between rounds, checks the
performance goals, and with --doc rewrites that file's Summary, Macro
benchmarks and Startup sections; --json writes the latencies the chart
(bench/cmd/benchchart) is drawn from. Needs cc (for the timing helper), git, node
and go; the workspace is generated once under --dir.`,
		Example: `  aixbroker bench
  aixbroker bench --rounds 7 --doc docs/PERFORMANCE.md
  aixbroker bench --rounds 1 --side aixbroker`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find this binary: %w", err)
			}
			// Ctrl-C ends the run through its context, so that the
			// go-fuse mount is taken down.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			s, err := bench.Run(ctx, bench.Options{
				Bin: self, Root: root, Rounds: rounds, Log: cmd.ErrOrStderr(), Only: sides, Baseline: base, Fuse: fuse, FuseServerReads: fuseSR,
			})
			if err != nil {
				return fmt.Errorf("run benchmarks: %w", err)
			}
			if js != "" {
				if err := bench.WriteResults(js, s); err != nil {
					return err
				}
			}
			r := bench.Summarize(s)
			r.WriteText(cmd.OutOrStdout())
			if doc != "" {
				if err := bench.RewriteDoc(doc, r.Sections()); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "aixbroker: rewrote the Summary, Macro benchmarks and Startup sections of %s\n", doc)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&rounds, "rounds", 5, "alternating `n`umber of rounds")
	cmd.Flags().StringVar(&root, "dir", filepath.Join(os.TempDir(), "aixbroker-bench"), "workspace `dir`ectory (generated once, reused)")
	cmd.Flags().StringVar(&doc, "doc", "", "rewrite this `file`'s generated sections (docs/PERFORMANCE.md)")
	cmd.Flags().StringSliceVar(&sides, "side", nil, "run only these `sides` besides native: aixbroker, aixbroker+interposer, bubblewrap, go-fuse")
	cmd.Flags().StringVar(&base, "baseline", "", "also run this other aixbroker `binary` as side \"baseline\" (a change measured before and after)")
	cmd.Flags().StringVar(&fuse, "fuse", "", "go-fuse passthrough server `binary` (bench/cmd/fusepass) for the side \"go-fuse\"")
	cmd.Flags().BoolVar(&fuseSR, "fuse-server-reads", false, "refuse the kernel's FUSE passthrough: every read and write on the go-fuse side goes through its server")
	cmd.Flags().StringVar(&js, "json", "", "write the micro latencies to this `file` (for bench/cmd/benchchart)")
	return cmd
}
