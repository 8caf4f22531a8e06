#include "util/treap.h"

void treap_init(struct treap *t)
{
	t->root = NULL;
	t->count = 0;
	t->state = 0x9e3779b9u;
}

static uint32_t next_prio(struct treap *t)
{
	uint32_t x = t->state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	t->state = x;
	return x;
}

static int before(const struct treap_node *a, const struct treap_node *b)
{
	return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static void replace_child(struct treap *t, struct treap_node *parent,
			  struct treap_node *old, struct treap_node *new)
{
	if (!parent)
		t->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		new->parent = parent;
}

/* Rotate n up over its parent. */
static void rotate_up(struct treap *t, struct treap_node *n)
{
	struct treap_node *p = n->parent, *g = p->parent;

	if (p->left == n) {
		p->left = n->right;
		if (n->right)
			n->right->parent = p;
		n->right = p;
	} else {
		p->right = n->left;
		if (n->left)
			n->left->parent = p;
		n->left = p;
	}
	p->parent = n;
	replace_child(t, g, p, n);
}

void treap_insert(struct treap *t, struct treap_node *n)
{
	struct treap_node **link = &t->root, *parent = NULL;

	n->left = n->right = NULL;
	n->prio = next_prio(t);
	while (*link) {
		parent = *link;
		link = before(n, parent) ? &parent->left : &parent->right;
	}
	*link = n;
	n->parent = parent;
	while (n->parent && n->parent->prio > n->prio)
		rotate_up(t, n);
	t->count++;
}

void treap_remove(struct treap *t, struct treap_node *n)
{
	/* Rotate n down until it has at most one child, then splice it out. */
	while (n->left && n->right)
		rotate_up(t, n->left->prio < n->right->prio ? n->left : n->right);
	replace_child(t, n->parent, n, n->left ? n->left : n->right);
	n->left = n->right = n->parent = NULL;
	t->count--;
}

struct treap_node *treap_first(const struct treap *t)
{
	struct treap_node *n = t->root;

	while (n && n->left)
		n = n->left;
	return n;
}

struct treap_node *treap_next(const struct treap_node *n)
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

struct treap_node *treap_lower_bound(const struct treap *t, uint64_t k)
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

struct treap_node *treap_floor(const struct treap *t, uint64_t k)
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
