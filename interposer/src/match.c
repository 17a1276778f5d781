/* match.c: the decision-set snapshot and the OpStat/OpRead decision of
 * policy.Engine.Decide, with a doublestar-compatible glob matcher. No
 * allocation: the snapshot lives in static storage, published once. */
#include <errno.h>
#include <string.h>

#include "aix.h"

/* ---- globs: '*', '?', '[...]', '**' as a whole segment, '{a,b}', '\' ---- */

/* class matches one byte against the class at *pp ("[" already consumed),
 * advancing *pp past the closing ']'. -1: malformed. */
static int class_match(const char **pp, unsigned char c)
{
	const char *p = *pp;
	int neg = 0, ok = 0, first = 1;
	if (*p == '!' || *p == '^') {
		neg = 1;
		p++;
	}
	while (*p && (first || *p != ']')) {
		unsigned char lo, hi;
		first = 0;
		if (*p == '\\' && p[1])
			p++;
		lo = (unsigned char)*p++;
		hi = lo;
		if (*p == '-' && p[1] && p[1] != ']') {
			p++;
			if (*p == '\\' && p[1])
				p++;
			hi = (unsigned char)*p++;
		}
		if (lo <= c && c <= hi)
			ok = 1;
	}
	if (*p != ']')
		return -1;
	*pp = p + 1;
	return ok != neg;
}

/* seg_match matches one path element [s, se) against one pattern segment
 * [p, pe) without '/' and without braces. */
static int seg_match(const char *p, const char *pe, const char *s, const char *se)
{
	const char *star_p = NULL, *star_s = NULL;
	while (s < se) {
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p < pe) {
			const char *q = p;
			int m;
			if (*q == '?') {
				m = 1;
				q++;
			} else if (*q == '[') {
				q++;
				m = class_match(&q, (unsigned char)*s);
				if (m < 0 || q > pe)
					return 0;
			} else {
				if (*q == '\\' && q + 1 < pe)
					q++;
				m = *q == *s;
				q++;
			}
			if (m) {
				p = q;
				s++;
				continue;
			}
		}
		if (!star_p)
			return 0;
		p = star_p;
		s = ++star_s;
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

static const char *seg_end(const char *p)
{
	while (*p && *p != '/') {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '[') { /* '/' never appears in a valid class */
			while (p[1] && p[1] != ']' && p[1] != '/')
				p++;
		}
		p++;
	}
	return p;
}

/* segs_match matches the path elements of s against the pattern segments
 * of p; both start after a '/' (or are empty). */
static int segs_match(const char *p, const char *s, int depth)
{
	if (depth > 64)
		return 0;
	for (;;) {
		const char *pe = seg_end(p);
		if (pe - p == 2 && p[0] == '*' && p[1] == '*') {
			if (!*pe)
				return 1; /* trailing "**": everything below, and the dir itself */
			for (;;) { /* "**" matches zero or more elements */
				if (segs_match(pe + 1, s, depth + 1))
					return 1;
				s = strchr(s, '/');
				if (!s)
					return 0;
				s++;
			}
		}
		const char *se = strchr(s, '/');
		if (!se)
			se = s + strlen(s);
		if (!seg_match(p, pe, s, se))
			return 0;
		if (!*se && *pe && !strcmp(pe, "/**"))
			return 1; /* a trailing globstar matches the directory itself */
		if (!*pe || !*se)
			return !*pe && !*se;
		p = pe + 1;
		s = se + 1;
	}
}

/* brace finds the first top-level '{' of p and its matching '}'. */
static const char *brace(const char *p, const char **close)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != '{')
			continue;
		int depth = 0;
		for (const char *q = p; *q; q++) {
			if (*q == '\\' && q[1])
				q++;
			else if (*q == '{')
				depth++;
			else if (*q == '}' && --depth == 0) {
				*close = q;
				return p;
			}
		}
		return NULL;
	}
	return NULL;
}

static int match_depth(const char *pat, const char *path, int depth)
{
	const char *open, *close;
	if (depth > 8)
		return 0;
	open = brace(pat, &close);
	if (!open) {
		if (pat[0] != '/' || path[0] != '/')
			return 0;
		if (!strcmp(pat, "/**"))
			return 1;
		return segs_match(pat + 1, path + 1, 0);
	}
	char buf[1024]; /* longer expansions do not match: the kernel still decides */
	size_t pre = (size_t)(open - pat), post = strlen(close + 1);
	const char *alt = open + 1;
	int nest = 0;
	for (const char *q = alt;; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '{')
			nest++;
		else if (*q == '}' && nest > 0)
			nest--;
		else if ((*q == ',' && nest == 0) || q == close) {
			size_t n = (size_t)(q - alt);
			if (pre + n + post + 1 <= sizeof buf) {
				memcpy(buf, pat, pre);
				memcpy(buf + pre, alt, n);
				memcpy(buf + pre + n, close + 1, post + 1);
				if (match_depth(buf, path, depth + 1))
					return 1;
			}
			if (q == close)
				return 0;
			alt = q + 1;
		}
	}
}

/* aix_glob_match matches a canonical absolute path against an absolute
 * glob, the way doublestar.Match does for the policy. */
int aix_glob_match(const char *pat, const char *path)
{
	return match_depth(pat, path, 0);
}

/* ---- the snapshot ---- */

#define MAX_RULES 2048
#define MAX_TRAV 4096
#define ARENA (256 * 1024)

struct rule {
	unsigned char rank;
	unsigned char err; /* 0, or the rule's own errno (EACCES) */
	const char *glob;
	size_t lit;        /* length of the literal prefix: a quick reject */
};

static struct {
	char arena[ARENA];
	size_t used;
	struct rule rules[MAX_RULES];
	int nrules, allow_from; /* first rule of rank write or read */
	const char *trav[MAX_TRAV];
	int ntrav;
	int def_allow;
} snap;

static int ready; /* 0 none, 1 loaded: written once, read with acquire */

static const char *intern(const char *s, uint32_t n)
{
	if (snap.used + n + 1 > ARENA)
		return NULL;
	char *d = snap.arena + snap.used;
	memcpy(d, s, n);
	d[n] = 0;
	if (memchr(d, 0, n))
		return NULL;
	snap.used += n + 1;
	return d;
}

static int load_rules(mp_r *r)
{
	uint32_t n, m, sl;
	uint64_t rank;
	const char *s;
	if (mp_read_array(r, &n) || n > MAX_RULES)
		return -1;
	snap.allow_from = (int)n;
	for (uint32_t i = 0; i < n; i++) {
		struct rule *ru = &snap.rules[i];
		if (mp_read_array(r, &m) || m != 3 || mp_read_uint(r, &rank) || rank >= RANK_NONE)
			return -1;
		ru->rank = (unsigned char)rank;
		if (mp_read_str(r, &s, &sl) || !(ru->glob = intern(s, sl)))
			return -1;
		if (mp_read_str(r, &s, &sl))
			return -1;
		ru->err = mp_key_is(s, sl, "EACCES") ? EACCES : 0;
		ru->lit = strcspn(ru->glob, "*?[{\\");
		if (rank >= RANK_WRITE && (int)i < snap.allow_from)
			snap.allow_from = (int)i;
	}
	snap.nrules = (int)n;
	return 0;
}

static int load_trav(mp_r *r)
{
	uint32_t n, sl;
	const char *s;
	if (mp_read_array(r, &n) || n > MAX_TRAV)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (mp_read_str(r, &s, &sl) || !(snap.trav[i] = intern(s, sl)))
			return -1;
		if (i > 0 && strcmp(snap.trav[i - 1], snap.trav[i]) >= 0)
			return -1; /* must be sorted: looked up by bisection */
	}
	snap.ntrav = (int)n;
	return 0;
}

/* aix_snapshot_load parses a snapshot map (PROTOCOL.md) into static
 * storage. Called once, before ready is published. */
int aix_snapshot_load(const unsigned char *buf, size_t len)
{
	mp_r r = {buf, buf + len, 0};
	uint32_t n, kl, sl;
	const char *k, *s;
	if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		return 0;
	snap.used = 0;
	snap.nrules = snap.ntrav = 0;
	if (mp_read_map(&r, &n))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (mp_read_str(&r, &k, &kl))
			return -1;
		if (mp_key_is(k, kl, "default")) {
			if (mp_read_str(&r, &s, &sl))
				return -1;
			snap.def_allow = mp_key_is(s, sl, "allow");
		} else if (mp_key_is(k, kl, "rules")) {
			if (load_rules(&r))
				return -1;
		} else if (mp_key_is(k, kl, "traverse")) {
			if (load_trav(&r))
				return -1;
		} else if (mp_skip(&r)) {
			return -1;
		}
	}
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	return 0;
}

int aix_snapshot_ready(void) { return __atomic_load_n(&ready, __ATOMIC_ACQUIRE); }

/* prefix_ok is the quick reject: a match starts with the glob's literal
 * prefix, or is the directory a trailing "/" of that prefix names
 * (the "/a/" of a tree glob under /a also matches "/a"). */
static int prefix_ok(const struct rule *r, const char *p)
{
	if (!strncmp(p, r->glob, r->lit))
		return 1;
	return r->lit > 1 && r->glob[r->lit - 1] == '/' && !strncmp(p, r->glob, r->lit - 1) && !p[r->lit - 1];
}

static int first_match(const char *p, int from)
{
	for (int i = from; i < snap.nrules; i++)
		if (prefix_ok(&snap.rules[i], p) && aix_glob_match(snap.rules[i].glob, p))
			return i;
	return -1;
}

static int traversable(const char *p)
{
	int lo = 0, hi = snap.ntrav;
	while (lo < hi) {
		int mid = (lo + hi) / 2, c = strcmp(snap.trav[mid], p);
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* aix_decide is policy.Engine.Decide for OpStat and OpRead on a canonical
 * absolute path, from the snapshot. */
enum aix_verdict aix_decide(enum aix_op op, const char *p, int *err, int *explicit_rule)
{
	*err = 0;
	*explicit_rule = 0;
	if (!aix_snapshot_ready())
		return V_UNKNOWN;
	int i = first_match(p, 0);
	int rank = i >= 0 ? snap.rules[i].rank : RANK_NONE;
	if (rank == RANK_REDACT && !snap.def_allow && first_match(p, snap.allow_from) < 0)
		rank = RANK_NONE; /* redact narrows an allow; it never widens */
	if (rank == RANK_NONE) {
		if ((op == OP_STAT && traversable(p)) || snap.def_allow)
			return V_ALLOW;
		*err = ENOENT;
		return V_HIDE;
	}
	*explicit_rule = 1;
	switch (rank) {
	case RANK_DENY:
		*err = snap.rules[i].err ? snap.rules[i].err : ENOENT;
		return V_HIDE;
	case RANK_REDACT:
		return V_REDACT;
	}
	return V_ALLOW;
}
