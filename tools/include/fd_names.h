/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the names of the sources, extractors and read formats, as the
 * module parameters, sysfs and the fairdie tool spell them.
 *
 * The userspace programs (tool, benchmarks, selftests, VM helpers) take
 * their names and counts from here, not from the uapi header: the uapi says
 * which numbers exist, this file says which ones these programs know. A new
 * source, extractor or format in the uapi gets its name added here.
 */
#ifndef _FAIRDIE_NAMES_H
#define _FAIRDIE_NAMES_H

#include <string.h>

#include <linux/fairdie.h>

/* How many of each these programs know: the numbers 0 .. FD_NR_x - 1. */
#define FD_NR_SOURCES		(FAIRDIE_SRC_SIM + 1)
#define FD_NR_EXTRACTORS	(FAIRDIE_EXT_NONE + 1)
#define FD_NR_FORMATS		(FAIRDIE_FMT_TEXT + 1)

/* The index of @name in @names[@n], or -1; @names[i] may be NULL. */
static inline int fd_name_lookup(const char *const *names, unsigned int n,
				 const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -1;
}

static inline const char *const *fd_source_names(void)
{
	static const char *const names[FD_NR_SOURCES] = {
		[FAIRDIE_SRC_AUTO] = "auto",
		[FAIRDIE_SRC_RDSEED] = "rdseed",
		[FAIRDIE_SRC_RDRAND] = "rdrand",
		[FAIRDIE_SRC_CRNG] = "crng",
		[FAIRDIE_SRC_SIM] = "sim",
	};

	return names;
}

static inline const char *const *fd_extractor_names(void)
{
	static const char *const names[FD_NR_EXTRACTORS] = {
		[FAIRDIE_EXT_VN] = "vn",
		[FAIRDIE_EXT_PERES] = "peres",
		[FAIRDIE_EXT_DIJKSTRA] = "dijkstra",
		[FAIRDIE_EXT_NONE] = "none",
	};

	return names;
}

static inline const char *const *fd_format_names(void)
{
	static const char *const names[FD_NR_FORMATS] = {
		[FAIRDIE_FMT_BINARY] = "binary",
		[FAIRDIE_FMT_TEXT] = "text",
	};

	return names;
}

/* The name of source @src (FAIRDIE_SRC_x), or "unknown". */
static inline const char *fd_source_name(unsigned int src)
{
	return src < FD_NR_SOURCES ? fd_source_names()[src] : "unknown";
}

/* The name of extractor @ext (FAIRDIE_EXT_x), or "unknown". */
static inline const char *fd_extractor_name(unsigned int ext)
{
	return ext < FD_NR_EXTRACTORS ? fd_extractor_names()[ext] : "unknown";
}

/* The name of format @fmt (FAIRDIE_FMT_x), or "unknown". */
static inline const char *fd_format_name(unsigned int fmt)
{
	return fmt < FD_NR_FORMATS ? fd_format_names()[fmt] : "unknown";
}

/* FAIRDIE_SRC_x named @name ("auto", "rdseed", ...), or -1. */
static inline int fd_source_parse(const char *name)
{
	return fd_name_lookup(fd_source_names(), FD_NR_SOURCES, name);
}

/* FAIRDIE_EXT_x named @name ("vn", "peres", ...), or -1. */
static inline int fd_extractor_parse(const char *name)
{
	return fd_name_lookup(fd_extractor_names(), FD_NR_EXTRACTORS, name);
}

/* FAIRDIE_FMT_x named @name ("binary", "text"), or -1. */
static inline int fd_format_parse(const char *name)
{
	return fd_name_lookup(fd_format_names(), FD_NR_FORMATS, name);
}

#endif /* _FAIRDIE_NAMES_H */
