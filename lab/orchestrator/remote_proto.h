/* SPDX-License-Identifier: MIT */
/*
 * The line protocol between mstlab and its agent on another host
 * (`mstlab agent`, over SSH's stdin and stdout; docs/cli.md#mstlab-agent):
 * the codec both ends share, pure but for the reader, which pulls lines
 * and counted bytes from a file descriptor.
 *
 *   request   VERB [WORD...]\n            (topology: then LEN raw bytes)
 *   answer    info TEXT\n ... then  ok [WORD...]\n  or  err TEXT\n
 *             (get: ok LEN\n then LEN raw bytes)
 *
 * A line is at most REMOTE_LINE_MAX bytes with its newline, printable
 * ASCII only; a request's words are separated by one space and each is
 * 1-REMOTE_WORD_MAX of REMOTE_WORD_CHARS, so none needs quoting and no
 * word is ever read by a shell on either side. The agent answers every
 * line, and judges what each word names against the lab's plan.
 *
 * A host's guest files (`images`) are its own: its agent answers the
 * paths of its kernels, image and tools share as they are there
 *   ok KERNEL DEBUG_KERNEL INITRD TOOLS
 * each an absolute path of remote_path_ok, or "-" for one it has not
 * (a debug kernel no node there boots, no tools share); a file a node
 * of its host needs and that is missing is an err naming it. The
 * controller takes only what remote_images_parse accepts, and those
 * paths go into that host's domain XML.
 */
#ifndef MSTLAB_REMOTE_PROTO_H
#define MSTLAB_REMOTE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "topo.h"

/* 2: images, virt, template, clone and awaken (a host's own guest files,
 * accelerator and templates); 3: host, tools and udp-probe (hosts
 * check); 4: images names a kernel of every name (kernels.h); an
 * agent of another version refuses the hello. */
#define REMOTE_PROTO_VERSION 4
#define REMOTE_LINE_MAX 4096
#define REMOTE_WORD_MAX 1024
#define REMOTE_WORDS_MAX 8
/* A file put there (a seed image, an overlay's tar) is at most this. */
#define REMOTE_PUT_MAX (64u << 20)
/* A payload (a topology, a file fetched back) is at most this. */
#define REMOTE_DATA_MAX (1u << 30)
#define REMOTE_WORD_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"0123456789._/:+=@,-"

/* A path a host's agent may name: at most this long, with its NUL. */
#define REMOTE_PATH_MAX 256

/* A host's own guest files (the answer of `images`): "" for none. */
struct remote_images {
	char kernel[TOPO_KERNEL_COUNT][REMOTE_PATH_MAX]; /* by enum topo_kernel */
	char initrd[REMOTE_PATH_MAX];
	char tools[REMOTE_PATH_MAX];
};

/* One line, split: words[0] is the verb (or ok, err, info). */
struct remote_msg {
	size_t n;
	const char *word[REMOTE_WORDS_MAX];
	const char *rest;	/* err and info: the text after the word */
	char buf[REMOTE_LINE_MAX];
};

/*
 * Splits a request line (no newline) into words: 0, or -1 with why
 * (an empty word, a byte outside REMOTE_WORD_CHARS, too many or too
 * long words, an overlong line).
 */
int remote_parse_request(const char *line, size_t len, struct remote_msg *m,
			 struct errbuf *why);
/*
 * Splits an answer line: "ok [WORD...]", or "err TEXT" / "info TEXT"
 * with the text in m->rest (printable ASCII). 0, or -1 with why.
 */
int remote_parse_answer(const char *line, size_t len, struct remote_msg *m,
			struct errbuf *why);
/* A decimal number in 0..max, all digits, no sign or leading zero:
 * 0, or -1. */
int remote_number(const char *word, uint64_t max, uint64_t *v);
/* Whether word may be sent as one (REMOTE_WORD_CHARS, not empty). */
bool remote_word_ok(const char *word);
/*
 * Whether path may name a host's file in its domains' XML: absolute, at
 * most REMOTE_PATH_MAX - 1 bytes of A-Z a-z 0-9 / . _ + -, no empty,
 * "." or ".." component (nothing to quote, escape or resolve anywhere).
 */
bool remote_path_ok(const char *path);
/*
 * The answer of `images` ("ok INITRD TOOLS KERNEL...": a kernel for each
 * name of enum topo_kernel, in its order) into im: 0, or -1 with why (a
 * word count, or which path is refused and why). A kernel and the tools
 * may be "-" (none); the initramfs may not.
 */
int remote_images_parse(const struct remote_msg *ans,
			struct remote_images *im, struct errbuf *why);
/* text made printable for an err or info line: each other byte and a
 * newline as '?', cut at len - 1. */
void remote_text(const char *text, char *out, size_t len);

/* Lines and counted bytes from a descriptor. */
struct remote_reader {
	int fd;
	int timeout_ms;		/* per read; < 0: wait for ever */
	size_t start, end;
	char buf[8192];
};

void remote_reader_init(struct remote_reader *r, int fd, int timeout_ms);
/*
 * The next line without its newline, NUL-terminated, into line (room
 * for REMOTE_LINE_MAX): its length, or -1 with why (end of input, a
 * timeout, a line too long: the stream is then out of step and must be
 * closed).
 */
long remote_read_line(struct remote_reader *r, char *line,
		      struct errbuf *why);
/* Exactly n bytes into dst: 0, or -1 with why. */
int remote_read_bytes(struct remote_reader *r, void *dst, size_t n,
		      struct errbuf *why);
/* All of buf to fd: 0, or -1 (errno). */
int remote_write_all(int fd, const void *buf, size_t n);

#endif
