/* msgpack.c: the msgpack subset of PROTOCOL.md. Writers never overrun the
 * buffer (they set w->err); readers never read past r->end (they set
 * r->err). No allocation. */
#include <string.h>

#include "aix.h"

static void put(mp_w *w, const void *b, size_t n)
{
	if (w->err || (size_t)(w->end - w->p) < n) {
		w->err = 1;
		return;
	}
	memcpy(w->p, b, n);
	w->p += n;
}

static void put_be(mp_w *w, unsigned char tag, uint64_t v, int bytes)
{
	unsigned char b[9];
	b[0] = tag;
	for (int i = 0; i < bytes; i++)
		b[1 + i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
	put(w, b, (size_t)bytes + 1);
}

static void put_len(mp_w *w, uint32_t n, unsigned char fix, uint32_t fixmax,
		    unsigned char t8, unsigned char t16, unsigned char t32)
{
	if (n <= fixmax) {
		unsigned char b = (unsigned char)(fix | n);
		put(w, &b, 1);
	} else if (t8 && n <= 0xff) {
		put_be(w, t8, n, 1);
	} else if (n <= 0xffff) {
		put_be(w, t16, n, 2);
	} else {
		put_be(w, t32, n, 4);
	}
}

void mp_map(mp_w *w, uint32_t n) { put_len(w, n, 0x80, 15, 0, 0xde, 0xdf); }
void mp_array(mp_w *w, uint32_t n) { put_len(w, n, 0x90, 15, 0, 0xdc, 0xdd); }

void mp_str(mp_w *w, const char *s, size_t n)
{
	if (n > 0xffffffffu) {
		w->err = 1;
		return;
	}
	put_len(w, (uint32_t)n, 0xa0, 31, 0xd9, 0xda, 0xdb);
	put(w, s, n);
}

void mp_cstr(mp_w *w, const char *s) { mp_str(w, s, strlen(s)); }

void mp_uint(mp_w *w, uint64_t v)
{
	if (v < 0x80) {
		unsigned char b = (unsigned char)v;
		put(w, &b, 1);
	} else if (v <= 0xff) {
		put_be(w, 0xcc, v, 1);
	} else if (v <= 0xffff) {
		put_be(w, 0xcd, v, 2);
	} else if (v <= 0xffffffffu) {
		put_be(w, 0xce, v, 4);
	} else {
		put_be(w, 0xcf, v, 8);
	}
}

static int get(mp_r *r, size_t n, const unsigned char **out)
{
	if (r->err || (size_t)(r->end - r->p) < n) {
		r->err = 1;
		return -1;
	}
	*out = r->p;
	r->p += n;
	return 0;
}

static int get_be(mp_r *r, int bytes, uint64_t *v)
{
	const unsigned char *b;
	if (get(r, (size_t)bytes, &b))
		return -1;
	*v = 0;
	for (int i = 0; i < bytes; i++)
		*v = (*v << 8) | b[i];
	return 0;
}

static int peek(mp_r *r, unsigned char *t)
{
	const unsigned char *b;
	if (get(r, 1, &b))
		return -1;
	*t = *b;
	return 0;
}

static int fail(mp_r *r)
{
	r->err = 1;
	return -1;
}

/* read_len reads a map, array or str header into n. */
static int read_len(mp_r *r, uint32_t *n, unsigned char fix, unsigned char fixmask,
		    unsigned char t8, unsigned char t16, unsigned char t32)
{
	unsigned char t;
	uint64_t v;
	if (peek(r, &t))
		return -1;
	if ((t & ~fixmask) == fix) {
		*n = t & fixmask;
		return 0;
	}
	if (t8 && t == t8 && !get_be(r, 1, &v)) {
	} else if (t == t16 && !get_be(r, 2, &v)) {
	} else if (t == t32 && !get_be(r, 4, &v)) {
	} else {
		return fail(r);
	}
	*n = (uint32_t)v;
	return 0;
}

int mp_read_map(mp_r *r, uint32_t *n) { return read_len(r, n, 0x80, 0x0f, 0, 0xde, 0xdf); }
int mp_read_array(mp_r *r, uint32_t *n) { return read_len(r, n, 0x90, 0x0f, 0, 0xdc, 0xdd); }

int mp_read_str(mp_r *r, const char **s, uint32_t *n)
{
	const unsigned char *b;
	if (read_len(r, n, 0xa0, 0x1f, 0xd9, 0xda, 0xdb) || get(r, *n, &b))
		return -1;
	*s = (const char *)b;
	return 0;
}

int mp_read_uint(mp_r *r, uint64_t *v)
{
	unsigned char t;
	if (peek(r, &t))
		return -1;
	if (t < 0x80) {
		*v = t;
		return 0;
	}
	switch (t) {
	case 0xcc: return get_be(r, 1, v);
	case 0xcd: return get_be(r, 2, v);
	case 0xce: return get_be(r, 4, v);
	case 0xcf: return get_be(r, 8, v);
	case 0xd0: case 0xd1: case 0xd2: case 0xd3: { /* signed, accepted if >= 0 */
		int bytes = 1 << (t - 0xd0);
		if (get_be(r, bytes, v))
			return -1;
		if (*v >> (8 * bytes - 1))
			return fail(r);
		return 0;
	}
	}
	return fail(r);
}

/* skip skips one value of any type, nested at most 16 deep. */
static int skip(mp_r *r, int depth)
{
	unsigned char t;
	const unsigned char *b;
	uint64_t v;
	uint32_t n, i;
	if (peek(r, &t))
		return -1;
	r->p--; /* re-read the tag through the typed readers */
	if (t <= 0x7f || (t >= 0xcc && t <= 0xcf) || (t >= 0xd0 && t <= 0xd3)) {
		if (t >= 0xd0 && t <= 0xd3) {
			r->p++;
			return get_be(r, 1 << (t - 0xd0), &v);
		}
		return mp_read_uint(r, &v);
	}
	if (t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
		r->p++;
		return 0;
	}
	if ((t & 0xe0) == 0xa0 || t == 0xd9 || t == 0xda || t == 0xdb) {
		const char *s;
		return mp_read_str(r, &s, &n);
	}
	if ((t & 0xf0) == 0x90 || t == 0xdc || t == 0xdd) {
		if (mp_read_array(r, &n))
			return -1;
		for (i = 0; i < n; i++)
			if (depth >= 16 || skip(r, depth + 1))
				return fail(r);
		return 0;
	}
	if ((t & 0xf0) == 0x80 || t == 0xde || t == 0xdf) {
		if (mp_read_map(r, &n))
			return -1;
		for (i = 0; i < n; i++)
			if (depth >= 16 || skip(r, depth + 1) || skip(r, depth + 1))
				return fail(r);
		return 0;
	}
	r->p++;
	switch (t) { /* bin 8/16/32, float 32/64 */
	case 0xc4: case 0xc5: case 0xc6:
		if (get_be(r, 1 << (t - 0xc4), &v) || get(r, (size_t)v, &b))
			return -1;
		return 0;
	case 0xca: return get(r, 4, &b);
	case 0xcb: return get(r, 8, &b);
	}
	return fail(r); /* ext types are not part of the protocol */
}

int mp_skip(mp_r *r) { return skip(r, 0); }

int mp_key_is(const char *s, uint32_t n, const char *key)
{
	return strlen(key) == n && memcmp(s, key, n) == 0;
}
