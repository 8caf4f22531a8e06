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
/* Set node->key and node->tie first; (key, tie) pairs must be unique. */
void treap_insert(struct treap *t, struct treap_node *n);
void treap_remove(struct treap *t, struct treap_node *n);
struct treap_node *treap_first(const struct treap *t);
struct treap_node *treap_next(const struct treap_node *n);
/* First node with key >= k, or NULL. */
struct treap_node *treap_lower_bound(const struct treap *t, uint64_t k);
/* Last node with key <= k, or NULL. */
struct treap_node *treap_floor(const struct treap *t, uint64_t k);

#define treap_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
