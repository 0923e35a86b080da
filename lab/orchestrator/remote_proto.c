// SPDX-License-Identifier: MIT
#include "remote_proto.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool remote_word_ok(const char *word)
{
	size_t n = strlen(word);

	return n && n <= REMOTE_WORD_MAX &&
	       strspn(word, REMOTE_WORD_CHARS) == n;
}

bool remote_path_ok(const char *path)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789/._+-";
	size_t n = strlen(path);

	if (path[0] != '/' || n >= REMOTE_PATH_MAX || strspn(path, ok) != n)
		return false;
	for (const char *p = path + 1; ; ) {
		size_t c = strcspn(p, "/");

		if (!c || (c == 1 && p[0] == '.') ||
		    (c == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!p[c])
			return true;
		p += c + 1;
	}
}

/* One path of an images answer: "-" is none when may_lack. */
static int image_path(const char *word, const char *what, bool may_lack,
		      char *out, struct errbuf *why)
{
	if (may_lack && !strcmp(word, "-")) {
		out[0] = 0;
		return 0;
	}
	if (!remote_path_ok(word))
		return errbuf_set(why, "its %s '%.60s' is no absolute path of "
				  "A-Z a-z 0-9 / . _ + - (at most %d bytes, no "
				  "'.' or '..')", what, word,
				  REMOTE_PATH_MAX - 1);
	memcpy(out, word, strlen(word) + 1);
	return 0;
}

int remote_images_parse(const struct remote_msg *ans,
			struct remote_images *im, struct errbuf *why)
{
	int r;

	memset(im, 0, sizeof(*im));
	if (ans->n != 3 + TOPO_KERNEL_COUNT || strcmp(ans->word[0], "ok"))
		return errbuf_set(why, "an images answer is ok INITRD TOOLS "
				  "and a kernel of each of %d names",
				  TOPO_KERNEL_COUNT);
	r = image_path(ans->word[1], "initramfs", false, im->initrd, why) ||
	    image_path(ans->word[2], "tools share", true, im->tools, why);
	for (int k = 0; k < TOPO_KERNEL_COUNT && !r; k++) {
		char what[32];

		snprintf(what, sizeof(what), "%s kernel", topo_kernel_name(k));
		r = image_path(ans->word[3 + k], what, true, im->kernel[k],
			       why);
	}
	if (r)
		memset(im, 0, sizeof(*im));
	return r ? -1 : 0;
}

/* Copies line into m->buf and splits it at single spaces, at most
 * `words` of them (the last keeps the rest when rest is wanted). */
static int split(const char *line, size_t len, struct remote_msg *m,
		 size_t words, struct errbuf *why)
{
	char *p;

	memset(m, 0, sizeof(*m));
	if (len >= sizeof(m->buf))
		return errbuf_set(why, "a line longer than %d bytes",
				  REMOTE_LINE_MAX - 1);
	if (!len)
		return errbuf_set(why, "an empty line");
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 ||
		    (unsigned char)line[i] > 0x7e)
			return errbuf_set(why, "byte 0x%02x at %zu: printable "
					  "ASCII only", (unsigned char)line[i],
					  i);
	memcpy(m->buf, line, len);
	m->buf[len] = 0;
	p = m->buf;
	while (m->n < words) {
		char *sp = strchr(p, ' ');

		m->word[m->n++] = p;
		if (!sp)
			return 0;
		*sp = 0;
		p = sp + 1;
		if (m->n == words)
			break;
	}
	m->rest = p;
	return 0;
}

int remote_parse_request(const char *line, size_t len, struct remote_msg *m,
			 struct errbuf *why)
{
	if (split(line, len, m, REMOTE_WORDS_MAX, why))
		return -1;
	if (m->rest)
		return errbuf_set(why, "more than %d words", REMOTE_WORDS_MAX);
	for (size_t i = 0; i < m->n; i++) {
		if (!m->word[i][0])
			return errbuf_set(why, "an empty word (word %zu)", i + 1);
		if (!remote_word_ok(m->word[i]))
			return errbuf_set(why, "word %zu: only A-Z a-z 0-9 and "
					  "._/:+=@,- and at most %d bytes",
					  i + 1, REMOTE_WORD_MAX);
	}
	return 0;
}

int remote_parse_answer(const char *line, size_t len, struct remote_msg *m,
			struct errbuf *why)
{
	if (split(line, len, m, 1, why))
		return -1;
	if (!strcmp(m->word[0], "err") || !strcmp(m->word[0], "info")) {
		if (!m->rest)
			m->rest = "";
		return 0;
	}
	if (strcmp(m->word[0], "ok"))
		return errbuf_set(why, "an answer must start ok, err or info, "
				  "not '%.40s'", m->word[0]);
	if (!m->rest)
		return 0;
	/* ok's own words, split as a request's */
	{
		struct remote_msg w;
		size_t n = strlen(m->rest);

		if (remote_parse_request(m->rest, n, &w, why))
			return -1;
		if (w.n + 1 > REMOTE_WORDS_MAX)
			return errbuf_set(why, "more than %d words",
					  REMOTE_WORDS_MAX);
		/* Re-split in place, now that every word is good. */
		for (char *p = (char *)m->rest; p; ) {
			char *sp = strchr(p, ' ');

			m->word[m->n++] = p;
			if (sp)
				*sp++ = 0;
			p = sp;
		}
		m->rest = NULL;
	}
	return 0;
}

int remote_number(const char *word, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	size_t n = strlen(word);

	if (!n || n > 20 || strspn(word, "0123456789") != n ||
	    (n > 1 && word[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(word[i] - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (x > max)
		return -1;
	*v = x;
	return 0;
}

void remote_text(const char *text, char *out, size_t len)
{
	size_t k = 0;

	for (; text[k] && k + 1 < len; k++)
		out[k] = (unsigned char)text[k] >= 0x20 &&
			 (unsigned char)text[k] <= 0x7e ? text[k] : '?';
	out[k] = 0;
}

void remote_reader_init(struct remote_reader *r, int fd, int timeout_ms)
{
	r->fd = fd;
	r->timeout_ms = timeout_ms;
	r->start = r->end = 0;
}

/* More bytes into the buffer: >0 read, 0 end of input, -1 error (why). */
static int fill(struct remote_reader *r, struct errbuf *why)
{
	struct pollfd p = { r->fd, POLLIN, 0 };
	ssize_t n;

	if (r->start == r->end)
		r->start = r->end = 0;
	if (r->start && r->end == sizeof(r->buf)) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	for (;;) {
		int rc = poll(&p, 1, r->timeout_ms);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return errbuf_set(why, "poll: %s", strerror(errno));
		if (rc == 0)
			return errbuf_set(why, "no answer within %d s",
					  r->timeout_ms / 1000);
		n = read(r->fd, r->buf + r->end, sizeof(r->buf) - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errbuf_set(why, "read: %s", strerror(errno));
		r->end += (size_t)n;
		return n > 0;
	}
}

long remote_read_line(struct remote_reader *r, char *line, struct errbuf *why)
{
	size_t len = 0;

	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		size_t take = nl ? (size_t)(nl - (r->buf + r->start)) :
				   r->end - r->start;
		int got;

		if (len + take >= REMOTE_LINE_MAX)
			return errbuf_set(why, "a line longer than %d bytes",
					  REMOTE_LINE_MAX - 1);
		memcpy(line + len, r->buf + r->start, take);
		len += take;
		r->start += take + (nl ? 1 : 0);
		if (nl) {
			line[len] = 0;
			return (long)len;
		}
		got = fill(r, why);
		if (got < 0)
			return -1;
		if (got == 0)
			return errbuf_set(why, len ? "input ends in a line" :
					  "end of input");
	}
}

int remote_read_bytes(struct remote_reader *r, void *dst, size_t n,
		      struct errbuf *why)
{
	char *d = dst;

	while (n) {
		size_t take = r->end - r->start;
		int got;

		if (take) {
			take = take < n ? take : n;
			memcpy(d, r->buf + r->start, take);
			r->start += take;
			d += take;
			n -= take;
			continue;
		}
		got = fill(r, why);
		if (got < 0)
			return -1;
		if (got == 0)
			return errbuf_set(why, "input ends %zu bytes short", n);
	}
	return 0;
}

int remote_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
