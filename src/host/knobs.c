#include "host/knobs.h"

#include "util/parse.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#define F(field) offsetof(struct host_knobs, field)
#define MS 1000000LL

static const struct opt_choice schedulers[] = {
	{ "none", HOST_SCHED_NONE, "no I/O scheduler: requests go to the drive in arrival order" },
	{ "deadline", HOST_SCHED_DEADLINE, "the 4.10-era deadline scheduler (the seed's); priority-blind" },
	{ "mq-deadline", HOST_SCHED_MQ_DEADLINE, "mq-deadline as in Linux 5.16+: RT before BE before IDLE, with prio aging" },
	{ NULL, 0, NULL },
};

/* The kernel version is kept in the `source` field of each row. */
static const struct opt_def knobs[] = {
	{ .name = "device/ncq_prio_enable", .type = OPT_BOOL, .offset = F(ncq_prio_enable),
	  .def = "0", .source = "4.10",
	  .help = "send RT-class I/O as NCQ PRIO = high (refused when the drive does not support NCQ priority)" },
	{ .name = "device/ncq_prio_supported", .type = OPT_BOOL, .offset = F(ncq_prio_supported),
	  .def = "0", .source = "5.15", .flags = OPT_F_READONLY,
	  .help = "the drive reports NCQ priority (IDENTIFY word 76 bit 12 and log 30h page 08h)" },
	{ .name = "device/queue_depth", .type = OPT_UINT, .offset = F(queue_depth), .def = "32",
	  .min = 1, .max = 32, .source = "2.6.19",
	  .help = "NCQ tags the host uses (capped by the drive's); 1 turns NCQ off" },
	{ .name = "queue/scheduler", .type = OPT_ENUM, .offset = F(scheduler),
	  .def = "mq-deadline", .choices = schedulers, .source = "2.6.10",
	  .help = "I/O scheduler: none, deadline, mq-deadline" },
	{ .name = "queue/nr_requests", .type = OPT_UINT, .offset = F(nr_requests), .def = "0",
	  .min = 0, .max = 100000, .source = "2.6.0",
	  .help = "requests the scheduler may hold; 0 = the kernel's default (128 deadline, 2 x queue_depth mq-deadline, queue_depth none)" },
	{ .name = "queue/nomerges", .type = OPT_UINT, .offset = F(nomerges), .def = "0",
	  .min = 0, .max = 2, .source = "2.6.31",
	  .help = "0 merge adjacent requests, 1 simple merges only, 2 no merges" },
	{ .name = "queue/max_sectors_kb", .type = OPT_UINT, .offset = F(max_sectors_kb),
	  .def = "1280", .min = 4, .max = 32767, .source = "2.6.0",
	  .help = "largest request a merge may build, KiB" },
	{ .name = "queue/iosched/read_expire", .type = OPT_TIME, .offset = F(read_expire),
	  .def = "500", .min = 0, .max = 3600000 * MS, .time_unit = MS, .unit = "ms",
	  .source = "2.6.0", .help = "deadline, mq-deadline: a read waits at most this long before it goes first" },
	{ .name = "queue/iosched/write_expire", .type = OPT_TIME, .offset = F(write_expire),
	  .def = "5000", .min = 0, .max = 3600000 * MS, .time_unit = MS, .unit = "ms",
	  .source = "2.6.0", .help = "deadline, mq-deadline: the same for writes" },
	{ .name = "queue/iosched/writes_starved", .type = OPT_UINT, .offset = F(writes_starved),
	  .def = "2", .min = 0, .max = 1000000, .source = "2.6.0",
	  .help = "deadline, mq-deadline: read batches before writes get a turn" },
	{ .name = "queue/iosched/fifo_batch", .type = OPT_UINT, .offset = F(fifo_batch),
	  .def = "16", .min = 1, .max = 1000000, .source = "2.6.0",
	  .help = "deadline, mq-deadline: requests dispatched in sector order before the FIFO is checked" },
	{ .name = "queue/iosched/front_merges", .type = OPT_BOOL, .offset = F(front_merges),
	  .def = "1", .source = "2.6.0", .help = "deadline, mq-deadline: also merge a new request in front of a queued one" },
	{ .name = "queue/iosched/prio_aging_expire", .type = OPT_TIME, .offset = F(prio_aging_expire),
	  .def = "10000", .min = 0, .max = 3600000 * MS, .time_unit = MS, .unit = "ms",
	  .source = "5.16", .help = "mq-deadline: a lower-class request older than this is dispatched even while higher-class I/O is outstanding" },
	OPT_END,
};

const struct opt_def *host_knob_table(void)
{
	return knobs;
}

const char *host_scheduler_name(int scheduler)
{
	const struct opt_choice *c;

	for (c = schedulers; c->name; c++)
		if (c->value == scheduler)
			return c->name;
	return "?";
}

void host_config_init(struct host_config *c)
{
	struct err e;

	memset(c, 0, sizeof(*c));
	opt_defaults(knobs, &c->k, "knob", &e);
	snprintf(c->drive, sizeof(c->drive), "he8");
}

unsigned host_default_nr_requests(const struct host_knobs *k)
{
	switch (k->scheduler) {
	case HOST_SCHED_NONE:
		return k->queue_depth;
	case HOST_SCHED_DEADLINE:
		return 128;		/* BLKDEV_MAX_RQ of the legacy block layer */
	default:
		/* blk-mq: 2 x min(queue depth, BLKDEV_DEFAULT_RQ = 128) */
		return 2 * (k->queue_depth < 128 ? k->queue_depth : 128);
	}
}

/* origin: where the assignment came from, kept with drive.KEY ones (checked later). */
static int set_one(struct host_config *c, const char *key, const char *value, const char *origin,
		   struct err *e)
{
	const struct opt_def *o;

	if (!strcmp(key, "drive")) {
		if (!*value || strlen(value) >= sizeof(c->drive))
			return err_set(e, "'drive': expected a drive name or model file, got '%s'", value);
		snprintf(c->drive, sizeof(c->drive), "%s", value);
		c->drive_set = true;
		return 0;
	}
	if (!strncmp(key, "drive.", 6)) {
		unsigned i;

		if (!key[6] || strlen(key + 6) >= sizeof(c->drive_sets[0].key) ||
		    strlen(value) >= sizeof(c->drive_sets[0].value))
			return err_set(e, "'%s': expected drive.KEY = VALUE with a drive-model key", key);
		for (i = 0; i < c->ndrive_sets; i++)
			if (!strcmp(c->drive_sets[i].key, key + 6))
				break;
		if (i == HOST_MAX_DRIVE_SETS)
			return err_set(e, "'%s': more than %d drive parameters set", key,
				       HOST_MAX_DRIVE_SETS);
		if (i == c->ndrive_sets)
			c->ndrive_sets++;
		snprintf(c->drive_sets[i].key, sizeof(c->drive_sets[i].key), "%s", key + 6);
		snprintf(c->drive_sets[i].value, sizeof(c->drive_sets[i].value), "%s", value);
		snprintf(c->drive_sets[i].origin, sizeof(c->drive_sets[i].origin), "%s", origin);
		return 0;
	}
	o = opt_find(knobs, key);
	if (!o) {
		/* The sysfs path spelled in full is the same knob. */
		if (!strncmp(key, "/sys/block/", 11)) {
			const char *p = strchr(key + 11, '/');

			if (p && (o = opt_find(knobs, p + 1)))
				key = p + 1;
		}
		if (!o)
			return err_set(e, "unknown knob '%s' (see 'ncqsim knobs')", key);
	}
	if (opt_set(o, &c->k, value, "knob", 1024, e))
		return -1;
	c->set[o - knobs] = true;
	return 0;
}

int host_config_assign(struct host_config *c, const char *assignment, const char *origin,
		       struct err *e)
{
	char buf[512], *eq, *key, *value;

	if (strlen(assignment) >= sizeof(buf))
		return err_set(e, "%s: '%.40s...' is too long", origin, assignment);
	snprintf(buf, sizeof(buf), "%s", assignment);
	eq = strchr(buf, '=');
	if (!eq)
		return err_set(e, "%s: expected KEY=VALUE, got '%s'", origin, assignment);
	*eq = '\0';
	key = parse_trim(buf);
	value = parse_trim(eq + 1);
	if (set_one(c, key, value, origin, e))
		return err_prefix(e, "%s: ", origin);
	return 0;
}

int host_config_set(struct host_config *c, const char *assignment, struct err *e)
{
	return host_config_assign(c, assignment, "option '--set'", e);
}

struct system_reader {
	struct host_config *c;
	const char *file;
};

static int system_line(void *ctx, const char *key, const char *value, const char *comment,
		       int line, struct err *e)
{
	struct system_reader *r = ctx;
	char origin[128];

	(void)comment;
	snprintf(origin, sizeof(origin), "%s:%d", r->file, line);
	return set_one(r->c, key, value, origin, e);
}

int host_config_parse_system(struct host_config *c, const char *text, const char *file,
			     struct err *e)
{
	struct system_reader r = { c, file };

	return parse_key_lines(text, file, "system file", system_line, &r, e);
}

void host_knobs_print(FILE *out)
{
	const struct opt_def *o;
	struct host_knobs k;
	struct err e;

	opt_defaults(knobs, &k, "knob", &e);
	fprintf(out, "%-34s %-12s %-7s %s\n", "knob", "default", "since", "meaning");
	for (o = knobs; o->name; o++) {
		char def[64], want[256];

		opt_format(o, &k, def, sizeof(def));
		opt_expectation(o, want, sizeof(want));
		fprintf(out, "%-34s %-12s %-7s %s%s\n", o->name, def, o->source,
			o->flags & OPT_F_READONLY ? "(read-only) " : "", o->help);
		fprintf(out, "%-34s %-12s %-7s   values: %s\n", "", "", "", want);
	}
}
