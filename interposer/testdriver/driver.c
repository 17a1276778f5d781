/* driver.c: a test driver for the C side of the protocol, built by the Go
 * tests of package interposer with the library's own sources.
 *
 *	driver encode            print the golden requests, one "name hex" a line
 *	driver decide HELLO      load the snapshot from a hello response file, then
 *	                         answer "stat|read PATH" lines from stdin
 *	driver glob              answer "PATTERN PATH" lines: 1 or 0
 *	driver parse FILE...     load each file as a hello response in a forked
 *	                         child, then decide a few paths: "ok", "bad" or
 *	                         "crash" a line (the decoder on corrupt input)
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../src/aix.h"

static void hex(const char *name, const unsigned char *b, size_t n)
{
	printf("%s ", name);
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	printf("\n");
}

static int encode(void)
{
	unsigned char buf[4096];
	char *argv[] = {"git", "status", "--short", NULL};
	size_t n = aix_encode_hello(buf, sizeof buf, 42);
	hex("hello", buf, n);
	n = aix_encode_stub(buf, sizeof buf, "/home/u/p/.env");
	hex("stub", buf, n);
	n = aix_encode_hint(buf, sizeof buf, 42, "/usr/bin/git", argv);
	hex("hint", buf, n);
	return 0;
}

static int decide(const char *file)
{
	static unsigned char buf[AIX_MAX_MSG];
	char line[8192];
	FILE *f = fopen(file, "rb");
	if (!f)
		return 2;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if (aix_parse_hello(buf, n)) {
		printf("bad hello\n");
		return 1;
	}
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		char *path = strchr(line, ' ');
		int err, expl;
		if (!path)
			continue;
		*path++ = 0;
		enum aix_verdict v = aix_decide(strcmp(line, "read") ? OP_STAT : OP_READ, path, &err, &expl);
		switch (v) {
		case V_ALLOW: printf("allow\n"); break;
		case V_REDACT: printf("redact\n"); break;
		case V_HIDE: printf("deny %s\n", err == 13 ? "EACCES" : "ENOENT"); break;
		default: printf("unknown\n");
		}
	}
	return 0;
}

static int glob(void)
{
	char line[8192];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		char *path = strchr(line, '\t');
		if (!path)
			continue;
		*path++ = 0;
		printf("%d\n", aix_glob_match(line, path));
	}
	return 0;
}

static int parse(int n, char **files)
{
	static unsigned char buf[AIX_MAX_MSG];
	const char *paths[] = {"/", "/home/u/.ssh/id_rsa", "/home/u/p/.env", "/a/b/c/d/e/f"};
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			FILE *f = fopen(files[i], "rb");
			if (!f)
				_exit(2);
			size_t len = fread(buf, 1, sizeof buf, f);
			fclose(f);
			if (aix_parse_hello(buf, len))
				_exit(1);
			for (size_t k = 0; k < sizeof paths / sizeof *paths; k++) {
				int err, expl;
				aix_decide(OP_STAT, paths[k], &err, &expl);
				aix_decide(OP_READ, paths[k], &err, &expl);
			}
			_exit(0);
		}
		int st;
		waitpid(pid, &st, 0);
		printf("%s\n", !WIFEXITED(st) ? "crash" : WEXITSTATUS(st) == 0 ? "ok" : "bad");
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "encode"))
		return encode();
	if (argc == 3 && !strcmp(argv[1], "decide"))
		return decide(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "glob"))
		return glob();
	if (argc >= 2 && !strcmp(argv[1], "parse"))
		return parse(argc - 2, argv + 2);
	fprintf(stderr, "usage: driver encode | decide HELLO | glob | parse FILE...\n");
	return 2;
}
