package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Options configure one benchmark run.
type Options struct {
	Bin    string    // the aixbroker binary the sandboxed sides run
	Root   string    // workspace; generated once and reused
	Rounds int       // alternating rounds (the order of the sides flips every round)
	Log    io.Writer // progress; nil: none
	Only   []string  // side names to run (native always runs); empty: all
	// Baseline, when set, is another aixbroker binary run as one more
	// side ("baseline", broker only): a change measured before and after.
	Baseline string
	// Fuse is the go-fuse passthrough server (bench/cmd/fusepass) for the
	// side "go-fuse"; empty: that side is skipped.
	Fuse string
	// FuseServerReads refuses the kernel's FUSE passthrough: every read
	// and write on the go-fuse side goes through the server.
	FuseServerReads bool
}

// microOp is one operation the helper times n times per run.
type microOp struct {
	Name string
	Op   string // the helper's op
	Dir  string // relative to the project
	N    int
}

var microOps = []microOp{
	{Name: "open+read+close", Op: "open", Dir: "small", N: 2000},
	{Name: "stat", Op: "stat", Dir: "small", N: 2000},
	{Name: "readdir 10k", Op: "readdir", Dir: "small", N: 10},
	{Name: "exec /bin/true", Op: "exec", Dir: "scratch", N: 40},
	{Name: "rename", Op: "rename", Dir: "scratch", N: 500},
	{Name: "create+unlink", Op: "create", Dir: "scratch", N: 500},
}

// macro is one command timed from inside the sandbox.
type macro struct {
	Name string
	Dir  string // relative to the project
	Argv func(w Workspace, round int) ([]string, error)
}

func fixed(argv ...string) func(Workspace, int) ([]string, error) {
	return func(Workspace, int) ([]string, error) { return argv, nil }
}

var macros = []macro{
	{Name: "git status (20k files)", Dir: "repo", Argv: fixed("git", "status")},
	{Name: "grep -r (20k files)", Dir: "repo", Argv: fixed("grep", "-r", "needle-not-present", "src")},
	{Name: "tar c (20k files)", Dir: "repo", Argv: func(w Workspace, _ int) ([]string, error) {
		return []string{"tar", "cf", w.path("scratch", "repo.tar"), "src"}, nil
	}},
	{Name: "node: require 2,000 modules", Dir: "node", Argv: fixed("node", "main.js")},
	{Name: "node: npm-style tree walk", Dir: "node", Argv: fixed("node", "walk.js")},
	{Name: "go build (after an edit)", Dir: "gomod", Argv: func(w Workspace, round int) ([]string, error) {
		if err := w.EditGo(round + 1); err != nil {
			return nil, err
		}
		goBin, err := exec.LookPath("go")
		if err != nil {
			return nil, err
		}
		return []string{"env", "GOCACHE=" + w.path("gocache"), "GOTMPDIR=" + w.path("scratch"),
			"GOTOOLCHAIN=local", "GOFLAGS=", "GOPATH=" + w.path("gopath"),
			goBin, "build", "-o", w.path("scratch", "small"), "."}, nil
	}},
}

// Samples are the raw figures of one run, by benchmark, side and round.
type Samples struct {
	Sides           []Side
	Micro           map[string]map[string][][]float64 // op → side → round → latencies (µs)
	Macro           map[string]map[string][]float64   // command → side → seconds per round
	Startup         map[string][][]float64            // side → round → ms per start
	RSS             map[string]int64                  // side → peak RSS of the launcher (KiB)
	Read            map[string][]float64              // side → MB/s per round
	Failed          map[string]string                 // "bench/side" → first error
	LoadAvg         [2]string                         // at start and end
	Baseline        string                            // the baseline binary's version line, if any
	FuseMount       time.Duration                     // how long the go-fuse mount took to come up
	FuseServerReads bool                              // the go-fuse side refused the kernel's passthrough
	Rounds          int
	Started         time.Time
	Elapsed         time.Duration
}

type runner struct {
	opt    Options
	w      Workspace
	helper string
	s      *Samples
}

// Run prepares the workspace and runs every benchmark on every side for
// opt.Rounds rounds.
func Run(ctx context.Context, opt Options) (*Samples, error) {
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format+"\n", a...)
		}
	}
	if opt.Rounds < 1 {
		opt.Rounds = 1
	}
	w, err := Prepare(opt.Root, func(s string) { logf("bench: %s", s) })
	if err != nil {
		return nil, err
	}
	helper, err := BuildHelper(opt.Root)
	if err != nil {
		return nil, err
	}
	s := &Samples{
		Micro: map[string]map[string][][]float64{}, Macro: map[string]map[string][]float64{},
		Startup: map[string][][]float64{}, RSS: map[string]int64{}, Read: map[string][]float64{},
		Failed: map[string]string{}, Rounds: opt.Rounds, Started: time.Now(),
	}
	s.LoadAvg[0] = loadAvg()
	sides := Sides(opt.Bin, w.Project, opt.Root)
	if opt.Baseline != "" {
		dir := filepath.Join(opt.Root, "baseline")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create baseline audit dir: %w", err)
		}
		out, err := exec.CommandContext(ctx, opt.Baseline, "version").Output()
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %w", opt.Baseline, err)
		}
		s.Baseline = strings.TrimSpace(string(out))
		base := Sides(opt.Baseline, w.Project, dir)[1]
		base.Name = "baseline"
		sides = append(sides, base)
	}
	fuse := fuseSide(opt.Fuse, opt.Root)
	if fuse.Skip == "" && selected(opt.Only, fuse.Name) {
		m, err := mountFuse(ctx, opt.Fuse, w.Project, fuse.Project, opt.FuseServerReads)
		if err != nil {
			fuse.Skip = err.Error()
		} else {
			logf("bench: go-fuse passthrough of %s mounted on %s in %s", w.Project, fuse.Project, m.took.Round(time.Millisecond))
			s.FuseMount, s.FuseServerReads = m.took, opt.FuseServerReads
			defer func() {
				if kb := m.stop(); kb > 0 {
					s.RSS[fuse.Name] = kb
				}
			}()
		}
	}
	sides = append(sides, fuse)
	for _, side := range sides {
		if !selected(opt.Only, side.Name) {
			continue
		}
		if side.Skip != "" {
			logf("bench: skipping %s: %s", side.Name, side.Skip)
		}
		s.Sides = append(s.Sides, side)
	}
	r := &runner{opt: opt, w: w, helper: helper, s: s}
	if err := r.warm(ctx); err != nil {
		return nil, err
	}
	for round := range opt.Rounds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		order := r.order(round)
		logf("bench: round %d/%d (load %s)", round+1, opt.Rounds, loadAvg())
		for _, op := range microOps {
			for _, side := range order {
				r.micro(ctx, side, op)
			}
		}
		for _, side := range order {
			r.read(ctx, side)
		}
		for _, m := range macros {
			for _, side := range order {
				r.macro(ctx, side, m, round)
			}
		}
		for _, side := range order {
			r.startup(ctx, side)
		}
	}
	s.LoadAvg[1] = loadAvg()
	s.Elapsed = time.Since(s.Started)
	return s, nil
}

func selected(only []string, name string) bool {
	if len(only) == 0 || name == "native" {
		return true
	}
	for _, o := range only {
		if o == name {
			return true
		}
	}
	return false
}

// order is the sides that run, reversed every other round.
func (r *runner) order(round int) []Side {
	var out []Side
	for _, s := range r.s.Sides {
		if s.Skip == "" {
			out = append(out, s)
		}
	}
	if round%2 == 1 {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// ws is the workspace as side sees it.
func (r *runner) ws(side Side) Workspace {
	w := r.w
	if side.Project != "" {
		w.Project = side.Project
	}
	return w
}

// warm reads the trees once natively so that every side finds them in the
// page cache, through each side's own view of the project (a FUSE mount
// has a page cache of its own).
func (r *runner) warm(ctx context.Context) error {
	views := []Workspace{r.w}
	for _, side := range r.s.Sides {
		if side.Project != "" && side.Skip == "" {
			views = append(views, r.ws(side))
		}
	}
	for _, w := range views {
		if err := r.warmView(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) warmView(ctx context.Context, w Workspace) error {
	for _, argv := range [][]string{
		{"cat", w.path("big.bin")},
		{"tar", "cf", "-", "."},
	} {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = w.Project
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("warm the page cache of %s: %w", w.Project, err)
		}
	}
	// One build fills the build cache; the timed builds then recompile
	// the edited package and link, as after an edit.
	for _, m := range macros {
		argv, err := m.Argv(w, -1)
		if err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, r.helper, append([]string{"run", w.path(m.Dir), "1"}, argv...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("warm up %s in %s: %w: %s", m.Name, w.Project, err, lastLine(string(out)))
		}
	}
	return nil
}

// result is one finished command.
type result struct {
	stdout  string
	elapsed time.Duration
	hwm     int64 // peak RSS of the started process itself (KiB), from /proc
}

// exec runs argv on side with its stdout captured, sampling the started
// process's VmHWM until it exits.
func (r *runner) exec(ctx context.Context, side Side, dir string, argv []string) (result, error) {
	full := side.Wrap(argv)
	cmd := exec.CommandContext(ctx, full[0], full[1:]...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	done := make(chan struct{})
	hwm := make(chan int64, 1)
	go func() { hwm <- sampleHWM(cmd.Process.Pid, done) }()
	err := cmd.Wait()
	elapsed := time.Since(start)
	close(done)
	res := result{stdout: out.String(), elapsed: elapsed, hwm: <-hwm}
	if err != nil {
		return res, fmt.Errorf("%s: %w: %s", strings.Join(full, " "), err, stderrSummary(errb.String()))
	}
	return res, nil
}

// stderrSummary is the first and last line of a failed run's stderr: the
// first error of the command and the helper's verdict.
func stderrSummary(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	last := lastLine(s)
	if first == last {
		return last
	}
	return first + " … " + last
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// sampleHWM reads /proc/pid/status's VmHWM every 5 ms until done, and
// returns the last value read.
func sampleHWM(pid int, done <-chan struct{}) int64 {
	var last int64
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		last = max(last, readHWM(pid))
		select {
		case <-done:
			return last
		case <-t.C:
		}
	}
}

// readHWM is the VmHWM of pid in KiB, 0 if it cannot be read.
func readHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb
			}
		}
	}
	return 0
}

// fail records the first error of a benchmark on a side.
func (r *runner) fail(bench string, side Side, err error) {
	key := bench + "/" + side.Name
	if _, ok := r.s.Failed[key]; !ok {
		r.s.Failed[key] = err.Error()
		if r.opt.Log != nil {
			fmt.Fprintf(r.opt.Log, "bench: %s on %s failed: %v\n", bench, side.Name, err)
		}
	}
}

func (r *runner) noteRSS(side Side, res result) {
	// The go-fuse side's figure is its server's, taken when it stops.
	if side.Name != "native" && side.Name != fuseName && res.hwm > r.s.RSS[side.Name] {
		r.s.RSS[side.Name] = res.hwm
	}
}

// Each benchmark first appends an empty (nil or NaN) figure for this round
// and fills it in on success, so that round i of every side is the same
// round even after a failure.

func (r *runner) micro(ctx context.Context, side Side, op microOp) {
	if r.s.Micro[op.Name] == nil {
		r.s.Micro[op.Name] = map[string][][]float64{}
	}
	rounds := append(r.s.Micro[op.Name][side.Name], nil)
	r.s.Micro[op.Name][side.Name] = rounds
	w := r.ws(side)
	if err := w.removeScratch(); err != nil {
		r.fail(op.Name, side, err)
		return
	}
	argv := []string{r.helper, op.Op, w.path(op.Dir), strconv.Itoa(op.N)}
	if op.Op == "exec" && side.Exec != "" {
		argv = append(argv, side.Exec)
	}
	res, err := r.exec(ctx, side, w.Project, argv)
	if err != nil {
		r.fail(op.Name, side, err)
		return
	}
	r.noteRSS(side, res)
	lat, err := parseNumbers(res.stdout, 1e-3)
	if err != nil || len(lat) != op.N {
		r.fail(op.Name, side, fmt.Errorf("helper output: %d figures, want %d (%v)", len(lat), op.N, err))
		return
	}
	rounds[len(rounds)-1] = lat
}

func (r *runner) read(ctx context.Context, side Side) {
	rounds := append(r.s.Read[side.Name], math.NaN())
	r.s.Read[side.Name] = rounds
	w := r.ws(side)
	res, err := r.exec(ctx, side, w.Project, []string{r.helper, "read", w.path("big.bin"), strconv.Itoa(readPasses)})
	if err == nil {
		var v []float64
		if v, err = parseNumbers(res.stdout, 1e-6); err == nil && len(v) == readPasses {
			// The best pass: a 15 ms read is easily cut into by the
			// machine's other work, and nothing in the sandbox can make
			// one pass faster than native.
			rounds[len(rounds)-1] = percentile(v, 100)
			return
		}
		err = fmt.Errorf("helper output %q", res.stdout)
	}
	r.fail("read", side, err)
}

func (r *runner) macro(ctx context.Context, side Side, m macro, round int) {
	if r.s.Macro[m.Name] == nil {
		r.s.Macro[m.Name] = map[string][]float64{}
	}
	rounds := append(r.s.Macro[m.Name][side.Name], math.NaN())
	r.s.Macro[m.Name][side.Name] = rounds
	w := r.ws(side)
	if err := w.removeScratch(); err != nil {
		r.fail(m.Name, side, err)
		return
	}
	argv, err := m.Argv(w, round)
	if err != nil {
		r.fail(m.Name, side, err)
		return
	}
	res, err := r.exec(ctx, side, w.Project, append([]string{r.helper, "run", w.path(m.Dir), "1"}, argv...))
	if err != nil {
		r.fail(m.Name, side, err)
		return
	}
	r.noteRSS(side, res)
	v, err := parseNumbers(res.stdout, 1e-9)
	if err != nil || len(v) != 1 {
		r.fail(m.Name, side, fmt.Errorf("helper output %q", res.stdout))
		return
	}
	rounds[len(rounds)-1] = v[0]
}

// readPasses is how many times each round reads the large file per side.
const readPasses = 5

// startupRuns is how many times each round starts /bin/true per side.
const startupRuns = 5

func (r *runner) startup(ctx context.Context, side Side) {
	if side.NoStartup {
		return
	}
	rounds := append(r.s.Startup[side.Name], nil)
	r.s.Startup[side.Name] = rounds
	var ms []float64
	for range startupRuns {
		res, err := r.exec(ctx, side, r.w.Project, []string{"/bin/true"})
		if err != nil {
			r.fail("startup", side, err)
			return
		}
		r.noteRSS(side, res)
		ms = append(ms, float64(res.elapsed.Microseconds())/1000)
	}
	rounds[len(rounds)-1] = ms
}

func parseNumbers(out string, scale float64) ([]float64, error) {
	var v []float64
	for _, f := range strings.Fields(out) {
		n, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return v, fmt.Errorf("parse %q: %w", f, err)
		}
		v = append(v, n*scale)
	}
	return v, nil
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
