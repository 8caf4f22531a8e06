#include "util/treap.h"

void treap_init(struct treap *t)
{
	t->root = NULL;
	t->count = 0;
	t->state = 0x9e3779b9u;
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

void treap_insert_general(struct treap *t, struct treap_node *n)
{
	struct treap_node **link = &t->root, *parent = NULL;

	n->left = n->right = NULL;
	n->prio = treap_next_prio(t);
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

void treap_remove_general(struct treap *t, struct treap_node *n)
{
	/* Rotate n down until it has at most one child, then splice it out. */
	while (n->left && n->right)
		rotate_up(t, n->left->prio < n->right->prio ? n->left : n->right);
	replace_child(t, n->parent, n, n->left ? n->left : n->right);
	n->left = n->right = n->parent = NULL;
	t->count--;
}
