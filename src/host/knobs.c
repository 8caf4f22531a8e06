#include "host/knobs.h"

#include "host/blk.h"
#include "host/kernel.h"

#include "util/parse.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#define F(field) offsetof(struct host_knobs, field)
#define IOSCHED "queue/iosched/"
#define MS 1000000LL
#define SEC 1000000000LL

/* The kernel version is kept in the `source` field of each row. */
static const struct opt_def knobs[] = {
	{ .name = "kernel", .type = OPT_ENUM, .offset = F(kernel), .def = "6.12",
	  .choices = host_kernel_choices,
	  .help = "the Linux version the host runs (docs/HOST.md: what each changes)" },
	{ .name = "device/ncq_prio_enable", .type = OPT_BOOL, .offset = F(ncq_prio_enable),
	  .def = "0", .source = "4.10",
	  .help = "send RT-class I/O as NCQ PRIO = high (refused when the drive does not support NCQ priority)" },
	{ .name = "device/ncq_prio_supported", .type = OPT_BOOL, .offset = F(ncq_prio_supported),
	  .def = "0", .source = "5.15", .flags = OPT_F_READONLY,
	  .help = "the drive reports NCQ priority (IDENTIFY word 76 bit 12 and log 30h page 08h)" },
	{ .name = "device/cdl_enable", .type = OPT_BOOL, .offset = F(cdl_enable),
	  .def = "0", .source = "6.5",
	  .help = "send the ioprio hint 1..7 as the CDL descriptor index (refused while ncq_prio_enable is 1, and on a drive without CDL)" },
	{ .name = "device/cdl_supported", .type = OPT_BOOL, .offset = F(cdl_supported),
	  .def = "0", .source = "6.5", .flags = OPT_F_READONLY,
	  .help = "the drive reports Command Duration Limits (log 30h pages 03h/04h, log 18h)" },
	{ .name = "device/queue_depth", .type = OPT_UINT, .offset = F(queue_depth), .def = "32",
	  .min = 1, .max = 32, .source = "2.6.19",
	  .help = "commands the drive may have outstanding: the dispatch budget, capped by the drive's depth and the host's tags (31 on 4.10); 1 turns NCQ off" },
	{ .name = "queue/scheduler", .type = OPT_PLUGIN, .offset = F(scheduler),
	  .def = "mq-deadline", .registry = &blk_schedulers, .source = "2.6.10",
	  .help = "I/O scheduler; its tunables are queue/iosched/NAME" },
	{ .name = "queue/nr_requests", .type = OPT_UINT, .offset = F(nr_requests), .def = "0",
	  .min = 0, .max = 100000, .source = "2.6.0",
	  .help = "requests the block layer may hold; 0 = the kernel's default (4.10: 128; blk-mq: 2 x min(host tags, 128) under a scheduler, the host tags under none)" },
	{ .name = "queue/nomerges", .type = OPT_UINT, .offset = F(nomerges), .def = "0",
	  .min = 0, .max = 2, .source = "2.6.31",
	  .help = "0 merge adjacent requests, 1 simple merges only, 2 no merges" },
	{ .name = "queue/max_sectors_kb", .type = OPT_UINT, .offset = F(max_sectors_kb),
	  .def = "1280", .min = 4, .max = 32767, .source = "2.6.0",
	  .help = "largest request a merge may build, KiB" },
	{ .name = "device/timeout", .type = OPT_TIME, .offset = F(timeout), .def = "30",
	  .min = SEC, .max = 86400 * SEC, .time_unit = SEC, .unit = "s", .source = "2.6.0",
	  .help = "SCSI command timeout, seconds: a command the drive has not finished by then is aborted, the link reset and the command retried" },
	OPT_END,
};

const struct plugin *host_scheduler(const char *name)
{
	return plugin_find(&blk_schedulers, name);
}


/* Store one tunable; messages name it in full, queue/iosched/NAME. */
static int iosched_store(const struct opt_def *o, void *bytes, const char *value, struct err *e)
{
	char full[96];
	struct opt_def named = *o;

	snprintf(full, sizeof(full), IOSCHED "%s", o->name);
	named.name = full;
	return opt_set(&named, bytes, value, "knob", 1024, e);
}

/* The scheduler's tunables from its defaults, then every assignment it has. */
static int iosched_apply(struct host_config *c, struct err *e)
{
	const struct opt_def *t = c->k.scheduler->options, *o;
	unsigned i;

	memset(&c->k.iosched, 0, sizeof(c->k.iosched));
	if (!t)
		return 0;
	if (opt_defaults(t, c->k.iosched.bytes, "knob", e))
		return -1;
	for (i = 0; i < c->niosched_sets; i++)
		if ((o = opt_find(t, c->iosched_sets[i].name)) &&
		    iosched_store(o, c->k.iosched.bytes, c->iosched_sets[i].value, e))
			return err_prefix(e, "%s: ", c->iosched_sets[i].origin);
	return 0;
}

/* A tunable of some registered scheduler, by its name under queue/iosched/. */
static const struct opt_def *iosched_find(const char *name, const struct plugin **owner)
{
	const struct plugin *p;
	const struct opt_def *o;
	unsigned i;

	for (i = 0; (p = plugin_at(&blk_schedulers, i)); i++)
		if (p->options && (o = opt_find(p->options, name))) {
			*owner = p;
			return o;
		}
	return NULL;
}

/*
 * queue/iosched/NAME = VALUE: checked now against a scheduler that has the
 * tunable (the chosen one first), kept, and applied to the chosen one.
 */
static int iosched_set(struct host_config *c, const char *key, const char *value,
		       const char *origin, struct err *e)
{
	const char *name = key + strlen(IOSCHED);
	const struct plugin *owner = c->k.scheduler;
	const struct opt_def *o = owner->options ? opt_find(owner->options, name) : NULL;
	unsigned char scratch[HOST_IOSCHED_BYTES] __attribute__((aligned(8)));
	unsigned i;

	if (!o && !(o = iosched_find(name, &owner)))
		return err_set(e, "unknown knob '%s' (see 'ncqsim knobs')", key);
	if (!value)
		return err_set(e, "knob '%s' needs a value", key);
	memset(scratch, 0, sizeof(scratch));
	if (iosched_store(o, scratch, value, e))
		return -1;
	for (i = 0; i < c->niosched_sets; i++)
		if (!strcmp(c->iosched_sets[i].name, name))
			break;
	if (i == HOST_MAX_IOSCHED_SETS)
		return err_set(e, "'%s': more than %d scheduler tunables set", key,
			       HOST_MAX_IOSCHED_SETS);
	if (strlen(name) >= sizeof(c->iosched_sets[i].name) ||
	    strlen(value) >= sizeof(c->iosched_sets[i].value))
		return err_set(e, "knob '%s': value '%s' is too long", key, value);
	if (i == c->niosched_sets)
		c->niosched_sets++;
	snprintf(c->iosched_sets[i].name, sizeof(c->iosched_sets[i].name), "%s", name);
	snprintf(c->iosched_sets[i].value, sizeof(c->iosched_sets[i].value), "%s", value);
	snprintf(c->iosched_sets[i].origin, sizeof(c->iosched_sets[i].origin), "%s", origin);
	return iosched_apply(c, e);
}

/* Whether `kernel` has a scheduler row: legacy ones before blk-mq, blk-mq ones after. */
static bool scheduler_in(const struct plugin *p, int kernel)
{
	bool legacy = blk_sched_ops(p)->pool == SCHED_POOL_LEGACY;

	return legacy != host_kernel_has(kernel, HOST_KC_BLK_MQ);
}

/*
 * The scheduler the kernel runs: the one chosen, the row whose alias it
 * is ("deadline" on blk-mq kernels), or, when none was set, the version's
 * default (the knob's default if it has it, else its first elevator).
 */
static int scheduler_for_kernel(const struct host_config *c, const struct plugin **out,
				struct err *e)
{
	const struct plugin *want = c->k.scheduler, *p;
	bool set = c->set[opt_find(knobs, "queue/scheduler") - knobs];
	int kernel = c->k.kernel;
	unsigned i;

	*out = NULL;
	if (scheduler_in(want, kernel)) {
		*out = want;
		return 0;
	}
	for (i = 0; (p = plugin_at(&blk_schedulers, i)) && !*out; i++) {
		const struct sched_ops *ops = blk_sched_ops(p);

		if (scheduler_in(p, kernel) &&
		    (set ? ops->alias && !strcmp(ops->alias, want->name) : ops->pool != SCHED_POOL_TAGS))
			*out = p;
	}
	if (*out)
		return 0;
	return err_set(e, "knob 'queue/scheduler': Linux %s has no '%s' (%s)",
		       host_kernel_name(kernel), want->name, host_kernel_has(kernel, HOST_KC_BLK_MQ) ?
		       "the legacy block layer's schedulers left in 5.0" :
		       "it came with blk-mq, which SCSI used from 5.0");
}

int host_config_check(const struct host_config *c, struct err *e)
{
	const char *kname = host_kernel_name(c->k.kernel);
	const struct plugin *s;
	const struct opt_def *o;
	unsigned i;

	for (o = knobs; o->name; o++)
		if (c->set[o - knobs] && !host_kernel_knob_exists(c->k.kernel, o->source))
			return err_set(e, "knob '%s': Linux %s has no such knob (it came in %s)",
				       o->name, kname, o->source);
	if (scheduler_for_kernel(c, &s, e))
		return -1;
	for (i = 0; i < c->niosched_sets; i++) {
		char have[256];
		size_t n = 0;

		o = s->options ? opt_find(s->options, c->iosched_sets[i].name) : NULL;
		if (o && !host_kernel_knob_exists(c->k.kernel, o->source))
			return err_set(e, "%s: knob '" IOSCHED "%s': Linux %s's %s has no such tunable "
				       "(it came in %s)", c->iosched_sets[i].origin, o->name, kname,
				       s->name, o->source);
		if (o)
			continue;
		have[0] = '\0';
		for (o = s->options; o && o->name && n < sizeof(have); o++)
			n += (size_t)snprintf(have + n, sizeof(have) - n, "%s%s",
					      o == s->options ? "" : ", ", o->name);
		return err_set(e, "%s: knob '" IOSCHED "%s': scheduler '%s' has no such tunable (%s%s)",
			       c->iosched_sets[i].origin, c->iosched_sets[i].name, s->name,
			       *have ? "its tunables: " : "it has none", have);
	}
	return 0;
}

int host_config_resolve(const struct host_config *c, struct host_knobs *k, struct err *e)
{
	const struct plugin *s;
	const struct opt_def *o;
	unsigned i;

	if (host_config_check(c, e) || scheduler_for_kernel(c, &s, e))
		return -1;
	if (s != k->scheduler) {
		/* Its own tunables, from its defaults, with what was set. */
		k->scheduler = s;
		memset(&k->iosched, 0, sizeof(k->iosched));
		if (s->options && opt_defaults(s->options, k->iosched.bytes, "knob", e))
			return -1;
		for (i = 0; i < c->niosched_sets; i++)
			if (s->options && (o = opt_find(s->options, c->iosched_sets[i].name)) &&
			    iosched_store(o, k->iosched.bytes, c->iosched_sets[i].value, e))
				return err_prefix(e, "%s: ", c->iosched_sets[i].origin);
	}
	if (blk_sched_ops(s)->pool == SCHED_POOL_TAGS &&
	    k->nr_requests > host_kernel_host_tags(k->kernel))
		return err_set(e, "knob 'queue/nr_requests': writing %u failed with EINVAL: with "
			       "scheduler %s the requests are the host's %u tags", k->nr_requests,
			       s->name, host_kernel_host_tags(k->kernel));
	if (!k->nr_requests)
		k->nr_requests = host_default_nr_requests(k);
	return 0;
}

/*
 * host_config_init() zeroes everything before drive_sets[] at once and
 * then the two counts: nothing else may follow drive_sets[].
 */
_Static_assert(offsetof(struct host_config, ndrive_sets) -
	       (offsetof(struct host_config, drive_sets) +
		sizeof(((struct host_config *)0)->drive_sets)) < sizeof(unsigned) &&
	       offsetof(struct host_config, iosched_sets) ==
	       offsetof(struct host_config, ndrive_sets) + sizeof(unsigned) &&
	       offsetof(struct host_config, niosched_sets) ==
	       offsetof(struct host_config, iosched_sets) +
	       sizeof(((struct host_config *)0)->iosched_sets) &&
	       sizeof(struct host_config) - offsetof(struct host_config, niosched_sets) <
	       sizeof(unsigned) + _Alignof(struct host_config),
	       "struct host_config: drive_sets, ndrive_sets, iosched_sets, niosched_sets last");

void host_config_init(struct host_config *c)
{
	struct err e;

	/*
	 * All but the drive.KEY and queue/iosched lists (22 KB of the 24):
	 * their entries are read only below ndrive_sets and niosched_sets,
	 * and each is written before it is counted (host_config_assign()).
	 */
	memset(c, 0, offsetof(struct host_config, drive_sets));
	c->ndrive_sets = 0;
	c->niosched_sets = 0;
	opt_defaults(knobs, &c->k, "knob", &e);
	iosched_apply(c, &e);
	snprintf(c->drive, sizeof(c->drive), "he8");
}

unsigned host_default_nr_requests(const struct host_knobs *k)
{
	unsigned tags = host_kernel_host_tags(k->kernel);

	switch (blk_sched_ops(k->scheduler)->pool) {
	case SCHED_POOL_TAGS:
		return tags;		/* no elevator: the requests are the host's tags */
	case SCHED_POOL_LEGACY:
		return 128;		/* BLKDEV_MAX_RQ of the legacy block layer */
	case SCHED_POOL_BLK_MQ:
		break;
	}
	/* blk_mq_init_sched(): 2 x min(host tags, BLKDEV_DEFAULT_RQ = 128) */
	return 2 * (tags < 128 ? tags : 128);
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
	if (!strncmp(key, "/sys/block/", 11) && strchr(key + 11, '/'))
		key = strchr(key + 11, '/') + 1;	/* the sysfs path spelled in full */
	if (!strncmp(key, IOSCHED, strlen(IOSCHED)))
		return iosched_set(c, key, value, origin, e);
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
	/* Which of the two exclusive writes came last decides which one the kernel refuses. */
	if (o->offset == offsetof(struct host_knobs, cdl_enable))
		c->k.cdl_written_last = true;
	else if (o->offset == offsetof(struct host_knobs, ncq_prio_enable))
		c->k.cdl_written_last = false;
	/* A scheduler change: its own tunables, from its defaults (as the kernel). */
	return o->offset == offsetof(struct host_knobs, scheduler) ? iosched_apply(c, e) : 0;
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

static void print_row(FILE *out, const struct opt_def *o, const char *name, const void *base,
		      const char *owners)
{
	char def[64], want[256];

	opt_format(o, base, def, sizeof(def));
	opt_expectation(o, want, sizeof(want));
	fprintf(out, "%-34s %-12s %-7s %s%s%s%s\n", name, def, o->source ? o->source : "",
		o->flags & OPT_F_READONLY ? "(read-only) " : "", owners ? owners : "",
		owners ? ": " : "", o->help);
	fprintf(out, "%-34s %-12s %-7s   values: %s\n", "", "", "", want);
	if (o->type == OPT_PLUGIN) {
		const struct plugin *p;
		unsigned i;

		for (i = 0; (p = plugin_at(o->registry, i)); i++)
			fprintf(out, "%-34s %-12s %-7s     %-12s %s\n", "", "", "", p->name, p->help);
	}
}

void host_knobs_print(FILE *out)
{
	const struct plugin *p, *q;
	const struct opt_def *o;
	struct host_knobs k;
	struct err e;
	unsigned i, j;

	opt_defaults(knobs, &k, "knob", &e);
	fprintf(out, "%-34s %-12s %-7s %s\n", "knob", "default", "since", "meaning");
	for (o = knobs; o->name; o++)
		print_row(out, o, o->name, &k, NULL);
	/* Each scheduler's tunables, once per name, with the schedulers that have it. */
	for (i = 0; (p = plugin_at(&blk_schedulers, i)); i++) {
		for (o = p->options; o && o->name; o++) {
			char name[96], owners[256];
			size_t n = 0;
			bool seen = false;

			for (j = 0; j < i && !seen; j++) {
				q = plugin_at(&blk_schedulers, j);
				seen = q->options && opt_find(q->options, o->name);
			}
			if (seen)
				continue;
			for (j = i; (q = plugin_at(&blk_schedulers, j)) && n < sizeof(owners); j++)
				if (q->options && opt_find(q->options, o->name))
					n += (size_t)snprintf(owners + n, sizeof(owners) - n, "%s%s",
							      n ? ", " : "", q->name);
			opt_defaults(p->options, k.iosched.bytes, "knob", &e);
			snprintf(name, sizeof(name), IOSCHED "%s", o->name);
			print_row(out, o, name, k.iosched.bytes, owners);
		}
	}
}

void host_knobs_each(const struct host_knobs *k,
		     void (*fn)(void *ctx, const char *name, const char *value), void *ctx)
{
	const struct opt_def *o;
	char value[64], name[96];

	for (o = knobs; o->name; o++) {
		opt_format(o, k, value, sizeof(value));
		fn(ctx, o->name, value);
	}
	for (o = k->scheduler->options; o && o->name; o++) {
		opt_format(o, k->iosched.bytes, value, sizeof(value));
		snprintf(name, sizeof(name), IOSCHED "%s", o->name);
		fn(ctx, name, value);
	}
}

/* "[mq-deadline] none": the version's schedulers, the chosen one in brackets, none last. */
static void scheduler_readback(const struct host_knobs *k, char *buf, size_t len)
{
	const struct plugin *p;
	size_t n = 0;
	unsigned i, pass;

	buf[0] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; (p = plugin_at(&blk_schedulers, i)) && n < len; i++) {
			if (!scheduler_in(p, k->kernel) ||
			    (blk_sched_ops(p)->pool == SCHED_POOL_TAGS) != (pass == 1))
				continue;
			n += (size_t)snprintf(buf + n, len - n, p == k->scheduler ? "%s[%s]" : "%s%s",
					      n ? " " : "", p->name);
		}
}

void host_knobs_readback(const struct host_knobs *k,
			 void (*fn)(void *ctx, const char *name, const char *value), void *ctx)
{
	const struct opt_def *o;
	char value[128], name[96];

	for (o = knobs; o->name; o++) {
		if (!host_kernel_knob_exists(k->kernel, o->source))
			snprintf(value, sizeof(value), "(not in Linux %s: since %s)",
				 host_kernel_name(k->kernel), o->source);
		else if (o->offset == F(scheduler))
			scheduler_readback(k, value, sizeof(value));
		else if (o->offset == F(timeout))
			snprintf(value, sizeof(value), "%lld", (long long)(k->timeout / SEC));
		else
			opt_format(o, k, value, sizeof(value));
		fn(ctx, o->name, value);
	}
	for (o = k->scheduler->options; o && o->name; o++) {
		if (!host_kernel_knob_exists(k->kernel, o->source))
			snprintf(value, sizeof(value), "(not in Linux %s: since %s)",
				 host_kernel_name(k->kernel), o->source);
		else
			opt_format(o, k->iosched.bytes, value, sizeof(value));
		snprintf(name, sizeof(name), IOSCHED "%s", o->name);
		fn(ctx, name, value);
	}
}
