#include "workload/randmap.h"

#include <stdlib.h>

struct randmap_range {
	struct treap_node node;		/* node.key: the first block */
	uint64_t len;
};

static struct randmap_range *range_of(struct treap_node *n)
{
	return n ? treap_entry(n, struct randmap_range, node) : NULL;
}

void randmap_init(struct randmap *m, uint64_t nblocks)
{
	treap_init(&m->done);
	m->nblocks = nblocks;
	m->ndone = 0;
}

void randmap_free(struct randmap *m)
{
	struct treap_node *n;

	while ((n = treap_first(&m->done))) {
		treap_remove(&m->done, n);
		free(range_of(n));
	}
	m->ndone = 0;
}

void randmap_reset(struct randmap *m)
{
	randmap_free(m);
}

/* The range holding `block`, or NULL. */
static struct randmap_range *holding(const struct randmap *m, uint64_t block)
{
	struct randmap_range *r = range_of(treap_floor(&m->done, block));

	return r && block < r->node.key + r->len ? r : NULL;
}

bool randmap_is_free(const struct randmap *m, uint64_t block)
{
	return block < m->nblocks && !holding(m, block);
}

uint64_t randmap_next_free(const struct randmap *m, uint64_t block)
{
	uint64_t b = block + 1;
	struct randmap_range *r;

	if (m->ndone >= m->nblocks)
		return RANDMAP_FULL;
	if (b >= m->nblocks)
		b = 0;
	/* Ranges never touch, so the block after one is free (unless past the end). */
	r = holding(m, b);
	if (!r)
		return b;
	b = r->node.key + r->len;
	if (b < m->nblocks)
		return b;
	r = holding(m, 0);
	return r ? r->node.key + r->len : 0;
}

uint64_t randmap_set_nr(struct randmap *m, uint64_t block, uint64_t n)
{
	struct randmap_range *prev = range_of(treap_floor(&m->done, block));
	struct randmap_range *next = range_of(treap_lower_bound(&m->done, block));
	uint64_t end = block + n;

	if (end > m->nblocks)
		end = m->nblocks;
	if (next && next->node.key < end)
		end = next->node.key;		/* cut short before the next done block */
	n = end - block;
	m->ndone += n;
	if (prev && prev->node.key + prev->len == block) {
		prev->len += n;
		if (next && next->node.key == end) {
			prev->len += next->len;
			treap_remove(&m->done, &next->node);
			free(next);
		}
		return n;
	}
	if (next && next->node.key == end) {
		/* Grow the next range down to `block`: its key changes, so re-insert it. */
		treap_remove(&m->done, &next->node);
		next->node.key = block;
		next->len += n;
		treap_insert(&m->done, &next->node);
		return n;
	}
	{
		struct randmap_range *r = malloc(sizeof(*r));

		if (!r) {
			m->ndone -= n;
			return 0;	/* out of memory: the caller stops the run */
		}
		r->node.key = block;
		r->node.tie = 0;
		r->len = n;
		treap_insert(&m->done, &r->node);
	}
	return n;
}
