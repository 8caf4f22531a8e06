/*
 * sysfs knobs and system files: every kind of bad setting is an error that
 * names the knob (and file and line); the command line wins; defaults.
 * drive.KEY settings reach the drive model, later ones win, and a bad one
 * is reported where it was written once the model is loaded.
 */
#include "testlib.h"
#include "host/knobs.h"
#include "host/kernel.h"
#include "run/system.h"

/* A drive.KEY setting that only the model can refuse: its message names where it came from. */
static void bad_drive_setting(const char *file_text, const char *set, const char *want)
{
	struct host_config c;
	struct disk_model m;
	struct err e = { "" };

	host_config_init(&c);
	CHECK(host_config_parse_system(&c, file_text, "d.system", &e) == 0);
	if (set)
		CHECK(host_config_set(&c, set, &e) == 0);
	CHECK_MSG(system_load_model(&c, &m, &e) != 0, "'%s' '%s' accepted", file_text,
		  set ? set : "");
	CHECK_MSG(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
}

static void drive_settings(void)
{
	struct host_config c;
	struct disk_model m;
	struct err e = { "" };

	host_config_init(&c);
	CHECK(host_config_parse_system(&c, "drive = he8\ndrive.age_limit = 3s\n"
				       "drive.prio_policy = soft\n", "d.system", &e) == 0);
	CHECK(host_config_set(&c, "drive.age_limit=4s", &e) == 0);
	CHECK_EQ_INT(system_load_model(&c, &m, &e), 0);
	CHECK_EQ_INT(m.age_limit, 4000000000LL);	/* the command line won */
	CHECK_EQ_STR(m.prio_policy->name, "soft");

	bad_drive_setting("drive.nosuch = 1\n", NULL, "d.system:1: drive 'he8': unknown key");
	bad_drive_setting("# the limit\n\ndrive.age_limit = 0\n", NULL,
			  "d.system:3: drive 'he8': key 'age_limit'");
	bad_drive_setting("", "drive.rpm=fast", "option '--set': drive 'he8': key 'rpm'");
}

/* A tunable of the chosen scheduler as text ("500ms"). */
static void bad_set(const char *assignment, const char *want);

static const char *tunable(const struct host_config *c, const char *name)
{
	static char buf[64];
	const struct opt_def *o = c->k.scheduler->options ? opt_find(c->k.scheduler->options, name) : NULL;

	if (!o)
		return "(none)";
	opt_format(o, c->k.iosched.bytes, buf, sizeof(buf));
	return buf;
}

/*
 * queue/iosched/ tunables belong to the scheduler: each starts from its own
 * defaults, an assignment applies whatever the order of the lines, and one
 * the final scheduler lacks is refused where it was written.
 */
static void iosched_tunables(void)
{
	struct host_config c;
	struct err e;

	host_config_init(&c);
	CHECK(host_config_parse_system(&c, "queue/iosched/fifo_batch = 4\nqueue/scheduler = deadline\n",
				       "t.system", &e) == 0);
	CHECK_EQ_STR(tunable(&c, "fifo_batch"), "4");
	CHECK_EQ_STR(tunable(&c, "prio_aging_expire"), "(none)");
	CHECK(host_config_check(&c, &e) == 0);

	host_config_init(&c);
	/* 4.10's deadline (later kernels make "deadline" mq-deadline's alias). */
	CHECK(host_config_parse_system(&c, "queue/iosched/prio_aging_expire = 1s\n"
				       "queue/scheduler = deadline\nkernel = 4.10\n", "t.system", &e) == 0);
	CHECK(host_config_check(&c, &e) == -1);
	CHECK_EQ_STR(e.msg, "t.system:1: knob 'queue/iosched/prio_aging_expire': scheduler 'deadline' "
		     "has no such tunable (its tunables: read_expire, write_expire, writes_starved, "
		     "fifo_batch, front_merges)");
	/* Back to mq-deadline, which has it: applied. */
	CHECK(host_config_set(&c, "kernel=6.12", &e) == 0);
	CHECK(host_config_set(&c, "queue/scheduler=mq-deadline", &e) == 0);
	CHECK_EQ_STR(tunable(&c, "prio_aging_expire"), "1s");
	CHECK(host_config_check(&c, &e) == 0);

	host_config_init(&c);
	CHECK(host_config_set(&c, "queue/scheduler=none", &e) == 0);
	CHECK(host_config_set(&c, "queue/iosched/read_expire=100", &e) == 0);
	CHECK(host_config_check(&c, &e) == -1);
	CHECK_EQ_STR(e.msg, "option '--set': knob 'queue/iosched/read_expire': scheduler 'none' has "
		     "no such tunable (it has none)");
	bad_set("queue/iosched/slice_idle=0", "unknown knob 'queue/iosched/slice_idle'");
	bad_set("queue/iosched/read_expire=soon", "option '--set': knob 'queue/iosched/read_expire': expected a time");
}

static void bad_set(const char *assignment, const char *want)
{
	struct host_config c;
	struct err e = { "" };

	host_config_init(&c);
	CHECK_MSG(host_config_set(&c, assignment, &e) != 0, "'%s' accepted", assignment);
	CHECK_MSG(strstr(e.msg, want) != NULL, "'%s': message '%s' lacks '%s'", assignment,
		  e.msg, want);
}

static void bad_file(const char *text, const char *want)
{
	struct host_config c;
	struct err e = { "" };

	host_config_init(&c);
	CHECK_MSG(host_config_parse_system(&c, text, "s.system", &e) != 0, "'%s' accepted", text);
	CHECK_MSG(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
}

int main(void)
{
	struct host_config c;
	struct err e;

	iosched_tunables();
	host_config_init(&c);
	CHECK_EQ_INT(c.k.queue_depth, 32);
	CHECK_EQ_STR(c.k.scheduler->name, "mq-deadline");
	CHECK_EQ_STR(tunable(&c, "read_expire"), "500ms");
	CHECK_EQ_STR(tunable(&c, "write_expire"), "5s");
	CHECK_EQ_STR(tunable(&c, "prio_aging_expire"), "10s");
	CHECK_EQ_STR(tunable(&c, "fifo_batch"), "16");
	CHECK_EQ_STR(tunable(&c, "writes_starved"), "2");
	CHECK_EQ_STR(tunable(&c, "front_merges"), "1");
	CHECK(!c.k.ncq_prio_enable);
	CHECK_EQ_STR(c.drive, "he8");
	CHECK_EQ_INT(host_default_nr_requests(&c.k), 64);
	/* blk-mq sizes the pool from the host's 32 tags, not device/queue_depth. */
	c.k.queue_depth = 1;
	CHECK_EQ_INT(host_default_nr_requests(&c.k), 64);
	c.k.scheduler = host_scheduler("none");
	CHECK_EQ_INT(host_default_nr_requests(&c.k), 32);
	/* 4.10's legacy queue: BLKDEV_MAX_RQ whatever the scheduler. */
	c.k.kernel = HOST_KERNEL_4_10;
	c.k.scheduler = host_scheduler("deadline");
	CHECK_EQ_INT(host_default_nr_requests(&c.k), 128);

	host_config_init(&c);
	CHECK(host_config_set(&c, "device/ncq_prio_enable=1", &e) == 0);
	CHECK(c.k.ncq_prio_enable);
	CHECK(host_config_set(&c, "queue/iosched/read_expire=250", &e) == 0);
	CHECK_EQ_STR(tunable(&c, "read_expire"), "250ms");
	CHECK(host_config_set(&c, "queue/iosched/read_expire = 2s", &e) == 0);
	CHECK_EQ_STR(tunable(&c, "read_expire"), "2s");
	CHECK(host_config_set(&c, "/sys/block/sda/queue/scheduler=deadline", &e) == 0);
	CHECK_EQ_STR(c.k.scheduler->name, "deadline");
	/* The assignment is kept: it applies to the new scheduler too. */
	CHECK_EQ_STR(tunable(&c, "read_expire"), "2s");
	CHECK(host_config_check(&c, &e) == 0);
	CHECK(host_config_set(&c, "drive=desktop1t", &e) == 0);
	CHECK_EQ_STR(c.drive, "desktop1t");

	bad_set("device/ncq_prio_enabled=1", "unknown knob 'device/ncq_prio_enabled'");
	bad_set("device/queue_depth=33", "knob 'device/queue_depth': expected an integer 1..32, got '33'");
	bad_set("device/queue_depth=0", "expected an integer 1..32");
	bad_set("queue/scheduler=bfq", "knob 'queue/scheduler': expected one of none, deadline, mq-deadline, got 'bfq'");
	bad_set("device/ncq_prio_supported=1", "knob 'device/ncq_prio_supported' is read-only");
	bad_set("device/ncq_prio_enable", "expected KEY=VALUE");
	bad_set("device/ncq_prio_enable=yes please", "expected 0 or 1");
	bad_set("queue/iosched/fifo_batch=0", "fifo_batch");
	bad_set("queue/iosched/prio_aging_expire=-1", "prio_aging_expire");
	bad_set("drive=", "'drive'");

	/* System files: later lines win; the command line is applied after. */
	host_config_init(&c);
	CHECK(host_config_parse_system(&c, "# seed\ndrive = he8\nqueue/scheduler = deadline  # 4.10\n"
				       "\ndevice/queue_depth = 31\n", "seed.system", &e) == 0);
	CHECK_EQ_STR(c.k.scheduler->name, "deadline");
	CHECK_EQ_INT(c.k.queue_depth, 31);
	CHECK(host_config_set(&c, "device/queue_depth=8", &e) == 0);
	CHECK_EQ_INT(c.k.queue_depth, 8);

	bad_file("queue/scheduler = deadline\nqueue/schedular = none\n",
		 "s.system:2: unknown knob 'queue/schedular'");
	bad_file("device/queue_depth\n", "s.system:1: expected 'key = value'");
	bad_file("\n\ndevice/queue_depth = many\n", "s.system:3: knob 'device/queue_depth'");
	bad_file("queue/nr_requests = -4\n", "s.system:1: knob 'queue/nr_requests'");
	bad_file("drive = he8\x01\n", "s.system:1: unexpected byte 0x01");
	{
		char longline[1100];

		memset(longline, 'x', sizeof(longline) - 1);
		longline[sizeof(longline) - 1] = '\0';
		bad_file(longline, "s.system:1: line longer than 1023 characters");
	}
	drive_settings();
	bad_set("drive.=1", "expected drive.KEY = VALUE");
	return test_done();
}
