#include "hostlab.h"

#include <stdio.h>
#include <string.h>

static void submit(struct hostlab_stream *st, struct blk_bio *bio);

static void bio_done(void *owner, struct blk_bio *bio)
{
	struct hostlab_stream *st = owner;

	hist_add(&st->lat, (uint64_t)(bio->t_completed - bio->t_submit));
	st->done++;
	if (sim_now(&st->lab->sys.sim) < st->lab->until)
		submit(st, bio);
}

static void bio_accepted(void *owner, struct blk_bio *bio)
{
	struct hostlab_stream *st = owner;
	unsigned i, n;

	(void)bio;
	/* The submitter was blocked: it goes on with what it held back. */
	st->blocked = false;
	n = st->pending;
	st->pending = 0;
	for (i = 0; i < n && !st->blocked; i++)
		submit(st, st->pending_list[i]);
	for (; i < n; i++)
		st->pending_list[st->pending++] = st->pending_list[i];
}

static void submit(struct hostlab_stream *st, struct blk_bio *bio)
{
	if (st->blocked) {
		st->pending_list[st->pending++] = bio;
		return;
	}
	blk_bio_prep(bio, rng_below(&st->rng, st->lab->span / st->nlb) * st->nlb, st->nlb,
		     st->write, st->ioprio, bio_accepted, bio_done, st);
	if (!blk_submit(st->lab->sys.q, bio))
		st->blocked = true;
}

int hostlab_init(struct hostlab *lab, const struct host_config *cfg, uint64_t seed)
{
	struct err e;

	memset(lab, 0, sizeof(*lab));
	if (system_init(&lab->sys, cfg, NULL, 0, NULL, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	lab->span = libata_capacity(lab->sys.ata);
	lab->seed = seed;
	return 0;
}

void hostlab_add(struct hostlab *lab, unsigned qd, uint16_t ioprio, uint32_t nlb)
{
	struct hostlab_stream *st = &lab->s[lab->nstreams];
	char name[32];

	memset(st, 0, sizeof(*st));
	st->lab = lab;
	st->qd = qd;
	st->ioprio = ioprio;
	st->nlb = nlb;
	snprintf(name, sizeof(name), "hostlab/%u", lab->nstreams);
	rng_seed(&st->rng, lab->seed, name);
	hist_init(&st->lat);
	lab->nstreams++;
}

void hostlab_run(struct hostlab *lab, double seconds)
{
	unsigned i, j;

	lab->until = sim_now(&lab->sys.sim) + (int64_t)(seconds * 1e9);
	for (i = 0; i < lab->nstreams; i++)
		for (j = 0; j < lab->s[i].qd; j++)
			submit(&lab->s[i], &lab->s[i].bios[j]);
	sim_run(&lab->sys.sim, SIM_FOREVER);
}

void hostlab_destroy(struct hostlab *lab)
{
	system_destroy(&lab->sys);
}
