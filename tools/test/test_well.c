// SPDX-License-Identifier: GPL-2.0
/*
 * How a well shares its bits (driver/fd_well.c): readers that find it
 * without the bits they want wait, and what is fed in goes to them by fair
 * queuing.
 *
 *   order     the present reader that received the fewest bits is served
 *             first (equals in the order they came), up to what it asks
 *             for, once until it comes back; it waits until its read ends
 *             if it took bits; one back counts from the clock less a lag
 *             (soon after its turn) or a slack (after being idle),
 *             a new one from the clock plus a debit
 *   rolls     a reader served and still first (in its read: it waits for
 *             a CPU, makes its rolls) holds the bits FD_WELL_ROLLS_NS
 *   away      bits wait for a first reader that is away (a nonblocking
 *             read returned) FD_WELL_AWAY_NS, and it is told once (the
 *             others fetch ahead meanwhile: fd_well_need() is the well's
 *             room); then the next is served; readers away one after the
 *             other hold
 *             the present ones back FD_WELL_AWAY_NS in all, not each
 *   early     a reader giving up takes what is there, if its turn is next
 *   epoch     a reader that joined before a health failure stops waiting
 *   join      a reader that took 1 Mbit from one well and joins another
 *             starts on the new well's clock: beside a competitor there,
 *             it gets half of 10,000 rounds (it got none when it carried
 *             the old well's count)
 *   dequeue   leaving from the head, the middle or the tail keeps the
 *             queue and its demand right; fd_well_need() is what it lacks
 *   share     a simulated slow source (98% of tries underflow) read by two
 *             readers that nap between rounds, as blocking reads do, and
 *             two that spin on nonblocking reads: over a simulated second
 *             each gets 0.8-1.25 of the mean; a napping reader, once
 *             served, waits 1.5 ms for a CPU the spinners hold (as in a
 *             2-CPU guest: without the bits waiting for it while it is
 *             first, it got 0.09 of the mean). The same readers taking what
 *             they fetch themselves (no turns) are measured too, and must
 *             not pass: the scenario tells the two rules apart.
 */
#include <string.h>

#include "fd_test.h"
#include "fd_queue.h"

#define NS_PER_US	1000ULL

static u64 seed = 0x77656c6cULL;

static struct fd_well well;

/* A started well of NONE with @bits fair bits in it. */
static void well_setup(u32 bits)
{
	u64 words[FD_WELL_CHUNK];
	unsigned int i;

	fd_well_init(&well, FAIRDIE_EXT_NONE, NULL);
	/* Feed until the start-up test is through and @bits are held. */
	while (well.pipe.pool.count < bits) {
		struct fd_well_client c = { 0 };

		fd_well_join(&well, &c, NULL);
		fd_well_begin(&well, &c, 0);
		for (i = 0; i < FD_WELL_CHUNK; i++)
			words[i] = fd_test_rand(&seed);
		fd_well_feed(&well, words, 1);
	}
	/* Exactly @bits. */
	while (well.pipe.pool.count > bits) {
		u32 k = well.pipe.pool.count - bits;

		fd_pool_take(&well.pipe.pool, k > 64 ? 64 : k);
	}
}

/* The well holds exactly @bits fair bits (its queue kept). */
static void well_level(u32 bits)
{
	fd_pool_clear(&well.pipe.pool);
	while (bits) {
		u32 k = bits > 64 ? 64 : bits;

		fd_pool_put(&well.pipe.pool, fd_test_rand(&seed), k);
		bits -= k;
	}
}

static void reader_setup(struct fd_well_client *c, struct fd_pipe *p,
			 u32 want)
{
	memset(c, 0, sizeof(*c));
	memset(p, 0, sizeof(*p));
	fd_well_join(&well, c, NULL);
	p->want_bits = want;
	/* Counts from the clock (test_order checks the debit of a new one). */
	c->taken_before = true;
}

/* The reader whose turn is next, of the first party; NULL if none. */
static struct fd_well_client *first(void)
{
	struct fd_share_party *pt;

	if (!well.parties.root)
		return NULL;
	pt = container_of(well.parties.root, struct fd_share_party, node);
	return container_of(pt->clients.root, struct fd_well_client, node);
}

static unsigned int notified;

static void count_notify(struct fd_well_client *c)
{
	(void)c;
	notified++;
}

static void test_order(void)
{
	struct fd_well_client c[3];
	struct fd_pipe p[3];
	u32 wants[3] = { 100, 300, 64 }, i;

	well_setup(0);
	for (i = 0; i < 3; i++) {
		reader_setup(&c[i], &p[i], wants[i]);
		fd_well_enter(&well, &c[i], &p[i], 0);
	}
	CHECK(well.demand == 464 && fd_well_need(&well) == 464,
	      "order: the queue wants %llu bits, lacks %u",
	      (unsigned long long)well.demand, fd_well_need(&well));
	CHECK(fd_well_serve(&well, 0) == 0, "order: nothing served from nothing");

	/* Equals: in the order they came, each what it asks for. */
	well_level(400);
	CHECK(fd_well_serve(&well, 0) == 2, "order: two readers served");
	CHECK(c[0].served && c[1].served && !c[2].served,
	      "order: equals in the order they came");
	CHECK(p[0].pool.count == 100 && p[1].pool.count == 300 &&
	      p[2].pool.count == 0,
	      "order: each what it asks for (%u %u %u)", p[0].pool.count,
	      p[1].pool.count, p[2].pool.count);
	CHECK(c[0].queued && c[1].queued && c[0].took && c[1].took &&
	      !c[2].took && well.demand == 464,
	      "order: the served keep their place until their read ends");
	CHECK(c[0].received == 100 && c[1].received == 300 &&
	      well.anon.clock == 0, "order: what they received is counted");
	CHECK(fd_well_need(&well) == 464, "order: the queue lacks 464 bits");
	well_level(63);
	CHECK(fd_well_serve(&well, 0) == 0 && !c[2].served,
	      "order: a reader waits until what it asks for is there");
	well_level(64);
	CHECK(fd_well_serve(&well, 0) == 1 && p[2].pool.count == 64 &&
	      p[0].pool.count == 100,
	      "order: served, and the others not again until they come back");

	/* c[1] comes back for 50 more, c[0] for 100: c[0] first. */
	fd_well_leave(&well, &c[0], 1);
	fd_well_leave(&well, &c[1], 1);
	fd_well_leave(&well, &c[2], 1);
	fd_well_end_read(&well, &c[2]);		/* its read is done */
	p[1].want_bits = 50;
	fd_well_enter(&well, &c[1], &p[1], 1);
	fd_well_enter(&well, &c[0], &p[0], 1);
	fd_pool_clear(&p[0].pool);
	fd_pool_clear(&p[1].pool);
	CHECK(first() == &c[0] && well.demand == 100 + 50,
	      "order: coming back keeps the place, updates the demand");
	well_level(100 + 50);
	CHECK(fd_well_serve(&well, 1) == 1 && p[0].pool.count == 100 &&
	      p[1].pool.count == 0 && well.holding,
	      "order: the one that received least first; still first, the bits wait for it (%u %u)",
	      p[0].pool.count, p[1].pool.count);
	fd_well_leave(&well, &c[0], 1);
	fd_well_end_read(&well, &c[0]);
	CHECK(fd_well_serve(&well, 1) == 1 && p[1].pool.count == 50,
	      "order: its read over, the next is served (%u)", p[1].pool.count);
	CHECK(well.anon.clock == 300,
	      "order: the clock is the last served's count");

	/* A batch of a long read: a reader asking for more is served early. */
	fd_well_leave(&well, &c[0], 1);
	p[0].want_bits = 2048;
	fd_well_enter(&well, &c[0], &p[0], 1);
	fd_pool_clear(&p[0].pool);
	well_level(FD_WELL_BATCH_BITS);
	CHECK(fd_well_serve(&well, 1) == 1 &&
	      p[0].pool.count == FD_WELL_BATCH_BITS,
	      "order: a long read is served once a batch is there");

	/* Reads end: those that took bits stop waiting. */
	fd_well_leave(&well, &c[0], 2);
	fd_well_leave(&well, &c[1], 2);
	fd_well_end_read(&well, &c[0]);
	fd_well_end_read(&well, &c[1]);
	CHECK(!first() && well.demand == 0 && !c[0].took,
	      "order: the read's end ends the wait of who took bits");

	/*
	 * One back soon after its last turn keeps the turns it missed, up to
	 * the lag; one back after being idle, the slack.
	 */
	well.anon.clock = 10 * FD_WELL_LAG_BITS;
	c[2].received = 0;
	c[2].served_at = 2;
	fd_well_enter(&well, &c[2], &p[2], 2 + FD_WELL_RETURN_NS - 1);
	CHECK(c[2].received == 9 * FD_WELL_LAG_BITS,
	      "order: one back soon counts from the clock, less the lag");
	fd_well_leave(&well, &c[2], 2);
	fd_well_dequeue(&well, &c[2]);
	c[2].received = 10 * FD_WELL_LAG_BITS - FD_WELL_LAG_BITS / 2;
	fd_well_enter(&well, &c[2], &p[2], 2 + FD_WELL_RETURN_NS - 1);
	CHECK(c[2].received == 10 * FD_WELL_LAG_BITS - FD_WELL_LAG_BITS / 2,
	      "order: one back soon keeps the turns it missed");
	fd_well_leave(&well, &c[2], 2);
	fd_well_dequeue(&well, &c[2]);
	c[2].received = 0;
	fd_well_enter(&well, &c[2], &p[2], 2 + FD_WELL_RETURN_NS);
	CHECK(c[2].received == 10 * FD_WELL_LAG_BITS - FD_WELL_SLACK_BITS,
	      "order: one back after being idle counts from the clock, less the slack");
	fd_well_leave(&well, &c[2], 2);
	fd_well_dequeue(&well, &c[2]);
	/* A reader new to the well starts above the clock: a debit. */
	reader_setup(&c[2], &p[2], 64);
	c[2].taken_before = false;
	fd_well_enter(&well, &c[2], &p[2], 2);
	CHECK(c[2].received == well.anon.clock + FD_WELL_DEBIT_BITS,
	      "order: a new reader starts with a debit");
	fd_well_leave(&well, &c[2], 2);
	fd_well_end_read(&well, &c[2]);
	CHECK(c[2].queued, "order: a read that took nothing keeps its place");
	fd_well_dequeue(&well, &c[2]);
}

static void test_away(void)
{
	struct fd_well_client a, b;
	struct fd_pipe pa, pb;
	u64 t = 1000 * NS_PER_US;

	well_setup(0);
	reader_setup(&a, &pa, 64);
	reader_setup(&b, &pb, 64);
	a.notify = count_notify;
	notified = 0;
	/* a waits in a nonblocking read that finds nothing, and leaves. */
	fd_well_enter(&well, &a, &pa, t);
	fd_well_leave(&well, &a, t);
	fd_well_enter(&well, &b, &pb, t + 10);
	well_level(128);
	CHECK(fd_well_serve(&well, t + 20) == 0 && !b.served &&
	      notified == 1,
	      "away: bits wait for the first, told once (%u)", notified);
	/* The wait does not idle the source: b fetches ahead meanwhile. */
	CHECK(fd_well_first(&well, &a) && !fd_well_first(&well, &b) &&
	      fd_well_need(&well) > 0 &&
	      fd_well_need(&well) == fd_pool_room(&well.pipe.pool),
	      "away: while the bits wait, the well's room is wanted (%u)",
	      fd_well_need(&well));
	CHECK(fd_well_serve(&well, t + FD_WELL_AWAY_NS - 1) == 0 &&
	      notified == 1 && a.queued,
	      "away: up to FD_WELL_AWAY_NS, not told again");
	/* a comes back in time: served, and told. */
	fd_well_enter(&well, &a, &pa, t + FD_WELL_AWAY_NS - 1);
	CHECK(fd_well_serve(&well, t + FD_WELL_AWAY_NS - 1) == 2 &&
	      a.served && b.served && pa.pool.count == 64 &&
	      pb.pool.count == 64 && notified == 2,
	      "away: back in time, it takes its bits, then the next");
	fd_well_leave(&well, &a, t);
	fd_well_leave(&well, &b, t);
	fd_well_end_read(&well, &a);
	fd_well_end_read(&well, &b);

	/* a away too long: b is served, a stops waiting. */
	reader_setup(&a, &pa, 64);
	reader_setup(&b, &pb, 64);
	a.notify = count_notify;
	notified = 0;
	fd_well_enter(&well, &a, &pa, t);
	fd_well_leave(&well, &a, t);
	fd_well_enter(&well, &b, &pb, t);
	well_level(64);
	CHECK(fd_well_serve(&well, t + FD_WELL_AWAY_NS) == 1 && b.served &&
	      !a.queued && pb.pool.count == 64 && well.demand == 64 &&
	      !notified,
	      "away: after FD_WELL_AWAY_NS the next is served");
	fd_well_leave(&well, &b, t);
	fd_well_end_read(&well, &b);
	CHECK(!first() && !well.demand, "away: no one waits");
}

/*
 * Readers away one after the other at the head: the present one behind
 * them waits FD_WELL_AWAY_NS from when the first held it back, not that
 * long for each.
 */
static void test_away_chain(void)
{
	struct fd_well_client a[3], b;
	struct fd_pipe pa[3], pb;
	u64 t = 1000 * NS_PER_US, t1 = t + 950 * NS_PER_US;
	unsigned int i;

	well_setup(0);
	for (i = 0; i < 3; i++) {
		reader_setup(&a[i], &pa[i], 512);
		fd_well_enter(&well, &a[i], &pa[i], t);
	}
	reader_setup(&b, &pb, 512);
	fd_well_enter(&well, &b, &pb, t);
	fd_well_leave(&well, &a[0], t);
	fd_well_leave(&well, &a[1], t + 900 * NS_PER_US);
	well_level(512);
	CHECK(fd_well_serve(&well, t1) == 0 && well.holding &&
	      well.hold_until == t + FD_WELL_AWAY_NS,
	      "away chain: the first away holds the bits until its time");
	fd_well_leave(&well, &a[2], t1 + 500 * NS_PER_US);
	CHECK(fd_well_serve(&well, t1 + 500 * NS_PER_US) == 0 && !a[0].queued,
	      "away chain: the first lost its place, the second holds");
	CHECK(fd_well_serve(&well, t1 + FD_WELL_AWAY_NS - 1) == 0 && !b.served &&
	      well.hold_until == t1 + FD_WELL_AWAY_NS,
	      "away chain: the third holds, until the bound from the first hold");
	CHECK(fd_well_serve(&well, t1 + FD_WELL_AWAY_NS) == 1 && b.served &&
	      !a[2].queued,
	      "away chain: the present reader is served FD_WELL_AWAY_NS after the hold began");
	fd_well_leave(&well, &b, t1 + FD_WELL_AWAY_NS);
	fd_well_end_read(&well, &b);
	CHECK(!first() && !well.demand, "away chain: no one waits");
}

/*
 * A reader served and still first (it waits for a CPU, then makes its
 * rolls, inside its read) holds the bits FD_WELL_ROLLS_NS at most.
 */
static void test_rolls(void)
{
	struct fd_well_client a, b;
	struct fd_pipe pa, pb;
	u64 t = 1000 * NS_PER_US;

	well_setup(0);
	reader_setup(&a, &pa, 64);
	reader_setup(&b, &pb, 64);
	b.received = 1000;
	fd_well_enter(&well, &a, &pa, t);
	fd_well_enter(&well, &b, &pb, t);
	well_level(128);
	CHECK(fd_well_serve(&well, t) == 1 && a.served && !b.served &&
	      well.holding && well.hold_until == t + FD_WELL_ROLLS_NS,
	      "rolls: served and still first, the bits wait for it");
	CHECK(fd_well_serve(&well, t + FD_WELL_ROLLS_NS - 1) == 0 && !b.served,
	      "rolls: up to FD_WELL_ROLLS_NS");
	CHECK(fd_well_serve(&well, t + FD_WELL_ROLLS_NS) == 1 && b.served &&
	      !a.queued,
	      "rolls: then it loses its place and the next is served");
	fd_well_leave(&well, &a, t + FD_WELL_ROLLS_NS);
	fd_well_end_read(&well, &a);
	fd_well_leave(&well, &b, t + FD_WELL_ROLLS_NS);
	fd_well_end_read(&well, &b);
	CHECK(!first() && !well.demand, "rolls: no one waits");
}

/*
 * The heap of the queue against a list searched by hand: 20,000 random
 * inserts and removals (from anywhere) over 1,000 nodes, keys with many
 * ties; the first is always the smallest key, the first of equals.
 */
static void test_heap(void)
{
	static struct fd_heap_node n[1000];
	static bool in[1000];
	struct fd_heap h = { 0 };
	unsigned int i, k, bad = 0, count = 0;
	u64 seq = 0;

	memset(in, 0, sizeof(in));
	for (i = 0; i < 20000; i++) {
		struct fd_heap_node *best = NULL;

		k = fd_test_below(&seed, 1000);
		if (in[k]) {
			fd_heap_remove(&h, &n[k]);
			in[k] = false;
			count--;
		} else {
			n[k].key = fd_test_below(&seed, 50);
			n[k].seq = seq++;
			fd_heap_insert(&h, &n[k]);
			in[k] = true;
			count++;
		}
		for (k = 0; k < 1000; k++)
			if (in[k] && (!best || n[k].key < best->key ||
				      (n[k].key == best->key &&
				       n[k].seq < best->seq)))
				best = &n[k];
		if (h.root != best || (h.root && h.root->parent))
			bad++;
	}
	CHECK(!bad, "heap: the first is the smallest, first of equals (%u wrong, %u left)",
	      bad, count);
}

static void test_early(void)
{
	struct fd_well_client a, b;
	struct fd_pipe pa, pb;

	well_setup(0);
	reader_setup(&a, &pa, 512);
	reader_setup(&b, &pb, 512);
	fd_well_enter(&well, &a, &pa, 0);
	fd_well_enter(&well, &b, &pb, 0);
	well_level(100);
	CHECK(fd_well_serve(&well, 0) == 0, "early: 100 bits are no batch");
	CHECK(!fd_well_serve_early(&well, &b, 0) && !b.served,
	      "early: not before the reader whose turn is next");
	CHECK(fd_well_serve_early(&well, &a, 0) && a.served && a.took &&
	      pa.pool.count == 100 && a.received == 100,
	      "early: the next one giving up takes what is there");
	CHECK(!fd_well_serve_early(&well, &b, 0), "early: nothing left for b");
	fd_well_leave(&well, &a, 0);
	CHECK(!fd_well_serve_early(&well, &a, 0), "early: only while present");
	fd_well_end_read(&well, &a);
	fd_well_dequeue(&well, &b);
	CHECK(!first() && !well.demand, "early: no one waits");
}

static void test_epoch(void)
{
	struct fd_well_client a, b;
	struct fd_pipe pa, pb;

	well_setup(0);
	reader_setup(&a, &pa, 64);
	reader_setup(&b, &pb, 64);
	fd_well_enter(&well, &a, &pa, 0);
	fd_well_enter(&well, &b, &pb, 0);
	well.epoch++;		/* a health failure */
	b.epoch = well.epoch;	/* b joined again (a reset) */
	well_level(64);
	CHECK(fd_well_serve(&well, 0) == 1 && !a.served && !a.queued &&
	      b.served && pb.pool.count == 64,
	      "epoch: a reader of before the failure stops waiting, unserved");
}

/* Rounds of 512 bits for the readers of @c, each served in turn. */
static void rounds(struct fd_well_client **c, struct fd_pipe **p,
		   unsigned int n, unsigned int rounds, u64 *got)
{
	unsigned int r, i;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++) {
			p[i]->want_bits = 512;
			fd_well_enter(&well, c[i], p[i], r);
		}
		well_level(512);
		fd_well_serve(&well, r);
		for (i = 0; i < n; i++) {
			got[i] += p[i]->pool.count;
			fd_pool_clear(&p[i]->pool);
			fd_well_leave(&well, c[i], r);
			fd_well_end_read(&well, c[i]);
		}
	}
}

static void test_join(void)
{
	struct fd_well_client a, b;
	struct fd_pipe pa, pb;
	struct fd_well_client *c[2] = { &a, &b };
	struct fd_pipe *p[2] = { &pa, &pb };
	u64 got[2] = { 0, 0 };

	/* a alone on a first well: 1 Mbit. */
	well_setup(0);
	memset(&a, 0, sizeof(a));
	memset(&pa, 0, sizeof(pa));
	fd_well_join(&well, &a, NULL);
	rounds(c, p, 1, 2048, got);
	CHECK(got[0] == 2048 * 512, "join: a took 1 Mbit from the first well");

	/* Another well, where b reads; a joins it. */
	well_setup(0);
	memset(&b, 0, sizeof(b));
	memset(&pb, 0, sizeof(pb));
	fd_well_join(&well, &b, NULL);
	rounds(c + 1, p + 1, 1, 100, got + 1);
	fd_well_join(&well, &a, NULL);
	got[0] = 0;
	got[1] = 0;
	rounds(c, p, 2, 10000, got);
	CHECK(got[0] >= 4900 * 512 && got[1] >= 4900 * 512,
	      "join: on the new well's clock, each gets half (%llu %llu)",
	      (unsigned long long)got[0], (unsigned long long)got[1]);
}

static unsigned int visits;

static void count_visit(struct fd_well_client *c)
{
	(void)c;
	visits++;
}

static void test_dequeue(void)
{
	struct fd_well_client c[4];
	struct fd_pipe p[4];
	unsigned int i;

	well_setup(0);
	for (i = 0; i < 4; i++) {
		reader_setup(&c[i], &p[i], 10 << i);
		fd_well_enter(&well, &c[i], &p[i], 0);
	}
	for (i = 0; i < 4; i++)
		c[i].notify = count_visit;
	visits = 0;
	fd_well_notify_all(&well);
	CHECK(visits == 4, "dequeue: the four waiting are told (%u)", visits);
	fd_well_dequeue(&well, &c[2]);	/* middle */
	visits = 0;
	fd_well_notify_all(&well);
	CHECK(visits == 3, "dequeue: three left to tell (%u)", visits);
	CHECK(first() == &c[0] && !c[2].queued && !c[2].in_heap &&
	      well.demand == 10 + 20 + 80, "dequeue: the middle");
	fd_well_dequeue(&well, &c[3]);	/* the last */
	CHECK(first() == &c[0] && well.demand == 30, "dequeue: the last");
	fd_well_dequeue(&well, &c[0]);	/* the first */
	CHECK(first() == &c[1] && well.demand == 20, "dequeue: the first");
	fd_well_dequeue(&well, &c[0]);	/* not waiting: nothing */
	CHECK(first() == &c[1] && well.demand == 20,
	      "dequeue: a reader not waiting changes nothing");
	/* Entering again while waiting updates its demand, keeps its place. */
	p[1].want_bits = 50;
	fd_well_enter(&well, &c[1], &p[1], 9);
	CHECK(first() == &c[1] && well.demand == 50,
	      "dequeue: a waiting reader entering again keeps its place");
	well_level(30);
	CHECK(fd_well_need(&well) == 20, "dequeue: need is demand - level");
	fd_well_dequeue(&well, &c[1]);
	CHECK(!first() && !well.parties.root && well.demand == 0 &&
	      fd_well_need(&well) == 0, "dequeue: empty");
}

/* ---- share: a simulated slow source ---- */

#define SIM_READERS	4
#define SIM_US		1000000		/* 1 s in steps of 1 us */
#define SIM_TRIES	64		/* tries per round, as FD_HW_TRIES */
#define SIM_PERMILLE	998		/* tries that underflow */
#define SIM_NAP_US	4000		/* a 1 ms nap on a HZ=250 kernel */
#define SIM_WANT	512		/* a read of 64 bytes */
#define SIM_BUSY_US	20		/* rolls made between two reads */
/*
 * A blocking reader served waits this long for a CPU before it makes its
 * rolls and comes back: two spinners keep both CPUs of a small guest busy.
 */
#define SIM_WAKE_US	1500

struct sim_reader {
	struct fd_well_client c;
	struct fd_pipe p;
	bool spin;		/* nonblocking, spinning on EAGAIN */
	bool in_read;		/* a blocking read under way */
	bool woken;		/* served, it waits for a CPU */
	u64 nap_end;		/* a blocking reader naps until then */
	u64 busy_end;		/* and makes its rolls until then */
	u32 read_got;		/* fair bits of its current read */
	u64 got;		/* fair bits delivered */
};

/* Tries that underflow, per mille. */
static unsigned int sim_permille = SIM_PERMILLE;

/* One word from the slow source in a round of tries, or none. */
static bool sim_word(u64 *w)
{
	unsigned int i;

	for (i = 0; i < SIM_TRIES; i++) {
		if (fd_test_below(&seed, 1000) >= sim_permille) {
			*w = fd_test_rand(&seed);
			return true;
		}
	}
	return false;
}

static void sim_deliver(struct sim_reader *r)
{
	r->got += r->p.pool.count;
	fd_pool_clear(&r->p.pool);
}

/* Fetch one word and feed it; false when the round underflowed. */
static bool sim_fetch(struct fd_well_client *c)
{
	u64 w;

	if (!sim_word(&w))
		return false;
	fd_well_begin(&well, c, 0);
	fd_well_feed(&well, &w, 1);
	return true;
}

/* One microsecond of a reader, with the queue or (@queue false) without. */
static void sim_step(struct sim_reader *r, u64 now, bool queue)
{
	u64 t = now * NS_PER_US;

	if (!queue) {
		/* Take what is there, else fetch for oneself. */
		if (!r->spin && now < r->nap_end)
			return;
		fd_well_begin(&well, &r->c, 0);
		if (!fd_well_take(&well, &r->p) && !sim_fetch(&r->c)) {
			if (!r->spin)
				r->nap_end = now + SIM_NAP_US;
			return;
		}
		fd_well_take(&well, &r->p);
		sim_deliver(r);
		return;
	}

	if (r->spin) {
		/* A nonblocking read: enter, serve, one round, leave. */
		r->p.want_bits = SIM_WANT;
		fd_well_begin(&well, &r->c, 0);
		fd_well_enter(&well, &r->c, &r->p, t);
		fd_well_serve(&well, t);
		if (!r->c.served && fd_well_need(&well) && sim_fetch(&r->c))
			fd_well_serve(&well, t);
		if (r->c.served)
			sim_deliver(r);
		fd_well_leave(&well, &r->c, t);
		fd_well_end_read(&well, &r->c);
		return;
	}
	/*
	 * A blocking read of SIM_WANT bits, in the well from its start until
	 * served; a microsecond to make rolls of what it got, SIM_BUSY_US
	 * between two reads.
	 */
	if (now < r->busy_end)
		return;
	if (r->woken)
		goto woken;
	if (!r->in_read) {
		r->in_read = true;
		r->read_got = 0;
	}
	if (!r->c.present) {
		r->p.want_bits = SIM_WANT - r->read_got;
		fd_well_begin(&well, &r->c, 0);
		fd_well_enter(&well, &r->c, &r->p, t);
	}
	/* Its turn ends a nap (the well wakes it). */
	if (now < r->nap_end && !r->c.served)
		return;
	fd_well_serve(&well, t);
	if (!r->c.served && fd_well_need(&well)) {
		if (sim_fetch(&r->c))
			fd_well_serve(&well, t);
		else
			r->nap_end = now + SIM_NAP_US;
	}
	if (!r->c.served)
		return;
	/* Served: it waits for a CPU, then takes its bits and leaves. */
woken:
	if (!r->woken) {
		r->woken = true;
		r->busy_end = now + SIM_WAKE_US;
		return;
	}
	r->woken = false;
	r->nap_end = 0;
	r->read_got += r->p.pool.count;
	sim_deliver(r);
	fd_well_leave(&well, &r->c, t);
	r->busy_end = now + 1;
	if (r->read_got >= SIM_WANT) {
		fd_well_end_read(&well, &r->c);
		r->in_read = false;
		r->busy_end = now + SIM_BUSY_US;
	}
}

/* The smallest and largest share of the mean, over SIM_US. */
static void sim_share(bool queue, double *lo, double *hi)
{
	static struct sim_reader rd[SIM_READERS];
	unsigned int i, order[SIM_READERS];
	double mean = 0;
	u64 now;

	well_setup(0);
	for (i = 0; i < SIM_READERS; i++) {
		memset(&rd[i], 0, sizeof(rd[i]));
		reader_setup(&rd[i].c, &rd[i].p, SIM_WANT);
		rd[i].spin = i >= SIM_READERS / 2;
		order[i] = i;
	}
	for (now = 0; now < SIM_US; now++) {
		/* The readers run in a different order each step. */
		for (i = SIM_READERS - 1; i > 0; i--) {
			unsigned int j = fd_test_below(&seed, i + 1), x;

			x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		for (i = 0; i < SIM_READERS; i++)
			sim_step(&rd[order[i]], now, queue);
	}
	for (i = 0; i < SIM_READERS; i++)
		mean += rd[i].got / (double)SIM_READERS;
	*lo = 1e9;
	*hi = 0;
	for (i = 0; i < SIM_READERS; i++) {
		double s = mean ? rd[i].got / mean : 0;

		NOTE("share, %s: reader %u (%s): %llu bits, %.3f of the mean",
		     queue ? "queue" : "no queue", i,
		     rd[i].spin ? "spinning" : "napping",
		     (unsigned long long)rd[i].got, s);
		*lo = s < *lo ? s : *lo;
		*hi = s > *hi ? s : *hi;
	}
}

/*
 * Blocking readers only, @n of them, reader i in party @of[i] of @np
 * (NULL parties: all in the well's own); over @us simulated microseconds,
 * the smallest share of a party over its fair share (1 / @np).
 */
static double sim_parties(unsigned int n, const unsigned int *of,
			  unsigned int np, bool parties, u64 us)
{
	static struct sim_reader rd[32];
	static struct fd_share_party party[8];
	unsigned int i, order[32];
	u64 now, got[8] = { 0 }, total = 0;
	double lo = 1e9;

	well_setup(0);
	/* A source slower than what the readers ask for: they contend. */
	sim_permille = 975;
	memset(party, 0, sizeof(party));
	for (i = 0; i < n; i++) {
		memset(&rd[i], 0, sizeof(rd[i]));
		reader_setup(&rd[i].c, &rd[i].p, SIM_WANT);
		fd_well_join(&well, &rd[i].c, parties ? &party[of[i]] : NULL);
		rd[i].c.taken_before = true;
		order[i] = i;
	}
	for (now = 0; now < us; now++) {
		for (i = n - 1; i > 0; i--) {
			unsigned int j = fd_test_below(&seed, i + 1), x;

			x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		for (i = 0; i < n; i++)
			sim_step(&rd[order[i]], now, true);
	}
	sim_permille = SIM_PERMILLE;
	for (i = 0; i < n; i++) {
		got[of[i]] += rd[i].got;
		total += rd[i].got;
	}
	for (i = 0; i < np; i++) {
		double s = total ? got[i] * (double)np / total : 0;

		NOTE("parties %s: party %u: %llu bits, %.3f of a fair share",
		     parties ? "on" : "off", i, (unsigned long long)got[i], s);
		lo = s < lo ? s : lo;
	}
	return lo;
}

/*
 * A user with 16 files beside three users with one each; two cgroups of
 * root, 8 files and 1. Parties get fair shares; with every file a party
 * of its own (the rule before) the user with 16 takes 16 of 19.
 */
static void test_parties(void)
{
	unsigned int users[19], groups[9], i;
	double lo;

	for (i = 0; i < 19; i++)
		users[i] = i < 16 ? 0 : i - 15;
	for (i = 0; i < 9; i++)
		groups[i] = i < 8 ? 0 : 1;
	lo = sim_parties(19, users, 4, true, 200000);
	CHECK(lo >= 0.8,
	      "parties: 16 files and 3 x 1, each user 0.8 of a fair share at least (%.3f)",
	      lo);
	lo = sim_parties(9, groups, 2, true, 200000);
	CHECK(lo >= 0.8,
	      "parties: two cgroups, 8 files and 1, each 0.8 of a fair share at least (%.3f)",
	      lo);
	lo = sim_parties(19, users, 4, false, 200000);
	CHECK(lo < 0.5,
	      "parties: shared per file, the user with 16 files wins (%.3f): the scenario tells the rules apart",
	      lo);
}

static void test_share(void)
{
	double lo, hi;

	sim_share(true, &lo, &hi);
	CHECK(lo >= 0.8 && hi <= 1.25,
	      "share: with the queue, every reader gets 0.8-1.25 of the mean (%.3f-%.3f)",
	      lo, hi);
	sim_share(false, &lo, &hi);
	CHECK(lo < 0.8 || hi > 1.25,
	      "share: without it the spinners win (%.3f-%.3f): the scenario tells the rules apart",
	      lo, hi);
}

int main(void)
{
	test_order();
	test_away();
	test_away_chain();
	test_rolls();
	test_heap();
	test_early();
	test_epoch();
	test_join();
	test_dequeue();
	test_share();
	test_parties();
	return fd_check_summary();
}
