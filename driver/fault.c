// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - fault injection into the hardware sources (test builds only).
 *
 * In the way of the kernel's fault injection capabilities
 * (Documentation/fault-injection/), a debugfs directory,
 * /sys/kernel/debug/fairdie/, holds the knobs; every try of RDSEED or RDRAND
 * (the sources selected by "sources"), from open files and from the hwrng
 * alike, consults them, the first that applies winning:
 *
 *   underflow_ms  every try fails (the instruction underflows, CF = 0) for
 *                 this many milliseconds from the write; 0 stops it
 *   underflow_permille
 *                 each try fails with probability N/1000 (1000 or more:
 *                 every try), at random: a slow source, as RDSEED is when
 *                 its conditioner cannot keep up; 0 stops it
 *   starve_pid    every try by this process fails, others' succeed: one
 *                 reader starved while others are served; 0 stops it
 *   flaky         N > 1: only every N-th try (counted over all readers)
 *                 goes on to the knobs below or the instruction, the others
 *                 fail, as under contention from other CPUs; 0 stops it
 *   stuck         1: every try delivers the same word, FAIRDIE_FAULT_WORD
 *   zeros         1: every try delivers 0 with success, as the RDSEED of
 *                 some AMD Zen 5 processors does (erratum, CF = 1)
 *   bias          "num/den": every try delivers a word whose bits are 1
 *                 with probability num/den (the simulated coin of fd_sim.c,
 *                 freshly seeded); "0" stops it
 *   sources       bit mask of the sources affected, 1 << FAIRDIE_SRC_RDSEED
 *                 | 1 << FAIRDIE_SRC_RDRAND by default
 *   absent        bit mask of hardware sources reported absent, as on a CPU
 *                 without them: GET_INFO, SET_SOURCE and AUTO see the rest
 *   injected      (read only) tries answered by an injected fault so far
 * and knobs that break the driver on purpose, so that a test can show it
 * would catch the bug:
 *   lose_wakeup   1: the read or ioctl that frees an open file does not
 *                 wake its pollers
 *   ahead_lag     1: the fetchers of driver/ahead.c put nothing in their
 *                 rings, as when their CPU is taken: readers must give up
 *                 waiting for them within the bound (ahead_lags rises)
 *   modulo_bias   N > 0: reads of a fair die (not a weighted one, not
 *                 DIJKSTRA) make each roll from N fair bits, at least the
 *                 bits that hold sides - 1 and at most 64, reduced modulo
 *                 sides without rejection: the classic wrong scaling (1 on
 *                 a d6: 3 bits, faces 1 and 2 twice as likely as the
 *                 others; 8: a byte, 43/256 against 42/256); 0 stops it
 *
 * See Documentation/admin-guide/fairdie.rst, "Fault injection".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "fairdie.h"
#include "fault.h"
#include "fd_sim.h"

/* The stuck word: balanced, with short runs, so only its repetition shows. */
#define FAIRDIE_FAULT_WORD	0x9e3779b97f4a7c15ULL

static struct dentry *fairdie_fault_dir;
static u32 fairdie_fault_sources = BIT(FAIRDIE_SRC_RDSEED) |
				   BIT(FAIRDIE_SRC_RDRAND);
static bool fairdie_fault_stuck;
static bool fairdie_fault_zeros;
static bool fairdie_fault_lose;
static u32 fairdie_fault_modulo;
static bool fairdie_fault_ahead_lag;
static atomic_t fairdie_fault_injected = ATOMIC_INIT(0);
static u32 fairdie_fault_underflow_permille;
static u32 fairdie_fault_starve_pid;
static u32 fairdie_fault_absent_mask;
static u32 fairdie_fault_flaky;
static atomic_t fairdie_fault_flaky_tries = ATOMIC_INIT(0);
/* Underflow until this jiffy, while fairdie_fault_underflow is set. */
static u64 fairdie_fault_underflow;
static unsigned long fairdie_fault_underflow_end;

/* The biased coin. */
static DEFINE_SPINLOCK(fairdie_fault_lock);	/* protects the three below */
static bool fairdie_fault_biased;
static struct fairdie_sim fairdie_fault_bias_cfg;
static struct fd_sim fairdie_fault_coin;

/* A try that underflow_permille makes fail. */
static bool fairdie_fault_slow(void)
{
	u32 permille = READ_ONCE(fairdie_fault_underflow_permille);

	return permille &&
	       (u32)(((u64)get_random_u32() * 1000) >> 32) < permille;
}

/**
 * fairdie_fault_once() - an injected outcome for one try of an instruction
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @word: receives the word delivered, if any
 * @ok: receives whether the try succeeded
 *
 * Return: true when a fault decided the try (*@ok and *@word set), false
 * when the real instruction is to be used.
 */
bool fairdie_fault_once(u32 source, u64 *word, bool *ok)
{
	u32 flaky = READ_ONCE(fairdie_fault_flaky);

	if (!(READ_ONCE(fairdie_fault_sources) & BIT(source)))
		return false;
	if (READ_ONCE(fairdie_fault_underflow) &&
	    time_before(jiffies, READ_ONCE(fairdie_fault_underflow_end))) {
		*ok = false;
	} else if (fairdie_fault_slow()) {
		*ok = false;
	} else if (READ_ONCE(fairdie_fault_starve_pid) &&
		   READ_ONCE(fairdie_fault_starve_pid) ==
		   (u32)task_tgid_nr(current)) {
		*ok = false;
	} else if (flaky > 1 &&
		   (u32)atomic_inc_return(&fairdie_fault_flaky_tries) % flaky) {
		*ok = false;
	} else if (READ_ONCE(fairdie_fault_stuck)) {
		*word = FAIRDIE_FAULT_WORD;
		*ok = true;
	} else if (READ_ONCE(fairdie_fault_zeros)) {
		*word = 0;
		*ok = true;
	} else if (READ_ONCE(fairdie_fault_biased)) {
		spin_lock(&fairdie_fault_lock);
		*word = fd_sim_word(&fairdie_fault_coin);
		*ok = fairdie_fault_biased;
		spin_unlock(&fairdie_fault_lock);
		if (!*ok)
			return false;
	} else {
		return false;
	}
	atomic_inc(&fairdie_fault_injected);
	return true;
}

/**
 * fairdie_fault_bypass() - whether words fetched ahead would hide a fault
 * @source: enum fairdie_source
 *
 * While a knob changes what @source gives (for the current task:
 * starve_pid aims at one process), its readers run the instruction
 * themselves and the fetcher (driver/ahead.c) keeps nothing, so that every
 * test sees its fault at once, as without a fetcher.
 *
 * Return: true while one is set.
 */
bool fairdie_fault_bypass(u32 source)
{
	u32 pid = READ_ONCE(fairdie_fault_starve_pid);

	if (!(READ_ONCE(fairdie_fault_sources) & BIT(source)))
		return false;
	return (READ_ONCE(fairdie_fault_underflow) &&
		time_before(jiffies, READ_ONCE(fairdie_fault_underflow_end))) ||
	       READ_ONCE(fairdie_fault_underflow_permille) ||
	       (pid && pid == (u32)task_tgid_nr(current)) ||
	       READ_ONCE(fairdie_fault_flaky) > 1 ||
	       READ_ONCE(fairdie_fault_stuck) || READ_ONCE(fairdie_fault_zeros) ||
	       READ_ONCE(fairdie_fault_biased);
}

/**
 * fairdie_fault_absent() - the hardware sources to report absent
 *
 * Return: a bitmask of (1 << FAIRDIE_SRC_x), RDSEED and RDRAND only.
 */
u32 fairdie_fault_absent(void)
{
	return READ_ONCE(fairdie_fault_absent_mask) &
	       (BIT(FAIRDIE_SRC_RDSEED) | BIT(FAIRDIE_SRC_RDRAND));
}

/**
 * fairdie_fault_ahead_lags() - whether the fetchers are to fetch nothing
 *
 * Return: true while the ahead_lag knob is set.
 */
bool fairdie_fault_ahead_lags(void)
{
	return READ_ONCE(fairdie_fault_ahead_lag);
}

/**
 * fairdie_fault_lose_wakeup() - whether freeing a file skips waking pollers
 *
 * Return: true while the lose_wakeup knob is set.
 */
bool fairdie_fault_lose_wakeup(void)
{
	return READ_ONCE(fairdie_fault_lose);
}

/**
 * fairdie_fault_modulo_bits() - the fair bits a roll of a fair die takes
 *	under the modulo_bias knob
 * @sides: the die's number of faces
 *
 * Return: 0 when the knob is off (or @sides is 1: nothing to draw); else
 * the knob's value, raised to the bits that hold @sides - 1, at most 64.
 */
u32 fairdie_fault_modulo_bits(u64 sides)
{
	u32 n = READ_ONCE(fairdie_fault_modulo), need;

	if (!n || sides < 2)
		return 0;
	need = fls64(sides - 1);
	return min_t(u32, max(n, need), 64);
}

/**
 * fairdie_fault_modulo_roll() - a roll made the wrong way: @bits fair bits
 *	modulo @sides, without rejection (the modulo_bias knob)
 * @p: the file's pipeline, with an extractor other than DIJKSTRA
 * @ops: its source
 * @ctx: passed to @ops
 * @nonblock: the source must not wait
 * @sides: the die's faces, at least 2
 * @bits: from fairdie_fault_modulo_bits(@sides)
 * @out: the roll, in [0, @sides), biased unless @sides divides 2^@bits
 *
 * Return: as fd_pipe_roll().
 */
int fairdie_fault_modulo_roll(struct fd_pipe *p,
			      const struct fd_source_ops *ops, void *ctx,
			      bool nonblock, u64 sides, u32 bits, u64 *out)
{
	u64 w, rem;
	int err;

	if (p->pool.count >= bits) {
		w = fd_pool_take(&p->pool, bits);
		p->sampler.bits += bits;
	} else {
		err = fd_pipe_fair64(p, ops, ctx, nonblock, &w);
		if (err)
			return err;
		/* The bits not needed serve the next rolls. */
		if (bits < 64 && fd_pool_room(&p->pool) >= 64 - bits) {
			fd_pool_put(&p->pool, w >> bits, 64 - bits);
			p->sampler.bits -= 64 - bits;
		}
		if (bits < 64)
			w &= (1ULL << bits) - 1;
	}
	div64_u64_rem(w, sides, &rem);
	*out = rem;
	return 0;
}

static int fairdie_fault_underflow_get(void *data, u64 *val)
{
	*val = READ_ONCE(fairdie_fault_underflow);
	return 0;
}

static int fairdie_fault_underflow_set(void *data, u64 val)
{
	if (val > UINT_MAX)
		return -EINVAL;
	WRITE_ONCE(fairdie_fault_underflow_end,
		   jiffies + msecs_to_jiffies(val));
	WRITE_ONCE(fairdie_fault_underflow, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(fairdie_fault_underflow_fops,
			 fairdie_fault_underflow_get,
			 fairdie_fault_underflow_set, "%llu\n");

static ssize_t fairdie_fault_bias_read(struct file *file, char __user *buf,
				       size_t len, loff_t *ppos)
{
	char tmp[48];
	int n;

	spin_lock(&fairdie_fault_lock);
	if (fairdie_fault_biased)
		n = scnprintf(tmp, sizeof(tmp), "%llu/%llu\n",
			      fairdie_fault_bias_cfg.p1_num,
			      fairdie_fault_bias_cfg.p1_den);
	else
		n = scnprintf(tmp, sizeof(tmp), "0\n");
	spin_unlock(&fairdie_fault_lock);
	return simple_read_from_buffer(buf, len, ppos, tmp, n);
}

static ssize_t fairdie_fault_bias_write(struct file *file,
					const char __user *buf, size_t len,
					loff_t *ppos)
{
	struct fairdie_sim cfg = { .seed = get_random_u64() };
	struct fd_sim coin;
	char tmp[48];
	bool on;

	if (len >= sizeof(tmp))
		return -EINVAL;
	if (copy_from_user(tmp, buf, len))
		return -EFAULT;
	tmp[len] = '\0';
	if (sscanf(tmp, "%llu/%llu", &cfg.p1_num, &cfg.p1_den) == 2) {
		if (!fd_sim_init(&coin, cfg.seed, cfg.p1_num, cfg.p1_den))
			return -EINVAL;
		on = true;
	} else if (sysfs_streq(tmp, "0")) {
		on = false;
	} else {
		return -EINVAL;
	}
	spin_lock(&fairdie_fault_lock);
	if (on) {
		fairdie_fault_bias_cfg = cfg;
		fairdie_fault_coin = coin;
	}
	WRITE_ONCE(fairdie_fault_biased, on);
	spin_unlock(&fairdie_fault_lock);
	return len;
}

static const struct file_operations fairdie_fault_bias_fops = {
	.owner = THIS_MODULE,
	.read = fairdie_fault_bias_read,
	.write = fairdie_fault_bias_write,
	.llseek = default_llseek,
};

/**
 * fairdie_fault_init() - create the knobs in debugfs
 *
 * Return: 0; a missing debugfs only leaves the knobs out.
 */
int fairdie_fault_init(void)
{
	struct dentry *d = debugfs_create_dir(KBUILD_MODNAME, NULL);

	fairdie_fault_dir = d;
	debugfs_create_file_unsafe("underflow_ms", 0600, d, NULL,
				   &fairdie_fault_underflow_fops);
	debugfs_create_u32("underflow_permille", 0600, d,
			   &fairdie_fault_underflow_permille);
	debugfs_create_u32("starve_pid", 0600, d, &fairdie_fault_starve_pid);
	debugfs_create_u32("flaky", 0600, d, &fairdie_fault_flaky);
	debugfs_create_bool("stuck", 0600, d, &fairdie_fault_stuck);
	debugfs_create_bool("zeros", 0600, d, &fairdie_fault_zeros);
	debugfs_create_file("bias", 0600, d, NULL, &fairdie_fault_bias_fops);
	debugfs_create_x32("sources", 0600, d, &fairdie_fault_sources);
	debugfs_create_x32("absent", 0600, d, &fairdie_fault_absent_mask);
	debugfs_create_atomic_t("injected", 0400, d, &fairdie_fault_injected);
	debugfs_create_bool("lose_wakeup", 0600, d, &fairdie_fault_lose);
	debugfs_create_bool("ahead_lag", 0600, d, &fairdie_fault_ahead_lag);
	debugfs_create_u32("modulo_bias", 0600, d, &fairdie_fault_modulo);
	pr_info("fault injection built in: %s/%s\n", "/sys/kernel/debug",
		KBUILD_MODNAME);
	return 0;
}

/**
 * fairdie_fault_exit() - remove the knobs
 */
void fairdie_fault_exit(void)
{
	debugfs_remove_recursive(fairdie_fault_dir);
	fairdie_fault_dir = NULL;
}
