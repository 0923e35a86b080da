// SPDX-License-Identifier: MIT
/* The printer: the same calls give text or JSON; JSON strings escaped. */
#include "unit.h"
#include "print.h"

#include <stdio.h>
#include <stdlib.h>

struct out {
	char *buf;
	size_t len;
	FILE *fp;
	struct printer p;
};

static void out_open(struct out *o, bool json)
{
	o->buf = NULL;
	o->len = 0;
	o->fp = open_memstream(&o->buf, &o->len);
	print_init(&o->p, o->fp, json);
}

/* Closes the stream; the caller frees o->buf. */
static const char *out_text(struct out *o)
{
	fclose(o->fp);
	return o->buf;
}

/* The calls mstctl makes for two ports with their MSTI states. */
static void render_ports(struct printer *p)
{
	static const char *const names[] = { "p1", "p2" };

	print_open_array(p, NULL);
	for (int i = 0; i < 2; i++) {
		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "ifname", "%-8s", names[i]);
		print_open_array(p, "mst");
		for (unsigned int msti = 1; msti <= 2; msti++) {
			print_open_object(p, NULL);
			print_uint(p, PRINT_ANY, "msti", " msti %u", msti);
			print_string(p, PRINT_ANY, "state", " state %s",
				     msti == 1 ? "forwarding" : "blocking");
			print_close_object(p);
		}
		print_close_array(p);
		print_bool(p, PRINT_JSON, "up", NULL, i == 0);
		print_nl(p);
		print_close_object(p);
	}
	print_close_array(p);
}

TEST(print_text_mode)
{
	struct out o;

	out_open(&o, false);
	render_ports(&o.p);
	CHECK(!print_is_json(&o.p));
	CHECK_STR(out_text(&o),
		  "p1       msti 1 state forwarding msti 2 state blocking\n"
		  "p2       msti 1 state forwarding msti 2 state blocking\n");
	free(o.buf);
}

TEST(print_json_mode)
{
	struct out o;

	out_open(&o, true);
	render_ports(&o.p);
	CHECK(print_is_json(&o.p));
	CHECK_STR(out_text(&o),
		  "[{\"ifname\":\"p1\",\"mst\":[{\"msti\":1,\"state\":"
		  "\"forwarding\"},{\"msti\":2,\"state\":\"blocking\"}],"
		  "\"up\":true},"
		  "{\"ifname\":\"p2\",\"mst\":[{\"msti\":1,\"state\":"
		  "\"forwarding\"},{\"msti\":2,\"state\":\"blocking\"}],"
		  "\"up\":false}]\n");
	free(o.buf);
}

TEST(print_types_and_filters)
{
	struct out o;

	out_open(&o, true);
	print_open_object(&o.p, NULL);
	print_int(&o.p, PRINT_ANY, "code", "%d", -16);
	print_uint(&o.p, PRINT_FP, "hidden", "%u", 1);	/* text only */
	print_null(&o.p, PRINT_JSON, "none", "-");
	print_string(&o.p, PRINT_JSON, "s", NULL, NULL);
	print_close_object(&o.p);
	/* each top-level value is its own line */
	print_open_object(&o.p, NULL);
	print_close_object(&o.p);
	CHECK_STR(out_text(&o),
		  "{\"code\":-16,\"none\":null,\"s\":\"\"}\n{}\n");
	free(o.buf);

	out_open(&o, false);
	print_open_object(&o.p, NULL);			/* JSON only */
	print_int(&o.p, PRINT_ANY, "code", "code %d", -16);
	print_uint(&o.p, PRINT_JSON, "hidden", "%u", 1);
	print_null(&o.p, PRINT_ANY, "none", " none");
	print_bool(&o.p, PRINT_ANY, "on", " on %s", true);
	print_string(&o.p, PRINT_ANY, "s", NULL, "no fmt: no text");
	print_close_object(&o.p);
	print_nl(&o.p);
	CHECK_STR(out_text(&o), "code -16 none on true\n");
	free(o.buf);
}

static void check_escape(const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	print_json_string(fp, in);
	fclose(fp);
	CHECK_STR(buf, want);
	free(buf);
}

TEST(print_json_escaping)
{
	check_escape("plain", "\"plain\"");
	check_escape("a\"b\\c", "\"a\\\"b\\\\c\"");
	check_escape("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	check_escape("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	check_escape("/", "\"/\"");
	check_escape("", "\"\"");
	check_escape(NULL, "\"\"");
	/* valid UTF-8 passes through */
	check_escape("br\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
		     "\"br\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	/* invalid bytes: stray continuation, truncated, overlong, surrogate */
	check_escape("a\x80z", "\"a\\ufffdz\"");
	check_escape("\xc3", "\"\\ufffd\"");
	check_escape("\xe2\x82", "\"\\ufffd\\ufffd\"");
	check_escape("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	check_escape("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	check_escape("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	check_escape("\xff", "\"\\ufffd\"");
}

TEST(print_json_keys_escaped)
{
	struct out o;

	out_open(&o, true);
	print_open_object(&o.p, NULL);
	print_string(&o.p, PRINT_ANY, "k\"ey", "%s", "v\n");
	print_close_object(&o.p);
	CHECK_STR(out_text(&o), "{\"k\\\"ey\":\"v\\n\"}\n");
	free(o.buf);
}
