// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - text from outside made safe to print (fdc_quote()), the
 * UTF-8 check, and JSON that stays valid when a run fails.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_check.h"
#include "json.h"
#include "msg.h"

static void fdt_quote(void)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} cases[] = {
		{ "3d6", 3, "3d6" },
		{ "a\tb\r\n", 5, "a\\tb\\r\\n" },
		{ "\x1b[31mred", 8, "\\x1b[31mred" },
		{ "back\\slash", 10, "back\\\\slash" },
		{ "nul\0x", 5, "nul\\x00x" },
		{ "caf\xc3\xa9 \xf0\x9f\x8e\xb2", 10, "caf\xc3\xa9 \xf0\x9f\x8e\xb2" },
		{ "bad \xff\xfe", 6, "bad \\xff\\xfe" },
		{ "cut \xe2\x82", 6, "cut \\xe2\\x82" },
		{ "del\x7f", 4, "del\\x7f" },
	};
	char longer[300];
	const char *q;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		q = fdc_quote_mem(cases[i].in, cases[i].len);
		CHECK(!strcmp(q, cases[i].out), "quote %u: '%s', want '%s'", i,
		      q, cases[i].out);
	}
	memset(longer, 'x', sizeof(longer));
	longer[sizeof(longer) - 1] = '\0';
	q = fdc_quote(longer);
	CHECK(strlen(q) == FDC_QUOTE_MAX + 3 && !strcmp(q + FDC_QUOTE_MAX, "..."),
	      "a long text is cut: %zu bytes", strlen(q));
	/* Four at once, in one message. */
	q = fdc_quote("one");
	CHECK(!strcmp(fdc_quote("two"), "two") && !strcmp(fdc_quote("3"), "3") &&
	      !strcmp(fdc_quote("4"), "4") && !strcmp(q, "one"),
	      "four quotes in turn");
}

static void fdt_utf8(void)
{
	static const struct {
		const char *s;
		size_t valid;
	} cases[] = {
		{ "plain ASCII, longer than eight", 30 },
		{ "\xc3\xa9", 2 },			/* U+00E9 */
		{ "\xe2\x82\xac", 3 },			/* U+20AC */
		{ "\xf0\x9f\x8e\xb2", 4 },		/* U+1F3B2 */
		{ "\xf4\x8f\xbf\xbf", 4 },		/* U+10FFFF */
		{ "\xc0\x80", 0 },			/* overlong NUL */
		{ "\xe0\x80\x80", 0 },			/* overlong */
		{ "\xf0\x80\x80\x80", 0 },		/* overlong */
		{ "\xed\xa0\x80", 0 },			/* surrogate */
		{ "\xf4\x90\x80\x80", 0 },		/* above U+10FFFF */
		{ "\xff", 0 },
		{ "ok\x80", 2 },			/* lone continuation */
		{ "12345678\xc3", 8 },			/* cut short */
	};
	struct fdc_utf8 u = { 0 };
	unsigned int i;
	size_t got;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = fdc_utf8_check(cases[i].s, strlen(cases[i].s));
		CHECK(got == cases[i].valid, "utf8 %u: %zu valid, want %zu", i,
		      got, cases[i].valid);
	}
	/* Byte by byte: a character cut at the end leaves need set. */
	CHECK(fdc_utf8_feed(&u, 0xe2) && fdc_utf8_feed(&u, 0x82) && u.need == 1 &&
	      fdc_utf8_feed(&u, 0xac) && !u.need && !fdc_utf8_feed(&u, 0x80),
	      "fed byte by byte");
}

/* Run @fn with the JSON writer on a memory stream; its output in @buf. */
static void fdt_json_run(void (*fn)(void), int status, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");

	if (!f)
		abort();
	memset(buf, 0, size);
	fdc_json_begin(f);
	fn();
	fdc_json_end(status);
	fclose(f);
}

static const char fdt_nul[] = "nul\0, bad \xff, ok \xc3\xa9";

static void fdt_json_values(void)
{
	fdc_json_key("n");
	fdc_json_u64(18446744073709551615ULL);
	fdc_json_key("s");
	fdc_json_s64(-5);
	fdc_json_key("x");
	fdc_json_double(0.5, 3);
	fdc_json_key("inf");
	fdc_json_double(1.0 / 0.0, 3);
	fdc_json_key("a");
	fdc_json_array();
	fdc_json_str("q\"b\\s\n\t\x01");
	fdc_json_mem(fdt_nul, sizeof(fdt_nul) - 1);
	fdc_json_object();
	fdc_json_key("k");
	fdc_json_u64(1);
	fdc_json_close();
	fdc_json_close();
}

/* A run that fails midway: two arrays and a string left open. */
static void fdt_json_midway(void)
{
	fdc_json_key("permutations");
	fdc_json_array();
	fdc_json_array();
	fdc_json_u64(3);
	fdc_json_u64(1);
	fdc_json_close();
	fdc_json_array();
	fdc_json_u64(2);
	fdc_json_string_open();
	fdc_json_raw("0110", 4);
	fdc_err("shuffle: the random source ran out after 64 bits");
}

/* The pieces of @parts, one after the other, into @out. */
static const char *fdt_join(const char *const *parts, size_t n, char *out,
			    size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += snprintf(out + len, size - len, "%s", parts[i]);
	return out;
}

static void fdt_json(void)
{
	static const char *const values[] = {
		"{\"n\": 18446744073709551615, \"s\": -5, \"x\": 0.500, ",
		"\"inf\": null, \"a\": [\"q\\\"b\\\\s\\n\\t\\u0001\", ",
		"\"nul\\u0000, bad \\ufffd, ok \xc3\xa9\", {\"k\": 1}]}\n",
	};
	static const char *const midway[] = {
		"{\"permutations\": [[3, 1], [2, \"0110\"]], \"error\": ",
		"\"shuffle: the random source ran out after 64 bits\"}\n",
	};
	char buf[512], want[512];

	fdt_json_run(fdt_json_values, 0, buf, sizeof(buf));
	fdt_join(values, ARRAY_SIZE(values), want, sizeof(want));
	CHECK(!strcmp(buf, want), "json values: %s", buf);
	fdt_json_run(fdt_json_midway, 1, buf, sizeof(buf));
	fdt_join(midway, ARRAY_SIZE(midway), want, sizeof(want));
	CHECK(!strcmp(buf, want), "json closed after a failure: %s", buf);
}

int main(void)
{
	fdt_quote();
	fdt_utf8();
	printf("one error message expected:\n");
	fdt_json();
	return fd_check_summary();
}
