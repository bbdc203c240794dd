// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the host benchmarks (Documentation/design/fairdie.rst, Targets).
 *
 * On real RDSEED, in one run: the raw bit rate of the instruction (the
 * physical limit), then the module's read path (pipe.c, on the very same
 * driver/fd_*.c files) for several dice and extractors, each measurement
 * bracketed by two measurements of the raw rate so that the ratio
 * rolls/s / (raw bits/s / log2 sides) compares figures taken seconds apart.
 * Side by side, the usual ways of rolling dice: one 32-bit RDSEED per
 * attempt with rejection, arc4random_uniform()-style rejection over the
 * kernel CRNG (getrandom(2)), glibc's own arc4random_uniform(), and shuf.
 * Then the CPU cost of the arithmetic on a precomputed bit stream
 * (bench_cpu.c) and the extractors' efficiency on a simulated biased coin;
 * last the weighted draws (bench_weights.c), and on RDSEED the read path
 * drawing the sums of 2d6 and 3d6 against the source-limited rate.
 *
 * Every figure is the median of several repetitions; tables show the
 * spread. Machines read the "BENCH <key> <value>" lines at the end.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <cpuid.h>
#include <immintrin.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_ahead.h"
#include "fd_retry.h"
#include "fd_wsets.h"
#include "pipe.h"

/* Give up on RDSEED after this many underflows in a row. */
#define BENCH_HW_GIVE_UP	100000000ULL

struct bench_opts bench_opt = {
	.secs = 1.0,
	.cpu_secs = 0.5,
	.reps = 5,
	.shuf_n = 1000000,
	.coin_bits = 1ULL << 25,
};

const u64 bench_sides[BENCH_NSIDES] = { 2, 6, 37, 100, 4294967291ULL };

/* ---------------------------------------------------------------------
 * Sources: RDSEED and the kernel CRNG.
 */

/* All RDSEED words, and the zero ones (an erratum of AMD Zen 5 makes them). */
static u64 bench_words64, bench_zeros64, bench_words32, bench_zeros32;

/*
 * Whether RDSEED works here: CPUID says so (the kernel may still hide it
 * from /proc/cpuinfo, as Linux does on AMD Zen 5 for an erratum of its
 * 16- and 32-bit forms), and it delivers.
 */
static bool bench_have_rdseed(void)
{
	unsigned int eax, ebx, ecx, edx, i;
	unsigned long long v;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) ||
	    !(ebx & (1U << 18)))
		return false;
	for (i = 0; i < 10000000; i++)
		if (_rdseed64_step(&v))
			return true;
	return false;
}

/*
 * 64 bits from RDSEED. An underflow is retried at once after a pause, as
 * the module does for its first FD_HW_TRIES tries; the module would
 * then sleep 1-2 ms, which is counted in slow_words but not done here,
 * so that the figures measure the instruction, not the scheduler.
 */
static int bench_rdseed_word(struct bench_src *src, u64 *w)
{
	unsigned long long v;
	u64 tries = 0;

	while (!_rdseed64_step(&v)) {
		if (++tries == BENCH_HW_GIVE_UP)
			return -EIO;
		_mm_pause();
	}
	src->retries += tries;
	src->slow_words += tries >= FD_HW_TRIES;
	src->words++;
	bench_words64++;
	bench_zeros64 += !v;
	*w = v;
	return 0;
}

/* 32 bits from one RDSEED, for the textbook sampler. */
static u32 bench_rdseed32(struct bench_src *src)
{
	unsigned int v;

	while (!_rdseed32_step(&v)) {
		src->retries++;
		_mm_pause();
	}
	src->words++;
	bench_words32++;
	bench_zeros32 += !v;
	return v;
}

/* The kernel CRNG through getrandom(2), 4 KiB at a time. */
struct bench_crng {
	u32 buf[1024];
	unsigned int pos;
	u64 bytes;
};

static u32 bench_crng32(struct bench_crng *c)
{
	if (c->pos == ARRAY_SIZE(c->buf)) {
		size_t done = 0;

		while (done < sizeof(c->buf)) {
			ssize_t n = getrandom((char *)c->buf + done,
					      sizeof(c->buf) - done, 0);

			if (n > 0)
				done += n;
		}
		c->bytes += sizeof(c->buf);
		c->pos = 0;
	}
	return c->buf[c->pos++];
}

/* ---------------------------------------------------------------------
 * One measurement of each method.
 */

/**
 * struct bench_run - what one timed measurement saw
 * @rolls: rolls made
 * @secs: seconds spent making them
 * @source_bits: raw bits taken from the source
 * @sampler_bits: fair bits the sampler took
 * @retries: RDSEED underflows
 * @slow: words that took FD_HW_TRIES underflows or more
 * @words: RDSEED words (or 32-bit draws) delivered
 */
struct bench_run {
	u64 rolls;
	double secs;
	u64 source_bits;
	u64 sampler_bits;
	u64 retries;
	u64 slow;
	u64 words;
};

/*
 * A method that rolls from RDSEED, advanced a small step at a time: one
 * read of one stage (BENCH_STAGE_BYTES) through the module's read path, or 16 rolls
 * of the textbook sampler; or, with no die, raw words only.
 */
struct bench_rdm {
	struct bench_src src;
	struct bench_pipe *f;
	u64 sides;
	u32 max;
	size_t len;
	u64 rolls;
	u64 acc;
	u8 buf[BENCH_STAGE_BYTES];
};

static int bench_rdm_step(struct bench_rdm *m)
{
	u32 x, n = m->sides;
	u64 w;
	int i;

	if (m->f)
		return bench_pipe_read(m->f, m->buf, m->len) < 0 ? -EIO : 0;
	if (!m->sides) {
		for (i = 0; i < 16; i++) {
			if (bench_rdseed_word(&m->src, &w))
				return -EIO;
			m->acc ^= w;
		}
		return 0;
	}
	for (i = 0; i < 16; i++) {
		do {
			x = bench_rdseed32(&m->src);
		} while (x > m->max);
		m->acc += x % n;
	}
	m->rolls += 16;
	return 0;
}

/* What @m has done so far, as counted by a run. */
static void bench_rdm_count(const struct bench_rdm *m, struct bench_run *r)
{
	memset(r, 0, sizeof(*r));
	if (m->f) {
		r->rolls = m->f->outputs;
		r->source_bits = m->f->pipe.source_bits;
		r->sampler_bits = bench_pipe_sampler_bits(m->f);
	} else {
		r->rolls = m->rolls;
		r->source_bits = m->src.words * (m->sides ? 32 : 64);
	}
	r->retries = m->src.retries;
	r->slow = m->src.slow_words;
	r->words = m->src.words;
}

static void bench_run_sub(struct bench_run *r, const struct bench_run *from)
{
	r->rolls -= from->rolls;
	r->source_bits -= from->source_bits;
	r->sampler_bits -= from->sampler_bits;
	r->retries -= from->retries;
	r->slow -= from->slow;
	r->words -= from->words;
}

/* Run @m for about @secs seconds; add what it did and the time to @r. */
static int bench_rdm_slice(struct bench_rdm *m, double secs,
			   struct bench_run *r)
{
	struct bench_run a, b;
	double t0 = bench_now(), t;
	int err;

	bench_rdm_count(m, &a);
	do {
		err = bench_rdm_step(m);
		if (err)
			return err;
		t = bench_now() - t0;
	} while (t < secs);
	bench_rdm_count(m, &b);
	bench_run_sub(&b, &a);
	r->rolls += b.rolls;
	r->source_bits += b.source_bits;
	r->sampler_bits += b.sampler_bits;
	r->retries += b.retries;
	r->slow += b.slow;
	r->words += b.words;
	r->secs += t;
	return 0;
}

/* Reject x >= 2^32 - (2^32 mod n): that is x > U32_MAX - (2^32 mod n). */
static inline u32 bench_reject_above(u32 n)
{
	return 0xffffffffU - (0U - n) % n;
}

/* The wells of RDSEED, one per extractor, shared by every measurement. */
static struct bench_well *bench_rdseed_wells[FD_EXTRACTORS];
/*
 * The module's fetcher on another CPU runs (bench_ahead_begin()): the read
 * path on RDSEED takes its words, as the module's does by default.
 */
static bool bench_ahead_on;

/* Phases a measurement on RDSEED is cut into, see bench_rdseed_measure(). */
#define BENCH_PHASES	4

/*
 * Measure a method on RDSEED for bench_opt.secs and raw RDSEED for as
 * long, in BENCH_PHASES turns each. @ext is a FAIRDIE_EXT_x for the module's
 * read path, or -1 for the textbook sampler; with @w, the read path draws
 * from that weighted die (@sides its faces), as after
 * FAIRDIE_IOC_SET_WEIGHTS. Fills *@r for the method and
 * *@raw for raw RDSEED (drawn through @raw_m).
 */
static int bench_rdseed_method(u64 sides, int ext, const struct fd_weights *w,
			       bool ahead, struct bench_run *r,
			       struct bench_rdm *raw_m, struct bench_run *raw)
{
	struct bench_rdm m = {
		.src = { .word = bench_rdseed_word, .tested = true },
		.sides = sides,
	};
	double phase = bench_opt.secs / BENCH_PHASES;
	int err = -ENOMEM, i;

	memset(r, 0, sizeof(*r));
	memset(raw, 0, sizeof(*raw));
	if (ext >= 0) {
		/* The module's well of RDSEED and this extractor, kept. */
		if (!bench_rdseed_wells[ext])
			bench_rdseed_wells[ext] = bench_well_new(ext);
		m.f = malloc(sizeof(*m.f));
		if (!m.f || !bench_rdseed_wells[ext])
			goto out;
		bench_pipe_open(m.f, &m.src, sides, ext,
				bench_rdseed_wells[ext]);
		if (w)
			bench_pipe_set_weights(m.f, w);
		m.len = sizeof(m.buf) / m.f->width * m.f->width;
		/* Warm up: the startup test, and for Peres its first block. */
		bench_ahead_set(ahead);
		err = bench_rdm_step(&m);
		bench_ahead_set(false);
		if (err)
			goto out;
	} else {
		m.max = bench_reject_above(sides);
	}
	for (i = 0; i < BENCH_PHASES; i++) {
		err = bench_rdm_slice(raw_m, phase, raw);
		if (!err) {
			/* The fetcher runs only while the method does. */
			bench_ahead_set(ahead && ext >= 0);
			err = bench_rdm_slice(&m, phase, r);
			bench_ahead_set(false);
		}
		if (err)
			goto out;
	}
	bench_keep(m.acc);
out:
	if (m.f && m.f->well)
		bench_pipe_close(m.f);
	free(m.f);
	return err;
}

/* arc4random_uniform()-style rejection over getrandom(2) in 4 KiB batches. */
static int bench_arc4(u64 sides, struct bench_run *r)
{
	static struct bench_crng c;
	u32 n = sides, max = bench_reject_above(n), x, acc = 0;
	double t0 = bench_now();
	u64 rolls = 0, draws = 0;
	int i;

	c.pos = ARRAY_SIZE(c.buf);
	do {
		for (i = 0; i < 4096; i++) {
			do {
				x = bench_crng32(&c);
				draws++;
			} while (x > max);
			acc += x % n;
		}
		rolls += 4096;
		r->secs = bench_now() - t0;
	} while (r->secs < bench_opt.cpu_secs);
	bench_keep(acc);
	r->rolls = rolls;
	r->source_bits = draws * 32;
	return 0;
}

/* glibc's arc4random_uniform(); how many bits it draws is not visible. */
static int bench_glibc(u64 sides, struct bench_run *r)
{
	double t0 = bench_now();
	u32 acc = 0;
	u64 rolls = 0;
	int i;

	do {
		for (i = 0; i < 1024; i++)
			acc += arc4random_uniform(sides);
		rolls += 1024;
		r->secs = bench_now() - t0;
	} while (r->secs < bench_opt.cpu_secs);
	bench_keep(acc);
	r->rolls = rolls;
	return 0;
}

/*
 * Run "shuf -i 1-SIDES -r -n COUNT" with its output to /dev/null, its
 * random source @src_fd (as its stdin, --random-source=/dev/stdin) or its
 * default (getrandom) when -1. Return the seconds taken, or -1.
 */
static double bench_run_shuf(u64 sides, long count, int src_fd, pid_t *pidp)
{
	char range[64], num[32];
	double t0 = bench_now();
	pid_t pid;
	int st;

	snprintf(range, sizeof(range), "1-%llu", (unsigned long long)sides);
	snprintf(num, sizeof(num), "%ld", count);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(127);
		if (src_fd >= 0) {
			if (dup2(src_fd, STDIN_FILENO) < 0)
				_exit(127);
			execlp("shuf", "shuf", "-i", range, "-r", "-n", num,
			       "--random-source=/dev/stdin", (char *)NULL);
		} else {
			execlp("shuf", "shuf", "-i", range, "-r", "-n", num,
			       (char *)NULL);
		}
		_exit(127);
	}
	if (pidp) {
		*pidp = pid;
		return 0;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return bench_now() - t0;
}

/*
 * Source bits shuf takes per roll: feed it random bytes through a pipe and
 * count what it took. Exact but for the few KiB its stdio buffer may hold
 * unused when it exits.
 */
static double bench_shuf_bits(u64 sides, long count)
{
	struct bench_crng c = { .pos = ARRAY_SIZE(c.buf) };
	u64 written = 0;
	int p[2], st, left = 0;
	size_t off = sizeof(c.buf);
	pid_t pid;
	bool done = false;

	if (pipe2(p, O_CLOEXEC))
		return NAN;
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	if (bench_run_shuf(sides, count, p[0], &pid) < 0) {
		close(p[0]);
		close(p[1]);
		return NAN;
	}
	while (!done) {
		struct pollfd pfd = { .fd = p[1], .events = POLLOUT };
		ssize_t n;

		if (off == sizeof(c.buf)) {
			c.pos = ARRAY_SIZE(c.buf);
			bench_crng32(&c);
			off = 0;
		}
		n = write(p[1], (char *)c.buf + off, sizeof(c.buf) - off);
		if (n > 0) {
			off += n;
			written += n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			break;
		poll(&pfd, 1, 10);
		if (waitpid(pid, &st, WNOHANG) == pid)
			done = true;
	}
	if (!done)
		waitpid(pid, &st, 0);
	ioctl(p[0], FIONREAD, &left);
	close(p[0]);
	close(p[1]);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return NAN;
	return (written - left) * 8.0 / count;
}

/* ---------------------------------------------------------------------
 * The RDSEED section: raw limit, the module's pipeline, the textbook.
 */

#define BENCH_NEXT	3	/* extractors measured on RDSEED */
#define BENCH_TEXTBOOK	BENCH_NEXT

static const u32 bench_exts[BENCH_NEXT] = {
	FAIRDIE_EXT_NONE, FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES,
};

static const char * const bench_ext_names[BENCH_NEXT + 1] = {
	"none", "vn", "peres", "textbook",
};

/* Everything measured on RDSEED, per die and method, over the reps. */
static struct bench_rd {
	struct bench_stat rate;
	struct bench_stat ratio;
	struct bench_stat draw;
	u64 rolls;
	u64 source_bits;
	u64 sampler_bits;
	u64 retries;
	u64 slow;
	u64 words;
} bench_rd[BENCH_NSIDES][BENCH_NEXT + 1];
static struct bench_stat bench_raw_rate;
static u64 bench_raw_words, bench_raw_retries, bench_raw_slow;

static void bench_rd_add(struct bench_rd *d, const struct bench_run *r,
			 u64 sides, double raw_rate)
{
	double rate = r->rolls / r->secs;

	bench_stat_add(&d->rate, rate);
	bench_stat_add(&d->ratio, rate * bench_log2(sides) / raw_rate);
	bench_stat_add(&d->draw, r->source_bits / r->secs / raw_rate);
	d->rolls += r->rolls;
	d->source_bits += r->source_bits;
	d->sampler_bits += r->sampler_bits;
	d->retries += r->retries;
	d->slow += r->slow;
	d->words += r->words;
}

/*
 * Every method in turn, measured in phases that take turns with phases of
 * raw RDSEED. RDSEED here delivers words in clumps from a buffer that
 * refills slowly, at a rate that drifts with the load of the whole machine
 * (other guests included): phases must be long against the clumps (a
 * short phase that ends on a count of words rather than on time catches
 * clumps and overstates the rate), and the method and the raw limit must
 * be measured close together and in turns.
 */
static int bench_rdseed_measure(void)
{
	struct bench_rdm raw_m = { .src.word = bench_rdseed_word };
	int rep, i, e, err = 0;

	for (rep = 0; rep < bench_opt.reps; rep++) {
		double raw_bits = 0, raw_secs = 0;

		fprintf(stderr, "bench: RDSEED repetition %d of %d\n", rep + 1,
			bench_opt.reps);
		for (i = 0; i < BENCH_NSIDES && !err; i++) {
			for (e = 0; e <= BENCH_NEXT && !err; e++) {
				struct bench_run r, raw;

				err = bench_rdseed_method(bench_sides[i],
							  e < BENCH_NEXT ?
							  (int)bench_exts[e] : -1,
							  NULL, bench_ahead_on, &r,
							  &raw_m, &raw);
				if (err) {
					fprintf(stderr, "bench: d%llu %s: %s\n",
						(unsigned long long)bench_sides[i],
						bench_ext_names[e], strerror(-err));
					break;
				}
				bench_rd_add(&bench_rd[i][e], &r, bench_sides[i],
					     raw.source_bits / raw.secs);
				raw_bits += raw.source_bits;
				raw_secs += raw.secs;
				bench_raw_words += raw.words;
				bench_raw_retries += raw.retries;
				bench_raw_slow += raw.slow;
			}
		}
		if (err)
			return err;
		bench_stat_add(&bench_raw_rate, raw_bits / raw_secs);
	}
	bench_keep(raw_m.acc);
	return 0;
}

static const char * const bench_rd_notes[] = {
	"It is the product of two factors: bit yield = log2(sides) / source",
	"bits per roll (counted, no timing in it), and draw = the method's",
	"source bits/s / the raw rate (1 unless the arithmetic slows the draws;",
	"its spread is the drift of the source). Source bits include the health",
	"tests' startup discard. Textbook: one 32-bit RDSEED per attempt,",
	"reject x >= 2^32 - (2^32 mod n), return x mod n.",
	NULL
};

/* A d6 target of the design document (@min 0: no target, 1/4 is the ideal). */
static void bench_target(const char *name, const struct bench_rd *d,
			 double min)
{
	double ratio = bench_median(&d->ratio);

	printf("- %s: ratio %.3f, ", name, ratio);
	if (min)
		printf("target >= %.2f: %s", min, ratio >= min ? "met" : "NOT met");
	else
		printf("no target, 0.25 is ideal on a fair source");
	printf(" (bit yield %.4f)\n", bench_log2(6) * d->rolls / d->source_bits);
}

/**
 * bench_rd_ratio() - the measured RDSEED ratio of a die and extractor
 * @side: index in bench_sides
 * @ext: 0 none, 1 vn, 2 peres
 *
 * Return: the median ratio, or NAN when the RDSEED section did not run.
 */
double bench_rd_ratio(int side, int ext)
{
	return bench_median(&bench_rd[side][ext].ratio);
}

static void bench_rdseed_report(void)
{
	double raw = bench_median(&bench_raw_rate);
	char a[64], b[64];
	int i, e;

	printf("## RDSEED: the module's read path against the raw limit\n\n");
	printf("Raw RDSEED: %s bit/s median over %d repetitions (%s-%s); ",
	       bench_si(a, sizeof(a), raw), bench_raw_rate.n,
	       bench_si(b, sizeof(b), bench_min(&bench_raw_rate)),
	       bench_si(a, sizeof(a), bench_max(&bench_raw_rate)));
	printf("%.1f underflows per word delivered; ",
	       (double)bench_raw_retries / bench_raw_words);
	printf("%.3f%% of words took >= %d underflows ", 100.0 * bench_raw_slow /
	       bench_raw_words, FD_HW_TRIES);
	printf("(where the module would sleep 1-2 ms). ");
	printf("Zero words: %llu of %llu from 64-bit RDSEED, %llu of %llu from ",
	       (unsigned long long)bench_zeros64,
	       (unsigned long long)bench_words64,
	       (unsigned long long)bench_zeros32,
	       (unsigned long long)bench_words32);
	printf("32-bit RDSEED (expected: about n / 2^64 and n / 2^32).\n\n");
	bench_key(bench_zeros64 + bench_zeros32, "rdseed_zero_words");
	bench_key(raw, "rdseed_bits_per_s");
	bench_key(bench_min(&bench_raw_rate), "rdseed_bits_per_s_min");
	bench_key(bench_max(&bench_raw_rate), "rdseed_bits_per_s_max");
	bench_key((double)bench_raw_retries / bench_raw_words,
		  "rdseed_underflows_per_word");
	bench_key((double)bench_raw_slow / bench_raw_words,
		  "rdseed_slow_word_fraction");

	printf("Ratio = rolls/s / (raw bits/s / log2 sides), the method and raw ");
	printf("RDSEED taking %d turns of %.3f s each. ", BENCH_PHASES,
	       bench_opt.secs / BENCH_PHASES);
	bench_para(bench_rd_notes);
	printf("| sides | log2 | method | rolls/s median (min-max) ");
	printf("| source bits/roll | fair bits/roll | bit yield ");
	printf("| draw median (min-max) | ratio median (min-max) |\n");
	printf("|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < BENCH_NSIDES; i++) {
		u64 s = bench_sides[i];

		for (e = 0; e <= BENCH_NEXT; e++) {
			struct bench_rd *d = &bench_rd[i][e];
			double sbpr = (double)d->source_bits / d->rolls;
			double fbpr = (double)d->sampler_bits / d->rolls;

			if (!d->rate.n)
				continue;
			printf("| %llu | %.3f | %s | %s | %.3f | ",
			       (unsigned long long)s, bench_log2(s),
			       bench_ext_names[e],
			       bench_spread(a, sizeof(a), &d->rate), sbpr);
			if (e < BENCH_NEXT)
				printf("%.4f", fbpr);
			else
				printf("-");
			printf(" | %.4f | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) |\n",
			       bench_log2(s) / sbpr, bench_median(&d->draw),
			       bench_min(&d->draw), bench_max(&d->draw),
			       bench_median(&d->ratio), bench_min(&d->ratio),
			       bench_max(&d->ratio));
			bench_key(bench_median(&d->rate), "d%llu_%s_rolls_per_s",
				  (unsigned long long)s, bench_ext_names[e]);
			bench_key(bench_median(&d->ratio), "d%llu_%s_ratio",
				  (unsigned long long)s, bench_ext_names[e]);
			bench_key(sbpr, "d%llu_%s_source_bits_per_roll",
				  (unsigned long long)s, bench_ext_names[e]);
			bench_key(bench_log2(s) / sbpr, "d%llu_%s_bit_yield",
				  (unsigned long long)s, bench_ext_names[e]);
			bench_key(bench_median(&d->draw), "d%llu_%s_draw",
				  (unsigned long long)s, bench_ext_names[e]);
		}
	}
	printf("\nTargets of Documentation/design/fairdie.rst, d6:\n\n");
	bench_target("none", &bench_rd[1][0], 0.9);
	bench_target("peres", &bench_rd[1][2], 0.85);
	bench_target("vn", &bench_rd[1][1], 0);
	printf("\n");
}

/* ---------------------------------------------------------------------
 * Weighted sums on RDSEED: the read path of a file after SET_WEIGHTS.
 */

/* The weighted dice measured on RDSEED: 2d6's and 3d6's sums (fd_wsets.h). */
#define BENCH_WRD	2

static const char * const bench_wrd_notes[] = {
	"The read path of a file of RDSEED with the extractor none after",
	"FAIRDIE_IOC_SET_WEIGHTS with the sums of two and three dice (the",
	"weights of fd_wsets.h): fd_pipe_fill() drawing faces through",
	"fd_weights_fill(), through the well of RDSEED and none, in turns",
	"with raw RDSEED as the RDSEED section measures. Ratio = draws/s /",
	"(raw bits/s / H(w)): the fraction of the draws the source's bits could",
	"give at best, since no exact sampler takes fewer than H(w) fair bits a",
	"draw on average; target >= 0.93, where the source is the bottleneck.",
	"It is the bit yield (H(w) / source bits per draw, counted, no timing",
	"in it) times the draw (the source bits/s over the raw rate, whose",
	"spread is the drift of the source).",
	NULL
};

/* Weighted draws of the read path on RDSEED: weights_rdseed_ratio_<name>. */
static int bench_rdseed_weights(void)
{
	struct bench_rdm raw_m = { .src.word = bench_rdseed_word };
	struct bench_stat rate[BENCH_WRD] = { 0 }, ratio[BENCH_WRD] = { 0 };
	u64 weights[FD_WSET_MAX], *table[BENCH_WRD] = { NULL };
	u64 draws[BENCH_WRD] = { 0 }, sbits[BENCH_WRD] = { 0 };
	struct fd_weights w[BENCH_WRD];
	double h[BENCH_WRD];
	u32 count[BENCH_WRD];
	int i, rep, err = 0;
	char a[64];

	for (i = 0; i < BENCH_WRD && !err; i++) {
		count[i] = fd_wset(i, weights);
		h[i] = fd_wset_entropy(weights, count[i]);
		table[i] = calloc(fd_weights_table_words(count[i]),
				  sizeof(*table[i]));
		if (!table[i]) {
			err = -ENOMEM;
			break;
		}
		memcpy(table[i] + 1, weights, count[i] * sizeof(*weights));
		err = fd_weights_init(&w[i], table[i], count[i]);
	}
	for (rep = 0; rep < bench_opt.reps && !err; rep++) {
		fprintf(stderr, "bench: weighted draws on RDSEED, repetition %d of %d\n",
			rep + 1, bench_opt.reps);
		for (i = 0; i < BENCH_WRD && !err; i++) {
			struct bench_run r, raw;
			double v;

			err = bench_rdseed_method(count[i], FAIRDIE_EXT_NONE,
						  &w[i], bench_ahead_on, &r,
						  &raw_m, &raw);
			if (err)
				break;
			v = r.rolls / r.secs;
			bench_stat_add(&rate[i], v);
			bench_stat_add(&ratio[i],
				       v * h[i] / (raw.source_bits / raw.secs));
			draws[i] += r.rolls;
			sbits[i] += r.source_bits;
		}
	}
	if (err) {
		fprintf(stderr, "bench: weighted draws on RDSEED: %s\n",
			strerror(-err));
	} else {
		printf("## Weighted sums on RDSEED: the read path against the raw limit\n\n");
		bench_para(bench_wrd_notes);
		printf("| weights | faces | H(w) | draws/s median (min-max) | source bits/draw | bit yield | ratio median (min-max) |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|\n");
		for (i = 0; i < BENCH_WRD; i++) {
			double yield = h[i] * draws[i] / sbits[i];

			printf("| %s | %u | %.4f | %s | %.4f | %.4f | %.3f (%.3f-%.3f) |\n",
			       fd_wset_names[i], count[i], h[i],
			       bench_spread(a, sizeof(a), &rate[i]),
			       (double)sbits[i] / draws[i], yield,
			       bench_median(&ratio[i]), bench_min(&ratio[i]),
			       bench_max(&ratio[i]));
			bench_key(yield, "weights_rdseed_bit_yield_%s",
				  fd_wset_names[i]);
			bench_key(bench_median(&rate[i]),
				  "weights_rdseed_draws_per_s_%s",
				  fd_wset_names[i]);
			bench_key(bench_median(&ratio[i]),
				  "weights_rdseed_ratio_%s", fd_wset_names[i]);
		}
		printf("\nTarget >= 0.93: 2d6 %s, 3d6 %s.\n\n",
		       bench_median(&ratio[0]) >= 0.93 ? "met" : "NOT met",
		       bench_median(&ratio[1]) >= 0.93 ? "met" : "NOT met");
	}
	bench_keep(raw_m.acc);
	for (i = 0; i < BENCH_WRD; i++)
		free(table[i]);
	return err;
}

/* ---------------------------------------------------------------------
 * Two readers of one well against two RDSEED loops, on two CPUs.
 */

/*
 * 64 bits from RDSEED for a thread of bench_pair(): as bench_rdseed_word(),
 * counted in @src only.
 */
static int bench_rdseed_word_mt(struct bench_src *src, u64 *w)
{
	unsigned long long v;
	u64 tries = 0;

	while (!_rdseed64_step(&v)) {
		if (++tries == BENCH_HW_GIVE_UP)
			return -EIO;
		_mm_pause();
	}
	src->retries += tries;
	src->words++;
	*w = v;
	return 0;
}

/**
 * struct bench_pair_thread - one of the two threads of a phase
 * @tid: the thread
 * @cpu: the CPU it runs on, or -1 for any
 * @well: the well it reads d6 NONE through, or NULL for a raw RDSEED loop
 * @start: the barrier both threads start at
 * @secs: how long it runs
 * @bits: raw bits it took from RDSEED
 * @elapsed: seconds it ran
 * @err: 0, or what failed
 */
struct bench_pair_thread {
	pthread_t tid;
	int cpu;
	struct bench_well *well;
	pthread_barrier_t *start;
	double secs;
	u64 bits;
	double elapsed;
	int err;
};

static void *bench_pair_run(void *arg)
{
	struct bench_pair_thread *t = arg;
	struct bench_src src = { .word = bench_rdseed_word_mt, .tested = true };
	struct bench_pipe *f = NULL;
	u8 buf[BENCH_STAGE_BYTES];
	double t0;
	u64 acc = 0, w = 0;
	int i;

	if (t->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	if (t->well) {
		f = malloc(sizeof(*f));
		if (!f)
			t->err = -ENOMEM;
		else
			bench_pipe_open(f, &src, 6, FAIRDIE_EXT_NONE, t->well);
	}
	pthread_barrier_wait(t->start);
	t0 = bench_now();
	while (!t->err && bench_now() - t0 < t->secs) {
		if (f) {
			if (bench_pipe_read(f, buf, sizeof(buf)) < 0)
				t->err = -EIO;
			acc += buf[0];
			continue;
		}
		for (i = 0; i < 16 && !t->err; i++) {
			t->err = bench_rdseed_word_mt(&src, &w);
			acc ^= w;
		}
	}
	t->elapsed = bench_now() - t0;
	/* Raw bits this thread took from RDSEED, reader or loop. */
	t->bits = src.words * 64;
	if (f) {
		bench_pipe_close(f);
		free(f);
	}
	bench_keep(acc);
	return NULL;
}

/*
 * One phase: two threads on @cpus, readers of @well (or RDSEED loops when
 * NULL), for @secs. Returns their total raw bits/s, or -1.
 */
static double bench_pair_phase(const int *cpus, struct bench_well *well,
			       double secs)
{
	struct bench_pair_thread t[2];
	pthread_barrier_t start;
	double rate = 0;
	int i, n = 0;

	pthread_barrier_init(&start, NULL, 2);
	memset(t, 0, sizeof(t));
	for (i = 0; i < 2; i++) {
		t[i].cpu = cpus[i];
		t[i].well = well;
		t[i].start = &start;
		t[i].secs = secs;
		if (pthread_create(&t[i].tid, NULL, bench_pair_run, &t[i]))
			break;
		n++;
	}
	if (n < 2) {
		/* Let a lone thread through the barrier. */
		if (n)
			pthread_barrier_wait(&start);
		rate = -1;
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i].tid, NULL);
		if (t[i].err || !t[i].elapsed)
			rate = -1;
		else if (rate >= 0)
			rate += t[i].bits / t[i].elapsed;
	}
	pthread_barrier_destroy(&start);
	return rate;
}

/*
 * The first two CPUs this process may run on, -1 where there is none, as
 * at the first call (before bench_ahead_begin() pins the main thread).
 */
static int bench_pair_cpus(int *cpus)
{
	static int first[2] = { -1, -1 }, n = -1;
	cpu_set_t set;
	int c;

	if (n < 0) {
		n = 0;
		if (!sched_getaffinity(0, sizeof(set), &set))
			for (c = 0; c < CPU_SETSIZE && n < 2; c++)
				if (CPU_ISSET(c, &set))
					first[n++] = c;
	}
	cpus[0] = first[0];
	cpus[1] = first[1];
	return n;
}

static const char * const bench_pair_notes[] = {
	"Two threads pinned on two CPUs, each reading d6 NONE in reads of one",
	"stage through one shared well (bench_well.c: driver/fd_well.c under a",
	"pthread mutex, raw words fetched outside it as the module does), taking",
	"turns with two threads running plain RDSEED loops on the same CPUs.",
	"Rate: the raw RDSEED bits/s both threads took together. Ratio: the",
	"readers' rate over the loops', per repetition (target >= 0.9).",
	NULL
};

/* Two readers of one well against two RDSEED loops: the well's parallelism. */
static int bench_pair(void)
{
	struct bench_stat readers = { 0 }, loops = { 0 }, ratio = { 0 };
	struct bench_src src = { .word = bench_rdseed_word, .tested = true };
	double phase = bench_opt.secs / BENCH_PHASES;
	struct bench_well *w = bench_well_new(FAIRDIE_EXT_NONE);
	struct bench_pipe *f = malloc(sizeof(*f));
	int cpus[2], ncpus = bench_pair_cpus(cpus), rep, i, err = 0;
	u8 buf[BENCH_STAGE_BYTES];
	char a[64], b[64];

	if (!w || !f) {
		err = -ENOMEM;
		goto out;
	}
	/* Warm up: the well's start-up test. */
	bench_pipe_open(f, &src, 6, FAIRDIE_EXT_NONE, w);
	if (bench_pipe_read(f, buf, sizeof(buf)) < 0)
		err = -EIO;
	bench_pipe_close(f);
	for (rep = 0; rep < bench_opt.reps && !err; rep++) {
		double rb = 0, lb = 0, r;

		for (i = 0; i < BENCH_PHASES && !err; i++) {
			r = bench_pair_phase(cpus, NULL, phase);
			lb += r;
			if (r < 0)
				err = -EIO;
			r = bench_pair_phase(cpus, w, phase);
			rb += r;
			if (r < 0)
				err = -EIO;
		}
		if (err)
			break;
		bench_stat_add(&readers, rb / BENCH_PHASES);
		bench_stat_add(&loops, lb / BENCH_PHASES);
		bench_stat_add(&ratio, rb / lb);
	}
	if (err) {
		fprintf(stderr, "bench: two readers of one well: %s\n",
			strerror(-err));
		goto out;
	}
	printf("## Two readers of one well against two RDSEED loops\n\n");
	bench_para(bench_pair_notes);
	printf("CPUs %d and %d (%d online). ", cpus[0], cpus[1],
	       (int)sysconf(_SC_NPROCESSORS_ONLN));
	if (ncpus < 2)
		printf("Only one CPU is allowed here: both threads share it. ");
	printf("%d turns of %.3f s each per repetition.\n\n", BENCH_PHASES,
	       phase);
	printf("| threads | raw bits/s median (min-max) |\n|---|---:|\n");
	printf("| 2 RDSEED loops | %s |\n", bench_spread(a, sizeof(a), &loops));
	printf("| 2 readers of one well (d6 none) | %s |\n\n",
	       bench_spread(b, sizeof(b), &readers));
	printf("Ratio: %.3f median (%.3f-%.3f), target >= 0.9: %s.\n\n",
	       bench_median(&ratio), bench_min(&ratio), bench_max(&ratio),
	       bench_median(&ratio) >= 0.9 ? "met" : "NOT met");
	bench_key(bench_median(&loops), "rdseed_2loops_bits_per_s");
	bench_key(bench_median(&readers), "well_2readers_bits_per_s");
	bench_key(bench_median(&ratio), "well_2readers_vs_2loops");
out:
	free(f);
	bench_well_free(w);
	return err;
}

static const char * const bench_self_notes[] = {
	"The read path above takes its words from the module's fetcher on",
	"another CPU (driver/ahead.c, on by default where two CPUs are online;",
	"bench_ahead.c runs it as a thread pinned on the second CPU around the",
	"module's ring, driver/fd_ahead.h). Here the same read path and wells",
	"without it, the reader running RDSEED itself, as with fetch_ahead=0",
	"or one CPU: where RDSEED holds the core, the read path's work adds to",
	"the instruction's time instead of overlapping it. Ratio and draw as",
	"above, in turns with raw RDSEED on the reader's CPU.",
	NULL
};

/*
 * The read path with the reader fetching for itself: self_d6_none_ratio,
 * self_d6_peres_ratio, self_weights_2d6_ratio.
 */
static int bench_rdseed_self(void)
{
	static const struct {
		const char *name;
		u32 ext;
		bool weights;
	} sf[] = {
		{ "d6_none", FAIRDIE_EXT_NONE, false },
		{ "d6_peres", FAIRDIE_EXT_PERES, false },
		{ "weights_2d6", FAIRDIE_EXT_NONE, true },
	};
	struct bench_rdm raw_m = { .src.word = bench_rdseed_word };
	struct bench_stat ratio[ARRAY_SIZE(sf)] = { 0 };
	struct bench_stat draw[ARRAY_SIZE(sf)] = { 0 };
	u64 weights[FD_WSET_MAX], *table;
	struct fd_weights w2d6;
	int rep, err;
	double h2d6;
	u32 n2d6;
	size_t i;
	char a[64];

	if (!bench_ahead_on)
		return 0;
	n2d6 = fd_wset(0, weights);
	h2d6 = fd_wset_entropy(weights, n2d6);
	table = calloc(fd_weights_table_words(n2d6), sizeof(*table));
	if (!table)
		return -ENOMEM;
	memcpy(table + 1, weights, n2d6 * sizeof(*weights));
	err = fd_weights_init(&w2d6, table, n2d6);
	for (rep = 0; rep < bench_opt.reps && !err; rep++) {
		fprintf(stderr, "bench: RDSEED, the reader fetching, repetition %d of %d\n",
			rep + 1, bench_opt.reps);
		for (i = 0; i < ARRAY_SIZE(sf) && !err; i++) {
			struct bench_run r, raw;
			double raw_rate, h;

			err = bench_rdseed_method(sf[i].weights ? n2d6 : 6,
						  sf[i].ext,
						  sf[i].weights ? &w2d6 : NULL,
						  false, &r, &raw_m, &raw);
			if (err)
				break;
			raw_rate = raw.source_bits / raw.secs;
			h = sf[i].weights ? h2d6 : bench_log2(6);
			bench_stat_add(&ratio[i], r.rolls / r.secs * h / raw_rate);
			bench_stat_add(&draw[i], r.source_bits / r.secs / raw_rate);
		}
	}
	free(table);
	bench_keep(raw_m.acc);
	if (err) {
		fprintf(stderr, "bench: RDSEED, the reader fetching: %s\n",
			strerror(-err));
		return err;
	}
	printf("## RDSEED without the fetcher: the reader fetching for itself\n\n");
	bench_para(bench_self_notes);
	printf("| read path | draw median (min-max) | ratio median (min-max) |\n");
	printf("|---|---:|---:|\n");
	for (i = 0; i < ARRAY_SIZE(sf); i++) {
		printf("| %s | %s | %.3f (%.3f-%.3f) |\n", sf[i].name,
		       bench_spread(a, sizeof(a), &draw[i]),
		       bench_median(&ratio[i]), bench_min(&ratio[i]),
		       bench_max(&ratio[i]));
		bench_key(bench_median(&ratio[i]), "self_%s_ratio", sf[i].name);
		bench_key(bench_median(&draw[i]), "self_%s_draw", sf[i].name);
	}
	printf("\n");
	return 0;
}

/* The saved affinity of the main thread, while bench_ahead_on. */
static cpu_set_t bench_ahead_saved;

/*
 * Where this process may run on two CPUs, the module fetches ahead (its
 * default): pin the main thread, the reader, on the first and start the
 * fetcher on the second, for the RDSEED figures of the read path.
 */
static void bench_ahead_begin(void)
{
	static bool tried;
	cpu_set_t one;
	int cpus[2];

	if (tried)
		return;
	tried = true;
	if (bench_pair_cpus(cpus) < 2 ||
	    sched_getaffinity(0, sizeof(bench_ahead_saved), &bench_ahead_saved))
		goto none;
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		goto none;
	if (bench_ahead_start(cpus[1])) {
		sched_setaffinity(0, sizeof(bench_ahead_saved),
				  &bench_ahead_saved);
		goto none;
	}
	bench_ahead_on = true;
	printf("RDSEED figures of the read path: the reader on CPU %d takes its words from the module's fetcher on CPU %d (driver/ahead.c, the module's default where two CPUs are online).\n\n",
	       cpus[0], cpus[1]);
	bench_key(1, "ahead_available");
	return;
none:
	printf("RDSEED figures of the read path: one CPU, no fetcher; the reader fetches for itself.\n\n");
	bench_key(0, "ahead_available");
}

static void bench_ahead_end(void)
{
	if (!bench_ahead_on)
		return;
	bench_ahead_stop();
	sched_setaffinity(0, sizeof(bench_ahead_saved), &bench_ahead_saved);
	bench_ahead_on = false;
}

static const char * const bench_serve_notes[] = {
	"The CPU a well's queue (driver/fd_share.c, compiled unchanged) spends",
	"per batch of 512 fair bits served, with N blocked readers waiting, each",
	"of a party of its own: the batch put into the well, fd_well_serve(),",
	"the reader served taking its bits and coming back for more. The source",
	"is left out (userspace, bench_well.c). Target: 1,000 readers cost at",
	"most 3 times what 10 cost per batch.",
	NULL
};

/* A well's queue with 1,000 readers waiting against 10: its cost per turn. */
static int bench_serve_cost(void)
{
	struct bench_stat few = { 0 }, many = { 0 }, ratio = { 0 };
	double secs = bench_opt.cpu_secs / 4, a, b;
	int rep;

	for (rep = 0; rep < bench_opt.reps; rep++) {
		a = bench_well_serve_ns(10, secs);
		b = bench_well_serve_ns(1000, secs);
		if (a <= 0 || b <= 0) {
			fprintf(stderr, "bench: the well's queue: out of memory\n");
			return -1;
		}
		bench_stat_add(&few, a);
		bench_stat_add(&many, b);
		bench_stat_add(&ratio, b / a);
	}
	printf("## A well's queue: the cost of a turn\n\n");
	bench_para(bench_serve_notes);
	printf("| readers waiting | CPU ns per batch served, median |\n|---:|---:|\n");
	printf("| 10 | %.0f |\n| 1,000 | %.0f |\n\n", bench_median(&few),
	       bench_median(&many));
	printf("Ratio: %.3f median (%.3f-%.3f), target <= 3: %s.\n\n",
	       bench_median(&ratio), bench_min(&ratio), bench_max(&ratio),
	       bench_median(&ratio) <= 3 ? "met" : "NOT met");
	bench_key(bench_median(&few), "well_serve_ns_10");
	bench_key(bench_median(&many), "well_serve_ns_1000");
	bench_key(bench_median(&ratio), "well_serve_cost_1000_vs_10");
	return 0;
}

/* ---------------------------------------------------------------------
 * Side by side: the usual ways of rolling dice.
 */

static const char * const bench_sbs_notes[] = {
	"Raw limit: raw RDSEED bits/s / log2 sides. arc4-style: the rejection",
	"of arc4random_uniform() written out, over getrandom(2) in 4 KiB",
	"batches, 32 bits per try. glibc: its own arc4random_uniform() (how",
	"many bits it draws is not visible).",
	NULL
};

static int bench_side_by_side(bool have_rdseed)
{
	double raw = bench_median(&bench_raw_rate);
	static const char * const plot_names[BENCH_NEXT + 1] = {
		"fairdie none (RDSEED)", "fairdie vn (RDSEED)",
		"fairdie peres (RDSEED)", "textbook 32 bit/try (RDSEED)",
	};
	char a[64];
	int i, e, rep;

	printf("## Side by side\n\n");
	bench_para(bench_sbs_notes);
	printf("shuf: `shuf -i 1-N -r -n %ld`, wall time including its start ",
	       bench_opt.shuf_n);
	printf("and its output (to /dev/null).\n\n");
	printf("| sides | method | source bits/roll | rolls/s median (min-max) |\n");
	printf("|---:|---|---:|---:|\n");
	for (i = 0; i < BENCH_NSIDES; i++) {
		u64 s = bench_sides[i];
		struct bench_stat arc4 = { 0 }, glibc = { 0 }, shuf = { 0 };
		u64 arc4_rolls = 0, arc4_bits = 0;
		double shuf_bits;

		if (have_rdseed) {
			printf("| %llu | raw RDSEED limit | %.3f | %s |\n",
			       (unsigned long long)s, bench_log2(s),
			       bench_si(a, sizeof(a), raw / bench_log2(s)));
			bench_point("raw RDSEED limit", s, bench_log2(s),
				    raw / bench_log2(s));
			bench_key(raw / bench_log2(s), "d%llu_limit_rolls_per_s",
				  (unsigned long long)s);
			for (e = 0; e <= BENCH_NEXT; e++) {
				struct bench_rd *d = &bench_rd[i][e];
				double sbpr = (double)d->source_bits / d->rolls;

				if (!d->rate.n)
					continue;
				printf("| %llu | %s | %.3f | %s |\n",
				       (unsigned long long)s, plot_names[e], sbpr,
				       bench_spread(a, sizeof(a), &d->rate));
				bench_point(plot_names[e], s, sbpr,
					    bench_median(&d->rate));
			}
		}

		for (rep = 0; rep < bench_opt.reps; rep++) {
			struct bench_run r = { 0 };
			double t;

			bench_arc4(s, &r);
			bench_stat_add(&arc4, r.rolls / r.secs);
			arc4_rolls += r.rolls;
			arc4_bits += r.source_bits;
			memset(&r, 0, sizeof(r));
			bench_glibc(s, &r);
			bench_stat_add(&glibc, r.rolls / r.secs);
			t = bench_run_shuf(s, bench_opt.shuf_n, -1, NULL);
			if (t > 0)
				bench_stat_add(&shuf, bench_opt.shuf_n / t);
		}
		shuf_bits = bench_shuf_bits(s, bench_opt.shuf_n);

		printf("| %llu | arc4-style (getrandom) | %.3f | %s |\n",
		       (unsigned long long)s, (double)arc4_bits / arc4_rolls,
		       bench_spread(a, sizeof(a), &arc4));
		printf("| %llu | glibc arc4random_uniform | - | %s |\n",
		       (unsigned long long)s, bench_spread(a, sizeof(a), &glibc));
		printf("| %llu | shuf | %.3f | %s |\n", (unsigned long long)s,
		       shuf_bits, shuf.n ? bench_spread(a, sizeof(a), &shuf) :
		       "failed");
		bench_point("arc4-style (getrandom)", s,
			    (double)arc4_bits / arc4_rolls, bench_median(&arc4));
		bench_point("glibc arc4random_uniform", s, NAN,
			    bench_median(&glibc));
		bench_point("shuf", s, shuf_bits, bench_median(&shuf));
		bench_key(bench_median(&arc4), "d%llu_arc4_rolls_per_s",
			  (unsigned long long)s);
		bench_key((double)arc4_bits / arc4_rolls,
			  "d%llu_arc4_source_bits_per_roll",
			  (unsigned long long)s);
		bench_key(bench_median(&glibc), "d%llu_glibc_rolls_per_s",
			  (unsigned long long)s);
		if (shuf.n)
			bench_key(bench_median(&shuf), "d%llu_shuf_rolls_per_s",
				  (unsigned long long)s);
		if (!isnan(shuf_bits))
			bench_key(shuf_bits, "d%llu_shuf_source_bits_per_roll",
				  (unsigned long long)s);
	}
	printf("\n");
	return 0;
}

/* ---------------------------------------------------------------------
 * Command line.
 */

/* The 1-minute load average of the machine, or -1. */
static double bench_loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double v = -1;

	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * The CPU in @buf: CPUID's vendor, family, model and stepping (the
 * family and model as /proc/cpuinfo gives them, extended fields added),
 * then the model name, so that figures from different machines are never
 * read as one.
 */
static void bench_cpu_name(char *buf, size_t len)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0, fam, model;
	char line[256], name[256] = "unknown", vendor[13] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(name, sizeof(name), "%s", strchr(line, ':') + 2);
			name[strcspn(name, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
		snprintf(buf, len, "%s", name);
		return;
	}
	memcpy(vendor, &ebx, 4);
	memcpy(vendor + 4, &edx, 4);
	memcpy(vendor + 8, &ecx, 4);
	vendor[12] = '\0';
	__get_cpuid(1, &eax, &ebx, &ecx, &edx);
	fam = (eax >> 8) & 0xf;
	model = (eax >> 4) & 0xf;
	if (fam == 0xf)
		fam += (eax >> 20) & 0xff;
	if (fam >= 6)
		model |= ((eax >> 16) & 0xf) << 4;
	snprintf(buf, len, "%s family %u model %u stepping %u (%s)", vendor,
		 fam, model, eax & 0xf, name);
}

static void bench_header(void)
{
	char line[256], cpu[512];
	time_t t = time(NULL);

	bench_cpu_name(cpu, sizeof(cpu));
	strftime(line, sizeof(line), "%Y-%m-%d %H:%M:%S %Z", localtime(&t));
	printf("# fairdie benchmarks (host part)\n\n");
	printf("CPU: %s, %ld online.\n\n", cpu, sysconf(_SC_NPROCESSORS_ONLN));
	printf("Date: %s. ", line);
	printf("Repetitions: %d; %.2f s per RDSEED measurement, ",
	       bench_opt.reps, bench_opt.secs);
	printf("%.2f s per CPU one. ", bench_opt.cpu_secs);
	printf("Load average (1 min) at the start: %.2f; other work on the ",
	       bench_loadavg());
	printf("machine slows the CPU-bound figures and moves the RDSEED ones.\n\n");
}

static void bench_usage(FILE *f)
{
	fprintf(f,
		"Usage: bench [OPTIONS]\n"
		"  -t, --secs S       seconds per RDSEED-bound measurement (default 1)\n"
		"  -c, --cpu-secs S   seconds per CPU-bound measurement (default 0.5)\n"
		"  -r, --reps N       repetitions of each measurement (default 5)\n"
		"  -s, --shuf-n N     rolls per shuf run (default 1000000)\n"
		"  -b, --coin-bits N  raw bits per extractor efficiency run (default 2^25)\n"
		"  -d, --data FILE    write the plot data to FILE\n"
		"  -o, --only PART    only rdseed, cpu, serve, coin or weights\n"
		"  -h, --help         this text\n");
}

static double bench_parse(const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		fprintf(stderr, "bench: '%s': not a number in %g..%g\n", s, min,
			max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "secs", required_argument, NULL, 't' },
		{ "cpu-secs", required_argument, NULL, 'c' },
		{ "reps", required_argument, NULL, 'r' },
		{ "shuf-n", required_argument, NULL, 's' },
		{ "coin-bits", required_argument, NULL, 'b' },
		{ "data", required_argument, NULL, 'd' },
		{ "only", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool have_rdseed, all;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "t:c:r:s:b:d:o:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			bench_opt.secs = bench_parse(optarg, 0.001, 60);
			break;
		case 'c':
			bench_opt.cpu_secs = bench_parse(optarg, 0.001, 60);
			break;
		case 'r':
			bench_opt.reps = bench_parse(optarg, 1, BENCH_MAX_REPS);
			break;
		case 's':
			bench_opt.shuf_n = bench_parse(optarg, 1, 1e9);
			break;
		case 'b':
			bench_opt.coin_bits = bench_parse(optarg, 1 << 15, 1e11);
			break;
		case 'd':
			bench_opt.data = optarg;
			break;
		case 'o':
			bench_opt.only = optarg;
			break;
		case 'h':
			bench_usage(stdout);
			return 0;
		default:
			bench_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		bench_usage(stderr);
		return 2;
	}
	all = !bench_opt.only;
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_header();

	if (all || !strcmp(bench_opt.only, "rdseed")) {
		have_rdseed = bench_have_rdseed();
		/* A host property, not a failure: the model still runs. */
		bench_key(have_rdseed, "rdseed_available");
		if (have_rdseed)
			bench_ahead_begin();
		if (!have_rdseed) {
			printf("RDSEED does not work on this CPU: no RDSEED figures; ");
			printf("see the model of the RDSEED ratios in the CPU section.\n\n");
		} else if (bench_rdseed_measure()) {
			ret = 1;
		} else {
			bench_rdseed_report();
			if (bench_pair())
				ret = 1;
			if (bench_rdseed_self())
				ret = 1;
		}
		bench_side_by_side(have_rdseed && !ret);
	}
	if ((all || !strcmp(bench_opt.only, "cpu")) && bench_cpu())
		ret = 1;
	if ((all || !strcmp(bench_opt.only, "serve")) && bench_serve_cost())
		ret = 1;
	if ((all || !strcmp(bench_opt.only, "coin")) && bench_coin())
		ret = 1;
	if (all || !strcmp(bench_opt.only, "weights")) {
		if (bench_weights())
			ret = 1;
		/* The read path's weighted draws need the instruction. */
		if (!bench_have_rdseed()) {
			printf("Weighted sums on RDSEED: skipped, RDSEED does not work on this CPU.\n\n");
		} else {
			bench_ahead_begin();
			if (bench_rdseed_weights())
				ret = 1;
		}
	}
	bench_ahead_end();

	if (bench_opt.data && bench_write_data(bench_opt.data))
		ret = 1;
	bench_key(bench_loadavg(), "host_loadavg_end");
	bench_print_keys();
	return ret;
}
