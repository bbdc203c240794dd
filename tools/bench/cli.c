// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the fairdie tool beside GNU shuf, on the same machine in
 * the same run (Documentation/design/fairdie.rst, Targets):
 *
 * - rolling: "fairdie --source=getrandom roll -n N d6" against
 *   "shuf -r -i 1-6 -n N", N = 10^7;
 * - shuffling: "fairdie --source=getrandom shuffle" against "shuf", on L =
 *   10^6 lines read from standard input (a file: "1" to "L", as seq
 *   writes them).
 *
 * Both take getrandom(2)'s bits (shuf's default) and write to /dev/null.
 * The programs run in turn, REPS times, the order swapped every time. The
 * time of a run is the CPU time it took, user and system (wait4()): on a
 * machine shared with other work it does not depend on that work, where
 * the wall time, shown beside it, does. Memory is the peak resident set
 * (ru_maxrss). Figures are medians; a ratio is fairdie's over shuf's, so
 * that <= 1 is as fast or as small.
 *
 *   cli [-r REPS] [-n ROLLS] [-l LINES] [-v DRAWS -g SEAL_GEN] [-d DIR] FAIRDIE
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/**
 * struct cli_run - the figures of one program over the repetitions
 * @cpu: CPU seconds, user and system
 * @wall: wall seconds
 * @rss: peak resident set, KiB
 */
struct cli_run {
	struct bench_stat cpu;
	struct bench_stat wall;
	struct bench_stat rss;
};

/* Run @argv with standard input from @in (or /dev/null), output dropped. */
static int cli_run(char *const *argv, const char *in, struct cli_run *r)
{
	struct rusage ru;
	double t0 = bench_now();
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);
		int fd = open(in ? in : "/dev/null", O_RDONLY);

		if (null < 0 || fd < 0 || dup2(null, STDOUT_FILENO) < 0 ||
		    dup2(fd, STDIN_FILENO) < 0)
			_exit(127);
		unsetenv("FAIRDIE_SOURCE");
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st)) {
		fprintf(stderr, "cli: %s failed\n", argv[0]);
		return -1;
	}
	bench_stat_add(&r->wall, bench_now() - t0);
	bench_stat_add(&r->cpu, ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
			       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	bench_stat_add(&r->rss, ru.ru_maxrss);
	return 0;
}

/* @reps runs of @a and @b in turn, the order swapped every time. */
static int cli_pair(char *const *a, char *const *b, const char *in, int reps,
		    struct cli_run *ra, struct cli_run *rb)
{
	int i;

	for (i = 0; i < reps; i++) {
		if (i % 2 ? cli_run(b, in, rb) || cli_run(a, in, ra) :
			    cli_run(a, in, ra) || cli_run(b, in, rb))
			return -1;
	}
	return 0;
}

/*
 * 'fairdie verify' on a log of @draws revealed 'sample 6 49' draws made by
 * @gen in @dir (/dev/shm when there is one: the log's appends are
 * fsync'd), @reps times: revealed records per CPU second, or -1.
 */
static double cli_verify(const char *fairdie, const char *gen, long draws,
			 const char *dir, int reps)
{
	char key[4096], pub[4100], log[4096], num[32];
	struct cli_run r = { 0 };
	double rate = -1;
	int i;

	if (!access("/dev/shm", W_OK))
		dir = "/dev/shm";
	snprintf(key, sizeof(key), "%s/fairdie-bench-key.%d", dir, getpid());
	snprintf(pub, sizeof(pub), "%s.pub", key);
	snprintf(log, sizeof(log), "%s/fairdie-bench-log.%d", dir, getpid());
	snprintf(num, sizeof(num), "%ld", draws);
	{
		char *keygen[] = { (char *)fairdie, "--seed=1", "keygen", key,
				   NULL };
		char *make[] = { (char *)gen, log, key, num, NULL };
		char *verify[] = { (char *)fairdie, "verify", "--key", pub,
				   log, NULL };

		if (cli_run(keygen, NULL, &r) || cli_run(make, NULL, &r))
			goto out;
		memset(&r, 0, sizeof(r));
		for (i = 0; i < reps; i++)
			if (cli_run(verify, NULL, &r))
				goto out;
	}
	printf("'fairdie verify' on %ld revealed 'sample 6 49' draws (%ld records): %.3f CPU s\n",
	       draws, 2 * draws, bench_median(&r.cpu));
	printf("(median of %d), %.3f wall s: %.0f revealed records per CPU second (target\n",
	       reps, bench_median(&r.wall), draws / bench_median(&r.cpu));
	printf(">= 100000).\n\n");
	rate = draws / bench_median(&r.cpu);
out:
	unlink(key);
	unlink(pub);
	unlink(log);
	return rate;
}

static void cli_row(const char *what, const struct cli_run *r)
{
	char spread[64];

	printf("| %-36s | %-26s | %8.3f | %7.0f |\n", what,
	       bench_spread(spread, sizeof(spread), &r->cpu),
	       bench_median(&r->wall), bench_median(&r->rss));
}

int main(int argc, char **argv)
{
	struct cli_run f_roll = { 0 }, s_roll = { 0 }, f_shuf = { 0 };
	struct cli_run s_shuf = { 0 };
	long rolls = 10000000, lines = 1000000, i;
	const char *dir = ".", *fairdie, *gen = NULL;
	long draws = 0;
	double verify = 0;
	char path[4096], num[32], head[96];
	int reps = 5, c;
	double roll, shuf, mem;
	FILE *f;

	while ((c = getopt(argc, argv, "r:n:l:v:g:d:")) != -1) {
		switch (c) {
		case 'r':
			reps = atoi(optarg);
			break;
		case 'n':
			rolls = atol(optarg);
			break;
		case 'l':
			lines = atol(optarg);
			break;
		case 'v':
			draws = atol(optarg);
			break;
		case 'g':
			gen = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc || reps < 1 || reps > BENCH_MAX_REPS ||
	    rolls < 1 || lines < 1 || (draws && !gen)) {
		fprintf(stderr, "usage: cli [-r REPS] [-n ROLLS] [-l LINES] [-v DRAWS -g SEAL_GEN] [-d DIR] FAIRDIE\n");
		return 2;
	}
	fairdie = argv[optind];
	snprintf(path, sizeof(path), "%s/cli-lines.txt", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "cli: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (i = 1; i <= lines; i++)
		fprintf(f, "%ld\n", i);
	if (fclose(f))
		return 1;
	snprintf(num, sizeof(num), "%ld", rolls);

	{
		char *f_roll_argv[] = { (char *)fairdie, "--source=getrandom",
					"roll", "-n", num, "d6", NULL };
		char *s_roll_argv[] = { "shuf", "-r", "-i", "1-6", "-n", num,
					NULL };
		char *f_shuf_argv[] = { (char *)fairdie, "--source=getrandom",
					"shuffle", NULL };
		char *s_shuf_argv[] = { "shuf", NULL };

		if (cli_pair(f_roll_argv, s_roll_argv, NULL, reps, &f_roll,
			     &s_roll) ||
		    cli_pair(f_shuf_argv, s_shuf_argv, path, reps, &f_shuf,
			     &s_shuf))
			return 1;
	}
	unlink(path);

	printf("## The fairdie tool beside shuf\n\n");
	printf("CPU seconds (user + system, from wait4()) of each program, median of %d runs\n",
	       reps);
	printf("in turn (spread min-max), the wall seconds beside them, and the peak resident\n");
	printf("set. Both take getrandom(2)'s bits and write to /dev/null.\n\n");
	printf("| %-36s | %-26s | %8s | %7s |\n", "command", "CPU s (min-max)",
	       "wall s", "max KiB");
	printf("|%.38s|%.28s|%.10s|%.9s|\n",
	       "--------------------------------------",
	       "----------------------------", "----------", "---------");
	snprintf(head, sizeof(head), "fairdie roll -n %ld d6", rolls);
	cli_row(head, &f_roll);
	snprintf(head, sizeof(head), "shuf -r -i 1-6 -n %ld", rolls);
	cli_row(head, &s_roll);
	snprintf(head, sizeof(head), "fairdie shuffle < %ld lines", lines);
	cli_row(head, &f_shuf);
	snprintf(head, sizeof(head), "shuf < %ld lines", lines);
	cli_row(head, &s_shuf);

	roll = bench_median(&f_roll.cpu) / bench_median(&s_roll.cpu);
	shuf = bench_median(&f_shuf.cpu) / bench_median(&s_shuf.cpu);
	mem = bench_median(&f_shuf.rss) / bench_median(&s_shuf.rss);
	printf("\nTargets: roll at most 1.0 x shuf's time (%.2f), shuffle at most 1.2 x its\n",
	       roll);
	printf("time (%.2f) and 1.5 x its memory (%.2f).\n\n", shuf, mem);
	bench_key(roll, "cli_roll_vs_shuf");
	bench_key(bench_median(&f_roll.wall) / bench_median(&s_roll.wall),
		  "cli_roll_vs_shuf_wall");
	bench_key(shuf, "cli_shuffle_vs_shuf");
	bench_key(bench_median(&f_shuf.wall) / bench_median(&s_shuf.wall),
		  "cli_shuffle_vs_shuf_wall");
	bench_key(mem, "cli_shuffle_mem_vs_shuf");
	bench_key(bench_median(&f_roll.cpu), "cli_roll_cpu_s");
	bench_key(bench_median(&s_roll.cpu), "shuf_roll_cpu_s");
	bench_key(bench_median(&f_shuf.cpu), "cli_shuffle_cpu_s");
	bench_key(bench_median(&s_shuf.cpu), "shuf_shuffle_cpu_s");
	bench_key(bench_median(&f_shuf.rss), "cli_shuffle_maxrss_kib");
	bench_key(bench_median(&s_shuf.rss), "shuf_shuffle_maxrss_kib");
	if (draws) {
		verify = cli_verify(fairdie, gen, draws, dir, reps);
		if (verify < 0)
			return 1;
		bench_key(verify, "verify_records_per_s");
	}
	bench_print_keys();
	return 0;
}
