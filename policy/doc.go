// Package policy loads, merges, validates and evaluates aixbroker policies:
// the YAML format of the requirements document §7 (.aixgate.yaml files and
// the built-in agent profiles).
//
// The package is pure. A decision is a function of the compiled policy and
// the request: no I/O, no logging, no clock, no syscalls (a test enforces
// that the package imports neither os/exec nor golang.org/x/sys/unix). Only
// the loader reads files (the policy itself, its extends chain and the
// project's .aixgate.yaml) and only HostVars looks at the environment.
//
// The life of a policy:
//
//	p, err := policy.Resolve(policy.ResolveOptions{ProjectDir: dir, AgentCommand: "claude"})
//	eng, err := policy.Compile(p, vars)
//	d := eng.Decide(policy.OpRead, "/home/u/.ssh/id_rsa") // Deny ENOENT, by deny:~/.ssh/id_* at builtin:generic:89
//
// Resolve finds the policy (--policy file, the project's .aixgate.yaml,
// --profile, the profile of the agent command, then generic) and merges its
// extends chain. Compile expands variables, compiles every glob once and
// indexes them by literal prefix. Decide, DecideExec and Explain answer
// questions; Env filters the agent's environment; Roots gives the directories
// a Landlock backstop must allow; Check reports unsafe rules and runs the
// policy's own tests.
//
// # Globs
//
// Patterns use doublestar v4 semantics on canonical absolute paths: `*`
// matches within one path segment, `**` any number of segments (including
// none, so `dir/**` matches `dir` itself), `?` one character, `[abc]` a class,
// `{a,b}` alternatives. After variable expansion a pattern that does not
// start with `/` matches anywhere: `**/.env` and `.env` both become
// `/**/.env`. Variable values are escaped, so a project directory containing
// `[` or `*` is matched literally.
//
// # Variables
//
// `${PROJECT}`, `${HOME}`, `${TMPDIR}`, `${AIXGATE_CONFIG_DIR}` and a leading
// `~` or `~/` (the home directory). Any other `${NAME}` is an error reported
// with its file, line and column.
//
// # Precedence
//
// deny > redact > read_only > allow_write > allow_read > default. See
// Engine.Decide for what each list means for each operation. Redact and
// read_only narrow, they never widen: they apply only where an allow rule
// (or default: allow) already reaches. read_only (readable, never changed)
// extends the four lists of §7.6.
//
// # Cost of a decision
//
// Compile indexes each glob by the literal directory its matches lie in
// (/home/u/proj for ${PROJECT}/**), or, for a pattern anchored anywhere, by
// its last element (.env) or extension (*.pem). A decision looks up the
// path's ancestors and last element and tries only those rules; common
// shapes (a tree, a name, one "*" per segment) are matched without the
// general glob matcher. Decisions are cached per (op, path) in a bounded,
// sharded map. A 200-rule policy decides in well under a microsecond
// (BenchmarkDecide200Rules).
package policy
