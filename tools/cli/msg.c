// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - error messages, and text from outside made safe to print.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

static char fdc_last_msg[512];

/**
 * fdc_err() - print a one-line error message, prefixed with "fairdie: "
 * @fmt: printf format of the message, without the newline
 *
 * Standard output is flushed first, so that the message comes after what
 * was printed before it. The message is also kept for fdc_last_error().
 */
void fdc_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vsnprintf(fdc_last_msg, sizeof(fdc_last_msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fairdie: %s\n", fdc_last_msg);
}

/**
 * fdc_last_error() - the last message fdc_err() printed
 *
 * Return: the message without the "fairdie: " prefix, "" if none.
 */
const char *fdc_last_error(void)
{
	return fdc_last_msg;
}

/**
 * fdc_utf8_feed() - check the next byte of a UTF-8 text
 * @u: the check's state, zeroed at the start of the text
 * @c: the byte
 *
 * Overlong forms, surrogates (U+D800 to U+DFFF) and code points above
 * U+10FFFF are invalid, as RFC 3629 says. At the end of the text, a
 * character is cut short if @u->need is not 0.
 *
 * Return: true while the text so far is valid UTF-8 or the start of it.
 */
bool fdc_utf8_feed(struct fdc_utf8 *u, unsigned char c)
{
	if (u->need) {
		if (c < u->lo || c > u->hi)
			return false;
		u->need--;
		u->lo = 0x80;
		u->hi = 0xbf;
		return true;
	}
	u->lo = 0x80;
	u->hi = 0xbf;
	if (c < 0x80)
		return true;
	if (c >= 0xc2 && c <= 0xdf) {
		u->need = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		u->need = 2;
		if (c == 0xe0)
			u->lo = 0xa0;
		else if (c == 0xed)
			u->hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		u->need = 3;
		if (c == 0xf0)
			u->lo = 0x90;
		else if (c == 0xf4)
			u->hi = 0x8f;
	} else {
		return false;
	}
	return true;
}

/* The length of the UTF-8 character at @s (at most @len bytes), 0 if bad. */
static size_t fdc_utf8_seq(const unsigned char *s, size_t len)
{
	struct fdc_utf8 u = { 0 };
	size_t i = 0;

	do {
		if (i == len || !fdc_utf8_feed(&u, s[i++]))
			return 0;
	} while (u.need);
	return i;
}

/**
 * fdc_utf8_check() - how much of @s is valid UTF-8
 * @s: the bytes (NUL is a valid character here)
 * @len: how many
 *
 * Return: the length of the longest valid prefix: @len when all is valid.
 */
size_t fdc_utf8_check(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		/* ASCII eight bytes at a time. */
		while (i + 8 <= len) {
			u64 w;

			memcpy(&w, u + i, sizeof(w));
			if (w & 0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i == len)
			break;
		n = fdc_utf8_seq(u + i, len - i);
		if (!n)
			return i;
		i += n;
	}
	return len;
}

/**
 * fdc_quote_mem() - bytes from outside, printable in a message
 * @s: the bytes, e.g. a command-line argument or a line of input
 * @len: how many
 *
 * Valid UTF-8 stays as it is; a backslash is doubled; tab, newline and
 * carriage return become \t, \n and \r; other control characters, DEL and
 * every byte that is not part of valid UTF-8 become \xHH. Input longer
 * than FDC_QUOTE_MAX bytes is cut and ends in "...".
 *
 * Return: the escaped text, in one of four static buffers used in turn, so
 * that a message may quote up to four things at once.
 */
const char *fdc_quote_mem(const char *s, size_t len)
{
	static char bufs[4][FDC_QUOTE_MAX * 4 + 8];
	static unsigned int turn;
	const unsigned char *u = (const unsigned char *)s;
	char *out = bufs[turn++ % 4], *p = out;
	bool cut = len > FDC_QUOTE_MAX;
	size_t i = 0, n;

	if (cut)
		len = FDC_QUOTE_MAX;
	while (i < len) {
		unsigned char c = u[i];

		n = fdc_utf8_seq(u + i, len - i);
		if (c >= 0x80 && n) {
			memcpy(p, u + i, n);
			p += n;
			i += n;
			continue;
		}
		i++;
		if (c == '\\') {
			*p++ = '\\';
			*p++ = '\\';
		} else if (c == '\t' || c == '\n' || c == '\r') {
			*p++ = '\\';
			*p++ = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
		} else if (c < 0x20 || c >= 0x7f) {
			p += sprintf(p, "\\x%02x", c);
		} else {
			*p++ = c;
		}
	}
	if (cut)
		p += sprintf(p, "...");
	*p = '\0';
	return out;
}

/**
 * fdc_quote() - fdc_quote_mem() for a string
 * @s: the string
 *
 * Return: the escaped text, as fdc_quote_mem() returns it.
 */
const char *fdc_quote(const char *s)
{
	return fdc_quote_mem(s, strlen(s));
}

/**
 * fdc_parse_u64() - a decimal number, checked in full
 * @s: the text: decimal digits only, no sign, no blanks
 * @out: the number
 *
 * Return: 0, or -EINVAL when @s is not a number, -ERANGE when it does not
 * fit in 64 bits.
 */
int fdc_parse_u64(const char *s, u64 *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}
