/*
 * The histogram reproduces fio exactly: rebuild fio's histograms from the
 * `bins` of every JSON+ sample (clat_ns and each prios[] entry) and compare
 * every percentile fio printed, to the nanosecond.
 */
#include "testlib.h"
#include "json.h"
#include "stats/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compared;

static void check_latency_object(const char *where, const struct json *lat)
{
	struct json *bins = json_get(lat, "bins"), *pct = json_get(lat, "percentile");
	static struct hist h;
	double plist[HIST_MAX_PERCENTILES], sorted[HIST_MAX_PERCENTILES];
	uint64_t out[HIST_MAX_PERCENTILES];
	unsigned i, n;

	if (!bins || !pct)
		return;
	hist_init(&h);
	for (i = 0; i < bins->len; i++) {
		uint64_t value = strtoull(bins->keys[i], NULL, 10);
		unsigned idx = hist_bucket_index(value);

		/* fio's keys are bucket values: they map back to themselves. */
		CHECK_EQ_U64(hist_bucket_value(idx), value);
		hist_add_bucket(&h, idx, json_u64(bins->items[i]));
	}
	CHECK_EQ_U64(h.sum.n, json_u64(json_get(lat, "N")));
	n = (unsigned)pct->len;
	CHECK(n <= HIST_MAX_PERCENTILES);
	for (i = 0; i < n; i++)
		plist[i] = strtod(pct->keys[i], NULL);
	CHECK_EQ_INT(hist_percentiles(&h, plist, n, sorted, out), n);
	for (i = 0; i < n; i++) {
		uint64_t want = json_u64(pct->items[i]);

		CHECK_MSG(out[i] == want, "%s: p%s = %llu, fio says %llu", where,
			  pct->keys[i], (unsigned long long)out[i], (unsigned long long)want);
		compared++;
	}
}

static void check_file(const char *name)
{
	char err[256], where[256];
	char *text = test_slurp(test_data(name), NULL);
	struct json *root, *jobs;
	size_t j, p;
	static const char *dirs[] = { "read", "write", "trim" };

	CHECK_MSG(text != NULL, "cannot read %s", name);
	if (!text)
		return;
	root = json_parse(text, err, sizeof(err));
	CHECK_MSG(root != NULL, "%s: %s", name, err);
	jobs = json_get(root, "jobs");
	for (j = 0; jobs && j < jobs->len; j++) {
		unsigned d;

		for (d = 0; d < 3; d++) {
			struct json *dir = json_get(jobs->items[j], dirs[d]);
			struct json *prios = json_get(dir, "prios");

			snprintf(where, sizeof(where), "%s job %zu %s clat", name, j, dirs[d]);
			check_latency_object(where, json_get(dir, "clat_ns"));
			snprintf(where, sizeof(where), "%s job %zu %s lat", name, j, dirs[d]);
			check_latency_object(where, json_get(dir, "lat_ns"));
			for (p = 0; prios && p < prios->len; p++) {
				snprintf(where, sizeof(where), "%s job %zu %s prio %zu", name, j, dirs[d], p);
				check_latency_object(where, json_get(prios->items[p], "clat_ns"));
			}
		}
	}
	json_free(root);
	free(text);
}

static void test_layout(void)
{
	unsigned i;

	/* Exact below 128 ns; fio's last bucket value is 17113 ms. */
	for (i = 0; i < 128; i++)
		CHECK_EQ_U64(hist_bucket_index(i), i);
	CHECK_EQ_U64(hist_bucket_value(HIST_FIO_NR - 1), 17112760320ULL);
	/* Above fio's range the layout continues: nothing is lost. */
	CHECK(hist_bucket_index(20ULL * 1000000000ULL) > HIST_FIO_NR - 1);
	CHECK(hist_bucket_index(UINT64_MAX) == HIST_NR - 1);
	/* Every bucket's value maps back to it; relative error <= 1/128. */
	for (i = 128; i < HIST_NR; i++) {
		uint64_t v = hist_bucket_value(i);
		unsigned eb = (i >> HIST_PLAT_BITS) - 1;
		uint64_t lo = ((uint64_t)1 << (eb + HIST_PLAT_BITS)) + ((uint64_t)(i % 64) << eb);

		CHECK_EQ_U64(hist_bucket_index(v), i);
		CHECK_EQ_U64(hist_bucket_index(lo), i);
		/* The double's bits give the same index, each side of every bucket's edges. */
		CHECK_EQ_U64(hist_bucket_index_as(lo, (double)lo), i);
		CHECK_EQ_U64(hist_bucket_index_as(lo - 1, (double)(lo - 1)), i - 1);
		CHECK_EQ_U64(hist_bucket_index_as(v, (double)v), i);
		CHECK((double)(v - lo) / (double)lo <= 1.0 / 128.0);
	}
	for (i = 0; i < 128; i++)
		CHECK_EQ_U64(hist_bucket_index_as(i, (double)i), i);
	/* hist_bucket_bounds(): the bucket's least and greatest value, the next's least after. */
	for (i = 0; i < HIST_NR; i++) {
		uint64_t lo, hi;

		hist_bucket_bounds(i, &lo, &hi);
		CHECK_EQ_U64(hist_bucket_index(lo), i);
		CHECK_EQ_U64(hist_bucket_index(hi), i);
		if (lo)
			CHECK_EQ_U64(hist_bucket_index(lo - 1), i - 1);
		if (i + 1 < HIST_NR)
			CHECK_EQ_U64(hist_bucket_index(hi + 1), i + 1);
	}
	/* Past 2^53 the conversion rounds: the bit scan's index, not the double's. */
	{
		uint64_t big[] = { (1ULL << 53) - 1, 1ULL << 53, (1ULL << 54) - 1, UINT64_MAX };

		for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
			CHECK_EQ_U64(hist_bucket_index_as(big[i], (double)big[i]),
				     hist_bucket_index(big[i]));
	}
}

static void test_summary_and_merge(void)
{
	static struct hist a, b, all;
	uint64_t i;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	for (i = 1; i <= 1000; i++) {
		hist_add(i % 3 ? &a : &b, i * 1000);
		hist_add(&all, i * 1000);
	}
	hist_merge(&a, &b);
	CHECK_EQ_U64(a.sum.n, 1000);
	CHECK_EQ_U64(a.sum.min, 1000);
	CHECK_EQ_U64(a.sum.max, 1000000);
	CHECK_REL(a.sum.mean, 500500.0, 1e-12);
	/* Sample stddev of 1000..1e6 step 1000: 1000 * sqrt(1000 * 1001 / 12). */
	CHECK_REL(hist_summary_stddev(&a.sum), 1000.0 * sqrt(1000.0 * 1001.0 / 12.0), 1e-9);
	CHECK_REL(hist_summary_stddev(&a.sum), hist_summary_stddev(&all.sum), 1e-12);
	for (i = 0; i < HIST_NR; i++)
		CHECK(a.count[i] == all.count[i]);
	CHECK_EQ_U64(hist_percentile(&a, 50.0), hist_percentile(&all, 50.0));

	/* A 40 s sample (beyond fio's 17.1 s) keeps its own bucket. */
	hist_add(&a, 40ULL * 1000000000ULL);
	CHECK_REL((double)hist_percentile(&a, 100.0), 40e9, 1.0 / 128);
}

/* A pair's two summaries hold the bits two struct hist_summary would, merged too. */
static void test_summary_pair(void)
{
	struct hist_summary one[2][2], got;
	struct hist_summary_pair pair[2];
	uint64_t x = 88172645463325252ULL, i;
	unsigned p, k;

	for (p = 0; p < 2; p++) {
		hist_summary_pair_init(&pair[p]);
		hist_summary_init(&one[p][0]);
		hist_summary_init(&one[p][1]);
		for (i = 0; i < 1000 + 77 * p; i++) {
			int64_t a, b;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			a = (int64_t)(x % 50000000);
			b = (int64_t)((x >> 20) % 3000);
			hist_summary_pair_add_spans(&pair[p], a, b);
			hist_summary_add_span(&one[p][0], a);
			hist_summary_add_span(&one[p][1], b);
		}
	}
	hist_summary_pair_merge(&pair[0], &pair[1]);
	hist_summary_merge(&one[0][0], &one[1][0]);
	hist_summary_merge(&one[0][1], &one[1][1]);
	for (k = 0; k < 2; k++) {
		got = hist_summary_pair_get(&pair[0], k);
		CHECK_EQ_U64(got.n, one[0][k].n);
		CHECK_EQ_U64(got.min, one[0][k].min);
		CHECK_EQ_U64(got.max, one[0][k].max);
		CHECK(!memcmp(&got.mean, &one[0][k].mean, sizeof(double)));
		CHECK(!memcmp(&got.S, &one[0][k].S, sizeof(double)));
	}
}

/* hist_count_as() leaves top behind; hist_top(), reset and merge still see every count. */
static void test_lazy_top(void)
{
	static struct hist lazy, eager, merged;
	uint64_t v[] = { 5000, 7000000, 120, 3000000000ULL, 64, 99 };
	unsigned i;

	hist_init(&lazy);
	hist_init(&eager);
	hist_init(&merged);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hist_count_as(&lazy, v[i], (double)v[i]);
		hist_summary_add(&lazy.sum, v[i]);
		hist_add(&eager, v[i]);
	}
	CHECK_EQ_U64(lazy.top, 0);
	CHECK_EQ_U64(hist_top(&lazy), eager.top);
	CHECK_EQ_U64(hist_percentile(&lazy, 100.0), hist_percentile(&eager, 100.0));
	CHECK_EQ_U64(hist_percentile(&lazy, 50.0), hist_percentile(&eager, 50.0));
	hist_merge(&merged, &lazy);
	CHECK_EQ_U64(merged.top, eager.top);
	CHECK_EQ_U64(merged.count[hist_bucket_index(3000000000ULL)], 1);
	hist_reset(&lazy);
	for (i = 0; i < HIST_NR; i++)
		if (lazy.count[i])
			break;
	CHECK_EQ_U64(i, HIST_NR);
	CHECK_EQ_U64(hist_top(&lazy), 0);
}

int main(void)
{
	test_layout();
	test_summary_and_merge();
	test_summary_pair();
	test_lazy_top();
	check_file("fio-samples/a_randread_psync.jsonplus.json");
	check_file("fio-samples/c_cmdprio_io_uring.jsonplus.json");
	CHECK_MSG(compared >= 17 * 4, "only %d percentiles compared", compared);
	printf("%d fio percentiles reproduced\n", compared);
	return test_done();
}
