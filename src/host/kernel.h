/*
 * kernel — the Linux version the simulated host runs (the `kernel` knob:
 * 4.10, 5.15, 6.1, 6.6, 6.12; default the newest), and the one table that
 * says what changed between them. Every version-dependent rule in src/host
 * asks host_kernel_has(kernel, CHANGE) instead of comparing versions, so
 * the table is the whole story; each row names the kernel file and
 * function it follows, and docs/HOST.md prints the table
 * (`ncqsim knobs --kernels`).
 *
 * A change is "in" a version when that version is at or after the first
 * of ours that has it; `since` is the upstream release that brought it.
 */
#ifndef NCQSIM_KERNEL_H
#define NCQSIM_KERNEL_H

#include <stdbool.h>
#include <stdio.h>

#include "host/ioprio.h"
#include "util/opt.h"

enum host_kernel {
	HOST_KERNEL_4_10,
	HOST_KERNEL_5_15,
	HOST_KERNEL_6_1,
	HOST_KERNEL_6_6,
	HOST_KERNEL_6_12,
	HOST_KERNEL_COUNT,
};

#define HOST_KERNEL_DEFAULT HOST_KERNEL_6_12

enum host_kernel_change {
	HOST_KC_AHCI_32_TAGS,		/* shost->can_queue 32, not 31 */
	HOST_KC_BLK_MQ,			/* SCSI on blk-mq: nr_requests from the tags, none */
	HOST_KC_BUDGET_FIRST,		/* the device's budget before the scheduler's choice */
	HOST_KC_DEADLINE_ALIAS,		/* "deadline" selects mq-deadline */
	HOST_KC_NO_PRIO_MERGE,		/* requests of different ioprio never merge */
	HOST_KC_NCQ_PRIO_EINVAL,	/* ncq_prio_enable=1 unsupported: EINVAL (was EIO) */
	HOST_KC_MQ_DEADLINE_PRIO,	/* mq-deadline: per-class FIFOs, prio aging */
	HOST_KC_MQ_DEADLINE_LATEST_POS,	/* batches continue from the last position */
	HOST_KC_TASK_IOPRIO_FROM_NICE,	/* no ioprio set: class/level from policy and nice */
	HOST_KC_FUA,			/* libata.fua=1 by default: FUA writes */
	HOST_KC_RW_HINT,		/* fcntl write-life hints; bios carry them, no merge across */
	HOST_KC_NOWAIT,			/* RWF_NOWAIT: EAGAIN instead of waiting for a request */
	HOST_KC_NO_FILE_RW_HINT,	/* F_SET_FILE_RW_HINT gone (EINVAL); bios carry no hint */
	HOST_KC_BIO_WRITE_HINT,		/* direct I/O carries the inode's write hint again */
	HOST_KC_POLL_EOPNOTSUPP,	/* a polled bio on a queue without poll queues: EOPNOTSUPP */
	HOST_KC_DISCARD_STATS,		/* discards counted apart from writes in diskstats */
	HOST_KC_PASSTHROUGH_BYPASS,	/* SG_IO requests go to the dispatch list, not the elevator */
	HOST_KC_FUA_LBA48,		/* a non-NCQ FUA write is always 48-bit (WRITE DMA FUA EXT) */
	HOST_KC_COUNT,
};

struct host_kernel_row {
	enum host_kernel_change change;
	const char *name;
	enum host_kernel first;		/* the first of our versions that has it */
	const char *since;		/* upstream release that brought it */
	const char *before;		/* what older kernels do */
	const char *after;		/* what it does from `since` on */
	const char *follows;		/* kernel file and function */
};

/* The `kernel` knob's choices ("4.10", ...), for the knob table. */
extern const struct opt_choice host_kernel_choices[];

const char *host_kernel_name(int kernel);
bool host_kernel_has(int kernel, enum host_kernel_change c);

/* The table as Markdown (docs/HOST.md) */
void host_kernel_print(FILE *out);

/*
 * Whether a knob introduced in `source` ("5.16", "2.6.10") exists in
 * `kernel`; versions compare numerically.
 */
bool host_kernel_knob_exists(int kernel, const char *source);

/*
 * The priority an I/O carries in `kernel`: its own, else the task's, else
 * (6.0+) one derived from the task's policy and nice, (before) class none.
 */
uint16_t host_kernel_io_prio(int kernel, uint16_t io_prio, uint16_t task_prio, int nice,
			     enum sched_policy policy);

/* AHCI's host tags: what blk-mq sizes nr_requests from (shost->can_queue). */
unsigned host_kernel_host_tags(int kernel);

#endif
