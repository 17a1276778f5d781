/* aix.h: the interposer's internal interfaces. See ../README.md. */
#ifndef AIX_H
#define AIX_H

#include <stddef.h>
#include <stdint.h>

#define AIX_PROTO_VERSION 1
#define AIX_MAX_MSG 65536     /* largest datagram either side sends */
#define AIX_PATH 4096         /* PATH_MAX, without <limits.h> games */

/* ---- msgpack (msgpack.c): exactly the subset PROTOCOL.md uses ---- */

typedef struct {
	unsigned char *p, *end;
	int err; /* set once a write did not fit */
} mp_w;

void mp_map(mp_w *w, uint32_t n);
void mp_array(mp_w *w, uint32_t n);
void mp_str(mp_w *w, const char *s, size_t n);
void mp_cstr(mp_w *w, const char *s);
void mp_uint(mp_w *w, uint64_t v);

typedef struct {
	const unsigned char *p, *end;
	int err; /* set once a read failed: every later read fails too */
} mp_r;

int mp_read_map(mp_r *r, uint32_t *n);
int mp_read_array(mp_r *r, uint32_t *n);
int mp_read_str(mp_r *r, const char **s, uint32_t *n);
int mp_read_uint(mp_r *r, uint64_t *v);
int mp_skip(mp_r *r);
int mp_key_is(const char *s, uint32_t n, const char *key);

/* ---- decisions (match.c) ---- */

enum aix_rank { RANK_DENY, RANK_REDACT, RANK_WRITE, RANK_READ, RANK_NONE };
enum aix_op { OP_READ, OP_STAT };

/* verdict of aix_decide */
enum aix_verdict {
	V_ALLOW,       /* show it as it is */
	V_HIDE,        /* errno in *err */
	V_REDACT,      /* show it with the stub's size */
	V_UNKNOWN      /* no snapshot: let the kernel answer */
};

int aix_glob_match(const char *pat, const char *path);
int aix_snapshot_load(const unsigned char *buf, size_t n);
int aix_snapshot_ready(void);
/* explicit: set when the verdict came from a rule rather than the default */
enum aix_verdict aix_decide(enum aix_op op, const char *canon, int *err, int *explicit_rule);

/* ---- the broker connection (client.c) ---- */

void aix_client_init(void);
int aix_ensure_snapshot(void);
/* the stub's size, device and inode (those of the descriptor the broker
 * sends, the memfd every open of the file is served) */
struct aix_stub {
	long long size;
	unsigned long long dev, ino;
	int have_inode;
};
int aix_stub_info(const char *canon, struct aix_stub *out);
void aix_hint_exec(const char *path, char *const argv[]);
size_t aix_encode_hello(unsigned char *buf, size_t cap, uint64_t pid);
size_t aix_encode_stub(unsigned char *buf, size_t cap, const char *path);
size_t aix_encode_hint(unsigned char *buf, size_t cap, uint64_t pid, const char *path, char *const argv[]);
int aix_parse_hello(const unsigned char *buf, size_t n);

#endif
