#include "disk/dirty.h"

#include <stdlib.h>

int disk_dirty_init(struct disk_dirty *d, uint32_t cap, const struct disk_layout *l)
{
	uint32_t i;

	d->r = calloc(cap, sizeof(*d->r));
	if (!d->r)
		return -1;
	d->cap = cap;
	d->count = 0;
	d->oldest = d->newest = DISK_DIRTY_NONE;
	d->sectors = 0;
	d->layout = l;
	treap_init(&d->by_lba);
	/* The free list in index order, so ranges are taken lowest index first. */
	for (i = 0; i < cap; i++)
		d->r[i].newer = i + 1 < cap ? i + 1 : DISK_DIRTY_NONE;
	d->free = cap ? 0 : DISK_DIRTY_NONE;
	return 0;
}

void disk_dirty_destroy(struct disk_dirty *d)
{
	free(d->r);
	d->r = NULL;
}

static struct disk_dirty_range *range_of(struct treap_node *n)
{
	return n ? treap_entry(n, struct disk_dirty_range, by_lba) : NULL;
}

static uint32_t index_of(const struct disk_dirty *d, const struct disk_dirty_range *r)
{
	return (uint32_t)(r - d->r);
}

/* The range's sectors become [lba, lba + nlb): its physical extent, position and RMW follow. */
static void set_span(struct disk_dirty *d, struct disk_dirty_range *r, uint64_t lba, uint64_t nlb)
{
	const struct disk_layout *l = d->layout;
	bool moved = lba != r->cmd.lba;

	d->sectors += nlb;
	d->sectors -= r->cmd.nlb;
	if (moved)
		treap_remove(&d->by_lba, &r->by_lba);
	r->cmd.lba = lba;
	r->cmd.nlb = nlb;
	disk_layout_physical(l, lba, nlb, &r->cmd.ps, &r->cmd.nps);
	r->cmd.rmw = lba % l->lpp || (lba + nlb) % l->lpp;
	if (moved) {
		disk_layout_locate(l, r->cmd.ps, &r->cmd.where);
		r->by_lba.key = lba;
		treap_insert(&d->by_lba, &r->by_lba);
	}
}

void disk_dirty_remove(struct disk_dirty *d, struct disk_dirty_range *r)
{
	uint32_t i = index_of(d, r);

	treap_remove(&d->by_lba, &r->by_lba);
	if (r->older == DISK_DIRTY_NONE)
		d->oldest = r->newer;
	else
		d->r[r->older].newer = r->newer;
	if (r->newer == DISK_DIRTY_NONE)
		d->newest = r->older;
	else
		d->r[r->newer].older = r->older;
	d->sectors -= r->cmd.nlb;
	d->count--;
	r->newer = d->free;
	d->free = i;
}

/* The first range that could overlap [lba, ...): the one holding lba, else the next after it. */
static struct disk_dirty_range *first_from(const struct disk_dirty *d, uint64_t lba)
{
	struct disk_dirty_range *r = range_of(treap_floor(&d->by_lba, lba));

	if (r && r->cmd.lba + r->cmd.nlb > lba)
		return r;
	return range_of(r ? treap_next(&r->by_lba) : treap_first(&d->by_lba));
}

bool disk_dirty_overlaps(const struct disk_dirty *d, uint64_t lba, uint64_t n)
{
	const struct disk_dirty_range *r = first_from(d, lba);

	return r && r->cmd.lba < lba + n;
}

/* The range wholly holding [lba, lba + n), or NULL. */
static struct disk_dirty_range *holding(const struct disk_dirty *d, uint64_t lba, uint64_t n)
{
	struct disk_dirty_range *r = range_of(treap_floor(&d->by_lba, lba));

	return r && r->cmd.lba + r->cmd.nlb >= lba + n ? r : NULL;
}

/* Every range overlapping [lba, lba + n) loses what it shares with it; none is inside. */
static void give_way(struct disk_dirty *d, uint64_t lba, uint64_t n)
{
	struct disk_dirty_range *r = first_from(d, lba), *next;
	uint64_t end = lba + n;

	for (; r && r->cmd.lba < end; r = next) {
		uint64_t rs = r->cmd.lba, re = rs + r->cmd.nlb;

		next = range_of(treap_next(&r->by_lba));
		if (rs >= lba && re <= end)
			disk_dirty_remove(d, r);
		else if (rs < lba)
			set_span(d, r, rs, lba - rs);		/* its tail is rewritten */
		else
			set_span(d, r, end, re - end);		/* its head is rewritten */
	}
}

enum disk_dirty_put disk_dirty_put(struct disk_dirty *d, const struct fwq_cmd *w,
				   uint64_t coalesce_max)
{
	struct disk_dirty_range *r;
	uint32_t i;

	if (holding(d, w->lba, w->nlb))
		return DISK_DIRTY_IN_PLACE;
	give_way(d, w->lba, w->nlb);
	if (d->newest != DISK_DIRTY_NONE) {
		r = &d->r[d->newest];
		if (r->cmd.lba + r->cmd.nlb == w->lba && r->cmd.nlb + w->nlb <= coalesce_max) {
			set_span(d, r, r->cmd.lba, r->cmd.nlb + w->nlb);
			return DISK_DIRTY_COALESCED;
		}
	}
	i = d->free;
	r = &d->r[i];
	d->free = r->newer;
	r->cmd = *w;
	r->cmd.destage = true;
	r->cmd.high = false;
	r->cmd.cdl = 0;			/* the host has its completion: no limit is left */
	r->cmd.cdl_start_by = INT64_MAX;
	r->cmd.tag = (uint8_t)FWQ_SLOTS;
	r->cmd.rmw = w->lba % d->layout->lpp || (w->lba + w->nlb) % d->layout->lpp;
	r->by_lba.key = w->lba;
	r->by_lba.tie = i;
	treap_insert(&d->by_lba, &r->by_lba);
	r->older = d->newest;
	r->newer = DISK_DIRTY_NONE;
	if (d->newest == DISK_DIRTY_NONE)
		d->oldest = i;
	else
		d->r[d->newest].newer = i;
	d->newest = i;
	d->count++;
	d->sectors += w->nlb;
	return DISK_DIRTY_ADDED;
}

void disk_dirty_drop(struct disk_dirty *d, uint64_t lba, uint64_t n)
{
	if (!holding(d, lba, n))
		give_way(d, lba, n);
}
