/*
 * verifylog — fio's io_hist: the writes a verifying job has issued, in the
 * order fio reads them back.
 *
 *   FIFO    (a random job with fio's random map, or experimental_verify):
 *           in issue order; the same block written twice is read twice
 *   sorted  (otherwise): by offset, a write that overlaps logged ones
 *           replacing them (fio's rb-tree insert), so each block is read
 *           once, in offset order
 *
 * Each piece is "in flight" until its write completes: fio's
 * get_next_verify() does not take a head still in flight. Pieces may also
 * be queued for trimming (trim_percentage: fio's trim_list, in log order);
 * a piece replaced, read back or trimmed away leaves that queue too.
 *
 * Memory follows the pieces logged and not yet read back (fio holds the
 * same, an io_piece per write); nodes come from chunks kept on a free
 * list, so logging allocates only when the log outgrows every earlier
 * size.
 */
#ifndef NCQSIM_WORKLOAD_VERIFYLOG_H
#define NCQSIM_WORKLOAD_VERIFYLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "util/treap.h"

struct verifylog_piece {
	struct treap_node node;		/* node.key: offset (sorted); node.tie: the log's sequence */
	uint64_t len;
	bool live;			/* in the log (not back on the free list) */
	bool in_flight;			/* its write has not completed */
	bool trimmed;			/* trimmed with trim_verify_zero: read back as zeros */
	struct verifylog_piece *next, *prev;		/* FIFO order (both modes) */
	struct verifylog_piece *trim_next, *trim_prev;	/* the trim queue */
	bool on_trim;
};

struct verifylog {
	bool sorted;
	struct treap tree;			/* sorted mode */
	struct verifylog_piece *head, *tail;	/* log order */
	struct verifylog_piece *trim_head, *trim_tail;
	uint64_t count, trim_count, seq;
	struct verifylog_piece *free;
	void **chunks;
	unsigned nchunks, cap_chunks;
};

void verifylog_init(struct verifylog *v, bool sorted);
void verifylog_free(struct verifylog *v);
/*
 * Log a write about to be issued (in flight); `trim` queues it for
 * trimming. NULL when out of memory.
 */
struct verifylog_piece *verifylog_add(struct verifylog *v, uint64_t offset, uint64_t len,
				      bool trim);
/*
 * The write of piece p, logged as number `seq` (its node.tie when added),
 * completed. A piece an overlapping write replaced meanwhile may hold
 * another number by now (its node was reused): then nothing happens.
 */
static inline void verifylog_written(struct verifylog_piece *p, uint64_t seq)
{
	if (p && p->live && p->node.tie == seq)
		p->in_flight = false;
}
/* A logged write failed: fio's unlog_io_piece() (nothing if it was replaced meanwhile). */
void verifylog_unlog(struct verifylog *v, struct verifylog_piece *p, uint64_t seq);
/*
 * Read back the next piece (the oldest, or the lowest offset): false when
 * the log is empty or its head is still in flight. *trimmed: it was
 * trimmed (fio reads it back for zeros).
 */
bool verifylog_pop(struct verifylog *v, uint64_t *offset, uint64_t *len, bool *trimmed);
/*
 * The next piece to trim (trim_list's head): false when none. With
 * `keep` (trim_verify_zero) the piece stays to be read back, marked
 * trimmed; without, it leaves the log.
 */
bool verifylog_trim_pop(struct verifylog *v, bool keep, uint64_t *offset, uint64_t *len);

#endif
