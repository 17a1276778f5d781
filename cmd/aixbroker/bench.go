package main

import (
	"fmt"
	"os"
	"path/filepath"

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
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure what the sandbox costs against native and bubblewrap",
		Long: `bench runs the same micro operations (open+read+close, stat, readdir of
a 10,000-entry folder, exec, rename, create+unlink), commands (git status,
grep -r and tar c on a 20,000-file repository, node requiring 2,000 modules,
a tree walk, go build) and starts of /bin/true natively, under this binary's
'exec' (broker only, and with the interposer) and under bubblewrap when bwrap
is installed, alternating the order of the sides every round. It prints
medians, ratios to native and the spread between rounds, checks the
performance goals, and with --doc rewrites that file's Summary, Macro
benchmarks and Startup sections. Needs cc (for the timing helper), git, node
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
			s, err := bench.Run(cmd.Context(), bench.Options{
				Bin: self, Root: root, Rounds: rounds, Log: cmd.ErrOrStderr(), Only: sides, Baseline: base,
			})
			if err != nil {
				return fmt.Errorf("run benchmarks: %w", err)
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
	cmd.Flags().StringSliceVar(&sides, "side", nil, "run only these `sides` besides native: aixbroker, aixbroker+interposer, bubblewrap")
	cmd.Flags().StringVar(&base, "baseline", "", "also run this other aixbroker `binary` as side \"baseline\" (a change measured before and after)")
	return cmd
}
