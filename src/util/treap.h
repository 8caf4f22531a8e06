/*
 * treap — an intrusive ordered set keyed on (key, tie), with parent links
 * so that a node knows its successor. Expected O(log n) insert, remove and
 * search; the heap priorities come from a per-tree xorshift stream, so the
 * shape (and everything downstream) is deterministic.
 *
 * The I/O schedulers keep their sector-sorted lists in one (the kernel's
 * rbtree role).
 */
#ifndef NCQSIM_TREAP_H
#define NCQSIM_TREAP_H

#include <stddef.h>
#include <stdint.h>

struct treap_node {
	struct treap_node *left, *right, *parent;
	uint64_t key, tie;
	uint32_t prio;
};

struct treap {
	struct treap_node *root;
	size_t count;
	uint32_t state;
};

void treap_init(struct treap *t);
/*
 * The general cases of insert and remove. treap_insert() and treap_remove()
 * below do an empty tree and a leaf inline: the schedulers' sorted lists
 * mostly hold a request or two, and there the call cost more than the work.
 * (The priority stream decides the shape, never the order.)
 */
void treap_insert_general(struct treap *t, struct treap_node *n);
void treap_remove_general(struct treap *t, struct treap_node *n);

/* The heap priorities: a per-tree xorshift stream. */
static inline uint32_t treap_next_prio(struct treap *t)
{
	uint32_t x = t->state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	t->state = x;
	return x;
}

/* Set node->key and node->tie first; (key, tie) pairs must be unique. */
static inline void treap_insert(struct treap *t, struct treap_node *n)
{
	if (t->root) {
		treap_insert_general(t, n);
		return;
	}
	/*
	 * Alone, a node's priority decides nothing; the lowest keeps it the
	 * root until it goes (the heap order holds, the stream is spared).
	 */
	n->left = n->right = n->parent = NULL;
	n->prio = 0;
	t->root = n;
	t->count = 1;
}

static inline void treap_remove(struct treap *t, struct treap_node *n)
{
	struct treap_node *p = n->parent;

	if (n->left || n->right) {
		treap_remove_general(t, n);
		return;
	}
	if (!p)
		t->root = NULL;
	else if (p->left == n)
		p->left = NULL;
	else
		p->right = NULL;
	n->parent = NULL;
	t->count--;
}

static inline struct treap_node *treap_first(const struct treap *t)
{
	struct treap_node *n = t->root;

	while (n && n->left)
		n = n->left;
	return n;
}

static inline struct treap_node *treap_next(const struct treap_node *n)
{
	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct treap_node *)n;
	}
	while (n->parent && n->parent->right == n)
		n = n->parent;
	return n->parent;
}

/* First node with key >= k, or NULL. */
static inline struct treap_node *treap_lower_bound(const struct treap *t, uint64_t k)
{
	struct treap_node *n = t->root, *res = NULL;

	while (n) {
		if (n->key >= k) {
			res = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return res;
}

/* Last node with key <= k, or NULL. */
static inline struct treap_node *treap_floor(const struct treap *t, uint64_t k)
{
	struct treap_node *n = t->root, *res = NULL;

	while (n) {
		if (n->key <= k) {
			res = n;
			n = n->right;
		} else {
			n = n->left;
		}
	}
	return res;
}

#define treap_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
