/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - exactly fair dice from the CPU's hardware random number generator
 *
 * Definitions shared by the files of the module (not by userspace: that is
 * uapi/linux/fairdie.h, and the algorithms under driver/fd_*.c).
 */
#ifndef _FAIRDIE_H
#define _FAIRDIE_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/fairdie.h>

#include "fd_pipe.h"
#include "fd_sim.h"
#include "fd_well.h"

/* The number of sources and formats (kept out of the ABI, which may grow). */
#define FAIRDIE_SOURCES		(FAIRDIE_SRC_SIM + 1)
#define FAIRDIE_FORMATS		(FAIRDIE_FMT_TEXT + 1)

/* The wells: RDSEED and RDRAND, each with every extractor. */
#define FAIRDIE_WELLS		(2 * FD_EXTRACTORS)

/* Output staged for userspace: at most this many bytes per refill. */
#define FAIRDIE_STAGE_BYTES	512

struct fairdie_well;

/**
 * struct fairdie_raw_state - the raw words of FAIRDIE_IOC_GET_RAW
 *	(driver/raw.c): health tests of their own, never the well's nor those
 *	of the file's reads
 * @health: the continuous health tests of the words handed out
 * @source: the source they judge (FAIRDIE_SRC_x); FAIRDIE_SRC_AUTO, never
 *	a resolved source, when the next call must start it afresh
 * @extractor: the extractor whose tolerated bias they judge against
 * @startup: words still to test and discard: the start-up test
 * @failed: the tests failed; calls fail with EIO until a restart
 */
struct fairdie_raw_state {
	struct fd_health health;
	u32 source;
	u32 extractor;
	u32 startup;
	bool failed;
};

/**
 * struct fairdie_file - everything one open file of /dev/fairdie owns
 * @lock: serialises readers and ioctls of the file
 * @sides: number of faces (of @weights, when set)
 * @extractor: enum fairdie_extractor
 * @source: enum fairdie_source, resolved (never FAIRDIE_SRC_AUTO)
 * @format: enum fairdie_format
 * @width: bytes per roll in the binary format
 * @failed: the health tests failed; reads fail with EIO until RESET
 * @failed_hw: @failed, for a hardware source: counted in the device-wide
 *	failed_files
 * @sim_cfg: the simulated coin as set by FAIRDIE_IOC_SET_SIM
 * @sim: its generator
 * @pipe: source words -> health tests -> extractor -> sampler; it also
 *	holds the source, extracted and sampler bit counters
 * @stage: output made but not yet copied to userspace
 * @stage_pos: first byte of @stage not yet copied
 * @stage_len: bytes held in @stage
 * @stage_text: @stage holds text lines (else whole binary rolls)
 * @stage_tail: @stage holds only the rest of a text line already begun
 *	(kept across a configuration change, see fairdie_drop_unread())
 * @wait: poll() waits here for the lock, or for a dry source, to free up
 * @dry_timer: ends @dry
 * @dry: a non-blocking read just found the source dry (EAGAIN); poll()
 *	reports the file not readable until @dry_timer fires
 * @well: the device-wide well of a hardware source and the extractor,
 *	NULL for CRNG and SIM, whose pipeline is all the file's own
 * @client: the file's record of @well, and its place in the well's queue;
 *	its generation is the VM fork generation that the buffered bits, the
 *	sampler's state, @stage and @crng were made in (driver/vmfork.c), with
 *	or without a well
 * @uid: the opener, whose share of the hardware sources the file takes
 * @party: the opener in its cgroup: the file's share of the wells is its
 *	party's, and its reads count against the user's user_rate
 *	(driver/share.c)
 * @stats: the other counters of FAIRDIE_IOC_GET_STATS
 * @crng: words of the kernel CRNG fetched in one call, not used yet
 * @crng_pos: the next word of @crng to use; all used at
 *	ARRAY_SIZE(@crng)
 * @weights: the weighted die of FAIRDIE_IOC_SET_WEIGHTS, its table in the
 *	same allocation, charged to the opener; NULL for a fair die
 * @raw: the state of FAIRDIE_IOC_GET_RAW
 */
struct fairdie_file {
	struct mutex lock;	/* protects every field below */
	u64 sides;
	u32 extractor;
	u32 source;
	u32 format;
	u32 width;
	bool failed;
	bool failed_hw;
	struct fairdie_sim sim_cfg;
	struct fd_sim sim;
	struct fd_pipe pipe;
	u8 stage[FAIRDIE_STAGE_BYTES] __aligned(8);
	u32 stage_pos;
	u32 stage_len;
	bool stage_text;
	bool stage_tail;
	wait_queue_head_t wait;
	struct timer_list dry_timer;
	bool dry;
	struct fairdie_well *well;
	struct fd_well_client client;
	kuid_t uid;
	struct fairdie_party *party;
	struct fairdie_stats stats;
	u64 crng[32];
	u32 crng_pos;
	struct fd_weights *weights;
	struct fairdie_raw_state raw;
};

/**
 * struct fairdie_counters - device-wide counters shown in sysfs, of the
 *	hardware sources only (RDSEED, RDRAND)
 * @source_bits: raw bits taken from them by any open file or the hwrng
 * @outputs: rolls made from them
 * @health_failures: their health test failures
 * @source_failures: reads that gave up because the source did not deliver
 * @open_files: files open now
 * @failed_files: open files whose hardware source failed its health tests
 */
struct fairdie_counters {
	atomic64_t source_bits;
	atomic64_t outputs;
	atomic64_t health_failures;
	atomic64_t source_failures;
	atomic_t open_files;
	atomic_t failed_files;
};

/* names.c */
extern struct fairdie_counters fairdie_counters;
const char *fairdie_source_name(u32 source);
int fairdie_source_parse(const char *name);
const char *fairdie_extractor_name(u32 extractor);
int fairdie_extractor_parse(const char *name);

/* source.c */
void fairdie_sources_probe(void);
u32 fairdie_sources_present(void);
u32 fairdie_source_resolve(u32 source);
int fairdie_source_word(void *ctx, bool nonblock, u64 *word);
bool fairdie_source_try(u32 source, u64 *word);
int fairdie_source_hw(u32 source, bool nonblock, const bool *served,
		      u64 *word, u64 *retries);
struct hwrng;
u64 fairdie_hwrng_deadline(void);
bool fairdie_hwrng_late(u64 deadline);
int fairdie_source_hwrng(struct hwrng *rng, u32 source, bool nonblock,
			 u64 deadline, u64 *word, u64 *retries);

/* ahead.c */
void fairdie_ahead_init(void);
void fairdie_ahead_exit(void);
u32 fairdie_ahead_take(u32 source, const bool *served, bool nonblock,
		       u64 *buf, u32 k);
u64 fairdie_ahead_words(u64 *stale, u64 *lags);

/* share.c */
struct fairdie_party;
struct fairdie_party *fairdie_party_get(kuid_t uid);
void fairdie_party_put(struct fairdie_party *pt);
struct fd_share_party *fairdie_party_sched(struct fairdie_party *pt,
					   u32 well);
int fairdie_user_wait(struct fairdie_party *pt, bool nonblock, u32 *allow);
void fairdie_user_charge(struct fairdie_party *pt, u64 bits);

/* file.c */
extern u64 fairdie_default_sides;
extern u32 fairdie_default_extractor;
extern u32 fairdie_default_source;
struct inode;
struct file;
struct poll_table_struct;
int fairdie_open(struct inode *inode, struct file *file);
int fairdie_release(struct inode *inode, struct file *file);
ssize_t fairdie_read(struct file *file, char __user *buf, size_t len,
		     loff_t *ppos);
__poll_t fairdie_poll(struct file *file, struct poll_table_struct *wait);
void fairdie_unlock(struct fairdie_file *f);
void fairdie_drop_unread(struct fairdie_file *f, bool forked);
void fairdie_flush(struct fairdie_file *f, bool forked);
void fairdie_restart_source(struct fairdie_file *f);

/* ioctl.c */
long fairdie_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* sysfs.c */
struct attribute_group;
extern const struct attribute_group *fairdie_groups[];

/* raw.c */
int fairdie_raw_fill(struct fairdie_file *f, u32 flags, u64 *words, u32 n);
void fairdie_raw_forget(struct fairdie_file *f);

/* well.c */
struct fairdie_well *fairdie_well_get(u32 source, u32 extractor);
void fairdie_well_join(struct fairdie_well *w,
		       struct fd_well_client *client,
		       struct fairdie_party *party);
int fairdie_well_fill(struct fairdie_well *w,
		      struct fd_well_client *client, u32 source,
		      const struct fd_source_ops *raw, void *ctx,
		      bool nonblock, struct fd_pipe *p);
void fairdie_well_end_read(struct fairdie_well *w,
			   struct fd_well_client *client);
void fairdie_well_giveback(struct fairdie_well *w,
			   struct fd_well_client *client,
			   struct fd_pipe *p);
void fairdie_well_wake(struct fd_well_client *c);
void fairdie_well_step_out(struct fairdie_well *w,
			   struct fd_well_client *client);
void fairdie_well_flush(struct fairdie_well *w, struct fd_well_client *client,
			struct fd_pipe *p, u64 sides, u32 extractor);
void fairdie_wells_init(void);
void fairdie_wells_exit(void);

/* hwrng.c */
/*
 * The most entropy credited per 1024 bits of RDRAND. RDRAND is the output of
 * a DRBG that its entropy source reseeds at least once every 511 outputs of
 * 128 bits: Intel's DRNG Software Implementation Guide ("Generating Seeds
 * from RDRAND") makes one 128-bit seed from 512 such outputs, that is 128
 * bits of entropy in 65536, or 2 in 1024.
 */
#define FAIRDIE_RDRAND_QUALITY	2
int fairdie_hwrng_register(u32 source, u16 quality);
void fairdie_hwrng_unregister(void);
const char *fairdie_hwrng_state(void);

/* trust.c */
bool fairdie_trust_cpu(void);

/* vmfork.c */
struct device_attribute;
extern struct device_attribute dev_attr_vm_forks;
u32 fairdie_vmfork_generation(void);
bool fairdie_vmfork_stale(u32 gen);
int fairdie_vmfork_init(void);
void fairdie_vmfork_exit(void);

#endif /* _FAIRDIE_H */
