/*
 * randmap — fio's random map (lib/axmap.c's role) for I/Os of varying
 * length: which blocks of a job's region have been done this pass. A
 * random offset that lands on a done block moves to the next free one
 * (wrapping), and an I/O that runs into done blocks is cut short before
 * them (fio's mark_random_map), so a pass covers the region exactly once.
 *
 * Kept as a set of done ranges, not a bitmap: memory grows with the
 * fragments of this pass, never with the size of the region.
 */
#ifndef NCQSIM_WORKLOAD_RANDMAP_H
#define NCQSIM_WORKLOAD_RANDMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/treap.h"

struct randmap {
	struct treap done;		/* disjoint, non-adjacent [key, key + len) ranges */
	uint64_t nblocks, ndone;
};

#define RANDMAP_FULL UINT64_MAX

void randmap_init(struct randmap *m, uint64_t nblocks);
/* Every block free again (a new pass). */
void randmap_reset(struct randmap *m);
void randmap_free(struct randmap *m);
bool randmap_is_free(const struct randmap *m, uint64_t block);
/* The first free block after `block`, wrapping to 0; RANDMAP_FULL when none. */
uint64_t randmap_next_free(const struct randmap *m, uint64_t block);
/*
 * Mark up to n blocks from `block` (which must be free) as done, stopping
 * at the first done one; returns how many were marked (at least 1), or 0
 * when out of memory.
 */
uint64_t randmap_set_nr(struct randmap *m, uint64_t block, uint64_t n);

#endif
