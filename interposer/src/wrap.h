/* wrap.h: shared by the wrapper files. */
#ifndef WRAP_H
#define WRAP_H

#include <dirent.h>
#include <stddef.h>

#include "aix.h"

enum { CHECK_FAST, CHECK_CONFIRM };

extern __thread int aix_in_wrap __attribute__((tls_model("initial-exec")));

int aix_fd_path(int fd, char *out, size_t cap);
int aix_absolute(int dirfd, const char *path, char *out);
enum aix_verdict aix_check(int dirfd, const char *path, enum aix_op op, int mode, int *err, char *canon);
int aix_hidden_entry(const char *dir, const char *name, unsigned char type);
int aix_named(const char *p, int flags);
void *aix_resolve(void **slot, const char *name);

#endif
