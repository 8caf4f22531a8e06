/*
 * hostlab — a tiny built-in workload on the whole host + drive stack,
 * below the fio job engine: closed-loop streams of random reads, each with
 * a queue depth and an I/O priority, submitted through blk_submit().
 */
#ifndef NCQSIM_HOSTLAB_H
#define NCQSIM_HOSTLAB_H

#include "host/blk.h"
#include "sim/rng.h"
#include "stats/hist.h"
#include "run/system.h"

#define HOSTLAB_MAX_STREAMS 4
#define HOSTLAB_MAX_QD 64

struct hostlab;

struct hostlab_stream {
	struct hostlab *lab;
	unsigned qd;
	uint16_t ioprio;
	uint32_t nlb;
	bool write;
	struct rng rng;
	struct blk_bio bios[HOSTLAB_MAX_QD];
	struct hist lat;		/* submit to completion */
	uint64_t done;
	bool blocked;			/* waiting for a request */
	unsigned pending;		/* bios not yet submitted because blocked */
	struct blk_bio *pending_list[HOSTLAB_MAX_QD];
};

struct hostlab {
	struct system sys;
	unsigned nstreams;
	struct hostlab_stream s[HOSTLAB_MAX_STREAMS];
	uint64_t span, seed;
	int64_t until;
};

int hostlab_init(struct hostlab *lab, const struct host_config *cfg, uint64_t seed);
void hostlab_add(struct hostlab *lab, unsigned qd, uint16_t ioprio, uint32_t nlb);
/* Run for `seconds` of simulated time. */
void hostlab_run(struct hostlab *lab, double seconds);
void hostlab_destroy(struct hostlab *lab);

#endif
