/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fairdie - exactly fair dice from the CPU's hardware random number generator
 *
 * Userspace ABI of /dev/fairdie. Every open file has its own configuration
 * (sides, extractor, source, output format), its own extractor and sampler
 * state and its own statistics. See Documentation/userspace-api/fairdie.rst.
 */
#ifndef _UAPI_LINUX_FAIRDIE_H
#define _UAPI_LINUX_FAIRDIE_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* The ABI described in this file; reported by FAIRDIE_IOC_GET_INFO. */
#define FAIRDIE_ABI_VERSION	1

/**
 * enum fairdie_source - where the raw bits of an open file come from
 * @FAIRDIE_SRC_AUTO: the best source present: RDSEED, else RDRAND, else CRNG
 * @FAIRDIE_SRC_RDSEED: the CPU's seed generator (RDSEED on x86)
 * @FAIRDIE_SRC_RDRAND: the CPU's DRBG output (RDRAND on x86)
 * @FAIRDIE_SRC_CRNG: the kernel's CRNG (get_random_bytes())
 * @FAIRDIE_SRC_SIM: a simulated biased coin, see struct fairdie_sim
 */
enum fairdie_source {
	FAIRDIE_SRC_AUTO = 0,
	FAIRDIE_SRC_RDSEED = 1,
	FAIRDIE_SRC_RDRAND = 2,
	FAIRDIE_SRC_CRNG = 3,
	FAIRDIE_SRC_SIM = 4,
};

/**
 * enum fairdie_extractor - how source bits are turned into fair bits
 * @FAIRDIE_EXT_VN: von Neumann: pairs 01 and 10 give one bit, 00 and 11 none
 * @FAIRDIE_EXT_PERES: Peres' iterated von Neumann extractor
 * @FAIRDIE_EXT_DIJKSTRA: Dijkstra's rotation roulette, rolls straight from
 *	the biased bits (sides must factor into primes <= 64)
 * @FAIRDIE_EXT_NONE: source bits are taken as fair as they are
 */
enum fairdie_extractor {
	FAIRDIE_EXT_VN = 0,
	FAIRDIE_EXT_PERES = 1,
	FAIRDIE_EXT_DIJKSTRA = 2,
	FAIRDIE_EXT_NONE = 3,
};

/**
 * enum fairdie_format - what read() returns
 * @FAIRDIE_FMT_BINARY: each roll in [0, sides - 1] as a native-endian
 *	unsigned integer of 1, 2, 4 or 8 bytes, the smallest that holds
 *	sides - 1; the read length must be a multiple of that width
 * @FAIRDIE_FMT_TEXT: each roll in [1, sides] in decimal, one per line
 */
enum fairdie_format {
	FAIRDIE_FMT_BINARY = 0,
	FAIRDIE_FMT_TEXT = 1,
};

/**
 * struct fairdie_info - what this machine offers
 * @version: FAIRDIE_ABI_VERSION
 * @sources: bit (1 << FAIRDIE_SRC_x) set for each source that can be selected
 * @extractors: bit (1 << FAIRDIE_EXT_x) set for each extractor implemented
 * @reserved: zero
 */
struct fairdie_info {
	__u32 version;
	__u32 sources;
	__u32 extractors;
	__u32 reserved[5];
};

/**
 * struct fairdie_sim - the simulated biased coin of an open file
 * @seed: seed of the splitmix64 generator behind the coin
 * @p1_num: numerator of P(bit = 1), at most @p1_den
 * @p1_den: denominator of P(bit = 1), at least 1
 *
 * Bit i is 1 when the i-th splitmix64 output is below
 * floor(2^64 * p1_num / p1_den); when p1_num == p1_den it is always 1.
 */
struct fairdie_sim {
	__u64 seed;
	__u64 p1_num;
	__u64 p1_den;
};

/**
 * struct fairdie_stats - counters of one open file since open or RESET
 * @source_bits: raw bits taken from the source
 * @extracted_bits: fair bits out of the extractor
 * @sampler_bits: fair bits consumed by the sampler
 * @outputs: rolls produced, in either format
 * @source_retries: source requests that had to be repeated (underflow)
 * @source_failures: reads that gave up because the source did not deliver
 * @health_failures: continuous health test failures
 * @reserved: zero
 */
struct fairdie_stats {
	__u64 source_bits;
	__u64 extracted_bits;
	__u64 sampler_bits;
	__u64 outputs;
	__u64 source_retries;
	__u64 source_failures;
	__u64 health_failures;
	__u64 reserved[3];
};

/* The most faces a weighted die may have (FAIRDIE_IOC_SET_WEIGHTS). */
#define FAIRDIE_MAX_FACES	65536

/**
 * struct fairdie_weights - a loaded die on purpose
 * @weights: user address of @count __u64 integer weights; face i is drawn
 *	with probability exactly weights[i] / (sum of the weights)
 * @count: number of faces, 1..FAIRDIE_MAX_FACES for SET_WEIGHTS; for
 *	GET_WEIGHTS, the room at @weights on entry and the number of faces
 *	on return (0 for a fair die)
 * @flags: zero
 *
 * The sum of the weights must be at least 1 and fit in 64 bits; a weight
 * of zero is allowed and never drawn.
 */
struct fairdie_weights {
	__u64 weights;
	__u32 count;
	__u32 flags;
};

/* The most words one FAIRDIE_IOC_GET_RAW returns. */
#define FAIRDIE_RAW_MAX_WORDS	4096

/* FAIRDIE_IOC_GET_RAW: restart the source first (health tests, start-up test). */
#define FAIRDIE_RAW_RESTART	0x1U

/**
 * struct fairdie_raw - raw words of the open file's source, for evidence
 *	(FAIRDIE_IOC_GET_RAW, root only)
 * @words: user address of room for @count __u64 words; each is 64 raw bits
 *	of the source as its health tests see them, before any extractor,
 *	the first bit in bit 0
 * @count: how many words, 1..FAIRDIE_RAW_MAX_WORDS; on return, how many
 *	were written (all of them)
 * @flags: FAIRDIE_RAW_RESTART, or 0
 */
struct fairdie_raw {
	__u64 words;
	__u32 count;
	__u32 flags;
};

/* 0xD9 is free in Documentation/userspace-api/ioctl/ioctl-number.rst. */
#define FAIRDIE_IOC_MAGIC	0xD9

#define FAIRDIE_IOC_GET_INFO		_IOR(FAIRDIE_IOC_MAGIC, 0x00, struct fairdie_info)
#define FAIRDIE_IOC_SET_SIDES		_IOW(FAIRDIE_IOC_MAGIC, 0x01, __u64)
#define FAIRDIE_IOC_GET_SIDES		_IOR(FAIRDIE_IOC_MAGIC, 0x02, __u64)
#define FAIRDIE_IOC_SET_EXTRACTOR	_IOW(FAIRDIE_IOC_MAGIC, 0x03, __u32)
#define FAIRDIE_IOC_GET_EXTRACTOR	_IOR(FAIRDIE_IOC_MAGIC, 0x04, __u32)
#define FAIRDIE_IOC_SET_SOURCE		_IOW(FAIRDIE_IOC_MAGIC, 0x05, __u32)
#define FAIRDIE_IOC_GET_SOURCE		_IOR(FAIRDIE_IOC_MAGIC, 0x06, __u32)
#define FAIRDIE_IOC_SET_FORMAT		_IOW(FAIRDIE_IOC_MAGIC, 0x07, __u32)
#define FAIRDIE_IOC_GET_FORMAT		_IOR(FAIRDIE_IOC_MAGIC, 0x08, __u32)
#define FAIRDIE_IOC_SET_SIM		_IOW(FAIRDIE_IOC_MAGIC, 0x09, struct fairdie_sim)
#define FAIRDIE_IOC_GET_SIM		_IOR(FAIRDIE_IOC_MAGIC, 0x0a, struct fairdie_sim)
#define FAIRDIE_IOC_GET_STATS		_IOR(FAIRDIE_IOC_MAGIC, 0x0b, struct fairdie_stats)
#define FAIRDIE_IOC_RESET		_IO(FAIRDIE_IOC_MAGIC, 0x0c)
#define FAIRDIE_IOC_SET_WEIGHTS		_IOW(FAIRDIE_IOC_MAGIC, 0x0d, struct fairdie_weights)
#define FAIRDIE_IOC_GET_WEIGHTS		_IOWR(FAIRDIE_IOC_MAGIC, 0x0e, struct fairdie_weights)
#define FAIRDIE_IOC_GET_RAW		_IOWR(FAIRDIE_IOC_MAGIC, 0x0f, struct fairdie_raw)

#endif /* _UAPI_LINUX_FAIRDIE_H */
