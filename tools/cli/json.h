/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - JSON output that stays valid when a run fails.
 *
 * A command's --json output is one object, written as the command goes.
 * The writer keeps track of the arrays and objects that are open, so that
 * a run that fails midway still ends in valid JSON: fdc_json_end() closes
 * what is open and adds an "error" member with the message of the
 * failure. A failure before anything was written gives {"error": ...}
 * alone. Strings are escaped, and bytes that are not UTF-8 never reach
 * the output (the commands refuse such input with --json; should one slip
 * through, it becomes U+FFFD).
 */
#ifndef _FAIRDIE_CLI_JSON_H
#define _FAIRDIE_CLI_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fd_shim.h"

/* The version of every command's schema, "fairdie.roll/1". */
#define FDC_JSON_SCHEMA_VERSION	1

void fdc_json_request(void);
bool fdc_json_requested(void);
void fdc_json_schema(const char *command);
void fdc_json_begin(FILE *out);
bool fdc_json_begun(void);
void fdc_json_key(const char *name);
void fdc_json_array(void);
void fdc_json_object(void);
void fdc_json_string_open(void);
void fdc_json_raw(const char *s, size_t len);
void fdc_json_value(const char *s, size_t len);
void fdc_json_close(void);
void fdc_json_u64(u64 v);
void fdc_json_s64(s64 v);
void fdc_json_double(double v, int decimals);
void fdc_json_number(double v);
void fdc_json_str(const char *s);
void fdc_json_mem(const char *s, size_t len);
int fdc_json_end(int status);
void fdc_json_bytes(const char *s, size_t len);

#endif /* _FAIRDIE_CLI_JSON_H */
