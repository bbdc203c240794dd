// SPDX-License-Identifier: GPL-2.0
/*
 * simwords - the simulated coin's raw words, as FAIRDIE_IOC_GET_RAW gives
 * them, for checking a capture of the SIM source (tools/guest/collect.sh).
 *
 * Usage: simwords SEED NUM DEN SKIP COUNT
 * Writes words SKIP .. SKIP + COUNT - 1 of the coin P(1) = NUM/DEN seeded
 * with SEED (driver/fd_sim.c, the module's own code) on stdout, each 64-bit
 * little-endian.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>

#include "fd_sim.c"

int main(int argc, char **argv)
{
	unsigned long long skip, count, i;
	struct fd_sim sim;
	u64 w;

	if (argc != 6 ||
	    !fd_sim_init(&sim, strtoull(argv[1], NULL, 0),
			 strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0))) {
		fprintf(stderr, "usage: simwords SEED NUM DEN SKIP COUNT\n");
		return 2;
	}
	skip = strtoull(argv[4], NULL, 0);
	count = strtoull(argv[5], NULL, 0);
	for (i = 0; i < skip; i++)
		fd_sim_word(&sim);
	for (i = 0; i < count; i++) {
		w = htole64(fd_sim_word(&sim));
		if (fwrite(&w, sizeof(w), 1, stdout) != 1)
			return 1;
	}
	return fflush(stdout) ? 1 : 0;
}
