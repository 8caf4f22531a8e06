/*
 * knobs — the host's settings, named as in Linux sysfs (relative to
 * /sys/block/sdX/): one table with type, default, range, help and the kernel
 * version that introduced each. `ncqsim knobs` lists it; --set KEY=VALUE and
 * system files set it; the command line wins over the system file.
 *
 * A system file has one `KEY = VALUE` per line, plus `drive = NAME|FILE`;
 * '#' starts a comment.
 */
#ifndef NCQSIM_KNOBS_H
#define NCQSIM_KNOBS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"
#include "util/opt.h"
#include "util/plugin.h"

/* Room for the selected scheduler's tunables (queue/iosched/), laid out by it. */
#define HOST_IOSCHED_BYTES 64

struct host_knobs {
	int kernel;			/* enum host_kernel (host/kernel.h) */
	bool ncq_prio_enable;
	bool ncq_prio_supported;	/* read-only: filled after the drive is probed */
	bool cdl_enable;
	bool cdl_supported;		/* read-only: filled after the drive is probed */
	bool cdl_written_last;		/* cdl_enable was written after ncq_prio_enable */
	unsigned queue_depth;
	const struct plugin *scheduler;	/* a row of blk_schedulers (host/blk.h) */
	unsigned nr_requests;		/* 0 = the scheduler's default */
	unsigned nomerges;		/* 0 all merges, 1 simple only, 2 none */
	unsigned max_sectors_kb;
	int64_t timeout;		/* device/timeout: the SCSI command timeout */
	/*
	 * The scheduler's tunables: its plugin.options give their offsets in
	 * here. As in the kernel, each scheduler has its own, starting from its
	 * defaults.
	 */
	union {
		unsigned char bytes[HOST_IOSCHED_BYTES];
		int64_t align;
	} iosched;
};

#define HOST_MAX_IOSCHED_SETS 16

#define HOST_DRIVE_MAX 256

#define HOST_MAX_DRIVE_SETS 64

/*
 * A system's configuration: the host knobs, the drive, and drive-model
 * parameters to override (`drive.KEY = VALUE`; kept as text here — the host
 * knows nothing of drives — and applied where the system is built).
 */
struct host_config {
	struct host_knobs k;
	char drive[HOST_DRIVE_MAX];
	bool set[32];
	bool drive_set;
	struct {
		char key[64];
		char value[128];
		char origin[128];	/* "FILE:LINE" or "option '--set'", for errors */
	} drive_sets[HOST_MAX_DRIVE_SETS];
	unsigned ndrive_sets;
	/*
	 * queue/iosched/NAME assignments, kept so that they apply to whichever
	 * scheduler is chosen, in whatever order the lines come (a system file
	 * may name the tunables before the scheduler; --vary may change it).
	 */
	struct {
		char name[48];
		char value[64];
		char origin[128];
	} iosched_sets[HOST_MAX_IOSCHED_SETS];
	unsigned niosched_sets;
};

void host_config_init(struct host_config *c);

/* KEY=VALUE from --set; the message names the knob. */
int host_config_set(struct host_config *c, const char *assignment, struct err *e);
/* The same from elsewhere: `origin` ("option '--vary'") starts every message. */
int host_config_assign(struct host_config *c, const char *assignment, const char *origin,
		       struct err *e);
/* A system file's text; messages name file and line. */
int host_config_parse_system(struct host_config *c, const char *text, const char *file,
			     struct err *e);
/*
 * Every queue/iosched/ assignment is a tunable of the chosen scheduler;
 * the message names where a stray one was written. Called where the
 * system is built.
 */
int host_config_check(const struct host_config *c, struct err *e);
/* nr_requests as the kernel picks it when not set (kernel, scheduler). */
unsigned host_default_nr_requests(const struct host_knobs *k);

/*
 * The knobs as `kernel` takes them, before the drive is probed: refuses a
 * knob or tunable that version lacks (naming the version that added it)
 * and a scheduler it does not have; resolves an alias ("deadline" selects
 * mq-deadline on blk-mq kernels) and the version's default scheduler;
 * fills queue/nr_requests with the value the kernel would read back.
 * k starts as a copy of c->k.
 */
int host_config_resolve(const struct host_config *c, struct host_knobs *k, struct err *e);
/* A scheduler by name, for tests and tools; NULL if none has that name. */
const struct plugin *host_scheduler(const char *name);

/* `ncqsim knobs`: one knob a line with its default, range and help. */
void host_knobs_print(FILE *out);
/* Each knob's name and value as text, the chosen scheduler's tunables last. */
void host_knobs_each(const struct host_knobs *k,
		     void (*fn)(void *ctx, const char *name, const char *value), void *ctx);
/*
 * The same as the kernel reads them back: queue/scheduler as
 * "[mq-deadline] none", device/timeout in seconds, a knob the version
 * lacks as "(not in Linux 4.10: since 5.15)".
 */
void host_knobs_readback(const struct host_knobs *k,
			 void (*fn)(void *ctx, const char *name, const char *value), void *ctx);

#endif
