package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

// projectDir returns the project directory: flag, or the current directory
// when flag is empty, made absolute and cleaned. It must be a directory.
func projectDir(flag string) (string, error) {
	dir := flag
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("find the current directory: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find project directory %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("open project directory: %w; pass an existing directory with --project", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("open project directory %s: not a directory; pass a directory with --project", abs)
	}
	return abs, nil
}

// printJSON writes v to the command's output as indented JSON.
func printJSON(cmd *cobra.Command, v any) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}
