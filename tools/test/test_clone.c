// SPDX-License-Identifier: GPL-2.0
/*
 * The clone rule of the wells (driver/fd_well.c): nothing made before a VM
 * fork reaches, after it, a well, a reader's output or the hwrng's.
 *
 * A model of the module's glue drives the real fd_well.c, fd_pipe.c and
 * the sampler: the fill of driver/well.c (fairdie_well_fill(), phase by
 * phase, its waits and fetches being the points where other things
 * happen), the read path of driver/main.c (its generation checks, staging,
 * copying, the end of a read), fairdie_well_flush() and giveback, RESET,
 * close() and the read loop of driver/hwrng.c. Keep it in step with them.
 *
 * Two readers share a well (NONE or VN): A, a die of 6, 3,000,000 (two
 * states) or 2^62 + 1 (128-bit state) sides, whose first read left bits in
 * its pool and its sampler, then reads two more rolls (blocking or not)
 * and ends by close(), or by RESET, a read and close(); or A closes at
 * once. B is nobody, a d6 reader, or the hwrng reading twice. Every order
 * of their steps up to 12 steps (CLONE_STEPS=N for more), with one
 * preemption of a running reader for the widest die and none for the
 * others (a reader asleep in the well may be passed at any time), with the
 * VM fork at any point and at most one signal to A in a read, is run.
 * Afterwards a fresh reader C reads 64 bits.
 *
 * The proof is by non-interference: each order is run twice, identical
 * until the fork; at the fork every bit held anywhere (the well's pool,
 * the readers' pools, samplers' states, batch digits, second states,
 * staged rolls, fetched words, the hwrng's bytes) is replaced by other
 * values of the same shape, different in the two runs. Everything
 * delivered after the fork (A's and B's rolls copied, the hwrng's bytes
 * returned, C's 64 bits) and the bits the well holds at the end must be the
 * same in both runs: none of them depends on a bit made before the fork.
 *
 * Controls, which must each be caught in some order: "keep", the fork does
 * not move the generation (the module's vmfork_keep knob); "restamp", the
 * glue stamps a reader with the current generation whenever the well is
 * begun or hands it bits, as fd_well_begin() and fd_well_hand() did before
 * (issue 28); "hwrng", the hwrng looks for a fork before each pass only,
 * not after the last, as hwrng.c did. Built once against the old
 * fd_well.c (main before the fix, with fd_well_flush() added), the proof
 * itself found 2,540 of 7,041 orders leaking.
 */
#include <string.h>

#include "fd_test.h"
#include "fd_well.h"

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

#define YIELD		(-EINPROGRESS)	/* the reader sleeps here */
#define STAGE		2		/* rolls staged at a time */
/*
 * 64-bit words a hwrng read asks for; its pipeline asks the well for one
 * at a time (the module asks for all), so that every pass, the last one
 * too, may wait in the well.
 */
#define HW_WORDS	2
#define MAX_STEPS	12
#define MAX_CHOICES	256
#define NS_STEP		1000000ULL

enum mode { MODE_FIX, MODE_KEEP, MODE_RESTAMP, MODE_HWTOP };

enum op { OP_READ, OP_RESET, OP_CLOSE, OP_HREAD, OP_END };

enum rstate { R_IDLE, R_TOP, R_STAGE, R_BLOCKED, R_CHECK, R_END,
	      H_LOOP, H_BLOCKED };

enum fphase { F_NONE, F_WAIT, F_FETCH, F_FEED };

struct reader {
	bool used, hwrng, nonblock, signal, resume;
	u64 sides;
	struct fd_well_client c;
	struct fd_pipe p;
	enum op ops[6];
	int op;
	enum rstate st;
	u32 want, done;
	u64 stage[STAGE];
	u32 stage_pos, stage_len;
	int err;
	/* the fill's locals, kept across its waits */
	enum fphase fp;
	u32 gen0, k, n;
	int serr;
	u64 buf[FD_WELL_CHUNK];
	/* the hwrng's read */
	u64 out[HW_WORDS];
	u32 hdone;
	/* what it delivered after the fork */
	u64 hash;
	u32 delivered;
};

static struct fd_well well;
static struct reader rd[3];	/* A, B, then C */
static enum mode mode;
static u32 gen;
static bool forked;
static u64 steps, pre_seed, post_seed, scramble_seed;
static u32 ext_now, sides_now, max_preempt, max_steps = MAX_STEPS;
static bool bad_estale;

/* ---- the choices of one run, enumerated depth first ---- */
static int choice[MAX_CHOICES], options[MAX_CHOICES], nchoice, depth;
static bool overflow, replay, nondeterministic;

static int choose(int n)
{
	if (n <= 1)
		return 0;
	if (depth >= MAX_CHOICES) {
		overflow = true;
		return 0;
	}
	/* The second run of an order that went another way: it leaked. */
	if (replay && (depth == nchoice || options[depth] != n)) {
		overflow = true;
		return 0;
	}
	/* The same choices so far make the same run. */
	if (!replay && depth < nchoice && options[depth] != n)
		nondeterministic = true;
	if (depth == nchoice) {
		choice[nchoice] = 0;
		options[nchoice++] = n;
	}
	return choice[depth++];
}

/* The next order; false when all were run. */
static bool next_order(void)
{
	while (nchoice && choice[nchoice - 1] + 1 >= options[nchoice - 1])
		nchoice--;
	if (!nchoice)
		return false;
	choice[nchoice - 1]++;
	return true;
}

static u64 now(void)
{
	return steps * NS_STEP;
}

/* A raw word: before the fork the runs' common stream, after it another. */
static u64 word(void)
{
	return fd_test_rand(forked ? &post_seed : &pre_seed);
}

static void mix(struct reader *r, u64 v)
{
	r->hash = (r->hash ^ v) * 0x100000001b3ULL;
	r->delivered++;
}

static void deliver(struct reader *r, u64 v)
{
	if (forked)
		mix(r, v);
}

static void notify(struct fd_well_client *c)
{
	/* Control: fd_well_hand() stamped the reader it handed bits to. */
	if (mode == MODE_RESTAMP && c->present)
		c->generation = well.generation;
}

/* fairdie_well_kick() */
static void kick(void)
{
	if (well.started && !well.pipe.failed && well.generation == gen)
		fd_well_serve(&well, now());
}

/* fairdie_well_quit() */
static void quit(struct reader *r)
{
	fd_well_leave(&r->c, now());
	fd_well_dequeue(&well, &r->c);
	kick();
}

/* fairdie_well_flush(): the one discard path. */
static void flush(struct reader *r)
{
	fd_well_leave(&r->c, now());
	fd_well_dequeue(&well, &r->c);
	fd_well_flush(&well, &r->c, gen, &r->p, r->sides, well.pipe.extractor);
	kick();
}

/* fairdie_well_giveback(): close() */
static void giveback(struct reader *r)
{
	fd_well_leave(&r->c, now());
	fd_well_dequeue(&well, &r->c);
	fd_well_giveback(&well, &r->c, gen, &r->p);
	kick();
}

/* fairdie_well_fill(), one phase a call: YIELD where it sleeps. */
static int fill(void *ctx, bool nonblock, struct fd_pipe *p)
{
	struct reader *r = ctx;
	struct fd_well_client *c = &r->c;
	int err = 0;
	u32 i;

	switch (r->fp) {
	case F_NONE:
		r->serr = 0;
		break;
	case F_WAIT:
		goto wait;
	case F_FETCH:
		goto fetch;
	case F_FEED:
		goto feed;
	}
top:
	r->gen0 = gen;
	if (mode == MODE_RESTAMP)
		c->generation = r->gen0;
	err = fd_well_begin(&well, c, r->gen0);
	if (err)
		goto tail;
	fd_well_enter(&well, c, p, now());
	fd_well_serve(&well, now());
	if (c->served)
		goto tail;
	r->k = fd_well_need(&well);
	if (!r->k) {
		r->serr = -EAGAIN;
		if (nonblock)
			goto tail;
		r->fp = F_WAIT;
		return YIELD;
	}
	r->k = fd_well_words(&well, r->k < p->want_bits ? r->k : p->want_bits);
	r->fp = F_FETCH;
	return YIELD;
wait:
	r->fp = F_NONE;
	r->serr = r->signal ? -EINTR : 0;
	if (r->serr || c->served)
		goto tail;
	goto top;
fetch:
	r->serr = 0;
	r->n = 0;
	if (r->signal) {
		r->serr = -EINTR;
	} else if (nonblock && choose(2)) {
		r->serr = -EAGAIN;	/* the source underflowed */
	} else {
		for (i = 0; i < r->k && !c->served; i++)
			r->buf[r->n++] = word();
	}
	r->fp = F_FEED;
	return YIELD;
feed:
	r->fp = F_NONE;
	if (mode == MODE_RESTAMP)
		c->generation = gen;
	err = fd_well_begin(&well, c, gen);
	if (!err && r->n && r->gen0 == well.generation)
		err = fd_well_feed(&well, r->buf, r->n);
	memset(r->buf, 0, sizeof(r->buf));
	if (err)
		goto tail;
	fd_well_serve(&well, now());
	if (c->served)
		goto tail;
	if (r->serr == -EINTR && !nonblock && !r->signal)
		r->serr = 0;
	if (r->serr)
		goto tail;
	goto top;
tail:
	if (!err && (r->serr == -EAGAIN || r->serr == -EINTR) &&
	    fd_well_serve_early(&well, c, now()) && mode == MODE_RESTAMP)
		c->generation = well.generation;
	if (c->served && err != -ESTALE) {
		fd_well_leave(c, now());
		return 0;
	}
	if (!err && r->serr == -EAGAIN && c->notify)
		fd_well_leave(c, now());
	else
		quit(r);
	if (!err || err == -ESTALE)
		return err ?: r->serr;
	p->failed = true;
	return -EIO;
}

static bool interrupted(void *ctx)
{
	return ((struct reader *)ctx)->signal;
}

static const struct fd_source_ops model_ops = {
	.interrupted = interrupted,
	.fill = fill,
};

/* fairdie_vmfork_check(): binary output, so no line to end. */
static bool vmfork_check(struct reader *r)
{
	if (r->c.generation == gen)
		return false;
	flush(r);
	memset(r->stage, 0, sizeof(r->stage));
	r->stage_pos = 0;
	r->stage_len = 0;
	return true;
}

static void end_read(struct reader *r)
{
	if (r->c.took) {
		fd_well_end_read(&well, &r->c);
		kick();
	}
	if (r->err == -ESTALE)
		bad_estale = true;
	r->signal = false;
	r->st = R_IDLE;
	r->op++;
}

/* Copy staged rolls, as fairdie_copy() does. */
static void copy(struct reader *r)
{
	while (r->stage_pos < r->stage_len && r->done < r->want) {
		deliver(r, r->stage[r->stage_pos++]);
		r->done++;
	}
	r->st = r->err || r->done == r->want ? R_END : R_TOP;
}

/* One step of a read of /dev/fairdie (fairdie_read()). */
static void step_read(struct reader *r)
{
	u64 v;
	int err;

	switch (r->st) {
	case R_TOP:
		vmfork_check(r);
		if (r->stage_pos < r->stage_len) {
			copy(r);
			return;
		}
		if (r->done && r->signal) {
			r->st = R_END;
			return;
		}
		r->stage_pos = 0;
		r->stage_len = 0;
		r->err = 0;
		fd_pipe_set_demand(&r->p, 64ULL * (r->want - r->done));
		r->st = R_STAGE;
		fallthrough;
	case R_STAGE:
		while (r->stage_len < STAGE &&
		       r->stage_len < r->want - r->done) {
			err = fd_pipe_roll(&r->p, &model_ops, r, r->nonblock,
					   &v);
			if (err == YIELD) {
				r->st = R_BLOCKED;
				return;
			}
			if (err) {
				r->err = err;
				break;
			}
			r->stage[r->stage_len++] = v;
		}
		r->st = R_CHECK;
		return;
	case R_BLOCKED:
		err = fill(r, r->nonblock, &r->p);
		if (err == YIELD)
			return;
		r->err = err;
		r->st = err ? R_CHECK : R_STAGE;
		return;
	case R_CHECK:
		if (vmfork_check(r) && (!r->err || r->err == -ESTALE)) {
			r->err = 0;
			r->st = R_TOP;
			return;
		}
		if (!r->stage_len) {
			r->st = R_END;
			return;
		}
		copy(r);
		return;
	case R_END:
		end_read(r);
		return;
	default:
		return;
	}
}

/* The hwrng's fork check (fairdie_hwrng_forked()). */
static bool hw_forked(struct reader *r)
{
	if (r->c.generation == gen)
		return false;
	flush(r);
	return true;
}

/* One step of a read of the hwrng (fairdie_hwrng_read()). */
static void step_hwrng(struct reader *r)
{
	u64 w;
	u32 i;

	if (r->st == H_BLOCKED) {
		r->err = fill(r, false, &r->p);
		if (r->err == YIELD)
			return;
		r->st = H_LOOP;
		/* A fill that brought bits goes on inside fd_pipe_fair64(). */
		r->resume = !r->err;
	}
	for (;;) {
		/* Control: a look before each pass only, as hwrng.c had. */
		if (mode == MODE_HWTOP && (r->err || r->hdone >= HW_WORDS))
			break;
		if (!r->resume && hw_forked(r)) {
			fd_pipe_set_demand(&r->p, 64);
			memset(r->out, 0, sizeof(r->out));
			r->hdone = 0;
			if (r->err == -ESTALE)
				r->err = 0;
		}
		r->resume = false;
		if (r->err || r->hdone >= HW_WORDS)
			break;
		r->err = fd_pipe_fair64(&r->p, &model_ops, r, false, &w);
		if (r->err == YIELD) {
			r->st = H_BLOCKED;
			return;
		}
		if (r->err)
			continue;
		r->out[r->hdone++] = w;
	}
	/* Returned to the hwrng core, which credits it. */
	for (i = 0; i < r->hdone; i++)
		deliver(r, r->out[i]);
	end_read(r);
}

/* Start the reader's next operation; true if it is one that takes steps. */
static bool start_op(struct reader *r)
{
	switch (r->ops[r->op]) {
	case OP_READ:
		r->st = R_TOP;
		r->done = 0;
		r->err = 0;
		r->stage_pos = 0;
		r->stage_len = 0;
		return true;
	case OP_HREAD:
		r->st = H_LOOP;
		r->hdone = 0;
		r->err = 0;
		r->resume = false;
		fd_pipe_set_demand(&r->p, 64);
		return true;
	case OP_RESET:
		/* fairdie_reset(): a flush, then the source restarts. */
		flush(r);
		memset(r->stage, 0, sizeof(r->stage));
		r->stage_pos = 0;
		r->stage_len = 0;
		fd_well_join(&well, &r->c);
		break;
	case OP_CLOSE:
		giveback(r);
		break;
	default:
		return false;
	}
	r->op++;
	return false;
}

static bool runnable(const struct reader *r)
{
	return r->used && r->ops[r->op] != OP_END;
}

/* In a read and not asleep (in the well's queue or in the source). */
static bool running(const struct reader *r)
{
	return r->st != R_IDLE && r->fp != F_WAIT && r->fp != F_FETCH;
}

/*
 * A reader waiting for its turn wakes when it is served or signalled; or,
 * when nothing else can move, at the tick that ends its wait.
 */
static bool awake(const struct reader *r, const struct reader *other)
{
	if (r->fp != F_WAIT || r->c.served || r->signal)
		return true;
	return !runnable(other) || (other->fp == F_WAIT && &rd[0] == r);
}

static void step(struct reader *r)
{
	if (r->st == R_IDLE && !start_op(r))
		return;
	if (r->hwrng)
		step_hwrng(r);
	else
		step_read(r);
}

/* A file's open (or the hwrng's registration): flushed, then joined. */
static void open_reader(struct reader *r, u64 sides, bool hwrng)
{
	memset(r, 0, sizeof(*r));
	r->used = true;
	r->hwrng = hwrng;
	r->sides = sides;
	r->c.notify = hwrng ? NULL : notify;
	flush(r);
	fd_pipe_restart(&r->p, 1, 2, false, false);
	fd_well_join(&well, &r->c);
	r->hash = 0xcbf29ce484222325ULL;
}

/* Run one read to its end, alone (before the schedule, and reader C). */
static void run_alone(struct reader *r, u32 want)
{
	int n = 0;

	r->ops[0] = OP_READ;
	r->ops[1] = OP_END;
	r->op = 0;
	r->want = want;
	while (runnable(r) && n++ < 100) {
		step(r);
		steps++;
	}
	CHECK(!runnable(r), "a lone read ends");
	r->op = 0;
}

/* Values of the same shape, other bits: what the clone run holds. */
static void scramble_pool(struct fd_pool *p)
{
	u32 i;

	for (i = 0; i < FD_POOL_WORDS; i++)
		p->word[i] ^= fd_test_rand(&scramble_seed);
}

static void scramble_reader(struct reader *r)
{
	struct fd_sampler *s = &r->p.sampler;
	u64 range = 1;
	u32 i;

	scramble_pool(&r->p.pool);
	if (s->m > 1)
		s->z = fd_test_below128(&scramble_seed, s->m);
	if (s->dual && s->m2 > 1)
		s->z2 = fd_test_below(&scramble_seed, s->m2);
	for (i = 0; i < s->ndigits; i++)
		range *= s->sides;
	if (s->ndigits)
		s->digits = fd_test_below(&scramble_seed, range);
	for (i = 0; i < STAGE; i++)
		r->stage[i] = fd_test_below(&scramble_seed, r->sides);
	for (i = 0; i < FD_WELL_CHUNK; i++)
		r->buf[i] ^= fd_test_rand(&scramble_seed);
	for (i = 0; i < HW_WORDS; i++)
		r->out[i] ^= fd_test_rand(&scramble_seed);
}

static void fork_vm(void)
{
	forked = true;
	if (mode != MODE_KEEP)
		gen++;
	scramble_pool(&well.pipe.pool);
	scramble_reader(&rd[0]);
	scramble_reader(&rd[1]);
}

struct outcome {
	u64 hash[3];
	u32 delivered[3];
	u64 well_hash;
	u32 well_bits;
	bool ok;
};

static const u64 a_sides[] = { 6, 3000000, (1ULL << 62) + 1 };

/* One run of the current order; @seed chooses the values at the fork. */
static void run(u64 seed, struct outcome *o)
{
	struct reader *a = &rd[0], *b = &rd[1], *c = &rd[2], *last = NULL;
	u32 ext, kind, preempt = 0, sched = 0, i, n;
	bool signalled = false;
	struct fd_pool pool;

	depth = 0;
	overflow = false;
	bad_estale = false;
	gen = 0;
	forked = false;
	steps = 0;
	pre_seed = 0x707265ULL;
	post_seed = 0x706f7374ULL;
	scramble_seed = seed;
	memset(o, 0, sizeof(*o));

	ext = ext_now;
	fd_well_init(&well, ext, NULL);
	memset(rd, 0, sizeof(rd));

	/* A: its first roll leaves bits in its pool and its sampler. */
	open_reader(a, a_sides[sides_now], false);
	run_alone(a, 1);
	a->nonblock = choose(2);
	a->want = 2;
	a->ops[0] = OP_READ;
	switch (choose(3)) {
	case 2:
		/* B alone after A's close. */
		a->ops[0] = OP_CLOSE;
		a->ops[1] = OP_END;
		break;
	case 1:
		a->ops[1] = OP_CLOSE;
		a->ops[2] = OP_END;
		break;
	default:
		a->ops[1] = OP_RESET;
		a->ops[2] = OP_READ;
		a->ops[3] = OP_CLOSE;
		a->ops[4] = OP_END;
		break;
	}
	kind = choose(3);
	if (kind == 1) {
		open_reader(b, 6, false);
		run_alone(b, 1);
		b->want = 2;
		b->ops[0] = OP_READ;
		b->ops[1] = OP_CLOSE;
		b->ops[2] = OP_END;
	} else if (kind == 2) {
		open_reader(b, 256, true);
		b->ops[0] = OP_HREAD;
		b->ops[1] = OP_HREAD;
		b->ops[2] = OP_END;
	}

	while (runnable(a) || runnable(b)) {
		struct reader *act[2];
		u32 nact = 0, nev, pick;
		bool can_sig;

		if (sched++ >= max_steps)
			return;		/* too long: not counted */
		for (i = 0; i < 2; i++) {
			if (!runnable(&rd[i]) || !awake(&rd[i], &rd[!i]))
				continue;
			/* A running reader keeps going, unless preempted. */
			if (last && last != &rd[i] && runnable(last) &&
			    running(last) && preempt >= max_preempt)
				continue;
			act[nact++] = &rd[i];
		}
		can_sig = !signalled && a->st != R_IDLE;
		nev = nact + !forked + can_sig;
		pick = choose(nev);
		if (pick < nact) {
			struct reader *r = act[pick];

			if (last && last != r && runnable(last) &&
			    running(last))
				preempt++;
			step(r);
			last = r;
			steps++;
			continue;
		}
		pick -= nact;
		if (!forked && !pick--) {
			fork_vm();
			continue;
		}
		/* A signal to A, in a read. */
		signalled = true;
		a->signal = true;
	}
	if (!forked)
		fork_vm();

	/* A fresh reader's first 64 bits. */
	open_reader(c, 1ULL << 32, false);
	run_alone(c, 2);
	giveback(c);

	for (i = 0; i < 3; i++) {
		o->hash[i] = rd[i].hash;
		o->delivered[i] = rd[i].delivered;
	}
	pool = well.pipe.pool;
	o->well_bits = pool.count;
	o->well_hash = 0xcbf29ce484222325ULL;
	while (pool.count) {
		n = pool.count < 64 ? pool.count : 64;
		o->well_hash = (o->well_hash ^ fd_pool_take(&pool, n)) *
			       0x100000001b3ULL;
	}
	o->ok = !overflow;
}

static bool same(const struct outcome *x, const struct outcome *y)
{
	return y->ok && !memcmp(x->hash, y->hash, sizeof(x->hash)) &&
	       !memcmp(x->delivered, y->delivered, sizeof(x->delivered)) &&
	       x->well_hash == y->well_hash && x->well_bits == y->well_bits;
}

static void print_order(void)
{
	int i;

	fprintf(stderr, "#   order:");
	for (i = 0; i < nchoice; i++)
		fprintf(stderr, " %d/%d", choice[i], options[i]);
	fprintf(stderr, "\n");
}

/*
 * Every order in @m, for a well of @ext and A's die a_sides[@sides], with
 * up to @preempt preemptions; returns how many leaked (their outcomes
 * differ).
 */
static u64 enumerate(enum mode m, u32 ext, u32 sides, u32 preempt,
		     u64 *orders, u64 *bits_after)
{
	struct outcome x, y;
	u64 leaks = 0;

	mode = m;
	ext_now = ext;
	sides_now = sides;
	max_preempt = preempt;
	nchoice = 0;
	do {
		run(1, &x);
		if (!x.ok)
			continue;
		/* The same order again: replay the choices. */
		replay = true;
		run(2, &y);
		replay = false;
		(*orders)++;
		*bits_after += x.delivered[0] + x.delivered[1];
		if (m == MODE_FIX)
			CHECK(!bad_estale, "-ESTALE never ends a read");
		if (!same(&x, &y)) {
			if (m == MODE_FIX && !leaks)
				print_order();
			leaks++;
		}
	} while (next_order());
	return leaks;
}

int main(void)
{
	u64 orders = 0, after = 0, leaks = 0, n;
	double t0 = fd_test_now();
	u32 e, s;

	if (getenv("CLONE_STEPS"))
		max_steps = atoi(getenv("CLONE_STEPS"));

	/* Every well and every kind of die. */
	for (e = 0; e < 2; e++)
		for (s = 0; s < ARRAY_SIZE(a_sides); s++)
			leaks += enumerate(MODE_FIX, e ? FAIRDIE_EXT_VN :
					   FAIRDIE_EXT_NONE, s, s == 2,
					   &orders, &after);
	NOTE("clone rule: %llu orders, %llu outputs after a fork, %llu leaks (%.1f s)",
	     (unsigned long long)orders, (unsigned long long)after,
	     (unsigned long long)leaks, fd_test_now() - t0);
	CHECK(!nondeterministic, "the model is deterministic");
	CHECK(orders > 1000, "the orders were run (%llu)",
	      (unsigned long long)orders);
	CHECK(after > 0, "some output was delivered after a fork");
	CHECK(!leaks, "nothing made before a fork reaches an output or the well (%llu leak)",
	      (unsigned long long)leaks);

	orders = 0;
	leaks = enumerate(MODE_KEEP, FAIRDIE_EXT_NONE, 2, 0, &orders, &n);
	NOTE("control keep: %llu of %llu orders leak", (unsigned long long)leaks,
	     (unsigned long long)orders);
	CHECK(leaks, "control: a fork that moves no generation: leaks found");

	orders = 0;
	leaks = enumerate(MODE_RESTAMP, FAIRDIE_EXT_NONE, 2, 0, &orders, &n);
	NOTE("control restamp: %llu of %llu orders leak",
	     (unsigned long long)leaks, (unsigned long long)orders);
	CHECK(leaks, "control: readers restamped as the old fd_well.c did: leaks found");

	orders = 0;
	leaks = enumerate(MODE_HWTOP, FAIRDIE_EXT_VN, 2, 0, &orders, &n);
	NOTE("control hwrng: %llu of %llu orders leak",
	     (unsigned long long)leaks, (unsigned long long)orders);
	CHECK(leaks, "control: the hwrng looking before each pass only: leaks found");
	return fd_check_summary();
}
