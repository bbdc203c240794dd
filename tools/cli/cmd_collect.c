// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - collect: captures of the device's three stages for a test
 * lab, each with a JSON sidecar saying what, how many, when and from where.
 *
 *   raw          the source's raw words as the health tests see them, before
 *                any extractor (FAIRDIE_IOC_GET_RAW, root only)
 *   conditioned  the fair bits out of the extractor: bytes of a 256-sided
 *                die, which the sampler takes from the fair bits as they
 *                come (a power of two is never rejected)
 *   final        outcomes through the production read path: binary rolls of
 *                a die, or decks shuffled by the tool's exact shuffle
 * and --sp800-90b DIR: the raw samples and the restart matrix of NIST SP
 * 800-90B in the format its EntropyAssessment tools read.
 *
 * Everything streams to disk a chunk at a time; FILE appears only complete
 * (fdc_output_open()), its sidecar FILE.json beside it.
 */

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "cli.h"
#include "device.h"
#include "fd_names.h"
#include "fd_roll.h"
#include "games.h"

#define FDC_SYSFS_DEVICE	"/sys/class/misc/fairdie"
#define FDC_MODULE_VERSION	"/sys/module/fairdie/version"

/* Bytes read from the device, or words asked of GET_RAW, at a time. */
#define FDC_COLLECT_CHUNK	65536
/* The default count of every stage, and of decks. */
#define FDC_COLLECT_COUNT	1000000ULL
#define FDC_COLLECT_DECKS	10000ULL
/* The most cards in a deck: each is a byte. */
#define FDC_COLLECT_MAX_DECK	256
/* SP 800-90B's restart test: 1000 restarts of 1000 samples (3.1.4). */
#define FDC_RESTARTS		1000
#define FDC_RESTART_SAMPLES	1000

enum fdc_stage {
	FDC_STAGE_RAW,
	FDC_STAGE_CONDITIONED,
	FDC_STAGE_FINAL,
	FDC_STAGE_SP800_90B,
};

static const char *const fdc_stage_names[] = {
	[FDC_STAGE_RAW] = "raw",
	[FDC_STAGE_CONDITIONED] = "conditioned",
	[FDC_STAGE_FINAL] = "final",
	[FDC_STAGE_SP800_90B] = "sp800-90b",
};

/* The device attributes a sidecar records; the counters as numbers. */
static const struct {
	const char *name;
	bool number;
} fdc_collect_attrs[] = {
	{ "source", false }, { "available_sources", false },
	{ "health", false }, { "hwrng", false },
	{ "source_bits", true }, { "outputs", true },
	{ "health_failures", true }, { "source_failures", true },
	{ "open_files", true }, { "vm_forks", true },
};

#define FDC_COLLECT_ATTRS	ARRAY_SIZE(fdc_collect_attrs)

/**
 * struct fdc_snapshot - the device's counters at one moment
 * @stats: the open file's GET_STATS
 * @attrs: the device's sysfs attributes, "" when missing
 * @time: the wall clock, ISO 8601 in UTC
 * @mono: the monotonic clock, in seconds
 * @have_stats: @stats was read (not on the test builds' stand-in device)
 */
struct fdc_snapshot {
	struct fairdie_stats stats;
	bool have_stats;
	char attrs[FDC_COLLECT_ATTRS][128];
	char time[32];
	double mono;
};

/**
 * struct fdc_capture - one run of collect
 * @stage: what is captured
 * @path: -o FILE, or the folder of --sp800-90b
 * @count: units asked for
 * @done: units written
 * @sides: the final stage's die (the faces of @wdie), 0 for decks
 * @deck: the cards of a deck (--shuffle), 0 for a die
 * @wdie: the loaded die of --weights, count 0 for none
 * @width: bytes per unit in FILE
 * @keep_partial: on a failure of the device, keep what was captured
 * @fake: the test builds' stand-in device ("--device fake:SEED"), whose
 *	rolls come through the engine: the final stage only
 * @eng: the engine over the device: its source for reads and ioctls, and
 *	the draws of decks
 * @source: the file's source, resolved
 * @extractor: its extractor
 * @sim: its simulated coin
 * @before: the counters before the capture
 * @after: the counters after it
 * @sha: SHA-256 of FILE
 * @digest: its hex digest once complete
 * @out: FILE being written
 * @error: the failure that ended the capture, "" if none
 */
struct fdc_capture {
	enum fdc_stage stage;
	const char *path;
	u64 count;
	u64 done;
	u64 sides;
	u64 deck;
	struct fdc_wdie wdie;
	unsigned int width;
	bool keep_partial;
	bool fake;
	struct fdc_engine eng;
	__u32 source;
	__u32 extractor;
	struct fairdie_sim sim;
	struct fdc_snapshot before;
	struct fdc_snapshot after;
	struct sha256_ctx sha;
	char digest[2 * SHA256_DIGEST_SIZE + 1];
	FILE *out;
	char error[512];
};

static const char fdc_collect_help[] =
"Usage: fairdie collect --stage STAGE [OPTION]... -o FILE\n"
"  or:  fairdie collect --sp800-90b DIR [OPTION]...\n"
"Capture what the device makes, for a test lab, into FILE (binary) and\n"
"FILE.json (what, how many, when, from which source, the module version\n"
"and the device's counters before and after). STAGE is one of:\n"
"  raw          COUNT raw words of the source, 64-bit little-endian, as the\n"
"               health tests see them, before any extractor (root only)\n"
"  conditioned  COUNT bytes of fair bits out of the extractor, in order\n"
"  final        COUNT rolls of a die through the device's read path, in its\n"
"               binary width (1, 2, 4 or 8 bytes, little-endian); with\n"
"               --weights, COUNT draws of a loaded die (faces from 0), the\n"
"               same way; or with --shuffle M, COUNT decks of M bytes, each\n"
"               a permutation of 0..M-1 by the tool's exact shuffle\n"
"--sp800-90b DIR writes DIR/raw.bin (COUNT 8-bit samples, the bytes of raw\n"
"words), DIR/restart.bin (1000 restarts of the source x 1000 samples, one\n"
"restart a row) and DIR/sp800-90b.json, for NIST's ea_non_iid and\n"
"ea_restart (root only).\n"
"\n"
"Options:\n"
"      --stage=STAGE       raw, conditioned or final\n"
"      --sp800-90b=DIR     the SP 800-90B data set, into DIR\n"
"  -n, --count=COUNT       words, bytes, rolls, decks or samples (default\n"
"                          1000000; 10000 decks)\n"
"      --shuffle=M         final: decks of M cards, 1 to 256\n"
"      --weights=W1,W2,... final: draws of a loaded die, face i with\n"
"                          probability Wi over the sum of the weights\n"
"  -o, --output=FILE       the capture; FILE.json is written beside it\n"
"      --keep-partial      when the device fails midway (a health test\n"
"                          failure: EIO), keep what was captured before,\n"
"                          and say so in FILE.json; the exit status stays 1\n"
"--source, --extractor and --sim choose what is captured; --sides the die\n"
"of the final stage (default 6).\n";

enum {
	/* Below 0x100: codes from 0x100 up are the global options. */
	FDC_OPT_STAGE = 0x80,
	FDC_OPT_SP800_90B,
	FDC_OPT_SHUFFLE,
	FDC_OPT_KEEP_PARTIAL,
	FDC_OPT_WEIGHTS,
};

static const struct option fdc_collect_opts[] = {
	{ "stage", required_argument, NULL, FDC_OPT_STAGE },
	{ "sp800-90b", required_argument, NULL, FDC_OPT_SP800_90B },
	{ "count", required_argument, NULL, 'n' },
	{ "shuffle", required_argument, NULL, FDC_OPT_SHUFFLE },
	{ "output", required_argument, NULL, 'o' },
	{ "keep-partial", no_argument, NULL, FDC_OPT_KEEP_PARTIAL },
	{ "weights", required_argument, NULL, FDC_OPT_WEIGHTS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static double fdc_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The counters of the open file and of the device, and the time. */
static int fdc_snapshot(struct fdc_capture *c, struct fdc_snapshot *s)
{
	char path[256];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	ssize_t n;
	int fd;

	memset(s, 0, sizeof(*s));
	gmtime_r(&now, &tm);
	strftime(s->time, sizeof(s->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	s->mono = fdc_mono();
	for (i = 0; i < FDC_COLLECT_ATTRS; i++) {
		snprintf(path, sizeof(path), "%s/%s", FDC_SYSFS_DEVICE,
			 fdc_collect_attrs[i].name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, s->attrs[i], sizeof(s->attrs[i]) - 1);
		close(fd);
		if (n < 0)
			n = 0;
		s->attrs[i][n] = '\0';
		s->attrs[i][strcspn(s->attrs[i], "\n")] = '\0';
	}
	if (c->fake)
		return 0;
	s->have_stats = true;
	return fdc_device_ioctl(&c->eng.src, FAIRDIE_IOC_GET_STATS, &s->stats,
				"GET_STATS");
}

/* The first line of a small file, or "" (module version, a name). */
static void fdc_first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Append @len bytes to FILE, hashing them. */
static void fdc_collect_put(struct fdc_capture *c, const void *buf, size_t len)
{
	fwrite(buf, 1, len, c->out);
	sha256_update(&c->sha, len, buf);
}

/* Note the failure that ends the capture, and print it. */
static void fdc_collect_fail(struct fdc_capture *c, const char *fmt, ...)
	__printf(2, 3);

static void fdc_collect_fail(struct fdc_capture *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	fdc_err("collect: %s", c->error);
}

/* Why a read of the device failed, in words for the one-line message. */
static const char *fdc_collect_why(int err)
{
	switch (err) {
	case EIO:
		return " (the source failed its health tests, or stayed silent)";
	case EPERM:
	case EACCES:
		return " (raw words are for root: CAP_SYS_ADMIN)";
	case ENODEV:
		return " (the kernel CRNG has no raw words: choose --source=rdseed, rdrand or sim)";
	case ENOTTY:
		return " (a fairdie module without GET_RAW: older than this tool?)";
	default:
		return "";
	}
}

/*
 * GET_RAW of @n words, @flags; 0 or -1 after noting the failure, which
 * says how many @what were captured before (@done).
 */
static int fdc_collect_get_raw(struct fdc_capture *c, u64 *words, u32 n,
			       u32 flags, u64 done, const char *what)
{
	struct fairdie_raw r = {
		.words = (uintptr_t)words, .count = n, .flags = flags,
	};
	int err;

	if (!ioctl(c->eng.src.fd, FAIRDIE_IOC_GET_RAW, &r))
		return 0;
	err = errno;
	fdc_collect_fail(c, "%s: GET_RAW: %s after %llu %s%s", c->eng.src.name,
			 strerror(err), (unsigned long long)done, what,
			 fdc_collect_why(err));
	errno = err;
	return -1;
}

/* read() of exactly @len bytes; 0 or -1 after noting the failure. */
static int fdc_collect_read(struct fdc_capture *c, u8 *buf, size_t len,
			    const char *what)
{
	size_t got = 0;
	ssize_t r;
	int err;

	while (got < len) {
		r = read(c->eng.src.fd, buf + got, len - got);
		if (r > 0) {
			got += r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		err = r ? errno : 0;
		fdc_collect_fail(c, "%s: read: %s after %llu %s%s",
				 c->eng.src.name,
				 err ? strerror(err) : "unexpected end of file",
				 (unsigned long long)c->done, what,
				 fdc_collect_why(err));
		return -1;
	}
	return 0;
}

/* Words as 64-bit little-endian numbers, into @dst. */
static void fdc_collect_le64(u8 *dst, const u64 *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		u64 v = htole64(w[i]);

		memcpy(dst + 8 * i, &v, 8);
	}
}

static int fdc_collect_raw(struct fdc_capture *c, u64 *words, u8 *bytes)
{
	u32 n, flags = FAIRDIE_RAW_RESTART;

	while (c->done < c->count) {
		n = c->count - c->done < FAIRDIE_RAW_MAX_WORDS ?
		    c->count - c->done : FAIRDIE_RAW_MAX_WORDS;
		/* The capture starts the source, start-up test and all. */
		if (fdc_collect_get_raw(c, words, n, flags, c->done, "words"))
			return -1;
		flags = 0;
		fdc_collect_le64(bytes, words, n);
		fdc_collect_put(c, bytes, 8 * (size_t)n);
		c->done += n;
		fdc_progress("collect", c->done & ~4095ULL, c->count);
	}
	return 0;
}

static int fdc_collect_conditioned(struct fdc_capture *c, u8 *buf)
{
	size_t n;

	while (c->done < c->count) {
		n = c->count - c->done < FDC_COLLECT_CHUNK ?
		    c->count - c->done : FDC_COLLECT_CHUNK;
		if (fdc_collect_read(c, buf, n, "bytes"))
			return -1;
		fdc_collect_put(c, buf, n);
		c->done += n;
		fdc_progress("collect", c->done & ~4095ULL, c->count);
	}
	return 0;
}

/* The stand-in device's rolls, in its binary format (test builds). */
static int fdc_collect_fake_rolls(struct fdc_capture *c, u8 *buf, size_t n)
{
	u64 vals[FDC_CACHE_MAX];
	size_t i, j, k;

	for (i = 0; i < n; i += k) {
		k = n - i < FDC_CACHE_MAX ? n - i : FDC_CACHE_MAX;
		if (c->wdie.count ?
		    fdc_engine_weighted(&c->eng, &c->wdie, vals, k) :
		    fdc_engine_rolls(&c->eng, c->sides, vals, k)) {
			fdc_collect_fail(c, "%s: %s after %llu rolls",
					 c->eng.src.name, fdc_last_error(),
					 (unsigned long long)c->done);
			return -1;
		}
		for (j = 0; j < k; j++)
			fd_put_roll(buf + (i + j) * c->width, vals[j],
				    c->width);
	}
	return 0;
}

/* Rolls in the device's binary format: checked, then little-endian. */
static int fdc_collect_rolls(struct fdc_capture *c, u8 *buf)
{
	size_t per = FDC_COLLECT_CHUNK / c->width, n, i;
	u64 v;

	while (c->done < c->count) {
		n = c->count - c->done < per ? c->count - c->done : per;
		if (c->fake ? fdc_collect_fake_rolls(c, buf, n) :
			      fdc_collect_read(c, buf, n * c->width, "rolls"))
			return -1;
		for (i = 0; i < n; i++) {
			v = fd_get_roll(buf + i * c->width, c->width);
			if (v >= c->sides) {
				fdc_collect_fail(c,
						 "%s: the device returned %llu for a %llu-sided roll",
						 c->eng.src.name,
						 (unsigned long long)v,
						 (unsigned long long)c->sides);
				return -1;
			}
			v = htole64(v);
			memcpy(buf + i * c->width, &v, c->width);
		}
		fdc_collect_put(c, buf, n * c->width);
		c->done += n;
		fdc_progress("collect", c->done & ~4095ULL, c->count);
	}
	return 0;
}

/* Decks by fdc_shuffle() over the device, a byte a card. */
static int fdc_collect_decks(struct fdc_capture *c, u8 *buf)
{
	u64 items[FDC_COLLECT_MAX_DECK], i;
	u64 total = c->count * c->deck;

	while (c->done < c->count) {
		for (i = 0; i < c->deck; i++)
			items[i] = i;
		if (fdc_shuffle(&c->eng, items, c->deck, c->deck)) {
			fdc_collect_fail(c, "%s: %s after %llu decks",
					 c->eng.src.name,
					 *fdc_last_error() ? fdc_last_error() :
					 "the shuffle failed",
					 (unsigned long long)c->done);
			return -1;
		}
		for (i = 0; i < c->deck; i++)
			buf[i] = items[i];
		fdc_collect_put(c, buf, c->deck);
		c->done++;
		fdc_progress("collect", (c->done * c->deck) & ~4095ULL, total);
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The sidecars
 */

static void fdc_json_null(void)
{
	fdc_json_value("null", 4);
}

static void fdc_json_snapshot(const char *key, const struct fdc_snapshot *s)
{
	u64 v;
	size_t i;

	fdc_json_key(key);
	fdc_json_object();
	fdc_json_key("time");
	fdc_json_str(s->time);
	fdc_json_key("stats");
	if (s->have_stats) {
		fdc_json_object();
		fdc_device_json_stats(&s->stats);
		fdc_json_close();
	} else {
		fdc_json_null();
	}
	fdc_json_key("sysfs");
	fdc_json_object();
	for (i = 0; i < FDC_COLLECT_ATTRS; i++) {
		fdc_json_key(fdc_collect_attrs[i].name);
		if (!s->attrs[i][0])
			fdc_json_null();
		else if (fdc_collect_attrs[i].number &&
			 !fdc_parse_u64(s->attrs[i], &v))
			fdc_json_u64(v);
		else
			fdc_json_str(s->attrs[i]);
	}
	fdc_json_close();
	fdc_json_close();
}

/* What every sidecar says: the source, the versions, time and counters. */
static void fdc_json_common(const struct fdc_capture *c)
{
	char version[64];
	struct utsname u;

	fdc_json_key("stage");
	fdc_json_str(fdc_stage_names[c->stage]);
	fdc_json_key("complete");
	fdc_json_value(c->error[0] ? "false" : "true", c->error[0] ? 5 : 4);
	fdc_json_key("failure");
	if (c->error[0])
		fdc_json_str(c->error);
	else
		fdc_json_null();
	fdc_json_key("device");
	fdc_json_str(c->eng.src.name);
	fdc_json_key("source");
	fdc_json_str(c->fake ? "fake" : fd_source_name(c->source));
	fdc_json_key("extractor");
	fdc_json_str(c->fake ? "none" : fd_extractor_name(c->extractor));
	fdc_json_key("sim");
	if (!c->fake && c->source == FAIRDIE_SRC_SIM) {
		fdc_json_object();
		fdc_json_key("seed");
		fdc_json_u64(c->sim.seed);
		fdc_json_key("p1_num");
		fdc_json_u64(c->sim.p1_num);
		fdc_json_key("p1_den");
		fdc_json_u64(c->sim.p1_den);
		fdc_json_close();
	} else {
		fdc_json_null();
	}
	fdc_json_key("start_time");
	fdc_json_str(c->before.time);
	fdc_json_key("end_time");
	fdc_json_str(c->after.time);
	fdc_json_key("seconds");
	fdc_json_double(c->after.mono - c->before.mono, 3);
	fdc_first_line(FDC_MODULE_VERSION, version, sizeof(version));
	fdc_json_key("module_version");
	if (version[0])
		fdc_json_str(version);
	else
		fdc_json_null();
	fdc_json_key("abi_version");
	fdc_json_u64(FAIRDIE_ABI_VERSION);
	fdc_json_key("tool_version");
	fdc_json_str(FDC_VERSION);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	fdc_json_key("kernel");
	fdc_json_str(u.release);
	fdc_json_key("machine");
	fdc_json_str(u.machine);
	fdc_json_snapshot("before", &c->before);
	fdc_json_snapshot("after", &c->after);
}

/* The sidecar of a stage's FILE. */
static void fdc_json_stage(const struct fdc_capture *c, const char *file)
{
	static const char *const units[] = {
		[FDC_STAGE_RAW] = "word",
		[FDC_STAGE_CONDITIONED] = "byte",
		[FDC_STAGE_FINAL] = "roll",
	};
	const char *slash = strrchr(file, '/');

	fdc_json_key("file");
	fdc_json_str(slash ? slash + 1 : file);
	fdc_json_key("count");
	fdc_json_u64(c->done);
	fdc_json_key("requested");
	fdc_json_u64(c->count);
	fdc_json_key("unit");
	fdc_json_str(c->deck ? "deck" : units[c->stage]);
	fdc_json_key("unit_bytes");
	fdc_json_u64(c->width);
	fdc_json_key("bits_per_value");
	fdc_json_u64(c->deck ? 8 : 8 * c->width);
	fdc_json_key("byte_order");
	fdc_json_str("little-endian");
	fdc_json_key("bytes");
	fdc_json_u64(c->done * c->width);
	fdc_json_key("sides");
	if (c->stage == FDC_STAGE_FINAL && !c->deck)
		fdc_json_u64(c->sides);
	else if (c->stage == FDC_STAGE_CONDITIONED)
		fdc_json_u64(256);
	else
		fdc_json_null();
	fdc_json_key("shuffle");
	if (c->deck)
		fdc_json_u64(c->deck);
	else
		fdc_json_null();
	fdc_json_key("weights");
	if (c->wdie.count) {
		u32 i;

		fdc_json_array();
		for (i = 0; i < c->wdie.count; i++)
			fdc_json_u64(c->wdie.weights[i]);
		fdc_json_close();
	} else {
		fdc_json_null();
	}
	fdc_json_key("sha256");
	fdc_json_str(c->digest);
}

/* What the manifest of --sp800-90b DIR says of its files. */
#define FDC_RAW_LAYOUT \
	"one byte a sample: the raw words of one run of the source in order, each word's 8 bytes from bits 0-7 to bits 56-63"
#define FDC_RESTART_LAYOUT \
	"row-major: row i is the 1000 samples after restart i (SP 800-90B 3.1.4.1), each restart a GET_RAW with FAIRDIE_RAW_RESTART: fresh health tests, the start-up test's 1024 bits tested and discarded"
#define FDC_H_I \
	"the initial entropy estimate ea_non_iid prints: min(H_original, 8 x H_bitstring), per 8-bit sample"

/* The manifest of --sp800-90b DIR. */
static void fdc_json_sp800_90b(const struct fdc_capture *c,
			       const char *raw_sha, const char *restart_sha)
{
	static const char *const commands[] = {
		"ea_non_iid -i -a -v raw.bin 8",
		"ea_iid -i -a -v raw.bin 8",
		"ea_restart -n -v restart.bin 8 H_I",
	};
	size_t i;

	fdc_json_key("files");
	fdc_json_object();
	fdc_json_key("raw");
	fdc_json_object();
	fdc_json_key("file");
	fdc_json_str("raw.bin");
	fdc_json_key("samples");
	fdc_json_u64(c->done);
	fdc_json_key("bits_per_symbol");
	fdc_json_u64(8);
	fdc_json_key("layout");
	fdc_json_str(FDC_RAW_LAYOUT);
	fdc_json_key("sha256");
	fdc_json_str(raw_sha);
	fdc_json_close();
	fdc_json_key("restart");
	fdc_json_object();
	fdc_json_key("file");
	fdc_json_str("restart.bin");
	fdc_json_key("restarts");
	fdc_json_u64(FDC_RESTARTS);
	fdc_json_key("samples_per_restart");
	fdc_json_u64(FDC_RESTART_SAMPLES);
	fdc_json_key("bits_per_symbol");
	fdc_json_u64(8);
	fdc_json_key("layout");
	fdc_json_str(FDC_RESTART_LAYOUT);
	fdc_json_key("sha256");
	fdc_json_str(restart_sha);
	fdc_json_close();
	fdc_json_close();
	fdc_json_key("commands");
	fdc_json_array();
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fdc_json_str(commands[i]);
	fdc_json_close();
	fdc_json_key("h_i");
	fdc_json_str(FDC_H_I);
}

/*
 * Write a sidecar into a temporary file beside @path, to be renamed over
 * it by fdc_sidecar_commit(): @tmp receives its name.
 */
static int fdc_sidecar_write(struct fdc_capture *c, const char *path,
			     const char *file, const char *raw_sha,
			     const char *restart_sha, char *tmp, size_t size)
{
	const char *slash = strrchr(path, '/');
	int fd, err = 0;
	FILE *f;

	if (slash)
		snprintf(tmp, size, "%.*s/.fairdie-json-XXXXXX",
			 (int)(slash - path), path);
	else
		snprintf(tmp, size, ".fairdie-json-XXXXXX");
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		fdc_err("collect: %s: %s", fdc_quote(path), strerror(err));
		return -1;
	}
	fchmod(fd, 0644);
	fdc_json_schema("collect");
	fdc_json_begin(f);
	fdc_json_common(c);
	if (c->stage == FDC_STAGE_SP800_90B)
		fdc_json_sp800_90b(c, raw_sha, restart_sha);
	else
		fdc_json_stage(c, file);
	fdc_json_end(0);
	if (fflush(f) || ferror(f) || fsync(fd))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno;
	if (err) {
		unlink(tmp);
		fdc_err("collect: %s: %s", fdc_quote(path), strerror(err));
		return -1;
	}
	return 0;
}

static int fdc_sidecar_commit(const char *tmp, const char *path, bool ok)
{
	if (!ok) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		fdc_err("collect: %s: %s", fdc_quote(path), strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The runs
 */

/* Open the device, apply the options, read what the file is set to. */
static int fdc_collect_open(struct fdc_capture *c, const struct fdc_config *cfg)
{
	if (fdc_engine_open(&c->eng, cfg))
		return -1;
	if (!fdc_source_is_device(&c->eng.src)) {
#ifdef FDC_FAKE_DEVICE
		/* The tests' stand-in rolls dice, through the engine. */
		if (c->stage == FDC_STAGE_FINAL) {
			c->fake = true;
			return 0;
		}
#endif
		fdc_err("collect: %s is not the device", c->eng.src.name);
		fdc_engine_close(&c->eng);
		return -1;
	}
	if (fdc_device_ioctl(&c->eng.src, FAIRDIE_IOC_GET_SOURCE, &c->source,
			     "GET_SOURCE") ||
	    fdc_device_ioctl(&c->eng.src, FAIRDIE_IOC_GET_EXTRACTOR,
			     &c->extractor, "GET_EXTRACTOR") ||
	    fdc_device_ioctl(&c->eng.src, FAIRDIE_IOC_GET_SIM, &c->sim,
			     "GET_SIM")) {
		fdc_engine_close(&c->eng);
		return -1;
	}
	return 0;
}

static void fdc_collect_digest(struct fdc_capture *c, char *hex)
{
	u8 d[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_digest(&c->sha, sizeof(d), d);
	for (i = 0; i < sizeof(d); i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
}

/* One stage into -o FILE and FILE.json. */
static int fdc_collect_stage(struct fdc_capture *c,
			     const struct fdc_config *cfg)
{
	char json[PATH_MAX + 8], tmp[PATH_MAX + 32];
	u64 *words = NULL;
	u8 *buf = NULL;
	bool ok, keep;
	int ret;
	__u64 sides;

	if (fdc_collect_open(c, cfg))
		return FDC_EXIT_FAILURE;
	if (c->stage == FDC_STAGE_CONDITIONED &&
	    c->extractor == FAIRDIE_EXT_DIJKSTRA) {
		fdc_err("collect: the dijkstra extractor has no fair-bit stage: capture --stage final, or choose another --extractor");
		fdc_engine_close(&c->eng);
		return FDC_EXIT_USAGE;
	}
	if (c->wdie.count && !c->fake && c->extractor == FAIRDIE_EXT_DIJKSTRA) {
		fdc_err("collect: the dijkstra extractor draws no weighted dice: choose another --extractor");
		fdc_engine_close(&c->eng);
		return FDC_EXIT_USAGE;
	}
	if (snprintf(json, sizeof(json), "%s.json", c->path) >=
	    (int)sizeof(json)) {
		fdc_err("collect: %s: %s", fdc_quote(c->path),
			strerror(ENAMETOOLONG));
		fdc_engine_close(&c->eng);
		return FDC_EXIT_FAILURE;
	}
	if (!c->fake && c->wdie.count) {
		struct fairdie_weights w = {
			.weights = (uintptr_t)c->wdie.weights,
			.count = c->wdie.count,
		};

		if (fdc_device_ioctl(&c->eng.src, FAIRDIE_IOC_SET_WEIGHTS, &w,
				     "SET_WEIGHTS")) {
			fdc_engine_close(&c->eng);
			return FDC_EXIT_FAILURE;
		}
	} else if (!c->fake && (c->stage == FDC_STAGE_CONDITIONED ||
				(c->stage == FDC_STAGE_FINAL && !c->deck))) {
		sides = c->stage == FDC_STAGE_CONDITIONED ? 256 : c->sides;
		if (fdc_device_ioctl(&c->eng.src, FAIRDIE_IOC_SET_SIDES,
				     &sides, "SET_SIDES")) {
			fdc_engine_close(&c->eng);
			return FDC_EXIT_FAILURE;
		}
	}
	buf = malloc(FDC_COLLECT_CHUNK > 8 * FAIRDIE_RAW_MAX_WORDS ?
		     FDC_COLLECT_CHUNK : 8 * FAIRDIE_RAW_MAX_WORDS);
	words = malloc(FAIRDIE_RAW_MAX_WORDS * sizeof(*words));
	if (!buf || !words) {
		fdc_err("out of memory");
		ret = FDC_EXIT_FAILURE;
		goto out;
	}
	c->out = fdc_output_open("collect", c->path);
	if (!c->out) {
		ret = FDC_EXIT_FAILURE;
		goto out;
	}
	fdc_progress_output(NULL);
	sha256_init(&c->sha);
	ok = !fdc_snapshot(c, &c->before);
	fdc_progress("collect", 0, c->deck ? c->count * c->deck : c->count);
	if (ok) {
		switch (c->stage) {
		case FDC_STAGE_RAW:
			ok = !fdc_collect_raw(c, words, buf);
			break;
		case FDC_STAGE_CONDITIONED:
			ok = !fdc_collect_conditioned(c, buf);
			break;
		default:
			ok = c->deck ? !fdc_collect_decks(c, buf) :
				       !fdc_collect_rolls(c, buf);
			break;
		}
	}
	fdc_progress_end();
	/* A failure of the device may keep its capture; others never. */
	keep = ok || (c->keep_partial && c->error[0]);
	if (fdc_snapshot(c, &c->after))
		keep = false;
	fdc_collect_digest(c, c->digest);
	if (keep && fdc_sidecar_write(c, json, c->path, NULL, NULL, tmp,
				      sizeof(tmp)))
		keep = false;
	if (fdc_output_close("collect", c->out, keep) != FDC_EXIT_OK ||
	    (keep && fdc_sidecar_commit(tmp, json, true)))
		keep = false;
	/* Success is a whole capture, kept with its sidecar. */
	ok = ok && keep;
	ret = ok ? FDC_EXIT_OK : FDC_EXIT_FAILURE;
out:
	free(buf);
	free(words);
	fdc_engine_close(&c->eng);
	return ret;
}

/* --sp800-90b DIR: raw.bin, restart.bin, then sp800-90b.json. */
static int fdc_collect_sp800_90b(struct fdc_capture *c,
				 const struct fdc_config *cfg)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	char raw_sha[2 * SHA256_DIGEST_SIZE + 1];
	u64 *words = NULL, samples, n;
	u8 *buf = NULL;
	struct stat st;
	int ret = FDC_EXIT_FAILURE, i;
	bool ok;
	u32 flags;

	if (strlen(c->path) > PATH_MAX - 32) {
		fdc_err("collect: %s: %s", fdc_quote(c->path),
			strerror(ENAMETOOLONG));
		return FDC_EXIT_FAILURE;
	}
	/* The device first: no empty folder is left when it is missing. */
	if (fdc_collect_open(c, cfg))
		return FDC_EXIT_FAILURE;
	if (mkdir(c->path, 0777) && (errno != EEXIST || stat(c->path, &st) ||
				     !S_ISDIR(st.st_mode))) {
		fdc_err("collect: %s: %s", fdc_quote(c->path),
			strerror(errno == EEXIST ? ENOTDIR : errno));
		goto out;
	}
	buf = malloc(8 * FAIRDIE_RAW_MAX_WORDS);
	words = malloc(FAIRDIE_RAW_MAX_WORDS * sizeof(*words));
	if (!buf || !words) {
		fdc_err("out of memory");
		goto out;
	}
	fdc_progress_output(NULL);
	if (fdc_snapshot(c, &c->before))
		goto out;

	/* raw.bin: the bytes of the words of one run, COUNT of them. */
	snprintf(path, sizeof(path), "%s/raw.bin", c->path);
	c->out = fdc_output_open("collect", path);
	if (!c->out)
		goto out;
	sha256_init(&c->sha);
	ok = true;
	flags = FAIRDIE_RAW_RESTART;
	fdc_progress("collect raw.bin", 0, c->count);
	while (ok && c->done < c->count) {
		samples = c->count - c->done;
		if (samples > 8ULL * FAIRDIE_RAW_MAX_WORDS)
			samples = 8ULL * FAIRDIE_RAW_MAX_WORDS;
		n = (samples + 7) / 8;
		ok = !fdc_collect_get_raw(c, words, n, flags, c->done,
					  "samples");
		flags = 0;
		if (!ok)
			break;
		fdc_collect_le64(buf, words, n);
		fdc_collect_put(c, buf, samples);
		c->done += samples;
		fdc_progress("collect raw.bin", c->done & ~4095ULL, c->count);
	}
	fdc_progress_end();
	fdc_collect_digest(c, raw_sha);
	if (fdc_output_close("collect", c->out, ok) != FDC_EXIT_OK)
		goto out;

	/* restart.bin: a row of samples after each restart. */
	snprintf(path, sizeof(path), "%s/restart.bin", c->path);
	c->out = fdc_output_open("collect", path);
	if (!c->out)
		goto out;
	sha256_init(&c->sha);
	fdc_progress("collect restart.bin", 0,
		     FDC_RESTARTS * FDC_RESTART_SAMPLES);
	for (i = 0; ok && i < FDC_RESTARTS; i++) {
		ok = !fdc_collect_get_raw(c, words, FDC_RESTART_SAMPLES / 8,
					  FAIRDIE_RAW_RESTART, i, "restarts");
		if (!ok)
			break;
		fdc_collect_le64(buf, words, FDC_RESTART_SAMPLES / 8);
		fdc_collect_put(c, buf, FDC_RESTART_SAMPLES);
		fdc_progress("collect restart.bin",
			     ((u64)(i + 1) * FDC_RESTART_SAMPLES) & ~4095ULL,
			     FDC_RESTARTS * FDC_RESTART_SAMPLES);
	}
	fdc_progress_end();
	fdc_collect_digest(c, c->digest);
	if (fdc_output_close("collect", c->out, ok) != FDC_EXIT_OK)
		goto out;
	if (fdc_snapshot(c, &c->after))
		goto out;

	snprintf(path, sizeof(path), "%s/sp800-90b.json", c->path);
	if (fdc_sidecar_write(c, path, NULL, raw_sha, c->digest, tmp,
			      sizeof(tmp)) ||
	    fdc_sidecar_commit(tmp, path, true))
		goto out;
	ret = FDC_EXIT_OK;
out:
	free(buf);
	free(words);
	fdc_engine_close(&c->eng);
	return ret;
}

/**
 * fdc_cmd_collect() - fairdie collect
 * @cfg: the global options
 * @argc: argument count, argv[0] being "collect"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_collect(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_capture *c;
	const char *stage = NULL, *dir = NULL, *out = NULL;
	const char *weights = NULL;
	bool have_count = false, keep_partial = false;
	u64 count = 0, deck = 0;
	int opt, ret, i;

	while ((opt = fdc_getopt(cfg, argc, argv, "n:o:h",
				 fdc_collect_opts)) != -1) {
		switch (opt) {
		case FDC_OPT_STAGE:
			stage = optarg;
			break;
		case FDC_OPT_SP800_90B:
			if (!*optarg) {
				fdc_err("collect: invalid --sp800-90b '': expected a folder");
				return FDC_EXIT_USAGE;
			}
			dir = optarg;
			break;
		case 'n':
			if (fdc_parse_count("collect", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			have_count = true;
			break;
		case FDC_OPT_SHUFFLE:
			if (fdc_parse_count("collect", "--shuffle", optarg, 1,
					    FDC_COLLECT_MAX_DECK, &deck))
				return FDC_EXIT_USAGE;
			break;
		case 'o':
			if (!*optarg) {
				fdc_err("collect: invalid -o '': expected a file");
				return FDC_EXIT_USAGE;
			}
			out = optarg;
			break;
		case FDC_OPT_KEEP_PARTIAL:
			keep_partial = true;
			break;
		case FDC_OPT_WEIGHTS:
			weights = optarg;
			break;
		case 'h':
			fdc_help(fdc_collect_help);
			return fdc_finish_output();
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("collect: unexpected argument '%s'",
			fdc_quote(argv[optind]));
		return FDC_EXIT_USAGE;
	}
	/* The device is what is captured: no other source of bits. */
	if (cfg->source_opt && cfg->user_source != FDC_USRC_DEVICE) {
		fdc_err("collect: captures the device: --seed, --random-source and --source=getrandom do not apply");
		return FDC_EXIT_USAGE;
	}
	cfg->user_source = FDC_USRC_DEVICE;
	if (!stage == !dir) {
		fdc_err("collect: give --stage STAGE -o FILE, or --sp800-90b DIR (try 'fairdie collect --help')");
		return FDC_EXIT_USAGE;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	c->keep_partial = keep_partial;
	ret = FDC_EXIT_USAGE;
	if (dir) {
		if (out || deck || cfg->sides || weights || c->keep_partial) {
			fdc_err("collect: --sp800-90b takes none of -o, --shuffle, --sides, --weights and --keep-partial");
			goto out;
		}
		c->stage = FDC_STAGE_SP800_90B;
		c->path = dir;
		c->count = have_count ? count : FDC_COLLECT_COUNT;
		ret = fdc_collect_sp800_90b(c, cfg);
		goto out;
	}
	for (i = 0; i < FDC_STAGE_SP800_90B; i++)
		if (!strcmp(stage, fdc_stage_names[i]))
			break;
	if (i == FDC_STAGE_SP800_90B) {
		fdc_err("collect: invalid --stage '%s': expected raw, conditioned or final",
			fdc_quote(stage));
		goto out;
	}
	c->stage = i;
	if (!out) {
		fdc_err("collect: --stage %s needs -o FILE", stage);
		goto out;
	}
	if (c->stage != FDC_STAGE_FINAL && (deck || cfg->sides || weights)) {
		fdc_err("collect: --sides, --weights and --shuffle are for --stage final");
		goto out;
	}
	if (!!deck + !!cfg->sides + !!weights > 1) {
		fdc_err("collect: --sides, --weights and --shuffle exclude each other");
		goto out;
	}
	if (weights) {
		u64 *w = NULL;
		u32 n = fdc_parse_weights("collect", weights, &w);
		int err = !n || fdc_wdie_init(&c->wdie, w, n);

		free(w);
		if (err)
			goto out;
		cfg->sides = c->wdie.count;
	}
	if (c->stage == FDC_STAGE_CONDITIONED &&
	    cfg->extractor == FAIRDIE_EXT_DIJKSTRA) {
		fdc_err("collect: the dijkstra extractor has no fair-bit stage: capture --stage final, or choose another --extractor");
		goto out;
	}
	c->path = out;
	c->deck = deck;
	c->count = have_count ? count :
		   deck ? FDC_COLLECT_DECKS : FDC_COLLECT_COUNT;
	if (deck && c->count > FDC_MAX_COUNT / deck) {
		fdc_err("collect: %llu decks of %llu cards are too many",
			(unsigned long long)c->count,
			(unsigned long long)deck);
		goto out;
	}
	c->sides = cfg->sides ? cfg->sides : 6;
	c->width = c->stage == FDC_STAGE_RAW ? 8 :
		   c->stage == FDC_STAGE_CONDITIONED ? 1 :
		   deck ? deck : fd_roll_width(c->sides);
	/* The die is the stage's: the device is opened without it. */
	cfg->sides = 0;
	ret = fdc_collect_stage(c, cfg);
out:
	fdc_wdie_free(&c->wdie);
	free(c);
	return ret;
}
