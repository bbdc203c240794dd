// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - JSON output that stays valid when a run fails.
 */

#include <math.h>
#include <string.h>

#include "json.h"
#include "msg.h"

/* Arrays and objects nested deeper than this are a bug of the caller. */
#define FDC_JSON_DEPTH		8

/**
 * struct fdc_json - the object being written
 * @out: where it goes
 * @requested: the command was asked for JSON
 * @depth: containers open, the top object included
 * @close: the character that closes each, ']' or '}'
 * @items: values (or members) written in each so far
 * @after_key: a member's name was written, its value comes next
 * @schema: the command whose schema the object follows, or NULL
 */
static struct fdc_json {
	FILE *out;
	const char *schema;
	bool requested;
	unsigned int depth;
	char close[FDC_JSON_DEPTH];
	u64 items[FDC_JSON_DEPTH];
	bool after_key;
} fdc_json;

/**
 * fdc_json_request() - say that the command prints JSON, so that a
 *	failure, even one before any output, ends in a JSON object
 */
void fdc_json_request(void)
{
	fdc_json.requested = true;
}

/**
 * fdc_json_requested() - whether fdc_json_request() was called
 *
 * Return: true when the command prints JSON.
 */
bool fdc_json_requested(void)
{
	return fdc_json.requested;
}

/**
 * fdc_json_schema() - name the command whose output follows: its objects
 *	begin with "schema": "fairdie.COMMAND/1" (tools/cli/schema/)
 * @command: the command's name, plain ASCII, or NULL for no member
 */
void fdc_json_schema(const char *command)
{
	fdc_json.schema = command;
}

/**
 * fdc_json_begin() - open the command's object
 * @out: the stream the object goes to
 */
void fdc_json_begin(FILE *out)
{
	fdc_json.out = out;
	fdc_json.requested = true;
	fdc_json.depth = 1;
	fdc_json.close[0] = '}';
	fdc_json.items[0] = 0;
	fdc_json.after_key = false;
	putc('{', out);
	if (fdc_json.schema) {
		fdc_json_key("schema");
		fprintf(out, "\"fairdie.%s/%d\"", fdc_json.schema,
			FDC_JSON_SCHEMA_VERSION);
		fdc_json.after_key = false;
	}
}

/**
 * fdc_json_begun() - whether the object is open
 *
 * Return: true between fdc_json_begin() and fdc_json_end().
 */
bool fdc_json_begun(void)
{
	return fdc_json.depth > 0;
}

/* The separator before a value or a member. */
static void fdc_json_sep(void)
{
	if (fdc_json.after_key) {
		fdc_json.after_key = false;
		return;
	}
	if (fdc_json.items[fdc_json.depth - 1]++)
		fputs(", ", fdc_json.out);
}

/**
 * fdc_json_key() - start a member of the innermost object
 * @name: its name, plain ASCII
 */
void fdc_json_key(const char *name)
{
	fdc_json_sep();
	fprintf(fdc_json.out, "\"%s\": ", name);
	fdc_json.after_key = true;
}

static void fdc_json_open(char open, char close)
{
	fdc_json_sep();
	if (FD_WARN_ON(fdc_json.depth == FDC_JSON_DEPTH))
		return;
	putc(open, fdc_json.out);
	fdc_json.close[fdc_json.depth] = close;
	fdc_json.items[fdc_json.depth++] = 0;
}

/**
 * fdc_json_array() - open an array, as a value
 */
void fdc_json_array(void)
{
	fdc_json_open('[', ']');
}

/**
 * fdc_json_object() - open an object, as a value
 */
void fdc_json_object(void)
{
	fdc_json_open('{', '}');
}

/**
 * fdc_json_string_open() - open a string, as a value, to be written a piece at
 *	a time with fdc_json_raw() and closed with fdc_json_close()
 */
void fdc_json_string_open(void)
{
	fdc_json_open('"', '"');
}

/**
 * fdc_json_raw() - text that needs no escaping, such as digits, into the
 *	string fdc_json_string_open() opened
 * @s: the text: printable ASCII other than '"' and '\\'
 * @len: how many bytes
 */
void fdc_json_raw(const char *s, size_t len)
{
	fwrite(s, 1, len, fdc_json.out);
}

/**
 * fdc_json_value() - a value already in JSON, such as an array built apart
 * @s: the JSON text of one value
 * @len: how many bytes
 */
void fdc_json_value(const char *s, size_t len)
{
	fdc_json_sep();
	fwrite(s, 1, len, fdc_json.out);
}

/**
 * fdc_json_close() - close the innermost array, object or string
 */
void fdc_json_close(void)
{
	if (FD_WARN_ON(fdc_json.depth < 2))
		return;
	putc(fdc_json.close[--fdc_json.depth], fdc_json.out);
}

/**
 * fdc_json_u64() - an unsigned integer, as a value
 * @v: the number
 */
void fdc_json_u64(u64 v)
{
	fdc_json_sep();
	fprintf(fdc_json.out, "%llu", (unsigned long long)v);
}

/**
 * fdc_json_s64() - a signed integer, as a value
 * @v: the number
 */
void fdc_json_s64(s64 v)
{
	fdc_json_sep();
	fprintf(fdc_json.out, "%lld", (long long)v);
}

/**
 * fdc_json_double() - a number with a fixed count of decimals, as a value
 * @v: the number; null when it is not finite
 * @decimals: digits after the point
 */
void fdc_json_double(double v, int decimals)
{
	fdc_json_sep();
	if (isfinite(v))
		fprintf(fdc_json.out, "%.*f", decimals, v);
	else
		fputs("null", fdc_json.out);
}

/**
 * fdc_json_number() - a number to 17 significant digits, as a value: the
 *	double itself, read back exactly
 * @v: the number; null when it is not finite
 */
void fdc_json_number(double v)
{
	fdc_json_sep();
	if (isfinite(v))
		fprintf(fdc_json.out, "%.17g", v);
	else
		fputs("null", fdc_json.out);
}

/* @s escaped, quoted, to @out; bytes that are not UTF-8 become U+FFFD. */
static void fdc_json_write(FILE *out, const char *s, size_t len)
{
	size_t i = 0, ok;

	putc('"', out);
	while (i < len) {
		unsigned char c = s[i];

		if (c >= 0x80) {
			/* One sequence fits in four bytes. */
			ok = fdc_utf8_check(s + i, len - i < 4 ? len - i : 4);
			if (!ok) {
				fputs("\\ufffd", out);
				i++;
				continue;
			}
			while (ok && (unsigned char)s[i] >= 0x80) {
				putc(s[i++], out);
				ok--;
			}
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
		i++;
	}
	putc('"', out);
}

/**
 * fdc_json_mem() - bytes as a string value
 * @s: the bytes, UTF-8 (NUL and control characters are escaped)
 * @len: how many
 */
void fdc_json_mem(const char *s, size_t len)
{
	fdc_json_sep();
	fdc_json_write(fdc_json.out, s, len);
}

/**
 * fdc_json_str() - a string value
 * @s: the string, UTF-8
 */
void fdc_json_str(const char *s)
{
	fdc_json_mem(s, strlen(s));
}

/**
 * fdc_json_end() - close the object, with an "error" member on failure
 * @status: the command's exit status
 *
 * Everything still open is closed first. When nothing was written yet and
 * the command failed, the object is {"error": MESSAGE} on standard output.
 * Does nothing when the command was not asked for JSON.
 *
 * Return: @status.
 */
int fdc_json_end(int status)
{
	if (!fdc_json.requested)
		return status;
	if (!fdc_json.depth) {
		if (!status)
			return status;
		fdc_json_begin(stdout);
	}
	fdc_json.after_key = false;
	while (fdc_json.depth > 1)
		fdc_json_close();
	if (status) {
		fdc_json_key("error");
		fdc_json_str(*fdc_last_error() ? fdc_last_error() : "failed");
	}
	fputs("}\n", fdc_json.out);
	fflush(fdc_json.out);
	fdc_json.depth = 0;
	fdc_json.requested = false;
	return status;
}

/**
 * fdc_json_bytes() - print bytes as a JSON string on standard output,
 *	outside of the tracked object
 * @s: the bytes
 * @len: how many
 */
void fdc_json_bytes(const char *s, size_t len)
{
	fdc_json_write(stdout, s, len);
}
