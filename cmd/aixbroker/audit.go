package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newAuditCmd) }

// auditFlags are shared by every audit subcommand.
type auditFlags struct {
	file  string
	json  bool
	color string
}

func newAuditCmd() *cobra.Command {
	var f auditFlags
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Read, search and verify the tamper-evident audit log",
		Long: `Every decision aixbroker takes is appended to a hash-chained JSON Lines log,
by default ~/.aixgate/audit.jsonl (rotated to audit.jsonl.1 .. .9 at 100 MB).
Each record carries the hash of the one before it, so editing, removing,
inserting or reordering records is detected by 'aixbroker audit verify' or by
a short script of your own (see docs/audit.md).

  aixbroker audit tail --follow --profile claude-code
  aixbroker audit query --since 24h --denied-only
  aixbroker audit query --path '**/.env*'
  aixbroker audit sessions
  aixbroker audit verify`,
	}
	cmd.PersistentFlags().StringVar(&f.file, "file", "", "read this log instead of the configured one (default ~/.aixgate/audit.jsonl)")
	cmd.PersistentFlags().BoolVar(&f.json, "json", false, "print records as JSON lines, exactly as stored")
	cmd.PersistentFlags().StringVar(&f.color, "color", "auto", "colour output: auto (on a terminal), always or never")
	cmd.AddCommand(newAuditTailCmd(&f), newAuditQueryCmd(&f), newAuditVerifyCmd(&f), newAuditSessionsCmd(&f), newAuditStatsCmd(&f))
	return cmd
}

// logPath is --file or the configured log.
func (f *auditFlags) logPath() (audit.Config, error) {
	dir, err := audit.DefaultConfigDir()
	if err != nil {
		return audit.Config{}, err
	}
	cfg, err := audit.LoadConfig(dir)
	if err != nil {
		return cfg, err
	}
	if f.file != "" {
		cfg.Path = f.file
	}
	return cfg, nil
}

// files lists the log's files, with an error that says what to do when
// there is no log yet.
func (f *auditFlags) files() ([]string, error) {
	cfg, err := f.logPath()
	if err != nil {
		return nil, err
	}
	files, err := audit.Files(cfg.Path)
	if errors.Is(err, audit.ErrNoLog) {
		return nil, fmt.Errorf("no audit log at %s yet; run `aixbroker exec -- CMD` first or pass --file", cfg.Path)
	}
	return files, err
}

func (f *auditFlags) useColor(w io.Writer) bool {
	switch f.color {
	case "always":
		return true
	case "never":
		return false
	}
	out, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := out.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// printer prints records as the flags ask.
func (f *auditFlags) printer(w io.Writer) func(audit.Record) error {
	color := f.useColor(w)
	return func(r audit.Record) error {
		if f.json {
			_, err := fmt.Fprintf(w, "%s\n", audit.MarshalLine(&r))
			return err
		}
		_, err := fmt.Fprintln(w, audit.Format(&r, color))
		return err
	}
}

// filterFlags are the record filters of tail, query and stats.
type filterFlags struct {
	since, until string
	filter       audit.Filter
}

func (ff *filterFlags) add(cmd *cobra.Command, all bool) {
	fl := cmd.Flags()
	fl.StringVar(&ff.filter.Profile, "profile", "", "only records of this profile")
	fl.StringVar(&ff.filter.SessionID, "session-id", "", "only records of this session (a ULID, see 'audit sessions')")
	fl.StringVar(&ff.filter.SessionID, "session", "", "same as --session-id")
	if !all {
		return
	}
	fl.StringVar(&ff.since, "since", "", "records at or after: 24h, 7d, 2026-04-20 or an RFC 3339 time")
	fl.StringVar(&ff.until, "until", "", "records at or before (same forms as --since)")
	fl.BoolVar(&ff.filter.DeniedOnly, "denied-only", false, "only denied operations")
	fl.StringVar(&ff.filter.Path, "path", "", "only paths matching this glob, e.g. '**/.env*' ('*.pem' matches at any depth)")
	fl.StringVar(&ff.filter.Op, "op", "", "only this operation: read, stat, write, create, mkdir, unlink, rename, link, exec, connect, datagram")
	fl.StringVar(&ff.filter.Decision, "decision", "", "only this decision: allow, deny, redact, prompt")
}

func (ff *filterFlags) resolve() (audit.Filter, error) {
	now := time.Now()
	var err error
	if ff.since != "" {
		if ff.filter.Since, err = audit.ParseTime(ff.since, now); err != nil {
			return ff.filter, err
		}
	}
	if ff.until != "" {
		if ff.filter.Until, err = audit.ParseTime(ff.until, now); err != nil {
			return ff.filter, err
		}
	}
	if rest, ok := strings.CutPrefix(ff.filter.Path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			ff.filter.Path = filepath.Join(home, rest)
		}
	}
	if ff.filter.Path != "" {
		return ff.filter, audit.ValidateGlob(ff.filter.Path)
	}
	return ff.filter, nil
}

func newAuditTailCmd(f *auditFlags) *cobra.Command {
	var ff filterFlags
	var follow bool
	var lines int
	cmd := &cobra.Command{
		Use:   "tail",
		Short: "Show the latest records, and with --follow new ones as they are written",
		Example: `  aixbroker audit tail                       the last 20 records
  aixbroker audit tail -n 100 --session-id 01HV2K...
  aixbroker audit tail --follow --profile claude-code
  aixbroker audit tail -f --json | jq 'select(.decision=="deny")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := ff.resolve()
			if err != nil {
				return err
			}
			cfg, err := f.logPath()
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			err = audit.Tail(ctx, cfg.Path, audit.TailOptions{Lines: lines, Follow: follow, Filter: filter}, f.printer(cmd.OutOrStdout()))
			if errors.Is(err, audit.ErrNoLog) {
				return fmt.Errorf("no audit log at %s yet; run `aixbroker exec -- CMD` first, pass --file, or use --follow to wait for it", cfg.Path)
			}
			return err
		},
	}
	ff.add(cmd, false)
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing records as they are written (Ctrl-C to stop)")
	cmd.Flags().IntVarP(&lines, "lines", "n", 20, "how many of the latest records to show first")
	return cmd
}

func newAuditQueryCmd(f *auditFlags) *cobra.Command {
	var ff filterFlags
	cmd := &cobra.Command{
		Use:   "query",
		Short: "Search the log (all rotated files, oldest first)",
		Example: `  aixbroker audit query --since 24h --denied-only     everything denied in the last day
  aixbroker audit query --path '**/.env*'              every time a .env was touched
  aixbroker audit query --session-id 01HV2K... --op exec
  aixbroker audit query --since 2026-04-19 --until 2026-04-20 --json | jq -r .path | sort | uniq -c`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := ff.resolve()
			if err != nil {
				return err
			}
			files, err := f.files()
			if err != nil {
				return err
			}
			print, bad := f.printer(cmd.OutOrStdout()), 0
			for e, err := range audit.Query(files, filter) {
				if errors.Is(err, audit.ErrBadLine) {
					bad++
					continue
				}
				if err != nil {
					return err
				}
				if err := print(e.Record); err != nil {
					return err
				}
			}
			if bad > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "aixbroker: skipped %d line(s) that are not records; run `aixbroker audit verify`\n", bad)
			}
			return nil
		},
	}
	ff.add(cmd, true)
	return cmd
}

func newAuditVerifyCmd(f *auditFlags) *cobra.Command {
	var keyFile string
	cmd := &cobra.Command{
		Use:   "verify [FILE...]",
		Short: "Check the hash chain: exit 1 and name the first bad line if anything was changed",
		Long: `verify recomputes every record's hash and checks that each record links to
the one before it, across rotated files, and that the newest record matches
the head anchor (audit.jsonl.head), which catches records cut from the end.

Without FILE it verifies the whole log (--file or the configured one). With
FILEs it verifies them as one chain in the order given, oldest first, without
the head anchor. A keyed log (audit.hmac_key_file in ~/.aixgate/config.yaml)
needs the key: --key-file, or the configured one.

It then checks that every session ended: a session with no session_end
record whose supervisor is no longer running (its pid in session_start) was
killed, or stopped because its audit could not be written. verify names it,
its last record, and what may be missing after it: the session_end and the
allowed events of its last flush interval (refusals are written before they
are answered; suppressed counts of at most the last second). A session whose
session_end says its audit failed (a full disk) is named too. A line cut short
by a crash or a full disk, around which the chain goes on intact, is reported
as such, not as an edit.

Exit status: 0 the chain verifies and every session ended (or is running),
1 the chain does not verify (the first bad line is printed), 2 the log could
not be read, 3 the chain verifies but a session ended abnormally, its audit
failed, it lost records under pressure (gap records), or a write was cut short.`,
		Example: `  aixbroker audit verify
  aixbroker audit verify --file /var/log/aixgate/audit.jsonl
  aixbroker audit verify audit.jsonl.2 audit.jsonl.1 audit.jsonl
  aixbroker audit verify --key-file ~/.aixgate/audit.key`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := f.logPath()
			if err != nil {
				return err
			}
			key, err := verifyKey(keyFile, cfg)
			if err != nil {
				return err
			}
			var rep audit.Report
			files := args
			if len(args) > 0 {
				rep, err = audit.Verify(args, key)
			} else {
				rep, err = audit.VerifyLog(cfg.Path, key)
				files = rep.Files
			}
			var abnormal []audit.Session
			if err == nil {
				sessions, serr := audit.Sessions(files)
				if serr != nil {
					return serr
				}
				abnormal = audit.Abnormal(sessions)
			}
			if f.json {
				return reportVerifyJSON(cmd, rep, err, abnormal)
			}
			verr := reportVerify(cmd, rep, err, cfg.Path)
			if verr != nil && !isExit(verr, exitAbnormal) {
				return verr
			}
			return cmp.Or(reportAbnormal(cmd, abnormal), verr)
		},
	}
	cmd.Flags().StringVar(&keyFile, "key-file", "", "HMAC key file of a keyed log (default: audit.hmac_key_file from the config)")
	return cmd
}

func verifyKey(keyFile string, cfg audit.Config) ([]byte, error) {
	if keyFile == "" {
		keyFile = cfg.HMACKeyFile
	}
	if keyFile == "" {
		return nil, nil
	}
	return audit.ReadKeyFile(keyFile)
}

func reportVerify(cmd *cobra.Command, rep audit.Report, err error, log string) error {
	var ce *audit.ChainError
	if errors.As(err, &ce) {
		fmt.Fprintf(cmd.ErrOrStderr(), "FAIL %s\n", ce)
		return exitError{code: 1}
	}
	if err != nil {
		if errors.Is(err, audit.ErrNoLog) {
			return fmt.Errorf("no audit log at %s yet; run `aixbroker exec -- CMD` first or pass --file", log)
		}
		return err
	}
	start := fmt.Sprintf("from seq %d (older files were rotated away)", rep.FirstSeq)
	if rep.Genesis {
		start = "from the first record ever written"
	}
	head := ""
	switch {
	case rep.Head == "absent":
		head = "; no head anchor: records cut from the end cannot be detected"
	case rep.Head != "":
		head = "; head anchor " + rep.Head
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "ok: %d file(s), %d records, seq %d..%d %s, %s chain%s\nlast hash %s\n",
		len(rep.Files), rep.Records, rep.FirstSeq, rep.LastSeq, start, rep.Alg, head, rep.LastHash)
	if err != nil || len(rep.Torn) == 0 {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "FAIL a write was cut short (a crash, a full disk) at %s: the line is not a record, the chain goes on intact around it; the records of that write are missing\n",
		strings.Join(rep.Torn, ", "))
	return exitError{code: exitAbnormal}
}

// exitAbnormal is verify's exit status when the chain is intact but a
// session ended without its session_end record.
const exitAbnormal = 3

// reportAbnormal names the sessions that ended abnormally, on stderr.
func reportAbnormal(cmd *cobra.Command, abnormal []audit.Session) error {
	if len(abnormal) == 0 {
		return nil
	}
	for _, s := range abnormal {
		if s.Status == audit.StatusLost {
			fmt.Fprintf(cmd.ErrOrStderr(), "FAIL session %s (pid %d, started %s) ended, but %d of its allowed records were dropped under pressure (the writer's batch stayed full for longer than max_block); gap records in the log count them\n",
				s.ID, s.PID, s.Start.Local().Format(time.DateTime), s.Lost)
			continue
		}
		if s.Status == audit.StatusAuditFailed {
			fmt.Fprintf(cmd.ErrOrStderr(), "FAIL session %s (pid %d, started %s) was stopped because its audit log could not be written (%s); "+
				"the records of the write that failed are missing before its session_end (seq %d)\n",
				s.ID, s.PID, s.Start.Local().Format(time.DateTime), s.EndResult, s.LastSeq)
			continue
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "FAIL session %s (pid %d, started %s) ended abnormally: no session_end record and its supervisor is gone; "+
			"its last record is seq %d at %s; after it at least 1 record is missing (the session_end), and maybe the allowed events of its last flush interval\n",
			s.ID, s.PID, s.Start.Local().Format(time.DateTime), s.LastSeq, s.LastTS.Local().Format("15:04:05.000"))
	}
	return exitError{code: exitAbnormal}
}

// reportVerifyJSON prints the report, and the first bad line if any, as one
// JSON object, for scripts and SIEM shippers; the exit status is as without.
func reportVerifyJSON(cmd *cobra.Command, rep audit.Report, err error, abnormal []audit.Session) error {
	var ce *audit.ChainError
	if err != nil && !errors.As(err, &ce) {
		return err
	}
	out := struct {
		OK       bool              `json:"ok"`
		Report   audit.Report      `json:"report"`
		Bad      *audit.ChainError `json:"bad,omitempty"`
		Abnormal []audit.Session   `json:"abnormal,omitempty"` // sessions that ended without session_end
	}{OK: ce == nil && len(abnormal) == 0 && len(rep.Torn) == 0, Report: rep, Bad: ce, Abnormal: abnormal}
	if err := json.NewEncoder(cmd.OutOrStdout()).Encode(out); err != nil {
		return err
	}
	if ce != nil {
		return exitError{code: 1}
	}
	if len(abnormal) > 0 || len(rep.Torn) > 0 {
		return exitError{code: exitAbnormal}
	}
	return nil
}

// isExit reports whether err is the exit status code.
func isExit(err error, code int) bool {
	var e exitError
	return errors.As(err, &e) && e.code == code
}

func newAuditSessionsCmd(f *auditFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "sessions",
		Short: "List sessions, one line each: when, profile, command, counts, status (ended, running, abnormal)",
		Example: `  aixbroker audit sessions
  aixbroker audit sessions --json | jq 'select(.denied > 0)'
  aixbroker audit query --session-id "$(aixbroker audit sessions --json | tail -1 | jq -r .id)" --denied-only`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			files, err := f.files()
			if err != nil {
				return err
			}
			sessions, err := audit.Sessions(files)
			if err != nil {
				return err
			}
			out, color := cmd.OutOrStdout(), f.useColor(cmd.OutOrStdout())
			enc := json.NewEncoder(out)
			for i := range sessions {
				if f.json {
					err = enc.Encode(&sessions[i])
				} else {
					_, err = fmt.Fprintln(out, audit.FormatSession(&sessions[i], color))
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func newAuditStatsCmd(f *auditFlags) *cobra.Command {
	var ff filterFlags
	var top int
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Count events by operation and decision, and list the most denied paths",
		Example: `  aixbroker audit stats
  aixbroker audit stats --session-id 01HV2K...
  aixbroker audit stats --since 7d --top 20`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := ff.resolve()
			if err != nil {
				return err
			}
			files, err := f.files()
			if err != nil {
				return err
			}
			sum, err := audit.Stats(files, filter, top)
			if err != nil {
				return err
			}
			if f.json {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(sum)
			}
			return audit.WriteSummary(cmd.OutOrStdout(), &sum)
		},
	}
	ff.add(cmd, true)
	cmd.Flags().IntVar(&top, "top", 10, "how many denied paths to list")
	return cmd
}
