/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - error messages, and text from outside made safe to print.
 *
 * The bottom of the tool: every other file may use it, and it uses none of
 * them. An error is one line on standard error, "fairdie: ..."; the last
 * one is also kept, so that a command printing JSON can end its output
 * with an "error" member saying the same (json.c). Anything a message
 * echoes from the command line or from an input goes through fdc_quote()
 * first, so that control characters and invalid UTF-8 reach the terminal
 * escaped, never raw.
 */
#ifndef _FAIRDIE_CLI_MSG_H
#define _FAIRDIE_CLI_MSG_H

#include <stddef.h>

#include "fd_attr.h"
#include "fd_shim.h"

/* Text echoed in a message is cut to this many bytes of its input. */
#define FDC_QUOTE_MAX		120

/**
 * struct fdc_utf8 - a check of UTF-8 fed one byte at a time
 * @need: continuation bytes still to come in the current character
 * @lo: the least value the next byte may have
 * @hi: the largest
 */
struct fdc_utf8 {
	u8 need;
	u8 lo;
	u8 hi;
};

void fdc_err(const char *fmt, ...) __printf(1, 2);
const char *fdc_last_error(void);
const char *fdc_quote_mem(const char *s, size_t len);
const char *fdc_quote(const char *s);
bool fdc_utf8_feed(struct fdc_utf8 *u, unsigned char c);
size_t fdc_utf8_check(const char *s, size_t len);
int fdc_parse_u64(const char *s, u64 *out);

#endif /* _FAIRDIE_CLI_MSG_H */
