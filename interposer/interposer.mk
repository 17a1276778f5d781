# interposer/interposer.mk: the C interposer, included by the top Makefile.
# It is the one C artefact of the project: a shared object embedded in
# bin/aixbroker (package interposer) and preloaded into the agent.
CC        ?= gcc
INTERPOSER := interposer/libaixbroker.so
INTERPOSER_SRC := $(wildcard interposer/src/*.c)
INTERPOSER_HDR := $(wildcard interposer/src/*.h) interposer/src/exports.map interposer/interposer.mk
INTERPOSER_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -fPIC -U_FORTIFY_SOURCE \
	-fno-stack-protector -fno-delete-null-pointer-checks
INTERPOSER_LDFLAGS := -shared -Wl,--version-script=interposer/src/exports.map -Wl,-z,relro,-z,now -ldl

.PHONY: interposer
interposer: $(INTERPOSER)

$(INTERPOSER): $(INTERPOSER_SRC) $(INTERPOSER_HDR)
	$(CC) $(INTERPOSER_CFLAGS) -o $@ $(INTERPOSER_SRC) $(INTERPOSER_LDFLAGS)
