#include "workload/verifylog.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_PIECES 1024

void verifylog_init(struct verifylog *v, bool sorted)
{
	memset(v, 0, sizeof(*v));
	v->sorted = sorted;
	treap_init(&v->tree);
}

void verifylog_free(struct verifylog *v)
{
	unsigned i;

	for (i = 0; i < v->nchunks; i++)
		free(v->chunks[i]);
	free(v->chunks);
	memset(v, 0, sizeof(*v));
}

static struct verifylog_piece *piece_new(struct verifylog *v)
{
	struct verifylog_piece *p, *chunk;
	unsigned i;

	if (!v->free) {
		if (v->nchunks == v->cap_chunks) {
			unsigned cap = v->cap_chunks ? 2 * v->cap_chunks : 8;
			void **c = realloc(v->chunks, cap * sizeof(*c));

			if (!c)
				return NULL;
			v->chunks = c;
			v->cap_chunks = cap;
		}
		chunk = malloc(CHUNK_PIECES * sizeof(*chunk));
		if (!chunk)
			return NULL;
		v->chunks[v->nchunks++] = chunk;
		for (i = CHUNK_PIECES; i-- > 0;) {
			chunk[i].next = v->free;
			v->free = &chunk[i];
		}
	}
	p = v->free;
	v->free = p->next;
	memset(p, 0, sizeof(*p));
	return p;
}

static void trim_unlink(struct verifylog *v, struct verifylog_piece *p)
{
	if (!p->on_trim)
		return;
	if (p->trim_prev)
		p->trim_prev->trim_next = p->trim_next;
	else
		v->trim_head = p->trim_next;
	if (p->trim_next)
		p->trim_next->trim_prev = p->trim_prev;
	else
		v->trim_tail = p->trim_prev;
	p->on_trim = false;
	v->trim_count--;
}

/* Out of the log (and the trim queue), back to the free list. */
static void piece_drop(struct verifylog *v, struct verifylog_piece *p)
{
	trim_unlink(v, p);
	if (p->prev)
		p->prev->next = p->next;
	else
		v->head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		v->tail = p->prev;
	if (v->sorted)
		treap_remove(&v->tree, &p->node);
	v->count--;
	p->live = false;
	p->next = v->free;
	v->free = p;
}

static struct verifylog_piece *piece_of(struct treap_node *n)
{
	return n ? treap_entry(n, struct verifylog_piece, node) : NULL;
}

struct verifylog_piece *verifylog_add(struct verifylog *v, uint64_t offset, uint64_t len,
				      bool trim)
{
	struct verifylog_piece *p, *o;

	if (v->sorted) {
		/* fio's log_io_piece(): every logged piece the new one overlaps is dropped. */
		o = piece_of(treap_floor(&v->tree, offset));
		if (o && o->node.key + o->len > offset)
			piece_drop(v, o);
		while ((o = piece_of(treap_lower_bound(&v->tree, offset))) && o->node.key < offset + len)
			piece_drop(v, o);
	}
	p = piece_new(v);
	if (!p)
		return NULL;
	p->node.key = offset;
	p->node.tie = v->seq++;
	p->len = len;
	p->live = true;
	p->in_flight = true;
	p->prev = v->tail;
	if (v->tail)
		v->tail->next = p;
	else
		v->head = p;
	v->tail = p;
	if (v->sorted)
		treap_insert(&v->tree, &p->node);
	v->count++;
	if (trim) {
		p->on_trim = true;
		p->trim_prev = v->trim_tail;
		if (v->trim_tail)
			v->trim_tail->trim_next = p;
		else
			v->trim_head = p;
		v->trim_tail = p;
		v->trim_count++;
	}
	return p;
}

void verifylog_unlog(struct verifylog *v, struct verifylog_piece *p, uint64_t seq)
{
	if (p && p->live && p->node.tie == seq)
		piece_drop(v, p);
}

bool verifylog_pop(struct verifylog *v, uint64_t *offset, uint64_t *len, bool *trimmed)
{
	struct verifylog_piece *p = v->sorted ? piece_of(treap_first(&v->tree)) : v->head;

	if (!p || p->in_flight)
		return false;
	*offset = p->node.key;
	*len = p->len;
	*trimmed = p->trimmed;
	piece_drop(v, p);
	return true;
}

bool verifylog_trim_pop(struct verifylog *v, bool keep, uint64_t *offset, uint64_t *len)
{
	struct verifylog_piece *p = v->trim_head;

	if (!p)
		return false;
	*offset = p->node.key;
	*len = p->len;
	if (keep) {
		trim_unlink(v, p);
		p->trimmed = true;
	} else {
		piece_drop(v, p);
	}
	return true;
}
