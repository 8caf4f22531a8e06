/*
 * Host and drive together on a tiny built-in workload — a QD1 RT reader
 * beside a QD32 BE reader, 4 KiB random over the whole drive: turning
 * device/ncq_prio_enable on (same seed) cuts the RT reader's worst latency
 * at least five-fold; queue_depth = 1 turns NCQ, and so priority, off.
 */
#include "testlib.h"
#include "host/ioprio.h"
#include "host/kernel.h"
#include "hostlab.h"

#include <string.h>

struct result {
	double fg_max_ms, fg_p99_ms, bg_mean_ms;
	uint64_t fg_done, bg_done, prio_cmds, ncq_cmds, dma_cmds;
};

static struct result run(int prio_enable, const char *scheduler, unsigned qd)
{
	struct host_config cfg;
	struct hostlab lab;
	struct result r;
	const struct libata_stats *st;

	host_config_init(&cfg);
	cfg.k.ncq_prio_enable = prio_enable;
	cfg.k.scheduler = host_scheduler(scheduler);
	CHECK(cfg.k.scheduler != NULL);
	cfg.k.queue_depth = qd;
	/* The priority-blind deadline is 4.10's; later kernels alias it to mq-deadline. */
	if (!strcmp(scheduler, "deadline"))
		cfg.k.kernel = HOST_KERNEL_4_10;
	CHECK(hostlab_init(&lab, &cfg, 42) == 0);
	hostlab_add(&lab, 1, ioprio_value(IOPRIO_CLASS_RT, 0, 0), 8);
	hostlab_add(&lab, 32, ioprio_value(IOPRIO_CLASS_BE, 0, 4), 8);
	hostlab_run(&lab, 120.0);
	r.fg_max_ms = lab.s[0].lat.sum.max / 1e6;
	r.fg_p99_ms = hist_percentile(&lab.s[0].lat, 99.0) / 1e6;
	r.bg_mean_ms = lab.s[1].lat.sum.mean / 1e6;
	r.fg_done = lab.s[0].done;
	r.bg_done = lab.s[1].done;
	st = libata_get_stats(lab.sys.ata);
	r.prio_cmds = st->prio_high_cmds;
	r.ncq_cmds = st->ncq_cmds;
	r.dma_cmds = st->dma_cmds;
	hostlab_destroy(&lab);
	return r;
}

int main(void)
{
	static const char *const scheds[] = { "none", "deadline", "mq-deadline" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		const char *sched = scheds[i];
		struct result off = run(0, sched, 32), on = run(1, sched, 32);

		printf("%-12s prio off: fg max %7.1f ms p99 %7.1f ms (%llu I/Os), bg %llu I/Os\n",
		       sched, off.fg_max_ms, off.fg_p99_ms,
		       (unsigned long long)off.fg_done, (unsigned long long)off.bg_done);
		printf("%-12s prio on:  fg max %7.1f ms p99 %7.1f ms (%llu I/Os), bg %llu I/Os\n",
		       sched, on.fg_max_ms, on.fg_p99_ms,
		       (unsigned long long)on.fg_done, (unsigned long long)on.bg_done);
		CHECK(off.fg_done > 100 && on.fg_done > 100);
		/*
		 * none and the priority-blind deadline leave the drive to decide:
		 * NCQ priority is the whole difference. mq-deadline already holds
		 * BE requests back while RT I/O is in flight, so the drive queue
		 * drains and the RT reader's tail is shorter to begin with.
		 */
		if (!strcmp(sched, "mq-deadline"))
			CHECK_MSG(on.fg_max_ms * 2 <= off.fg_max_ms,
				  "mq-deadline: fg max %.1f ms with priority vs %.1f without",
				  on.fg_max_ms, off.fg_max_ms);
		else
			CHECK_MSG(on.fg_max_ms * 5 <= off.fg_max_ms,
				  "%s: fg max %.1f ms with priority vs %.1f without",
				  sched, on.fg_max_ms, off.fg_max_ms);
		CHECK_EQ_U64(off.prio_cmds, 0);
		/* Exactly the RT reader's commands carry PRIO high. */
		CHECK_EQ_U64(on.prio_cmds, on.fg_done);
	}
	{
		/* queue_depth = 1: DMA EXT, no NCQ, no priority, even when enabled. */
		struct result one = run(1, "deadline", 1);

		CHECK_EQ_U64(one.ncq_cmds, 0);
		CHECK_EQ_U64(one.prio_cmds, 0);
		CHECK(one.dma_cmds > 1000);
	}
	return test_done();
}
