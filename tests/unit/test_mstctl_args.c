// SPDX-License-Identifier: MIT
/*
 * The shared argument parsing (lab/util/args.c): mstctl's decimal numbers,
 * VLAN ranges, lists and keywords, hsmpctl's decimal-or-hex numbers;
 * every rejection.
 */
#include "unit.h"
#include "args.h"

#include <string.h>

#include <errno.h>

TEST(number_bounds)
{
	unsigned int v = 99;

	CHECK_INT(args_number("1", 1, 4094, &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(args_number("4094", 1, 4094, &v), 0);
	CHECK_INT(v, 4094);
	CHECK_INT(args_number("0", 0, 4094, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(args_number("0", 1, 4094, &v), -ERANGE);
	CHECK_INT(args_number("4095", 1, 4094, &v), -ERANGE);
	CHECK_INT(args_number("99999999999999999999", 1, 4094, &v), -ERANGE);
	CHECK_INT(v, 0);	/* untouched by failures */
	CHECK_INT(args_number("", 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number("-1", 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number("+1", 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number(" 1", 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number("1 ", 1, 4094, &v), -EINVAL);
	/* mstctl's MSTIs and VLANs stay decimal, as 802.1Q writes them */
	CHECK_INT(args_number("0x10", 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number("ten", 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number(NULL, 1, 4094, &v), -EINVAL);
	CHECK_INT(args_number("010", 1, 4094, &v), 0);
	CHECK_INT(v, 10);
}

TEST(uint_decimal_or_hex)
{
	static const struct {
		const char *s;
		unsigned int max;
		int ret;
		unsigned int v;		/* what *out holds after it */
	} cases[] = {
		{ "128", 255, 0, 128 },
		{ "0x80", 255, 0, 0x80 },
		{ "0XfF", 255, 0, 255 },
		{ "0x0", 255, 0, 0 },
		{ "0xffffffff", UINT32_MAX, 0, 0xffffffffu },
		{ "4294967295", UINT32_MAX, 0, 0xffffffffu },
		{ "010", 255, 0, 10 },			/* not octal */
		{ "0x100", 255, -ERANGE, 10 },		/* untouched by failures */
		{ "0x100000000", UINT32_MAX, -ERANGE, 10 },
		{ "0xfffffffffffffffffffff", UINT32_MAX, -ERANGE, 10 },
		{ "0x", 255, -EINVAL, 10 },
		{ "x10", 255, -EINVAL, 10 },
		{ "0x-1", 255, -EINVAL, 10 },
		{ "0x1g", 255, -EINVAL, 10 },
		{ "ff", 255, -EINVAL, 10 },		/* hex needs 0x */
		{ "0b1", 255, -EINVAL, 10 },
		{ " 0x1", 255, -EINVAL, 10 },
		{ "-1", 255, -EINVAL, 10 },
		{ "", 255, -EINVAL, 10 },
		{ NULL, 255, -EINVAL, 10 },
	};
	unsigned int v = 99;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(args_uint(cases[i].s, 0, cases[i].max, &v),
			  cases[i].ret);
		CHECK_INT(v, cases[i].v);
	}
}

TEST(vid_ranges_and_lists_stay_decimal)
{
	uint16_t a = 0, b = 0, vids[4];
	const char *bad = NULL;
	size_t n = 0, bad_len = 0;

	CHECK_INT(args_vid_range("0x10", &a, &b), -EINVAL);
	CHECK_INT(args_vid_range("10-0x20", &a, &b), -EINVAL);
	CHECK_INT(args_vid_list("10,0x20", vids, 4, &n, &bad, &bad_len),
		  -EINVAL);
	CHECK(strncmp(bad, "0x20", bad_len) == 0);
}

TEST(vid_ranges)
{
	uint16_t a = 0, b = 0;

	CHECK_INT(args_vid_range("10", &a, &b), 0);
	CHECK_INT(a, 10);
	CHECK_INT(b, 10);
	CHECK_INT(args_vid_range("10-20", &a, &b), 0);
	CHECK_INT(a, 10);
	CHECK_INT(b, 20);
	CHECK_INT(args_vid_range("7-7", &a, &b), 0);
	CHECK_INT(a, 7);
	CHECK_INT(b, 7);
	CHECK_INT(args_vid_range("1-4094", &a, &b), 0);
	CHECK_INT(args_vid_range("0", &a, &b), -ERANGE);
	CHECK_INT(args_vid_range("4095", &a, &b), -ERANGE);
	CHECK_INT(args_vid_range("10-4095", &a, &b), -ERANGE);
	CHECK_INT(args_vid_range("20-10", &a, &b), -EINVAL);
	CHECK_INT(args_vid_range("10-", &a, &b), -EINVAL);
	CHECK_INT(args_vid_range("-10", &a, &b), -EINVAL);
	CHECK_INT(args_vid_range("10-20-30", &a, &b), -EINVAL);
	CHECK_INT(args_vid_range("", &a, &b), -EINVAL);
}

TEST(vid_lists)
{
	uint16_t v[8];
	const char *bad = NULL;
	size_t n = 0, bad_len = 0;

	CHECK_INT(args_vid_list("10", v, 8, &n, &bad, &bad_len), 0);
	CHECK_INT(n, 1);
	CHECK_INT(v[0], 10);
	CHECK_INT(args_vid_list("30,10,11-13,10", v, 8, &n, &bad, &bad_len),
		  0);
	CHECK_INT(n, 5);	/* the repeated 10 counted once, order kept */
	CHECK_INT(v[0], 30);
	CHECK_INT(v[1], 10);
	CHECK_INT(v[4], 13);
	CHECK_INT(args_vid_list("1-9", v, 8, &n, &bad, &bad_len), -E2BIG);

	CHECK_INT(args_vid_list("10,4095,20", v, 8, &n, &bad, &bad_len),
		  -ERANGE);
	CHECK_INT(bad_len, 4);
	CHECK(strncmp(bad, "4095", bad_len) == 0);
	CHECK_INT(args_vid_list("10,x", v, 8, &n, &bad, &bad_len), -EINVAL);
	CHECK(strncmp(bad, "x", bad_len) == 0);
	CHECK_INT(args_vid_list("10,", v, 8, &n, &bad, &bad_len), -EINVAL);
	CHECK_INT(bad_len, 0);
	CHECK_INT(args_vid_list(",10", v, 8, &n, &bad, &bad_len), -EINVAL);
	CHECK_INT(args_vid_list("", v, 8, &n, &bad, &bad_len), -EINVAL);
}

TEST(keywords)
{
	static const char *const keys[] = { "dev", "vid", NULL };
	char *ok[] = { "vid", "10", "dev", "br0" };
	char *unknown[] = { "dev", "br0", "colour", "red" };
	char *twice[] = { "dev", "br0", "dev", "br1" };
	char *novalue[] = { "dev", "br0", "vid" };
	const char *vals[2] = { NULL, NULL };
	const char *bad = NULL;

	CHECK_INT(args_keywords(4, ok, keys, vals, &bad), 0);
	CHECK_STR(vals[0], "br0");
	CHECK_STR(vals[1], "10");

	vals[0] = vals[1] = NULL;
	CHECK_INT(args_keywords(4, unknown, keys, vals, &bad), -ENOENT);
	CHECK_STR(bad, "colour");
	vals[0] = vals[1] = NULL;
	CHECK_INT(args_keywords(4, twice, keys, vals, &bad), -EEXIST);
	CHECK_STR(bad, "dev");
	vals[0] = vals[1] = NULL;
	CHECK_INT(args_keywords(3, novalue, keys, vals, &bad), -ENODATA);
	CHECK_STR(bad, "vid");
	vals[0] = vals[1] = NULL;
	CHECK_INT(args_keywords(0, ok, keys, vals, &bad), 0);
	CHECK(vals[0] == NULL);
}
