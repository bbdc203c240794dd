// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the names of sources and extractors, as module parameters,
 * sysfs and the kernel log spell them; and the device-wide counters that
 * sysfs shows. Both are leaves: every other file of the driver may use
 * them, and they use none.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "fairdie.h"

struct fairdie_counters fairdie_counters;

static const char * const fairdie_source_names[FAIRDIE_SOURCES] = {
	[FAIRDIE_SRC_AUTO] = "auto",
	[FAIRDIE_SRC_RDSEED] = "rdseed",
	[FAIRDIE_SRC_RDRAND] = "rdrand",
	[FAIRDIE_SRC_CRNG] = "crng",
	[FAIRDIE_SRC_SIM] = "sim",
};

static const char * const fairdie_extractor_names[FD_EXTRACTORS] = {
	[FAIRDIE_EXT_VN] = "vn",
	[FAIRDIE_EXT_PERES] = "peres",
	[FAIRDIE_EXT_DIJKSTRA] = "dijkstra",
	[FAIRDIE_EXT_NONE] = "none",
};

/**
 * fairdie_source_name() - the name of a source, as module parameters take it
 * @source: enum fairdie_source
 *
 * Return: the name, or "?" for a value out of range.
 */
const char *fairdie_source_name(u32 source)
{
	return source < FAIRDIE_SOURCES ? fairdie_source_names[source] : "?";
}

/**
 * fairdie_source_parse() - the source named by a module parameter
 * @name: auto, rdseed, rdrand or crng (never sim)
 *
 * Return: enum fairdie_source, or -EINVAL for any other name.
 */
int fairdie_source_parse(const char *name)
{
	/* SIM comes last, so it is left out. */
	int i = __sysfs_match_string(fairdie_source_names, FAIRDIE_SRC_SIM,
				     name);

	return i < 0 ? -EINVAL : i;
}

/**
 * fairdie_extractor_name() - the name of an extractor, as module parameters
 *	take it
 * @extractor: enum fairdie_extractor
 *
 * Return: the name, or "?" for a value out of range.
 */
const char *fairdie_extractor_name(u32 extractor)
{
	return extractor < FD_EXTRACTORS ? fairdie_extractor_names[extractor] :
					   "?";
}

/**
 * fairdie_extractor_parse() - the extractor named by a module parameter
 * @name: vn, peres, dijkstra or none
 *
 * Return: enum fairdie_extractor, or -EINVAL for any other name.
 */
int fairdie_extractor_parse(const char *name)
{
	int i = __sysfs_match_string(fairdie_extractor_names, FD_EXTRACTORS,
				     name);

	return i < 0 ? -EINVAL : i;
}
