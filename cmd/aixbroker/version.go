package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/aixbroker/aixbroker/internal/version"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newVersionCmd) }

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the aixbroker version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := map[string]string{"version": version.Version, "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(info)
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "aixbroker %s (%s, %s/%s)\n", info["version"], info["go"], info["os"], info["arch"])
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
