/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - continuous health tests of a raw bit source (NIST SP 800-90B
 * section 4.4): the repetition count test, the adaptive proportion test, and
 * a check for a 64-bit word repeated verbatim.
 */
#ifndef _FAIRDIE_HEALTH_H
#define _FAIRDIE_HEALTH_H

#include "fd_shim.h"

/*
 * Window of the adaptive proportion test, in bits (SP 800-90B, binary); also
 * the unit in which false alarms are bounded.
 */
#define FD_APT_WINDOW		1024
/*
 * log2 of the false alarm probability each test may have per window: the
 * three tests together stay below 2^-64 per window (fd_health.c).
 */
#define FD_HEALTH_ALPHA_LOG2	66
/*
 * The most biased source the debiasing extractors are documented to accept:
 * P(1) in [1/20, 19/20]. Hardware sources under VN, PERES and DIJKSTRA, and
 * the simulated coin, are judged against it; pmax is never assumed larger.
 */
#define FD_PMAX_NUM		19
#define FD_PMAX_DEN		20
/* Bits tested and discarded before a source's first use (SP 800-90B 4.3). */
#define FD_STARTUP_BITS		1024

/**
 * enum fd_health_result - outcome of the tests on one word
 * @FD_HEALTH_OK: no test failed
 * @FD_HEALTH_RCT: a run of identical bits reached the cutoff
 * @FD_HEALTH_APT: one value filled too much of a window
 * @FD_HEALTH_WORD: a 64-bit word repeated the previous one too many times
 * @FD_HEALTH_STARVED: the extractor made nothing from far more raw words
 *	than any source with P(1) in [1/20, 19/20] could need (fd_pipe.c)
 */
enum fd_health_result {
	FD_HEALTH_OK = 0,
	FD_HEALTH_RCT,
	FD_HEALTH_APT,
	FD_HEALTH_WORD,
	FD_HEALTH_STARVED,
};

/**
 * struct fd_health - cutoffs and running state of the tests
 * @rct_cutoff: a run of this many identical bits fails
 * @apt_cutoff: this many bits equal to a window's first bit fail
 * @word_cutoff: this many words in a row equal to the word before fail
 * @check_words: compare each word with the previous one
 * @run: length of the current run of identical bits
 * @run_bit: value of that run
 * @apt_seen: bits of the current window seen so far
 * @apt_count: how many of them equal its first bit
 * @apt_bit: the first bit of the window
 * @repeats: how many words in a row equalled the word before
 * @have_last: @last_word holds a word
 * @last_word: the previous word
 */
struct fd_health {
	u32 rct_cutoff;
	u32 apt_cutoff;
	u32 word_cutoff;
	bool check_words;
	u32 run;
	u8 run_bit;
	u32 apt_seen;
	u32 apt_count;
	u8 apt_bit;
	u32 repeats;
	bool have_last;
	u64 last_word;
};

void fd_health_init(struct fd_health *h, u64 p1_num, u64 p1_den,
		    bool check_words);
void fd_health_set_claim(struct fd_health *h, u64 p1_num, u64 p1_den);
void fd_health_restart(struct fd_health *h);
enum fd_health_result fd_health_word(struct fd_health *h, u64 w);
enum fd_health_result fd_health_words(struct fd_health *h, const u64 *w,
				      u32 n, u32 *done);
const char *fd_health_name(enum fd_health_result r);

#endif /* _FAIRDIE_HEALTH_H */
