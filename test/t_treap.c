/* The ordered set under random inserts and removes, against a sorted array. */
#include "testlib.h"
#include "sim/rng.h"
#include "util/treap.h"

#include <stdlib.h>

#define N 5000

struct item {
	struct treap_node node;
	int in;
};

static struct item items[N];

int main(void)
{
	struct treap t;
	struct rng r;
	unsigned round, i;

	treap_init(&t);
	rng_seed(&r, 3, "test/treap");
	for (i = 0; i < N; i++) {
		items[i].node.key = rng_below(&r, 1000);	/* many equal keys */
		items[i].node.tie = i;
	}
	for (round = 0; round < 40000; round++) {
		struct item *it = &items[rng_below(&r, N)];

		if (it->in)
			treap_remove(&t, &it->node);
		else
			treap_insert(&t, &it->node);
		it->in = !it->in;
		if (round % 997 == 0) {
			/* In-order walk: sorted by (key, tie), every member once. */
			struct treap_node *n;
			uint64_t pk = 0, pt = 0, seen = 0;
			int first = 1;

			for (n = treap_first(&t); n; n = treap_next(n)) {
				CHECK(first || n->key > pk || (n->key == pk && n->tie > pt));
				CHECK(items[n->tie].in);
				pk = n->key;
				pt = n->tie;
				first = 0;
				seen++;
			}
			CHECK_EQ_U64(seen, t.count);
		}
	}
	/* lower_bound and floor against a scan. */
	for (i = 0; i < 1000; i += 7) {
		struct treap_node *lb = treap_lower_bound(&t, i), *fl = treap_floor(&t, i);
		uint64_t want_lb = UINT64_MAX, want_fl = UINT64_MAX;
		unsigned j;

		for (j = 0; j < N; j++) {
			if (!items[j].in)
				continue;
			if (items[j].node.key >= i && (want_lb == UINT64_MAX || items[j].node.key < want_lb))
				want_lb = items[j].node.key;
			if (items[j].node.key <= i && (want_fl == UINT64_MAX || items[j].node.key > want_fl))
				want_fl = items[j].node.key;
		}
		CHECK_EQ_U64(lb ? lb->key : UINT64_MAX, want_lb);
		CHECK_EQ_U64(fl ? fl->key : UINT64_MAX, want_fl);
	}
	return test_done();
}
