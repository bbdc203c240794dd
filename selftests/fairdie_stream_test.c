// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_stream_test - kselftest of what a reader of /dev/fairdie sees
 * across configuration changes, faults, poll() and the CRNG's start:
 *
 *   - the text stream is whole lines, each a face of a die in force while
 *     the line was read, whatever ioctl comes between two reads;
 *   - a binary roll cut by a fault is dropped, never delivered twice;
 *   - poll() agrees with a non-blocking read;
 *   - the CRNG source waits for the kernel's CRNG like getrandom(2);
 *   - Peres' state comes and goes with the extractor.
 *
 * See fairdie_test.h for what the programs have in common.
 */
#include <pthread.h>
#include <semaphore.h>
#include <sys/mount.h>
#include <sys/random.h>

#include "fairdie_test.h"

/* A new open file for each test, a d6 with von Neumann's extractor. */
FD_D6_VN_FIXTURE(stream);

/*
 * The CRNG source is ready exactly when getrandom(GRND_NONBLOCK) is: a
 * non-blocking read fails with EAGAIN, and poll() says not readable,
 * before then, and a blocking read waits for it. This test comes first:
 * a VM booted with random.trust_cpu=off may still be waiting then.
 */
TEST_F(stream, crng_nonblock_like_getrandom)
{
	int nb, before, after, err = 0, tries;
	ssize_t n = 0;
	char c;

	nb = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, nb);
	ASSERT_EQ(0, set_u32(nb, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	/* Judge only a read during which the CRNG did not change state. */
	for (tries = 0; tries < 10; tries++) {
		before = getrandom(&c, 1, GRND_NONBLOCK) == 1;
		n = read(nb, &c, 1);
		err = errno;
		after = getrandom(&c, 1, GRND_NONBLOCK) == 1;
		if (before == after)
			break;
	}
	TH_LOG("getrandom(GRND_NONBLOCK): CRNG %s; read %zd",
	       before ? "ready" : "not ready", n);
	ASSERT_EQ(before, after);
	if (before) {
		ASSERT_EQ(1, n);
		ASSERT_NE(0, poll_events(nb) & POLLIN);
	} else {
		ASSERT_EQ(-1, n);
		ASSERT_EQ(EAGAIN, err);
		ASSERT_EQ(0, poll_events(nb) & POLLIN);
		/* A blocking read waits until the CRNG is ready. */
		ASSERT_EQ(0, fcntl(nb, F_SETFL, 0));
		ASSERT_EQ(1, read(nb, &c, 1));
		ASSERT_EQ(1, getrandom(&c, 1, GRND_NONBLOCK));
	}
	close(nb);
}

/* splitmix64: the test's own choices, reproducible from a seed. */
static __u64 next_rand(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A parser of the text stream that knows which dice were in force while
 * each line was read: a line is checked against the number of sides in
 * force when its first byte was read.
 */
struct stream_check {
	__u64 sides_now;	/* the die in force now */
	__u64 line_sides;	/* the die in force when this line began */
	__u64 val;
	unsigned int digits;
	__u64 lines;
	bool bad;
	char why[96];
};

static void stream_bad(struct stream_check *c, const char *why)
{
	if (!c->bad)
		snprintf(c->why, sizeof(c->why), "line %llu (sides %llu): %s",
			 (unsigned long long)c->lines,
			 (unsigned long long)c->line_sides, why);
	c->bad = true;
}

static void stream_feed(struct stream_check *c, const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = buf[i];

		if (!c->digits && ch != '\n')
			c->line_sides = c->sides_now;
		if (ch == '\n') {
			if (!c->digits)
				stream_bad(c, "empty line");
			else if (c->val < 1 || c->val > c->line_sides)
				stream_bad(c, "face out of range");
			c->lines++;
			c->val = 0;
			c->digits = 0;
		} else if ((ch >= '1' && ch <= '9') || (ch == '0' && c->digits)) {
			unsigned int d = ch - '0';

			if (c->val > (U64_MAX_VAL - d) / 10)
				stream_bad(c, "overflow");
			c->val = c->val * 10 + d;
			c->digits++;
		} else {
			stream_bad(c, ch == '0' ? "leading zero" : "not a digit");
		}
	}
}

static const __u64 stream_sides[] = {
	1, 2, 6, 10, 20, 100, 1000000, 1ULL << 32, 1000000007,
	10000000000000000000ULL, U64_MAX_VAL,
};

/*
 * Random short reads interleaved with every configuration ioctl and RESET:
 * the stream must stay whole lines, each a valid face of the die in force
 * when it began. Switches to the binary format check that the rest of a
 * line already begun comes alone, then binary rolls.
 */
TEST_F_TIMEOUT(stream, text_whole_lines_across_ioctls, 300)
{
	struct stream_check c = { .sides_now = 6, .line_sides = 6 };
	__u64 s = 20261122, sides = 6;
	char buf[64];
	int i, fd = self->fd;

	ASSERT_EQ(0, set_sim(fd, 1, 1, 2));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));

	for (i = 0; i < 4000 && !c.bad; i++) {
		__u64 r = next_rand(&s);
		ssize_t n;
		int err;

		switch (r % 10) {
		case 0: {
			__u64 v = stream_sides[(r >> 8) % ARRAY_SIZE(stream_sides)];

			err = set_u64(fd, FAIRDIE_IOC_SET_SIDES, v);
			/* DIJKSTRA refuses sides with a prime factor > 64. */
			ASSERT_TRUE(!err || err == EINVAL);
			if (!err)
				sides = v;
			break;
		}
		case 1:
			/* The extractors that are quick on a fair coin. */
			err = set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR,
				      (r >> 8) % 4 == 1 ? FAIRDIE_EXT_PERES :
				      (r >> 8) % 4 == 2 ? FAIRDIE_EXT_DIJKSTRA :
				      (r >> 8) % 4 == 3 ? FAIRDIE_EXT_NONE :
							  FAIRDIE_EXT_VN);
			ASSERT_TRUE(!err || err == EINVAL);
			break;
		case 2:
			ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE,
					     (r >> 8) % 2 ? FAIRDIE_SRC_CRNG :
							    FAIRDIE_SRC_SIM));
			break;
		case 3:
			ASSERT_EQ(0, set_sim(fd, r >> 16, 1, 2));
			break;
		case 4:
			ASSERT_EQ(0, xioctl(fd, FAIRDIE_IOC_RESET, NULL));
			break;
		case 5:
			/* The same format: nothing changes. */
			ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_FORMAT,
					     FAIRDIE_FMT_TEXT));
			break;
		case 6: {
			/* Binary for one read, then text again. */
			bool begun = c.digits != 0;

			ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_FORMAT,
					     FAIRDIE_FMT_BINARY));
			/* Whole rolls of any width, or a whole line. */
			n = read(fd, buf, sizeof(buf));
			ASSERT_LT(0, n);
			if (begun) {
				/* The rest of the line, alone. */
				ASSERT_EQ('\n', buf[n - 1]);
				stream_feed(&c, buf, n);
				ASSERT_EQ(0U, c.digits);
			} else {
				ASSERT_EQ((ssize_t)sizeof(buf), n);
			}
			ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_FORMAT,
					     FAIRDIE_FMT_TEXT));
			break;
		}
		default:
			n = read(fd, buf, 1 + (r >> 8) % 7);
			ASSERT_LT(0, n);
			stream_feed(&c, buf, n);
			break;
		}
		c.sides_now = sides;
	}
	TH_LOG("%llu lines over %d steps", (unsigned long long)c.lines, i);
	ASSERT_FALSE(c.bad) {
		TH_LOG("%s", c.why);
	}
}

/* The example of the report: a d1000000 line cut by SET_SIDES(6). */
TEST_F(stream, text_line_completed_after_set_sides)
{
	struct stream_check c = { .sides_now = 1000000 };
	char buf[64];
	ssize_t n;
	int i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1000000));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	for (i = 0; i < 200 && !c.bad; i++) {
		/* One byte of a d6 line, two of a d1000000 line. */
		c.sides_now = i % 2 ? 6 : 1000000;
		n = read(self->fd, buf, i % 2 ? 1 : 2);
		ASSERT_EQ(i % 2 ? 1 : 2, n);
		stream_feed(&c, buf, n);
		c.sides_now = i % 2 ? 1000000 : 6;
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES,
				     c.sides_now));
	}
	ASSERT_FALSE(c.bad) {
		TH_LOG("%s", c.why);
	}
}

/* SET_FORMAT to the format in force changes nothing at all. */
TEST_F(stream, set_same_format_changes_nothing)
{
	char a[256], b[256];
	int ref, fmt;

	ref = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, ref);
	for (fmt = FAIRDIE_FMT_BINARY; fmt <= FAIRDIE_FMT_TEXT; fmt++) {
		sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 1000000, 5, 1, 2);
		sim_config(_metadata, ref, FAIRDIE_EXT_VN, 1000000, 5, 1, 2);
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, fmt));
		ASSERT_EQ(0, set_u32(ref, FAIRDIE_IOC_SET_FORMAT, fmt));
		ASSERT_EQ(4, read(self->fd, a, 4));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, fmt));
		ASSERT_EQ(252, read(self->fd, a + 4, 252));
		ASSERT_EQ(256, read(ref, b, 256));
		ASSERT_EQ(0, memcmp(a, b, 256));
	}
	close(ref);
}

/*
 * RESET keeps only the rest of a line already begun: the next line starts
 * from the restarted coin, as after a fresh open.
 */
TEST_F(stream, reset_completes_the_line)
{
	char a[64], b[64];
	char *nl;
	int ref;

	ref = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, ref);
	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 1000000, 9, 1, 2);
	sim_config(_metadata, ref, FAIRDIE_EXT_VN, 1000000, 9, 1, 2);
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(ref, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	/* The first line, cut after one byte, then RESET. */
	ASSERT_EQ(1, read(self->fd, a, 1));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_RESET, NULL));
	ASSERT_EQ(40, read(self->fd, a + 1, 40));
	ASSERT_EQ(40, read(ref, b, 40));
	nl = memchr(b, '\n', 40);
	ASSERT_TRUE(nl != NULL);
	/* The first line whole, then the stream from the seed again. */
	ASSERT_EQ(0, memcmp(a, b, nl + 1 - b));
	ASSERT_EQ(0, memcmp(a + (nl + 1 - b), b, 41 - (nl + 1 - b)));
	close(ref);
}

/* The end of a writable page followed by one that is not. */
static char *edge_buffer(struct __test_metadata *const _metadata, long page,
			 char **map)
{
	*map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(*map != MAP_FAILED);
	ASSERT_EQ(0, mprotect(*map + page, page, PROT_NONE));
	return *map + page;
}

/*
 * A fault inside a binary roll drops it: the next read gives the roll
 * after it, not the same one again.
 */
TEST_F(stream, efault_drops_cut_roll)
{
	long page = sysconf(_SC_PAGESIZE);
	__u32 got[4], want[6];
	char *map, *end;
	int ref, next;
	ssize_t n;

	ref = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, ref);
	/* Width 4. */
	sim_config(_metadata, self->fd, FAIRDIE_EXT_NONE, 1 << 20, 7, 1, 2);
	sim_config(_metadata, ref, FAIRDIE_EXT_NONE, 1 << 20, 7, 1, 2);
	ASSERT_EQ((ssize_t)sizeof(want), read(ref, want, sizeof(want)));
	end = edge_buffer(_metadata, page, &map);

	/*
	 * Roll 0 whole, roll 1 cut after two bytes; or, if the CPU's copy
	 * stops at the page, roll 0 cut and nothing copied.
	 */
	n = read(self->fd, end - 6, 8);
	ASSERT_TRUE(n == 4 || (n == -1 && errno == EFAULT));
	if (n == 4)
		ASSERT_EQ(0, memcmp(end - 6, &want[0], 4));
	next = n == 4 ? 2 : 1;
	/* The next roll cut before its first byte. */
	n = read(self->fd, end, 4);
	ASSERT_EQ(-1, n);
	ASSERT_EQ(EFAULT, errno);
	next++;
	munmap(map, 2 * page);
	ASSERT_EQ((ssize_t)sizeof(got), read(self->fd, got, sizeof(got)));
	TH_LOG("after the faults: %u, expected roll %d: %u", got[0], next,
	       want[next]);
	ASSERT_EQ(0, memcmp(got, &want[next], 3 * sizeof(got[0])));
	close(ref);
}

/* In the text format a fault keeps the bytes copied: nothing is repeated. */
TEST_F(stream, efault_text_continues)
{
	long page = sysconf(_SC_PAGESIZE);
	char a[64], b[64], *map, *end;
	int ref;

	ref = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, ref);
	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 1000000, 3, 1, 2);
	sim_config(_metadata, ref, FAIRDIE_EXT_VN, 1000000, 3, 1, 2);
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(ref, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	end = edge_buffer(_metadata, page, &map);
	ASSERT_EQ(3, read(self->fd, end - 3, 10));
	memcpy(a, end - 3, 3);
	munmap(map, 2 * page);
	ASSERT_EQ(37, read(self->fd, a + 3, 37));
	ASSERT_EQ(40, read(ref, b, 40));
	ASSERT_EQ(0, memcmp(a, b, 40));
	close(ref);
}

struct long_read {
	int fd;
	size_t len;
	ssize_t ret;
	int done;
};

static void *long_read_thread(void *arg)
{
	struct long_read *lr = arg;
	char *buf = malloc(lr->len);

	/* Non-blocking too (the open file is): retry until it is ours. */
	do {
		lr->ret = buf ? read(lr->fd, buf, lr->len) : -1;
	} while (lr->ret == -1 && errno == EAGAIN);
	free(buf);
	__atomic_store_n(&lr->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A poll() that sleeps while another thread's read holds the file must be
 * woken when that read ends. The only time limit is measured from the end
 * of the read, never from the start of the test: a slow machine makes a
 * read last longer, not a wake-up later. Past POLL_LATE_S seconds after the
 * read ended, the poller is taken out of poll() by a signal and the round
 * fails.
 */
#define POLL_LATE_S	10

struct busy_round {
	int fd;
	pthread_t poller;
	sem_t go;		/* the poller asks for one read */
	sem_t back;		/* the poller left poll() (or never entered it) */
	sem_t ended;		/* the read and its check are over */
	size_t len;		/* this round's read */
	int stop;
	int started;		/* set just before this round's read */
	int read_done;		/* set when this round's read returned */
	ssize_t ret;
	int late_s;		/* the limit, POLL_LATE_S unless a test says */
	int rescued;		/* rounds whose poller slept past the limit */
	double late_max;	/* longest wait after a read's end, seconds */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_rescue(int sig)
{
	(void)sig;
}

static void *busy_reader_thread(void *arg)
{
	struct busy_round *br = arg;
	char *buf = malloc(64 * MIB);
	struct timespec limit;
	double end;

	for (;;) {
		sem_wait(&br->go);
		if (br->stop || !buf)
			break;
		__atomic_store_n(&br->started, 1, __ATOMIC_RELEASE);
		do {
			br->ret = read(br->fd, buf, br->len);
		} while (br->ret == -1 && errno == EAGAIN);
		end = now_s();
		__atomic_store_n(&br->read_done, 1, __ATOMIC_RELEASE);
		clock_gettime(CLOCK_REALTIME, &limit);
		limit.tv_sec += br->late_s;
		while (sem_timedwait(&br->back, &limit) == -1) {
			if (errno == EINTR)
				continue;
			/* Asleep in poll() long after the read ended. */
			br->rescued++;
			pthread_kill(br->poller, SIGUSR1);
			sem_wait(&br->back);
			break;
		}
		if (now_s() - end > br->late_max)
			br->late_max = now_s() - end;
		sem_post(&br->ended);
	}
	free(buf);
	return NULL;
}

/*
 * One round: the reader starts a read of br->len bytes. With @probe, this
 * thread makes non-blocking reads until one meets the file busy, then waits
 * in poll(); without, it enters poll() at once, while the read may be
 * taking the file, running or ending.
 * Return: 1 if poll() was reached and woke readable, 0 if the read ended
 * before the file was seen busy, -1 if poll() had to be rescued (or woke
 * not readable).
 */
static int busy_round(struct __test_metadata *const _metadata,
		      struct busy_round *br, bool probe)
{
	struct pollfd pfd = { .fd = br->fd, .events = POLLIN };
	int busy = !probe, woke = 0, rescued = br->rescued, n;
	char c;

	__atomic_store_n(&br->read_done, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&br->started, 0, __ATOMIC_RELAXED);
	sem_post(&br->go);
	/* Let the reader take the file first. */
	while (!__atomic_load_n(&br->started, __ATOMIC_ACQUIRE))
		;
	while (probe && !__atomic_load_n(&br->read_done, __ATOMIC_ACQUIRE)) {
		if (read(br->fd, &c, 1) == -1 && errno == EAGAIN) {
			busy = 1;
			break;
		}
	}
	if (busy) {
		n = poll(&pfd, 1, -1);
		woke = n == 1 && (pfd.revents & POLLIN);
		if (n == -1)
			EXPECT_EQ(EINTR, errno);
	}
	sem_post(&br->back);
	while (sem_wait(&br->ended) == -1 && errno == EINTR)
		;
	EXPECT_EQ((ssize_t)br->len, br->ret);
	/*
	 * The rescue's signal may find poll() readable by then (the core
	 * looks at the file again before it reports EINTR): a round is
	 * judged by whether the rescue was needed.
	 */
	if (br->rescued != rescued)
		return -1;
	if (!busy)
		return 0;
	return woke ? 1 : -1;
}

static void busy_start(struct __test_metadata *const _metadata,
		       struct busy_round *br, pthread_t *t, int fd)
{
	struct sigaction sa = { .sa_handler = on_rescue };

	/* No SA_RESTART: the rescued poll() returns EINTR. */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	memset(br, 0, sizeof(*br));
	br->fd = fd;
	br->poller = pthread_self();
	br->late_s = POLL_LATE_S;
	ASSERT_EQ(0, sem_init(&br->go, 0, 0));
	ASSERT_EQ(0, sem_init(&br->back, 0, 0));
	ASSERT_EQ(0, sem_init(&br->ended, 0, 0));
	ASSERT_EQ(0, pthread_create(t, NULL, busy_reader_thread, br));
}

static void busy_stop(struct busy_round *br, pthread_t t)
{
	br->stop = 1;
	sem_post(&br->go);
	pthread_join(t, NULL);
	sem_destroy(&br->go);
	sem_destroy(&br->back);
	sem_destroy(&br->ended);
}

/*
 * While another thread's read holds the open file, a non-blocking read
 * fails with EAGAIN: poll() must not say readable then, and must wake its
 * caller when the long read ends.
 */
TEST_F_TIMEOUT(stream, poll_agrees_with_nonblock, 600)
{
	struct long_read lr = { .len = 4 * MIB };
	int nb, busy = 0, lies = 0, round, woke = 0;
	struct busy_round br;
	pthread_t t;
	double t0;
	char c;

	nb = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, nb);
	/* The CRNG never underflows: EAGAIN only means the file is busy. */
	crng_bytes_config(_metadata, nb);
	lr.fd = nb;

	/*
	 * Probes slow the read down (under TCG, a lot): a few thousand are
	 * enough, then the read is left to end.
	 */
	for (round = 0; round < 5 && !busy; round++, lr.len *= 2) {
		lr.done = 0;
		ASSERT_EQ(0, pthread_create(&t, NULL, long_read_thread, &lr));
		while (!__atomic_load_n(&lr.done, __ATOMIC_ACQUIRE) &&
		       busy < 5000) {
			if (read(nb, &c, 1) != -1 || errno != EAGAIN)
				continue;
			busy++;
			/* Said readable, yet the next read fails: a lie. */
			if (poll_events(nb) & POLLIN &&
			    read(nb, &c, 1) == -1 && errno == EAGAIN)
				lies++;
		}
		pthread_join(t, NULL);
		ASSERT_EQ((ssize_t)lr.len, lr.ret);
	}
	TH_LOG("%d non-blocking reads met a busy file; poll() said readable %d times",
	       busy, lies);
	ASSERT_LT(0, busy);
	ASSERT_EQ(0, lies);

	/* A poll() that waits is woken when a long read ends. */
	busy_start(_metadata, &br, &t, nb);
	br.len = 4 * MIB;
	for (round = 0; round < 8 && !woke; round++) {
		t0 = now_s();
		woke = busy_round(_metadata, &br, true);
		TH_LOG("a %zu-byte read and a poll(): %.2f s, woken %.3f s after the read's end",
		       br.len, now_s() - t0, br.late_max);
		ASSERT_NE(-1, woke) {
			TH_LOG("poll() slept %d s past the end of the read",
			       POLL_LATE_S);
		}
	}
	busy_stop(&br, t);
	ASSERT_EQ(1, woke);
	close(nb);
}

/*
 * The same, made likely to race: thousands of short reads, each met by a
 * poll() entered as the read starts, so that the read's end falls in
 * every part of poll()'s set-up sooner or later.
 */
TEST_F_TIMEOUT(stream, poll_wakes_after_short_reads, 600)
{
	int nb, round, r, woke = 0;
	struct busy_round br;
	__u64 seed = 27;
	pthread_t t;

	nb = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, nb);
	crng_bytes_config(_metadata, nb);
	busy_start(_metadata, &br, &t, nb);
	for (round = 0; round < 4000; round++) {
		/* 1 byte to 64 KiB, most of them short. */
		br.len = 1 + next_rand(&seed) % (1u << (next_rand(&seed) % 17));
		r = busy_round(_metadata, &br, false);
		if (r < 0)
			break;
		woke += r;
	}
	busy_stop(&br, t);
	TH_LOG("%d rounds: poll() woke %d times; longest wake-up %.3f s after a read's end",
	       round, woke, br.late_max);
	ASSERT_EQ(0, br.rescued);
	ASSERT_LT(0, woke);
	close(nb);
}


/*
 * The control: with the wake-up switched off on purpose (lose_wakeup, a
 * knob of the fault-injection build only), the same rounds must catch a
 * poller asleep after the read's end. Without the knob, there is nothing
 * to check.
 */
TEST_F_TIMEOUT(stream, poll_test_catches_lost_wakeup, 300)
{
	int nb, round, r = 0, err;
	struct busy_round br;
	pthread_t t;

	err = knob_write("lose_wakeup", "1");
	if (err)
		SKIP(return, "no lose_wakeup knob (%s): not a fault-injection build",
		     strerror(err));
	nb = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, nb);
	crng_bytes_config(_metadata, nb);
	busy_start(_metadata, &br, &t, nb);
	br.late_s = 2;
	br.len = MIB;
	/* A round may see the file free again before poll(): try again. */
	for (round = 0; round < 20 && r >= 0; round++)
		r = busy_round(_metadata, &br, true);
	busy_stop(&br, t);
	ASSERT_EQ(0, knob_write("lose_wakeup", "0"));
	TH_LOG("lost wake-up caught after %d rounds", round);
	ASSERT_EQ(-1, r);
	ASSERT_EQ(1, br.rescued);
	close(nb);
}

/*
 * After a non-blocking read met an underflowing RDSEED or RDRAND, poll()
 * says not readable at once, and wakes its caller a tick later.
 */
TEST_F_TIMEOUT(stream, poll_after_underflow, 60)
{
	struct pollfd pfd;
	struct stat st;
	char buf[64];
	__u32 src;
	int nb, r, tries;

	if (has_src(&self->info, FAIRDIE_SRC_RDRAND))
		src = FAIRDIE_SRC_RDRAND;
	else if (has_src(&self->info, FAIRDIE_SRC_RDSEED))
		src = FAIRDIE_SRC_RDSEED;
	else
		SKIP(return, "no hardware source on this CPU");
	if (stat("/sys/kernel/debug/fairdie", &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (stat("/sys/kernel/debug/fairdie", &st))
		SKIP(return, "module built without FAIRDIE_FAULT=1");

	nb = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, nb);
	ASSERT_EQ(0, set_u32(nb, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(nb, FAIRDIE_IOC_SET_SOURCE, src));
	ASSERT_EQ(0, knob_write("underflow_ms", "10000"));
	/* What the file's well holds comes first. */
	for (tries = 0; tries < 4096; tries++)
		if (read(nb, buf, sizeof(buf)) < 0)
			break;
	ASSERT_EQ(EAGAIN, errno);
	/*
	 * Not readable right after the EAGAIN: the file looks again a few
	 * milliseconds later, which a slow (emulated) CPU can miss between
	 * two system calls, so it is tried a few times.
	 */
	for (tries = 0; tries < 20; tries++) {
		r = read(nb, buf, sizeof(buf));
		ASSERT_EQ(-1, r);
		ASSERT_EQ(EAGAIN, errno);
		if (!(poll_events(nb) & POLLIN))
			break;
	}
	TH_LOG("not readable after %d EAGAIN reads", tries + 1);
	ASSERT_GT(20, tries);
	/* A waiting poll() is woken within a second. */
	pfd = (struct pollfd){ .fd = nb, .events = POLLIN };
	r = poll(&pfd, 1, 1000);
	ASSERT_EQ(0, knob_write("underflow_ms", "0"));
	ASSERT_EQ(1, r);
	ASSERT_NE(0, pfd.revents & POLLIN);
	r = read(nb, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), r)
		TH_LOG("read after the underflow: %d (%s)", r,
		       r < 0 ? strerror(errno) : "short");
	close(nb);
}

/* Peres' state is allocated and freed with the extractor; rolls go on. */
TEST_F(stream, peres_state_follows_extractor)
{
	char buf[256];
	int i;

	if (!has_ext(&self->info, FAIRDIE_EXT_PERES))
		SKIP(return, "PERES not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
				     i % 2 ? FAIRDIE_EXT_VN : FAIRDIE_EXT_PERES));
		ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
		ASSERT_EQ(i % 2 ? (__u32)FAIRDIE_EXT_VN : (__u32)FAIRDIE_EXT_PERES,
			  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	}
}

/* GET_SIM returns the coin set, on its own command. */
TEST_F(stream, get_sim_roundtrip)
{
	struct fairdie_sim sim = { 0 };

	ASSERT_EQ(0, set_sim(self->fd, 77, 3, 8));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(77ULL, sim.seed);
	ASSERT_EQ(3ULL, sim.p1_num);
	ASSERT_EQ(8ULL, sim.p1_den);
}

TEST_HARNESS_MAIN
