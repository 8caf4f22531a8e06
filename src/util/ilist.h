/*
 * ilist — a doubly linked list threaded through small integer indices
 * (slots, segments), kept beside the arrays it orders: O(1) unlink and
 * insert, no allocation. The drive uses one for its commands oldest first
 * and one for its cache segments least recently used first.
 */
#ifndef NCQSIM_ILIST_H
#define NCQSIM_ILIST_H

#include <stdint.h>

#define ILIST_MAX	256
#define ILIST_NONE	0xffffu

struct ilist {
	uint16_t head, tail;		/* ILIST_NONE when empty */
	uint16_t prev[ILIST_MAX], next[ILIST_MAX];
};

static inline void ilist_init(struct ilist *l)
{
	l->head = l->tail = ILIST_NONE;
}

static inline void ilist_unlink(struct ilist *l, unsigned i)
{
	unsigned p = l->prev[i], n = l->next[i];

	if (p == ILIST_NONE)
		l->head = (uint16_t)n;
	else
		l->next[p] = (uint16_t)n;
	if (n == ILIST_NONE)
		l->tail = (uint16_t)p;
	else
		l->prev[n] = (uint16_t)p;
}

/* Put i after `after`; after = ILIST_NONE puts it first. */
static inline void ilist_insert_after(struct ilist *l, unsigned i, unsigned after)
{
	unsigned n = after == ILIST_NONE ? l->head : l->next[after];

	l->prev[i] = (uint16_t)after;
	l->next[i] = (uint16_t)n;
	if (after == ILIST_NONE)
		l->head = (uint16_t)i;
	else
		l->next[after] = (uint16_t)i;
	if (n == ILIST_NONE)
		l->tail = (uint16_t)i;
	else
		l->prev[n] = (uint16_t)i;
}

static inline void ilist_move_last(struct ilist *l, unsigned i)
{
	if (l->tail == i)
		return;
	ilist_unlink(l, i);
	ilist_insert_after(l, i, l->tail);
}

#endif
