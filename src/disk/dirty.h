/*
 * dirty — the write cache's dirty data: the ranges of logical sectors the
 * buffer holds for the media, each waiting as a destage (an internal write
 * the firmware schedules beside the queued commands, disk.c). Kept two
 * ways:
 *
 *  - oldest first (a list): the firmware considers the oldest
 *    FWQ_DESTAGE_WINDOW, and a write that continues the newest range joins
 *    it (a sequential stream destages in one pass);
 *  - by first sector (a treap): a write over dirty data replaces it in
 *    place, so no two ranges overlap and a sector is held once however
 *    often it is rewritten — rewriting a few blocks never fills the buffer.
 *
 * A range never splits: a write wholly inside one is written into it; any
 * other write trims the ranges it overlaps at their ends and drops those it
 * covers. So a write needs at most one new range, and the capacity is a
 * plain count.
 *
 * Cost: O(log n) per write (the treap), O(1) to take the range chosen for
 * the media; no allocation after disk_dirty_init().
 */
#ifndef NCQSIM_DISK_DIRTY_H
#define NCQSIM_DISK_DIRTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disk/fwq.h"
#include "disk/layout.h"
#include "util/treap.h"

#define DISK_DIRTY_NONE UINT32_MAX

struct disk_dirty_range {
	struct fwq_cmd cmd;		/* the destage; cmd.lba, cmd.nlb are the range */
	struct treap_node by_lba;	/* key cmd.lba, tie the index */
	uint32_t older, newer;		/* the age list; in the free list, newer links */
};

struct disk_dirty {
	struct disk_dirty_range *r;
	uint32_t cap, count;
	uint32_t oldest, newest;	/* DISK_DIRTY_NONE when empty */
	uint32_t free;			/* unused ranges, linked through .newer */
	struct treap by_lba;
	uint64_t sectors;		/* logical sectors held */
	const struct disk_layout *layout;
};

/* What a write did to the dirty data (disk_dirty_put). */
enum disk_dirty_put {
	DISK_DIRTY_ADDED,		/* a new range, the newest */
	DISK_DIRTY_COALESCED,		/* it continued the newest range, which grew */
	DISK_DIRTY_IN_PLACE,		/* it lay wholly inside a range: written into it */
};

/* Room for `cap` ranges; -1 when out of memory. */
int disk_dirty_init(struct disk_dirty *d, uint32_t cap, const struct disk_layout *l);
void disk_dirty_destroy(struct disk_dirty *d);

static inline struct disk_dirty_range *disk_dirty_oldest(const struct disk_dirty *d)
{
	return d->oldest == DISK_DIRTY_NONE ? NULL : &d->r[d->oldest];
}

static inline struct disk_dirty_range *disk_dirty_newer(const struct disk_dirty *d,
							const struct disk_dirty_range *r)
{
	return r->newer == DISK_DIRTY_NONE ? NULL : &d->r[r->newer];
}

/* The range whose destage `c` is. */
static inline struct disk_dirty_range *disk_dirty_of(const struct fwq_cmd *c)
{
	return (struct disk_dirty_range *)(void *)((char *)c - offsetof(struct disk_dirty_range, cmd));
}

/* Whether [lba, lba + n) overlaps dirty data. */
bool disk_dirty_overlaps(const struct disk_dirty *d, uint64_t lba, uint64_t n);

/*
 * Write `w` (a prepared write command, its sectors w->lba, w->nlb) into
 * the dirty data: wholly inside a range, into it; otherwise the parts of
 * ranges it covers give way, and it joins the newest range when it starts
 * where that ends and the two together hold at most `coalesce_max`
 * sectors, or else becomes the newest range (the caller makes sure one is
 * free: count < cap).
 */
enum disk_dirty_put disk_dirty_put(struct disk_dirty *d, const struct fwq_cmd *w,
				   uint64_t coalesce_max);

/*
 * Sectors [lba, lba + n) go to the media by a write of their own (one that
 * bypasses the cache): the ranges they cover give way, those they overlap
 * at an end are trimmed. A write wholly inside a range leaves it whole —
 * its data is written into the range as well — so nothing splits.
 */
void disk_dirty_drop(struct disk_dirty *d, uint64_t lba, uint64_t n);

/* The range goes to the media (its destage was chosen): it leaves the dirty data. */
void disk_dirty_remove(struct disk_dirty *d, struct disk_dirty_range *r);

#endif
