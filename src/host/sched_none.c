/*
 * none — no I/O scheduler: requests go to the drive in the order they came.
 */
#include "host/blk.h"

#include <stdlib.h>

struct none_data {
	struct blk_request *head, *tail;
};

static int none_init(struct blk_queue *q, void **data, struct err *e)
{
	(void)q;
	*data = calloc(1, sizeof(struct none_data));
	if (!*data)
		return err_set(e, "out of memory");
	return 0;
}

static void none_exit(void *data)
{
	free(data);
}

static void none_insert(void *data, struct blk_request *rq)
{
	struct none_data *nd = data;

	rq->fifo_next = NULL;
	rq->in_sched = true;
	if (nd->tail)
		nd->tail->fifo_next = rq;
	else
		nd->head = rq;
	nd->tail = rq;
}

static struct blk_request *none_dispatch(void *data)
{
	struct none_data *nd = data;
	struct blk_request *rq = nd->head;

	if (rq) {
		nd->head = rq->fifo_next;
		if (!nd->head)
			nd->tail = NULL;
		rq->in_sched = false;
	}
	return rq;
}

const struct sched_ops sched_none_ops = {
	.plugin = { "none", "no I/O scheduler: requests go to the drive in arrival order", NULL },
	.pool = SCHED_POOL_TAGS,
	.init = none_init,
	.exit = none_exit,
	.insert = none_insert,
	.dispatch = none_dispatch,
};
