package sbpl

// systemRule is one allowance every sandboxed process gets, whatever the
// policy, because a process cannot start or a basic tool cannot run without
// it. Filters are SBPL text. Policy deny and redact rules come later in the
// profile and so win over these.
type systemRule struct {
	ops     string
	filters []string
	reason  string
}

// systemRules is the table of system allowances, in profile order. Each row
// says why it exists; anything not here is denied unless the policy allows
// it. Deliberately absent: com.apple.SecurityServer (the keychain),
// com.apple.coreservices.launchservicesd (open(1) would start applications
// outside the sandbox), any mach-lookup wildcard, and file-write outside
// the terminal and null devices.
var systemRules = []systemRule{
	{ops: "process-fork", reason: "agents and shells start child processes; children inherit this profile"},
	{ops: "signal", filters: []string{"(target same-sandbox)"}, reason: "job control and stopping the agent's own children; nothing outside the sandbox"},
	{ops: "process-info*", filters: []string{"(target same-sandbox)"}, reason: "ps, pgrep and runtimes inspect their own processes"},
	{ops: "sysctl-read", reason: "libc and runtimes read hw.ncpu, hw.memsize, kern.osrelease at start; read-only"},
	{ops: "mach-lookup", filters: []string{
		`(global-name "com.apple.system.opendirectoryd.libinfo")`,
		`(global-name "com.apple.system.opendirectoryd.membership")`,
	}, reason: "getpwuid and getgrouplist: shells, git and ssh need the user's name and groups"},
	{ops: "mach-lookup", filters: []string{`(global-name "com.apple.system.notification_center")`},
		reason: "notify(3): libc follows time zone and network configuration changes"},
	{ops: "mach-lookup", filters: []string{
		`(global-name "com.apple.system.logger")`,
		`(global-name "com.apple.logd")`,
	}, reason: "os_log and asl: system libraries log, and their logging must not fail"},
	{ops: "mach-lookup", filters: []string{`(global-name "com.apple.trustd.agent")`},
		reason: "TLS certificate verification through Security.framework (Go programs, curl); not the keychain"},
	{ops: "mach-lookup", filters: []string{`(global-name "com.apple.dnssd.service")`},
		reason: "name resolution through mDNSResponder"},
	{ops: "mach-lookup", filters: []string{`(global-name "com.apple.bsd.dirhelper")`},
		reason: "confstr(_CS_DARWIN_USER_TEMP_DIR): the per-user temporary directory"},
	{ops: "mach-lookup", filters: []string{
		`(global-name "com.apple.cfprefsd.daemon")`,
		`(global-name "com.apple.cfprefsd.agent")`,
	}, reason: "CoreFoundation reads preferences when Apple tools start"},
	{ops: "user-preference-read", reason: "the same preferences, read through the sandbox's own check"},
	{ops: "network*", reason: "the Linux backend does not police the network either; agents need their model's API"},
	{ops: "ipc-posix-shm ipc-posix-sem", reason: "POSIX shared memory and semaphores (Python multiprocessing, node)"},
	{ops: "file-read-metadata", filters: []string{
		`(literal "/")`, `(literal "/private")`, `(literal "/private/var")`,
		`(literal "/tmp")`, `(literal "/var")`, `(literal "/etc")`,
	}, reason: "path resolution: the root, /private and the /tmp, /var, /etc symlinks into it"},
	{ops: "file-read* file-map-executable", filters: []string{
		`(subpath "/usr/lib")`, `(subpath "/System")`, `(subpath "/Library/Apple")`,
		`(subpath "/private/var/db/dyld")`,
	}, reason: "dyld, the shared cache, system libraries and frameworks: no process starts without them"},
	{ops: "file-read*", filters: []string{
		`(subpath "/usr/share")`, `(subpath "/private/var/db/timezone")`,
		`(literal "/private/etc/localtime")`,
	}, reason: "time zone, locale and terminfo data read by libc and curses"},
	{ops: "file-read*", filters: []string{
		`(subpath "/private/var/select")`, `(literal "/private/var/db/xcode_select_link")`,
	}, reason: "the /bin/sh shim reads its shell from /private/var/select; the /usr/bin developer-tool shims (git, make, cc) find their tools through xcode_select_link"},
	{ops: "file-read*", filters: []string{
		`(literal "/dev/random")`, `(literal "/dev/urandom")`, `(literal "/dev/zero")`,
		`(literal "/dev/dtracehelper")`,
	}, reason: "entropy and zero devices; dyld opens dtracehelper at start"},
	{ops: "file-read* file-write* file-ioctl", filters: []string{
		`(literal "/dev/null")`, `(literal "/dev/tty")`, `(literal "/dev/ptmx")`,
		`(regex #"^/dev/ttys[0-9]+$")`, `(subpath "/dev/fd")`,
	}, reason: "the null device, the controlling terminal and pseudo-terminals; /dev/fd only reopens descriptors already open"},
	{ops: "pseudo-tty", reason: "agents open pseudo-terminals to run interactive commands"},
}
