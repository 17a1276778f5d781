// Command benchchart draws the latency chart of a benchmark run: it reads
// the JSON `aixbroker bench --json` wrote and writes a PNG (package
// bench/chart). `make bench` runs it to write docs/perf/latency.png.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/aixbroker/aixbroker/bench"
	"github.com/aixbroker/aixbroker/bench/chart"
)

func main() {
	in := flag.String("in", "", "results `file` (aixbroker bench --json)")
	out := flag.String("out", "", "PNG `file` to write")
	flag.Parse()
	if *in == "" || *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: benchchart -in results.json -out latency.png")
		os.Exit(2)
	}
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "benchchart:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	res, err := bench.ReadResults(in)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := chart.Draw(res, &buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Fprintf(os.Stderr, "benchchart: wrote %s\n", out)
	return nil
}
